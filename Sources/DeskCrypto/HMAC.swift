@preconcurrency import COpenSSL

/// HMAC-SHA256 (RFC 2104) through OpenSSL's one-shot `HMAC`.
///
/// Thread-safe: every call uses its own context. Used where a value is too small for a plain
/// hash (a 6-digit SMS code has only a million values: its SHA-256 is reversed in a moment,
/// its HMAC under a server secret is not).
public enum HMAC {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func sha256(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let input = Array(message)
        let ok = key.withUnsafeBytes { keyBytes in
            input.withUnsafeBytes { data in
                output.withUnsafeMutableBufferPointer { out in
                    COpenSSL.HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, out.baseAddress, &length)
                        != nil
                }
            }
        }
        // Like EVP_Digest: fails only when OpenSSL cannot allocate; there is no sane recovery.
        if !ok || length != 32 { fatalError("OpenSSL HMAC-SHA256 failed") }
        return output
    }

    /// Lowercase hex HMAC-SHA256 of a string's UTF-8 bytes.
    public static func sha256Hex(key: [UInt8], _ text: String) -> String {
        Hex.encode(sha256(key: key, message: Array(text.utf8)))
    }
}

extension SecureRandom {
    /// A uniformly random number in `0..<upperBound` (rejection sampling over 4 random bytes:
    /// no modulo bias).
    public static func uniform(_ upperBound: UInt32) -> UInt32 {
        precondition(upperBound > 0)
        let limit = UInt32.max - UInt32.max % upperBound
        while true {
            let value = uint32()
            if value < limit { return value % upperBound }
        }
    }

    /// Four random bytes as a number.
    public static func uint32() -> UInt32 {
        bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
