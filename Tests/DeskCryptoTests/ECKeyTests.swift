import DeskCrypto
import DeskTestSupport
import Foundation
import Testing

/// Keys made by the `openssl` command-line tool, as PEM text.
private enum CLIKey {
    /// Runs `commands` in a temporary directory and returns the text of `file` afterwards.
    static func make(_ commands: [[String]], file: String = "key.pem") async throws -> String {
        try await withTemporaryDirectory { directory in
            for command in commands { try await Command.check(command, in: directory) }
            return try directory.appendingPathComponent(file).text()
        }
    }

    static let rsaPKCS8 = [
        ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "key.pem"]
    ]
    static let p256PKCS8 = [
        ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem"]
    ]
}

@Suite("ECDSA P-256 keys")
struct ECKeyTests {
    let message = Array("EK Export v1    the bytes of an export file".utf8)

    @Test func signDERVerifiesAndRejectsTampering() {
        let key = ECPrivateKey.generate()
        let signature = key.signDER(message)
        #expect((68...72).contains(signature.count))
        #expect(signature.first == 0x30)
        #expect(key.publicKey.verifyDER(signature: signature, message: message))

        var otherMessage = message
        otherMessage[0] ^= 1
        #expect(!key.publicKey.verifyDER(signature: signature, message: otherMessage))
        var otherSignature = signature
        otherSignature[otherSignature.count - 1] ^= 1
        #expect(!key.publicKey.verifyDER(signature: otherSignature, message: message))
        #expect(!ECPrivateKey.generate().publicKey.verifyDER(signature: signature, message: message))
        #expect(!key.publicKey.verifyDER(signature: [], message: message))
        #expect(!key.publicKey.verifyDER(signature: [0x30, 0x00], message: message))
    }

    @Test func signaturesAreRandomisedAndCoverTheEmptyMessage() {
        let key = ECPrivateKey.generate()
        #expect(key.signDER(message) != key.signDER(message))
        let empty = key.signDER([])
        #expect(key.publicKey.verifyDER(signature: empty, message: []))
        #expect(!key.publicKey.verifyDER(signature: empty, message: [0]))
    }

    @Test func joseFormIsRawRAndSAndConvertsToDER() throws {
        let key = ECPrivateKey.generate()
        for _ in 0..<20 {
            let raw = key.signJOSE(message)
            #expect(raw.count == 64)
            #expect(key.publicKey.verifyJOSE(signature: raw, message: message))
            let der = try #require(ECDSASignature.der(fromRaw: raw))
            #expect(key.publicKey.verifyDER(signature: der, message: message))
            #expect(ECDSASignature.raw(fromDER: der) == raw)
        }
        let raw = key.signJOSE(message)
        #expect(!key.publicKey.verifyJOSE(signature: Array(raw.dropLast()), message: message))
        #expect(!key.publicKey.verifyJOSE(signature: raw, message: Array(message.dropLast())))
        #expect(ECDSASignature.der(fromRaw: Array(repeating: 1, count: 63)) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x00]) == nil)
        // Trailing bytes after the DER sequence are refused.
        #expect(ECDSASignature.raw(fromDER: key.signDER(message) + [0]) == nil)
    }

    @Test func oneKeySignsFromManyTasksAtOnce() async {
        let key = ECPrivateKey.generate()
        let publicKey = key.publicKey
        let message = message
        let valid = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let text = message + [UInt8(index)]
                    return (0..<25).allSatisfy { _ in publicKey.verifyDER(signature: key.signDER(text), message: text) }
                }
            }
            var all = true
            for await result in group { all = all && result }
            return all
        }
        #expect(valid)
    }

    @Test func pkcs8PEMRoundTrips() throws {
        let key = ECPrivateKey.generate()
        let pem = key.pemPKCS8()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try ECPrivateKey(pem: pem)
        #expect(reloaded.pemPKCS8() == pem)
        #expect(reloaded.publicKeyPEM() == key.publicKeyPEM())
        #expect(key.publicKey.verifyDER(signature: reloaded.signDER(message), message: message))

        let publicPEM = key.publicKeyPEM()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let publicKey = try ECPublicKey(pem: publicPEM)
        #expect(publicKey.pem() == publicPEM)
        #expect(publicKey.verifyDER(signature: key.signDER(message), message: message))
        // CRLF line ends (a key pasted on another system) read the same.
        let crlf = try ECPrivateKey(pem: pem.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(crlf.publicKeyPEM() == publicPEM)
    }

    @Test(arguments: [
        ("SEC1 with EC PARAMETERS", ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-out", "key.pem"]),
        ("SEC1", ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "key.pem"]),
        ("PKCS#8", CLIKey.p256PKCS8[0]),
    ])
    func readsKeysMadeByOpenSSL(form: String, command: [String]) async throws {
        let pem = try await CLIKey.make([command])
        if form.hasPrefix("SEC1") { #expect(pem.contains("BEGIN EC PRIVATE KEY")) }
        if form.hasSuffix("EC PARAMETERS") { #expect(pem.contains("BEGIN EC PARAMETERS")) }
        let key = try ECPrivateKey(pem: pem)
        let expected = try await withTemporaryDirectory { directory in
            try directory.appendingPathComponent("key.pem").write(pem)
            return try await Command.check(["openssl", "pkey", "-in", "key.pem", "-pubout"], in: directory).text
        }
        #expect(key.publicKeyPEM() == expected)
    }

    @Test func opensslVerifiesOurSignaturesAndWeVerifyItsSignatures() async throws {
        let key = ECPrivateKey.generate()
        try await withTemporaryDirectory { directory in
            try directory.appendingPathComponent("message.bin").write(message)
            try directory.appendingPathComponent("public.pem").write(key.publicKeyPEM())
            try directory.appendingPathComponent("ours.der").write(key.signDER(message))
            let verified = try await Command.run(
                ["openssl", "dgst", "-sha256", "-verify", "public.pem", "-signature", "ours.der", "message.bin"],
                in: directory)
            #expect(verified.status == 0)
            #expect(verified.text.contains("Verified OK"))

            // A signature of other bytes is refused by openssl too: the check above is not vacuous.
            try directory.appendingPathComponent("other.der").write(key.signDER(Array("other".utf8)))
            let refused = try await Command.run(
                ["openssl", "dgst", "-sha256", "-verify", "public.pem", "-signature", "other.der", "message.bin"],
                in: directory)
            #expect(refused.status != 0)

            try directory.appendingPathComponent("key.pem").write(key.pemPKCS8())
            try await Command.check(
                ["openssl", "dgst", "-sha256", "-sign", "key.pem", "-out", "theirs.der", "message.bin"], in: directory)
            let theirs = try directory.appendingPathComponent("theirs.der").bytes()
            #expect(key.publicKey.verifyDER(signature: theirs, message: message))
        }
    }

    @Test func refusesAnRSAKeyInEitherForm() async throws {
        let pkcs8 = try await CLIKey.make(CLIKey.rsaPKCS8)
        let traditional = try await CLIKey.make(
            CLIKey.rsaPKCS8 + [["openssl", "pkey", "-in", "key.pem", "-traditional", "-out", "rsa.pem"]],
            file: "rsa.pem")
        #expect(traditional.contains("BEGIN RSA PRIVATE KEY"))
        for pem in [pkcs8, traditional] {
            let error = #expect(throws: CryptoError.self) { try ECPrivateKey(pem: pem) }
            #expect(error == .notP256(found: "an RSA key"))
            #expect(error?.message.contains("RSA") == true)
            #expect(error?.message.contains("P-256") == true)
        }
    }

    @Test(arguments: [
        ("an EC key on secp384r1", ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
        ("an ED25519 key", ["openssl", "genpkey", "-algorithm", "ED25519"]),
    ])
    func refusesOtherCurvesAndAlgorithms(found: String, command: [String]) async throws {
        let pem = try await CLIKey.make([command + ["-out", "key.pem"]])
        #expect(throws: CryptoError.notP256(found: found)) { try ECPrivateKey(pem: pem) }
    }

    @Test func refusesAnEncryptedKeyWithoutPrompting() async throws {
        let pem = try await CLIKey.make(
            CLIKey.p256PKCS8 + [
                ["openssl", "pkcs8", "-topk8", "-in", "key.pem", "-passout", "pass:secret", "-out", "encrypted.pem"]
            ], file: "encrypted.pem")
        #expect(pem.contains("BEGIN ENCRYPTED PRIVATE KEY"))
        let error = #expect(throws: CryptoError.self) { try ECPrivateKey(pem: pem) }
        #expect(error == .encryptedPrivateKey)
        #expect(error?.message.contains("decrypt") == true)
    }

    @Test func refusesGarbageWithClearMessages() throws {
        let body = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"
        let truncated = "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n"
        #expect(throws: CryptoError.notAPrivateKeyPEM) { try ECPrivateKey(pem: "") }
        #expect(throws: CryptoError.notAPrivateKeyPEM) { try ECPrivateKey(pem: "hello, world") }
        #expect(throws: CryptoError.notAPrivateKeyPEM) {
            try ECPrivateKey(pem: ECPrivateKey.generate().publicKeyPEM())
        }
        let error = #expect(throws: CryptoError.self) { try ECPrivateKey(pem: truncated) }
        #expect(error == .unreadablePrivateKey)
        // Messages describe the problem, never the material.
        #expect(error?.message.contains(body) == false)
        #expect(CryptoError.notAPrivateKeyPEM.message.contains("BEGIN PRIVATE KEY"))
        #expect(CryptoError.notAPrivateKeyPEM.message.contains("BEGIN EC PRIVATE KEY"))
    }

    @Test func publicKeyReaderRefusesOtherKeysAndGarbage() async throws {
        let rsaPublic = try await CLIKey.make(
            CLIKey.rsaPKCS8 + [["openssl", "pkey", "-in", "key.pem", "-pubout", "-out", "public.pem"]],
            file: "public.pem")
        #expect(throws: CryptoError.notP256(found: "an RSA key")) { try ECPublicKey(pem: rsaPublic) }
        #expect(throws: CryptoError.notAPublicKeyPEM) { try ECPublicKey(pem: "nothing here") }
        #expect(throws: CryptoError.notAPublicKeyPEM) { try ECPublicKey(pem: ECPrivateKey.generate().pemPKCS8()) }
        #expect(throws: CryptoError.unreadablePublicKey) {
            try ECPublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
    }

    @Test func descriptionsNeverShowKeyMaterial() {
        let key = ECPrivateKey.generate()
        #expect(String(describing: key) == "ECPrivateKey(P-256)")
        #expect(String(describing: key.publicKey) == "ECPublicKey(P-256)")
        #expect("\(key)".contains("BEGIN") == false)
    }
}

@Suite("Base64")
struct Base64Tests {
    @Test func rfc4648Vectors() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
            let url = encoded.replacingOccurrences(of: "=", with: "")
            #expect(Base64.encodeURL(Array(plain.utf8)) == url)
            #expect(Base64.decodeURL(url) == Array(plain.utf8))
        }
    }

    @Test func alphabetsDiffer() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64.encodeURL(bytes) == "-_-_")
        #expect(Base64.decode("-_-_") == nil)
        #expect(Base64.decodeURL("+/+/") == nil)
    }

    @Test func decodingIsStrict() {
        #expect(Base64.decode("Zg") == nil)  // padding missing
        #expect(Base64.decode("Zg=") == nil)
        #expect(Base64.decode("Z===") == nil)
        #expect(Base64.decode("Zh==") == nil)  // non-zero unused bits
        #expect(Base64.decode("Zm9v\n") == nil)
        #expect(Base64.decode(" Zm9v") == nil)
        #expect(Base64.decode("Zg==Zg==") == nil)
        #expect(Base64.decodeURL("Zg==") == nil)  // JWS segments carry no padding
        #expect(Base64.decodeURL("Z") == nil)
        #expect(Base64.decodeURL("Zh") == nil)
        #expect(Base64.decodeURL("Zm9v.") == nil)
    }
}
