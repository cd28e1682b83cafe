import DeskCore

/// OTP test vectors from shared/reference/immuni-facts.md §1.3, shared by the OTP test files.
///
/// Each valid vector carries the facts' "sum mod 25" so the tests also confirm that the
/// check character is the alphabet symbol at that index.
enum OtpVectors {
    /// The 20 verified vectors (official app vectors, then backend tests) and the further ones.
    static let valid: [(code: String, remainder: Int)] = [
        ("9K2RAY8UUQ", 8), ("UQ776R9A7E", 1), ("Z6UI7HAFXQ", 8), ("4K51Q19235", 20),
        ("A6HHFALQK1", 16), ("7WRQXW27EK", 6), ("A23X28L7F5", 20), ("I4A7KRXJ43", 18),
        ("QL412K779W", 12), ("6IJ3E7A9QI", 4),
        ("XSZ4RAQ3KY", 14), ("X65FS597US", 10), ("S8SJ6UZRHQ", 8), ("8UZLUU8UW5", 20),
        ("Z86JQXHAW8", 23), ("HEQHQ7FYQZ", 15), ("JAS62UHE58", 23), ("FQ2YQE43LR", 9),
        ("87S8QWH1EE", 1), ("527AZ66UHX", 13),
        // Further valid vectors.
        ("KJ23IWY5UJ", 5), ("59FU36KR46", 96 % 25), ("AAAAAAAAAJ", 5), ("111111111I", 4),
        ("9999999991", 16), ("ZZZZZZZZZZ", 15), ("AEFHIJKLQ7", 22), ("RSUWXYZ122", 17),
        ("345678912L", 7),
    ]

    /// Wrong check character; `expected` is the right one where the facts name it.
    static let wrongCheckCharacter: [(code: String, expected: Character?)] = [
        ("6IJ3E7A9QE", "I"), ("9K2RAY8UUA", "Q"), ("KJ23IWY5UK", "J"), ("AEFHIJ1234", "W"),
        // Backend test list: check character replaced by the first character.
        ("UFKLYIZXLU", nil), ("3QW6EYRU53", nil), ("47F2JAKRF4", nil), ("F5YEH3128F", nil),
        ("QK7W33UU8Q", nil), ("8L4FQZ8UX8", nil), ("6EQSE6KW56", nil), ("XZ2LR2245X", nil),
        ("A6F3XQQ1YA", nil), ("HL2S4U3A6H", nil),
    ]

    /// Characters codes never contain, with the character and 1-based position to report.
    static let forbidden: [(code: String, character: Character, position: Int)] = [
        ("kj23iwy5uj", "k", 1), ("B6UI7HAFXQ", "B", 1), ("0K2RAY8UUQ", "0", 1),
        ("NEFHIJ1234", "N", 1), ("AEFHIJ123N", "N", 10), ("9K2RAY8UU0", "0", 10),
    ]

    /// Every near-miss with the error the strict validation must give.
    static var nearMisses: [(code: String, error: OtpError)] {
        wrongCheckCharacter.map { ($0.code, .checkCharacterMismatch) }
            + forbidden.map { ($0.code, .forbiddenCharacter($0.character, position: $0.position)) }
            + [("KJ23IWY5U", .tooShort(count: 9)), ("KJ23IWY5UJJ", .tooLong(count: 11))]
    }
}
