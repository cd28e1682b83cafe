import DeskCore

/// The API keys of HIS clients: 32 random bytes, base64url, prefixed so a leaked one is
/// recognisable (`tdh_…`, as session tokens are `tds_…`). Shown once when the client is added;
/// the store keeps only the SHA-256. The key is high-entropy, so a plain hash is enough: nobody
/// can guess a key from its hash, and no KDF has to slow every authorisation down.
public enum HISKey {
    public static let prefix = "tdh_"

    public static func make() -> String { prefix + Base64.encodeURL(SecureRandom.bytes(32)) }

    /// Lowercase hex SHA-256 of the key: the only form a store keeps.
    public static func hash(_ key: String) -> String { SHA256.hex(key) }

    /// Whether `text` has a key's shape (before anything is looked up or hashed).
    public static func looksValid(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == 47
            && text.utf8.dropFirst(4).allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
                    || $0 == 0x5F
            }
    }

    /// Whether `key` hashes to `storedHash`, compared in constant time (the time taken does not
    /// tell how many leading digits matched).
    public static func matches(_ key: String, storedHash: String) -> Bool {
        ConstantTime.equal(hash(key), storedHash)
    }
}
