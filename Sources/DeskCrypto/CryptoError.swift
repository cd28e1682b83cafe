import DeskText

/// Why key or certificate material could not be used. The message says what is wrong and what to
/// do; it never contains the material itself (no PEM text, no key bytes).
public enum CryptoError: Error, Hashable, Sendable {
    /// No `BEGIN PRIVATE KEY` or `BEGIN EC PRIVATE KEY` block in the text.
    case notAPrivateKeyPEM
    /// An `ENCRYPTED PRIVATE KEY` block: it needs a passphrase this code never asks for.
    case encryptedPrivateKey
    /// The PEM block is there but its content does not parse as a private key.
    case unreadablePrivateKey
    /// No `BEGIN PUBLIC KEY` block in the text.
    case notAPublicKeyPEM
    /// The PEM block is there but its content does not parse as a public key.
    case unreadablePublicKey
    /// A readable key that is not ECDSA P-256; `found` names what it is ("an RSA key",
    /// "an EC key on secp384r1").
    case notP256(found: String)
    /// No `BEGIN CERTIFICATE` block in the text.
    case noCertificates
    /// Certificate number `index` (1-based, in text order) does not parse.
    case unreadableCertificate(index: Int)
    /// A setting that cannot work, named with the reason ("apkCertificateDigestSha256 is empty").
    case invalidSetting(String)
    /// scrypt could not run (OpenSSL could not allocate its memory).
    case kdfFailed

    /// One sentence: what is wrong, then what to do.
    public var message: String {
        switch self {
        case .notAPrivateKeyPEM: return tr("messages.crypto.notAPrivateKeyPEM")
        case .encryptedPrivateKey: return tr("messages.crypto.encryptedPrivateKey")
        case .unreadablePrivateKey: return tr("messages.crypto.unreadablePrivateKey")
        case .notAPublicKeyPEM: return tr("messages.crypto.notAPublicKeyPEM")
        case .unreadablePublicKey: return tr("messages.crypto.unreadablePublicKey")
        case .kdfFailed: return tr("messages.crypto.kdfFailed")
        case .notP256(let found): return tr("messages.crypto.notP256", ["found": found])
        case .noCertificates: return tr("messages.crypto.noCertificates")
        case .unreadableCertificate(let index):
            return tr("messages.crypto.unreadableCertificate", ["index": String(index)])
        case .invalidSetting(let reason): return tr("messages.crypto.invalidSetting", ["reason": reason])
        }
    }
}
