@preconcurrency import COpenSSL

/// Comparing secrets in time that does not depend on where two values differ, so that the time
/// of an answer does not tell how much of a guess was right (a session token's hash, an API
/// key's hash, an SMS code's HMAC, a password's derived key, the setup token's digest). One
/// implementation for every module: OpenSSL's `CRYPTO_memcmp`.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Lengths are not secret (the values compared have
    /// a fixed length): values of different lengths are unequal at once.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 }
        }
    }

    /// Whether two texts have the same UTF-8 bytes.
    public static func equal(_ a: String, _ b: String) -> Bool { equal(Array(a.utf8), Array(b.utf8)) }
}
