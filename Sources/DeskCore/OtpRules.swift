import DeskText

/// The rules of the Immuni OTP: alphabet, normalisation and the check character.
///
/// The check character is the Italian *codice fiscale* CIN scheme restricted to the 25-symbol
/// alphabet: odd positions (1-based) look up ``oddValues``, even positions ``evenValues``,
/// the sum of the first nine modulo 25 indexes the alphabet.
public enum OtpRules {
    /// Order matters: a symbol's index is its check value.
    public static let alphabet: [Character] = Array("AEFHIJKLQRSUWXYZ123456789")
    public static let length = 10

    /// Separators an operator may type; they are dropped.
    public static let separators: Set<Character> = [" ", "-", "\t", "."]

    /// The symbols as staff read them.
    public static let alphabetDescription = "A E F H I J K L Q R S U W X Y Z and 1-9"

    private static let alphabetIndex: [Character: Int] = {
        var map: [Character: Int] = [:]
        for (index, symbol) in alphabet.enumerated() { map[symbol] = index }
        return map
    }()

    // Tables from reference/immuni-facts.md §1.3, in alphabet order.
    static let oddValues: [Character: Int] = table([
        1, 9, 13, 17, 19, 21, 2, 4, 6, 8, 12, 16, 22, 25, 24, 23, 0, 5, 7, 9, 13, 15, 17, 19, 21,
    ])
    static let evenValues: [Character: Int] = table([
        0, 4, 5, 7, 8, 9, 10, 11, 16, 17, 18, 20, 22, 23, 24, 25, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ])

    private static func table(_ values: [Int]) -> [Character: Int] {
        var map: [Character: Int] = [:]
        for (symbol, value) in zip(alphabet, values) { map[symbol] = value }
        return map
    }

    /// True for a symbol of the alphabet (uppercase only).
    public static func isAlphabetSymbol(_ character: Character) -> Bool {
        alphabetIndex[character] != nil
    }

    /// What a typed character becomes: the symbol itself (uppercased), nil for a separator to
    /// drop, or an error naming the character when codes never contain it.
    public static func normalizeCharacter(_ character: Character, position: Int) throws(OtpError) -> Character? {
        if separators.contains(character) { return nil }
        let upper = Character(String(character).uppercased())
        guard isAlphabetSymbol(upper) else { throw .forbiddenCharacter(character, position: position) }
        return upper
    }

    /// Uppercases and drops separators; throws on the first character outside the alphabet.
    public static func normalize(_ text: String) throws(OtpError) -> String {
        var result = ""
        for character in text {
            if let symbol = try normalizeCharacter(character, position: result.count + 1) {
                result.append(symbol)
            }
        }
        return result
    }

    /// The check character for the first nine symbols; nil if `prefix` is not nine alphabet symbols.
    public static func checkCharacter(for prefix: some StringProtocol) -> Character? {
        guard prefix.count == 9 else { return nil }
        var sum = 0
        for (offset, symbol) in prefix.enumerated() {
            let table = offset % 2 == 0 ? oddValues : evenValues  // offset 0 is position 1 (odd)
            guard let value = table[symbol] else { return nil }
            sum += value
        }
        return alphabet[sum % 25]
    }

    /// Strict validation of an already normalised code.
    public static func validateStrict(_ text: String) throws(OtpError) {
        if text.isEmpty { throw .empty }
        for (offset, character) in text.enumerated() where !isAlphabetSymbol(character) {
            throw .forbiddenCharacter(character, position: offset + 1)
        }
        if text.count < length { throw .tooShort(count: text.count) }
        if text.count > length { throw .tooLong(count: text.count) }
        guard checkCharacter(for: text.prefix(9)) == text.last else { throw .checkCharacterMismatch }
    }

    /// Groups a (possibly partial) code 3-4-3: `9K2-RAY8-UUQ`, `9K2-RA`.
    public static func group(_ text: String, separator: Character = "-") -> String {
        var result = ""
        for (offset, character) in text.enumerated() {
            if offset == 3 || offset == 7 { result.append(separator) }
            result.append(character)
        }
        return result
    }

    /// How to name a character in a message, visible even when it is a space or a look-alike.
    static func describe(_ character: Character) -> String {
        switch character {
        case "0": return tr("console.authorize.otp.zero")
        case "O": return tr("console.authorize.otp.letterO")
        default:
            if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F {
                return tr("console.authorize.otp.control")
            }
            return "'\(character)'"
        }
    }
}
