import DeskCore
import DeskCrypto

/// One decoy password hash per set of hashing parameters, made once on first use (a process
/// normally has one set: the default; tests run desks with a cheaper one beside it).
///
/// Threading: any thread; a hash is made under the lock, so two first callers make it once.
final class DecoyHashes: @unchecked Sendable {
    private let lock = SimpleLock()
    private var made: [PasswordHasher: String] = [:]

    func hash(for hasher: PasswordHasher) -> String {
        lock.withLock {
            if let hash = made[hasher] { return hash }
            let hash =
                (try? hasher.hash(Base64.encodeURL(SecureRandom.bytes(24))))
                ?? "$scrypt$ln=\(hasher.logN),r=\(hasher.r),p=\(hasher.p)$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
            made[hasher] = hash
            return hash
        }
    }
}
