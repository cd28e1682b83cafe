@preconcurrency import COpenSSL
import DeskCore
import DeskText

/// Cryptographically secure random bytes (OpenSSL's DRBG).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) == 1 }
        // RAND_bytes fails only when the system cannot seed it: nothing sensible can continue.
        if !ok { fatalError("OpenSSL RAND_bytes failed: the system's random source is unavailable") }
        return out
    }
}

/// Password hashing with scrypt (RFC 7914) through OpenSSL's `EVP_PBE_scrypt`.
///
/// Stored as a PHC-style string that carries its parameters, so they can be raised later and
/// old hashes still verify (and are rehashed at the next sign-in):
/// `$scrypt$ln=15,r=8,p=1$<salt, base64url>$<32-byte key, base64url>`.
/// N = 2^ln. Memory per hash is 128·N·r bytes: 32 MiB at the defaults.
public struct PasswordHasher: Hashable, Sendable {
    /// log2 of scrypt's cost N.
    public var logN: Int
    /// Block size.
    public var r: Int
    /// Parallelism.
    public var p: Int

    public static let saltBytes = 16
    public static let keyBytes = 32

    /// The defaults: N = 2^15, r = 8, p = 1 (about 32 MiB and 50–250 ms per hash on a server
    /// core; measured in docs/benchmarks.md).
    public init(logN: Int = 15, r: Int = 8, p: Int = 1) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// The stored form of `password` with a fresh random salt. Throws when OpenSSL refuses the
    /// work (it cannot allocate scrypt's memory): nothing that cannot verify is ever returned.
    public func hash(_ password: String) throws(CryptoError) -> String {
        let salt = SecureRandom.bytes(Self.saltBytes)
        guard let key = Self.derive(password, salt: salt, logN: logN, r: r, p: p, length: Self.keyBytes) else {
            throw .kdfFailed
        }
        return "$scrypt$ln=\(logN),r=\(r),p=\(p)$\(Base64.encodeURL(salt))$\(Base64.encodeURL(key))"
    }

    /// Whether `password` matches `stored` (compared in constant time). False for a stored string
    /// that cannot be read.
    public static func verify(_ password: String, against stored: String) -> Bool {
        guard let parsed = Parsed(stored),
            let key = derive(
                password, salt: parsed.salt, logN: parsed.logN, r: parsed.r, p: parsed.p, length: parsed.key.count),
            key.count == parsed.key.count
        else { return false }
        return ConstantTime.equal(key, parsed.key)
    }

    /// Whether `stored` was made with weaker parameters than these (then rehash after a sign-in).
    public func isWeaker(_ stored: String) -> Bool {
        guard let parsed = Parsed(stored) else { return true }
        return parsed.logN < logN || parsed.r < r || parsed.p < p || parsed.key.count < Self.keyBytes
    }

    /// Whether `stored` is a hash this type can read.
    public static func isReadable(_ stored: String) -> Bool { Parsed(stored) != nil }

    /// The parameters, for `--json` output (English whatever the language, like every wire
    /// format): "scrypt N=2^15 r=8 p=1, 16-byte salt, 32-byte key".
    public var summary: String {
        "scrypt N=2^\(logN) r=\(r) p=\(p), \(Self.saltBytes)-byte salt, \(Self.keyBytes)-byte key"
    }

    /// The parameters as a person reads them (`bench staff`), in the run's language.
    public var shownSummary: String {
        tr(
            "messages.crypto.kdfSummary",
            [
                "logN": String(logN), "r": String(r), "p": String(p), "salt": String(Self.saltBytes),
                "key": String(Self.keyBytes),
            ])
    }

    private struct Parsed {
        var logN: Int, r: Int, p: Int
        var salt: [UInt8], key: [UInt8]

        init?(_ text: String) {
            let parts = text.split(separator: "$", omittingEmptySubsequences: false)
            guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
            var values: [String: Int] = [:]
            for item in parts[2].split(separator: ",") {
                let pair = item.split(separator: "=")
                guard pair.count == 2, let value = Int(pair[1]) else { return nil }
                values[String(pair[0])] = value
            }
            guard let logN = values["ln"], let r = values["r"], let p = values["p"],
                (1...30).contains(logN), (1...64).contains(r), (1...16).contains(p),
                let salt = Base64.decodeURL(String(parts[3])), let key = Base64.decodeURL(String(parts[4])),
                !salt.isEmpty, (16...64).contains(key.count)
            else { return nil }
            self.logN = logN
            self.r = r
            self.p = p
            self.salt = salt
            self.key = key
        }
    }

    private static func derive(
        _ password: String, salt: [UInt8], logN: Int, r: Int, p: Int, length: Int
    ) -> [UInt8]? {
        // A trailing NUL keeps the buffer non-empty (a valid pointer); the length excludes it.
        let secret = password.utf8.map { CChar(bitPattern: $0) } + [0]
        var key = [UInt8](repeating: 0, count: length)
        let n = UInt64(1) << UInt64(logN)
        // Room for scrypt's V array (128·N·r) and its B buffer (128·r·p), with slack.
        let maxMemory = UInt64(128) * n * UInt64(r) + UInt64(128 * r * p) + (1 << 20)
        let ok = secret.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { saltBytes in
                key.withUnsafeMutableBufferPointer { out in
                    EVP_PBE_scrypt(
                        pass.baseAddress, pass.count - 1, saltBytes.baseAddress, saltBytes.count, n, UInt64(r),
                        UInt64(p), maxMemory,
                        out.baseAddress, out.count) == 1
                }
            }
        }
        return ok ? key : nil
    }
}

/// Session tokens: 32 random bytes, base64url, prefixed so a leaked one is recognisable
/// (`tds_…`). Stored only as their SHA-256.
public enum SessionToken {
    public static func make() -> String { "tds_" + Base64.encodeURL(SecureRandom.bytes(32)) }

    /// Lowercase hex SHA-256 of the token: the only form a store keeps.
    public static func hash(_ token: String) -> String { SHA256.hex(token) }

    /// Whether `text` has a token's shape (before it is looked up).
    public static func looksValid(_ text: String) -> Bool {
        text.hasPrefix("tds_") && text.utf8.count == 47
            && text.utf8.dropFirst(4).allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
                    || $0 == 0x5F
            }
    }
}

/// The audit log's hash chain.
public enum AuditChain {
    /// The previous hash of the first entry.
    public static let genesis = String(repeating: "0", count: 64)

    /// The hash an entry with these fields must carry.
    public static func hash(
        id: Int64, atMilliseconds: Int64, actor: String, action: String, target: String?, detail: String,
        previousHash: String
    ) -> String {
        Hex.encode(
            SHA256.digest(
                AuditEntry.canonicalBytes(
                    id: id, atMilliseconds: atMilliseconds, actor: actor, action: action, target: target,
                    detail: detail, previousHash: previousHash)))
    }

    /// Checks `entries` (oldest first) continuing a chain whose last entry so far was
    /// `previous` (nil at the start). Returns the first entry that breaks it, and why.
    public static func check(_ entries: [AuditEntry], after previous: (id: Int64, hash: String)?) -> AuditBreak? {
        var last = previous ?? (id: 0, hash: genesis)
        for entry in entries {
            if entry.id != last.id + 1 {
                return entry.id > last.id + 1
                    ? .missing(id: entry.id, from: last.id + 1, to: entry.id - 1)
                    : .outOfOrder(id: entry.id, after: last.id)
            }
            if entry.previousHash != last.hash {
                return entry.id == 1 ? .firstNotStart(id: entry.id) : .previousMismatch(id: entry.id, previous: last.id)
            }
            let expected = hash(
                id: entry.id, atMilliseconds: entry.at.unixMilliseconds, actor: entry.actor,
                action: entry.action.rawValue, target: entry.target, detail: entry.detail,
                previousHash: entry.previousHash)
            if expected != entry.hash {
                return .contentsMismatch(id: entry.id)
            }
            last = (id: entry.id, hash: entry.hash)
        }
        return nil
    }
}
