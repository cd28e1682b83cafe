/// What a text field does with each typed character: keep, map, drop silently or refuse.
///
/// A data description rather than a closure, so field state stays `Hashable` and `Sendable`
/// and a screen test can compare whole states with `==`. Example: an OTP field that accepts
/// `9k2 ray8-uuq` as `9K2RAY8UUQ` is
/// `CharacterRule(uppercase: true, ignored: [" ", "-"], allowed: Set("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"))`.
public struct CharacterRule: Hashable, Sendable {
    /// Map lowercase letters to uppercase before checking `allowed`.
    public var uppercase: Bool
    /// Characters dropped without complaint (separators people type out of habit).
    public var ignored: Set<Character>
    /// The only characters kept (after mapping); nil keeps every printable character.
    public var allowed: Set<Character>?

    public init(uppercase: Bool = false, ignored: Set<Character> = [], allowed: Set<Character>? = nil) {
        self.uppercase = uppercase
        self.ignored = ignored
        self.allowed = allowed
    }

    /// Keeps everything as typed.
    public static let any = CharacterRule()
    /// ASCII digits only.
    public static let digits = CharacterRule(allowed: Set("0123456789"))

    /// The verdict on one typed character.
    public enum Outcome: Hashable, Sendable {
        /// Insert this (possibly mapped) character.
        case insert(Character)
        /// Drop it silently.
        case ignore
        /// Refuse it: the field reports it so the screen can say why.
        case reject
    }

    /// Decides what happens to `character`. Ignored characters are checked before and after
    /// mapping, so `ignored: ["-"]` works whatever the case option.
    public func apply(_ character: Character) -> Outcome {
        if ignored.contains(character) { return .ignore }
        let mapped: Character
        if uppercase, character.isLowercase {
            let upper = character.uppercased()
            mapped = upper.count == 1 ? Character(upper) : character
        } else {
            mapped = character
        }
        if ignored.contains(mapped) { return .ignore }
        if let allowed, !allowed.contains(mapped) { return .reject }
        return .insert(mapped)
    }
}
