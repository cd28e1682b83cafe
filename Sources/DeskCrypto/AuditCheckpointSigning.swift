import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ECPublicKey {
    /// A short name of the key: the first 16 hex digits of the SHA-256 of its DER
    /// SubjectPublicKeyInfo (as `openssl pkey -pubin -outform DER | sha256sum` shows). Written in
    /// every checkpoint, so a verifier given the wrong public key is told so instead of seeing
    /// every signature fail.
    public var keyID: String {
        guard let der = OpenSSL.spkiDER(box.pointer) else { fatalError("OpenSSL cannot export a public key") }
        return String(Hex.encode(SHA256.digest(der)).prefix(16))
    }
}

extension AuditCheckpoint {
    /// A checkpoint of a chain of `entries` entries, signed with the audit key.
    public static func signed(
        entries: Int64, headHash: String, firstHash: String, at: Date, key: ECPrivateKey
    ) -> AuditCheckpoint {
        var checkpoint = AuditCheckpoint(
            entries: entries, headHash: headHash, firstHash: firstHash, at: at, keyID: key.publicKey.keyID,
            signature: "")
        checkpoint.signature = Base64.encode(key.signDER(checkpoint.signedBytes))
        return checkpoint
    }

    /// Whether the signature is `key`'s over ``signedBytes``.
    public func signatureVerifies(with key: ECPublicKey) -> Bool {
        guard let der = Base64.decode(signature) else { return false }
        return key.verifyDER(signature: der, message: signedBytes)
    }

    /// One line of a checkpoint file, read and checked against `key` (see
    /// ``AuditCheckpointLine/State``).
    public static func read(line text: String, number: Int, key: ECPublicKey) -> AuditCheckpointLine {
        switch parse(text) {
        case .failure(let problem): return AuditCheckpointLine(number: number, state: .unreadable(problem))
        case .success(let checkpoint):
            if checkpoint.keyID != key.keyID {
                return AuditCheckpointLine(number: number, state: .otherKey(checkpoint))
            }
            return AuditCheckpointLine(
                number: number,
                state: checkpoint.signatureVerifies(with: key) ? .signed(checkpoint) : .badSignature(checkpoint))
        }
    }

    /// Every line of a checkpoint file's text (empty lines skipped, numbers as an editor shows).
    public static func read(file text: String, key: ECPublicKey) -> [AuditCheckpointLine] {
        var out: [AuditCheckpointLine] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.isEmpty { continue }
            out.append(read(line: String(trimmed), number: index + 1, key: key))
        }
        return out
    }
}
