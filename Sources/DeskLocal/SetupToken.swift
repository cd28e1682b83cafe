import DeskCrypto
import Foundation

/// The one-time secret that makes the first admin of a server (issue 18): without it, whoever
/// reached the internal listener first on a fresh server became its admin.
///
/// `tracedesk serve` makes one at start while no account exists, prints it on stdout (never to
/// the log) and writes it to a file of mode 0600 beside the store; `POST /staff/v1/setup` must
/// carry it. It is used up by the first admin: the file is removed and no token matches any
/// more. A desk on the store itself needs none: whoever can write the store can make accounts.
///
/// Only the token's SHA-256 is kept in memory; compared in constant time.
/// Threading rule: any thread.
public final class SetupToken: @unchecked Sendable {
    /// The file the token was written to, if any.
    public let path: String?
    private let digest: [UInt8]
    private let lock = NSLock()
    private var usedUp = false

    /// A token with a known value (tests), written to nothing.
    public init(token: String) {
        path = nil
        digest = SHA256.digest(Array(token.utf8))
    }

    private init(token: String, path: String?) {
        self.path = path
        digest = SHA256.digest(Array(token.utf8))
    }

    /// A new random token, written to `path` (mode 0600, replacing a stale one) when given.
    /// Returns the token with its text, which the caller prints once.
    public static func make(writingTo path: String?) throws(SetupTokenError) -> (SetupToken, text: String) {
        let text = "tdsetup_" + Base64.encodeURL(SecureRandom.bytes(24))
        if let path { try write(text + "\n", to: path) }
        return (SetupToken(token: text, path: path), text)
    }

    /// Whether `candidate` is the token and it is not used up.
    public func matches(_ candidate: String) -> Bool {
        let same = ConstantTime.equal(SHA256.digest(Array(candidate.utf8)), digest)
        return lock.withLock { !usedUp } && same
    }

    /// The first admin was made: nothing matches from now on, and the file is removed.
    public func useUp() {
        lock.withLock { usedUp = true }
        if let path { unlink(path) }
    }

    /// Accounts exist already: a stale file from an earlier start is removed.
    public static func removeStale(at path: String) {
        unlink(path)
    }

    /// The file beside an SQLite store, or in the working folder for a PostgreSQL store.
    public static func defaultPath(store location: String) -> String {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            return "tracedesk-setup-token"
        }
        return location + ".setup-token"
    }

    /// Creates the file anew with mode 0600 from the start (never readable by others, not even
    /// for a moment), then writes the text.
    private static func write(_ text: String, to path: String) throws(SetupTokenError) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SetupTokenError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw SetupTokenError(path: path, reason: "a short write") }
    }
}

/// The setup-token file cannot be written.
public struct SetupTokenError: Error, Hashable, Sendable {
    public var path: String
    public var reason: String

    public var message: String {
        "cannot write the setup-token file \(path) (\(reason)): set setup_token_file to a folder you may write"
    }
}
