import DeskCore
import Testing

/// `Otp`'s two doors: strict (the HTTP API) and forgiving (an operator typing), and what its
/// errors say.
@Suite struct OtpTests {
    @Test("every valid vector is accepted by the strict form", arguments: OtpVectors.valid.map(\.code))
    func validVector(code: String) throws {
        let otp = try Otp(validating: code)
        #expect(otp.characters == code)
    }

    @Test(
        "every valid vector is accepted from operator input, lowercase and grouped too",
        arguments: OtpVectors.valid.map(\.code))
    func validVectorFromOperator(code: String) throws {
        for typed in [code, code.lowercased(), OtpRules.group(code), OtpRules.group(code, separator: " ").lowercased()]
        {
            #expect(try Otp(operatorInput: typed).characters == code, "typed as \(typed)")
        }
    }

    @Test("every near-miss is refused by the strict form with the right error", arguments: OtpVectors.nearMisses)
    func nearMiss(code: String, error: OtpError) {
        #expect(throws: error) { try Otp(validating: code) }
    }

    @Test(
        "the strict form refuses what an operator may type",
        arguments: ["9k2ray8uuq", "9K2-RAY8-UUQ", "9K2 RAY8 UUQ", " 9K2RAY8UUQ", "9K2RAY8UUQ\n"])
    func strictRefusesOperatorForms(text: String) {
        #expect(throws: OtpError.self) { try Otp(validating: text) }
    }

    @Test(
        "strict errors name the first foreign character and its position",
        arguments: [
            ("9K2-RAY8-UUQ", Character("-"), 4),
            (" 9K2RAY8UUQ", Character(" "), 1),
            ("9K2RAY8UUQ\n", Character("\n"), 11),
        ])
    func strictForbiddenPosition(text: String, character: Character, position: Int) {
        #expect(throws: OtpError.forbiddenCharacter(character, position: position)) { try Otp(validating: text) }
    }

    @Test("lowercase is refused by the strict form at the first lowercase letter")
    func strictLowercase() {
        #expect(throws: OtpError.forbiddenCharacter("k", position: 2)) { try Otp(validating: "9k2ray8uuq") }
    }

    @Test(
        "operator input with the same near-miss still fails, with the same error",
        arguments: OtpVectors.nearMisses.filter { $0.code != "kj23iwy5uj" })
    func nearMissFromOperator(code: String, error: OtpError) {
        #expect(throws: error) { try Otp(operatorInput: code) }
    }

    @Test(
        "length errors come after the character check, and empty input is its own case",
        arguments: [
            ("", OtpError.empty), ("   ", .empty), ("-", .empty), ("9", .tooShort(count: 1)),
            ("9K2-RAY8-UU", .tooShort(count: 9)), ("9K2-RAY8-UUQQ", .tooLong(count: 11)),
            ("9K2-RAY8-UUQ-9K2", .tooLong(count: 13)), ("9K2-BAY8", .forbiddenCharacter("B", position: 4)),
        ])
    func operatorLengths(text: String, error: OtpError) {
        #expect(throws: error) { try Otp(operatorInput: text) }
    }

    @Test(
        "no error message contains the code that was typed",
        arguments: OtpVectors.nearMisses.map(\.code) + ["9K2-RAY8-UUA", "9k2 ray8 uua", "KJ23IWY5UJJJ"])
    func messagesNeverEchoTheCode(code: String) throws {
        // The strict form refuses every one; the forgiving form accepts only a lowercase valid
        // code (kj23iwy5uj), which is fine: then there is no message to check.
        let strict = try #require(
            Self.failure { () throws(OtpError) in try Otp(validating: code) }, "\(code) was accepted")
        let forgiving = Self.failure { () throws(OtpError) in try Otp(operatorInput: code) }
        for error in [strict] + (forgiving.map { [$0] } ?? []) {
            #expect(!error.message.isEmpty)
            #expect(!error.message.uppercased().contains(code.uppercased()), "message: \(error.message)")
        }
    }

    private static func failure(_ attempt: () throws(OtpError) -> Otp) -> OtpError? {
        do {
            _ = try attempt()
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "messages say what to do next and make look-alikes visible",
        arguments: [
            (OtpError.empty, "type the 10 characters"),
            (.forbiddenCharacter("0", position: 1), "'0' (zero) at position 1"),
            (.forbiddenCharacter("O", position: 7), "'O' (letter O) at position 7"),
            (.forbiddenCharacter("\u{7}", position: 3), "a control character at position 3"),
            (.forbiddenCharacter("B", position: 10), "'B' at position 10"),
            (.tooShort(count: 1), "has 1 character, it needs 10"),
            (.tooShort(count: 9), "has 9 characters, it needs 10"),
            (.tooLong(count: 11), "has 11 characters, it needs 10"),
            (.checkCharacterMismatch, "read the code again"),
        ])
    func messages(error: OtpError, fragment: String) {
        #expect(error.message.contains(fragment), "message: \(error.message)")
    }

    @Test("hashing a code gives the lowercase SHA-256 hex the apps send")
    func hash() throws {
        // Full value from `printf %s 9K2RAY8UUQ | sha256sum`; facts §1.4 quotes b39e0733…dd94.
        let expected = "b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94"
        let otp = try Otp(validating: "9K2RAY8UUQ")
        #expect(otp.hash.hex == expected)
        #expect(try Otp(operatorInput: "9k2-ray8-uuq").hash == otp.hash, "typing style does not change the hash")
        #expect(otp.hash.hex.hasPrefix("b39e0733") && otp.hash.hex.hasSuffix("dd94"))
    }

    @Test("different codes hash differently", arguments: [OtpVectors.valid.map(\.code)])
    func hashesDistinct(codes: [String]) throws {
        let hashes = try Set(codes.map { try Otp(validating: $0).hash })
        #expect(hashes.count == codes.count)
    }
}
