import DeskText

/// The 10-character one-time code a citizen's Immuni app shows and reads out to an operator.
///
/// Nine random characters from a 25-symbol alphabet plus a check character (see
/// ``OtpRules``). An `Otp` value is always valid: the only way to make one is
/// ``Otp/init(validating:)`` or ``Otp/init(operatorInput:)``.
///
/// Privacy rule: an `Otp` is never stored, logged or put in an error message. Only its
/// SHA-256 hash (``OtpHash``) is ever written anywhere.
public struct Otp: Hashable, Sendable {
    /// The 10 uppercase characters, no separators.
    public let characters: String

    /// Strict form, as the HTTP API takes it: exactly 10 characters of the alphabet, uppercase,
    /// with a matching check character.
    public init(validating text: String) throws(OtpError) {
        try OtpRules.validateStrict(text)
        characters = text
    }

    /// Forgiving form, as an operator types it: lowercase, spaces and dashes (the apps' 3-4-3
    /// grouping) are accepted and normalised.
    public init(operatorInput text: String) throws(OtpError) {
        let normalized = try OtpRules.normalize(text)
        try OtpRules.validateStrict(normalized)
        characters = normalized
    }

    /// The code grouped 3-4-3 as the Android app shows it: `9K2-RAY8-UUQ`.
    public var grouped: String { OtpRules.group(characters) }
}

/// Why a code is not a valid OTP. Messages are for the operator and say what to do next;
/// they name at most one character the operator typed, never the whole code.
public enum OtpError: Error, Hashable, Sendable {
    case empty
    /// A character that codes never contain; `position` is 1-based in the normalised code.
    case forbiddenCharacter(Character, position: Int)
    case tooShort(count: Int)
    case tooLong(count: Int)
    case checkCharacterMismatch

    /// In the current language (the console's, the command line's, a staff client's).
    public var message: String {
        switch self {
        case .empty: return tr("console.authorize.otp.empty")
        case .forbiddenCharacter(let character, let position):
            return tr(
                "console.authorize.otp.forbidden",
                ["character": OtpRules.describe(character), "position": String(position)])
        case .tooShort(let count): return trCount("console.authorize.otp.tooShort", count)
        case .tooLong(let count): return trCount("console.authorize.otp.tooLong", count)
        case .checkCharacterMismatch: return tr("console.authorize.otp.mismatch")
        }
    }
}
