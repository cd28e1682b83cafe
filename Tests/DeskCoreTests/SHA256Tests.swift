import DeskCore
import DeskCrypto
import Testing

/// SHA-256 through OpenSSL, hex encoding, and the `OtpHash` value the stores key on.
@Suite struct SHA256Tests {
    @Test(
        "known digests (FIPS 180-2 examples and the facts' OTP hash)",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            ("9K2RAY8UUQ", "b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94"),
        ])
    func knownDigest(text: String, hex: String) {
        #expect(SHA256.hex(text) == hex)
    }

    @Test("a digest is 32 bytes, whatever the input size", arguments: [0, 1, 55, 56, 64, 1000, 100_000])
    func digestLength(size: Int) {
        #expect(SHA256.digest([UInt8](repeating: 0x61, count: size)).count == 32)
    }

    @Test("one million 'a' (FIPS 180-2 long message)")
    func millionA() {
        #expect(
            Hex.encode(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "hex is lowercase, two digits a byte",
        arguments: [
            ([UInt8](), ""), ([0x00], "00"), ([0x0F, 0xF0], "0ff0"), ([0xAB, 0xCD, 0xEF, 0x01], "abcdef01"),
        ])
    func hex(bytes: [UInt8], expected: String) {
        #expect(Hex.encode(bytes) == expected)
    }

    @Test(
        "OtpHash accepts exactly 64 lowercase hex characters",
        arguments: [
            String(repeating: "0", count: 64),
            "b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94",
            String(repeating: "0123456789abcdef", count: 4),
        ])
    func otpHashAccepts(hex: String) throws {
        let hash = try #require(OtpHash(hex: hex))
        #expect(hash.hex == hex)
    }

    @Test(
        "OtpHash refuses anything else",
        arguments: [
            "", "b39e0733",
            "B39E0733843B1B5D7C558F52F117A824DC41216E0C2BB671B3D79BA82105DD94",  // uppercase
            "B39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94",  // one uppercase
            String(repeating: "0", count: 63), String(repeating: "0", count: 65),
            String(repeating: "0", count: 63) + "g", String(repeating: "0", count: 63) + " ",
            " " + String(repeating: "0", count: 63), String(repeating: "0", count: 62) + "é",
            String(repeating: "0", count: 63) + "é", "9K2RAY8UUQ",
        ])
    func otpHashRefuses(hex: String) {
        #expect(OtpHash(hex: hex) == nil)
    }

    @Test("an OtpHash shows only a short tag when printed")
    func shortTag() throws {
        let hash = try #require(OtpHash(hex: SHA256.hex("9K2RAY8UUQ")))
        #expect(hash.shortTag == "b39e07…")
        #expect("\(hash)" == "b39e07…", "interpolation must not print the whole hash")
    }
}
