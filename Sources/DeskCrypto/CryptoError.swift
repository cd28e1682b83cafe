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
        case .notAPrivateKeyPEM:
            return "No PEM private key found: expected a \"BEGIN PRIVATE KEY\" (PKCS#8) or \"BEGIN EC PRIVATE KEY\" "
                + "(SEC1) block; export the P-256 key in one of these forms."
        case .encryptedPrivateKey:
            return "The private key is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN) "
                + "and keep the plain file readable only by the service."
        case .unreadablePrivateKey:
            return "The private key block does not parse; check that the file is complete and was not edited."
        case .notAPublicKeyPEM:
            return "No PEM public key found: expected a \"BEGIN PUBLIC KEY\" block "
                + "(openssl pkey -in KEY -pubout prints one)."
        case .unreadablePublicKey:
            return "The public key block does not parse; check that the file is complete and was not edited."
        case .kdfFailed:
            return "The password could not be hashed: the system refused scrypt's 32 MiB; try again in a moment."
        case .notP256(let found):
            return "The key is \(found), but ECDSA P-256 (prime256v1) is required; generate one with "
                + "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256."
        case .noCertificates:
            return "No PEM certificate found: expected at least one \"BEGIN CERTIFICATE\" block."
        case .unreadableCertificate(let index):
            return "Certificate \(index) does not parse; check that the PEM file is complete and was not edited."
        case .invalidSetting(let reason):
            return "Invalid setting: \(reason)."
        }
    }
}
