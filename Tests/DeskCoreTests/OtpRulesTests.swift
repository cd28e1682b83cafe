import DeskCore
import Testing

/// The check-character scheme, normalisation and grouping (facts §1.3, rules "OTP").
@Suite struct OtpRulesTests {
    @Test("check character of every valid vector is its 10th character", arguments: OtpVectors.valid)
    func checkCharacterOfValidVector(code: String, remainder: Int) {
        let check = OtpRules.checkCharacter(for: code.prefix(9))
        #expect(check == code.last, "check character for \(code.prefix(9))")
        #expect(check == OtpRules.alphabet[remainder], "sum mod 25 is \(remainder) per the facts")
    }

    @Test(
        "check character names the expected symbol for the near-misses the facts spell out",
        arguments: OtpVectors.wrongCheckCharacter.filter { $0.expected != nil })
    func checkCharacterOfNearMiss(code: String, expected: Character?) {
        #expect(OtpRules.checkCharacter(for: code.prefix(9)) == expected)
    }

    @Test(
        "check character refuses prefixes that are not nine alphabet symbols",
        arguments: ["", "KJ23IWY5", "KJ23IWY5UJ", "kj23iwy5u", "0J23IWY5U", "KJ23-WY5U", "KJ23IWY5B"])
    func checkCharacterOfBadPrefix(prefix: String) {
        #expect(OtpRules.checkCharacter(for: prefix) == nil)
    }

    @Test("the alphabet is the facts' 25 symbols in check-value order")
    func alphabet() {
        #expect(String(OtpRules.alphabet) == "AEFHIJKLQRSUWXYZ123456789")
        #expect(OtpRules.length == 10)
        for excluded in "0BCDGMNOPTV" {
            #expect(!OtpRules.isAlphabetSymbol(excluded), "\(excluded) is confusable and excluded")
        }
        #expect(!OtpRules.isAlphabetSymbol("a"), "lowercase is not an alphabet symbol")
    }

    @Test("swapping two characters of the same parity is not caught; an adjacent swap is")
    func transpositions() throws {
        // Given KJ23IWY5UJ, with K (position 1) and 2 (position 3) both odd.
        // When they are swapped, the sum is unchanged; when K and J (1 and 2) are, it is not.
        #expect(OtpRules.checkCharacter(for: "2JK3IWY5U") == "J")
        #expect(throws: Never.self) { try Otp(validating: "2JK3IWY5UJ") }
        #expect(throws: OtpError.checkCharacterMismatch) { try Otp(validating: "K2J3IWY5UJ") }
    }

    @Test(
        "operator input is uppercased and separators dropped",
        arguments: [
            "9k2-ray8-uuq", "9K2 RAY8 UUQ", "9k2ray8uuq", "9K2-RAY-8UUQ", "9K2RAY8UUQ",
            "  9K2 - RAY8 - UUQ  ", "9k2.ray8.uuq", "9K2\tRAY8\tUUQ",
        ])
    func normalize(input: String) throws {
        #expect(try OtpRules.normalize(input) == "9K2RAY8UUQ")
    }

    @Test(
        "normalisation reports the first foreign character with its position in the normalised code",
        arguments: [
            ("9k2-bay8-uuq", Character("b"), 4),
            ("9K2 RAY8 UU0", Character("0"), 10),
            ("O", Character("O"), 1),
            ("9K2_RAY8", Character("_"), 4),
            ("9K2/RAY8", Character("/"), 4),
            ("9K2\nRAY8", Character("\n"), 4),
            ("9K2RAY8UUQé", Character("é"), 11),
        ])
    func normalizeForbidden(input: String, character: Character, position: Int) {
        #expect(throws: OtpError.forbiddenCharacter(character, position: position)) {
            try OtpRules.normalize(input)
        }
    }

    @Test(
        "normalisation keeps partial codes, so the console can check as the operator types",
        arguments: [("", ""), ("9k", "9K"), ("9k2-r", "9K2R"), ("---", "")])
    func normalizePartial(input: String, expected: String) throws {
        #expect(try OtpRules.normalize(input) == expected)
    }

    @Test(
        "grouping is 3-4-3 like the Android app, and works on partial codes",
        arguments: [
            ("9K2RAY8UUQ", "9K2-RAY8-UUQ"), ("", ""), ("9", "9"), ("9K2", "9K2"), ("9K2R", "9K2-R"),
            ("9K2RAY8", "9K2-RAY8"), ("9K2RAY8U", "9K2-RAY8-U"), ("KJ23IWY5UJ", "KJ2-3IWY-5UJ"),
        ])
    func group(code: String, expected: String) {
        #expect(OtpRules.group(code) == expected)
    }

    @Test("grouping takes another separator, and a grouped code normalises back")
    func groupSeparator() throws {
        #expect(OtpRules.group("9K2RAY8UUQ", separator: " ") == "9K2 RAY8 UUQ")
        #expect(try OtpRules.normalize(OtpRules.group("9K2RAY8UUQ")) == "9K2RAY8UUQ")
        #expect(try Otp(validating: "9K2RAY8UUQ").grouped == "9K2-RAY8-UUQ")
    }
}
