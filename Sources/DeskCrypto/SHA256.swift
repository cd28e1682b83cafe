@preconcurrency import COpenSSL
import DeskCore

/// SHA-256 through OpenSSL's EVP interface.
///
/// Thread-safe: every call uses its own context.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        let input = Array(bytes)
        let ok = input.withUnsafeBytes { raw in
            output.withUnsafeMutableBufferPointer { out -> Bool in
                var length: UInt32 = 0
                return EVP_Digest(raw.baseAddress, raw.count, out.baseAddress, &length, EVP_sha256(), nil) == 1
                    && length == 32
            }
        }
        // EVP_Digest with SHA-256 only fails on allocation failure; there is no sane recovery.
        if !ok { fatalError("OpenSSL SHA-256 failed") }
        return output
    }

    /// Lowercase hex digest of a string's UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        Hex.encode(digest(Array(text.utf8)))
    }
}

/// Lowercase hexadecimal.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of an even number of hexadecimal digits (either case), or nil when `text` has
    /// anything else in it.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var high: UInt8?
        for c in text {
            guard let digit = value(c) else { return nil }
            if let h = high {
                out.append(h << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return out
    }
}

extension Otp {
    /// The SHA-256 of the code (lowercase hex of the UTF-8 bytes of the 10 uppercase characters):
    /// what the apps send as bearer token and the only form the store keeps.
    public var hash: OtpHash {
        // A SHA-256 hex digest is always 64 lowercase hex characters.
        OtpHash(hex: SHA256.hex(characters))!
    }
}
