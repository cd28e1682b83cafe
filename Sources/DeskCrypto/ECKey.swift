@preconcurrency import COpenSSL
import DeskText

/// An ECDSA P-256 private key (OpenSSL `EVP_PKEY`), for ES256 JWTs and GAEN export signatures.
///
/// Every signature is ECDSA over the SHA-256 of the message. Safe to share across tasks.
/// `description` names the key type only; the key material is never printed.
public struct ECPrivateKey: Sendable, CustomStringConvertible {
    let box: PKeyBox

    init(box: PKeyBox) {
        self.box = box
    }

    /// Reads a P-256 key from PEM: PKCS#8 (`BEGIN PRIVATE KEY`) or SEC1 (`BEGIN EC PRIVATE KEY`,
    /// optionally after a `BEGIN EC PARAMETERS` block). Checks that the text holds one of these
    /// blocks, that it parses, that it is not encrypted, and that the key is ECDSA on P-256; any
    /// other key (RSA, P-384, Ed25519…) is refused with ``CryptoError/notP256(found:)``.
    public init(pem: String) throws(CryptoError) {
        // OpenSSL 3's decoders can leave errors queued even when a read succeeds.
        defer { ERR_clear_error() }
        let labels = OpenSSL.pemLabels(pem)
        let accepted = labels.contains("PRIVATE KEY") || labels.contains("EC PRIVATE KEY")
        if !accepted {
            if labels.contains("ENCRYPTED PRIVATE KEY") { throw .encryptedPrivateKey }
            if labels.contains("RSA PRIVATE KEY") {
                throw .notP256(found: tr("messages.crypto.found.an", ["type": "RSA"]))
            }
            if labels.contains("DSA PRIVATE KEY") {
                throw .notP256(found: tr("messages.crypto.found.a", ["type": "DSA"]))
            }
            throw .notAPrivateKeyPEM
        }
        let pointer = OpenSSL.withReadBIO(pem) { bio in
            // The refusing callback makes an encrypted key fail instead of prompting on a terminal.
            PEM_read_bio_PrivateKey(bio, nil, cossl_no_password_cb(), nil)
        }
        guard let pointer else {
            ERR_clear_error()
            throw .unreadablePrivateKey
        }
        let box = PKeyBox(pointer)
        if let found = OpenSSL.p256Mismatch(pointer) { throw .notP256(found: found) }
        self.box = box
    }

    /// A fresh random P-256 key.
    public static func generate() -> ECPrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            fatalError("OpenSSL cannot create an EC key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pointer: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &pointer) == 1,
            let pointer
        else {
            // Only an allocation or provider failure gets here; there is no sane recovery.
            fatalError("OpenSSL P-256 key generation failed")
        }
        return ECPrivateKey(box: PKeyBox(pointer))
    }

    /// The key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`), readable by ``init(pem:)`` and
    /// by `openssl pkey`.
    public func pemPKCS8() -> String {
        guard
            let text = OpenSSL.writeBIO({ bio in
                PEM_write_bio_PKCS8PrivateKey(bio, box.pointer, nil, nil, 0, nil, nil)
            })
        else { fatalError("OpenSSL cannot write a PKCS#8 key") }
        return text
    }

    /// The public half as SubjectPublicKeyInfo PEM (`BEGIN PUBLIC KEY`).
    public func publicKeyPEM() -> String {
        guard let text = OpenSSL.writeBIO({ bio in PEM_write_bio_PUBKEY(bio, box.pointer) }) else {
            fatalError("OpenSSL cannot write a public key")
        }
        return text
    }

    /// The public half, for verifying this key's signatures.
    public var publicKey: ECPublicKey {
        guard let der = OpenSSL.spkiDER(box.pointer), let key = ECPublicKey(spki: der) else {
            fatalError("OpenSSL cannot export a public key")
        }
        return key
    }

    /// ECDSA P-256 with SHA-256 over `message`; the signature in ASN.1 DER
    /// (`SEQUENCE { r INTEGER, s INTEGER }`, 70–72 bytes), as GAEN `export.sig` and
    /// `openssl dgst -sha256 -verify` expect. Randomised: two calls give different signatures.
    public func signDER(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, box.pointer) == 1 else {
            fatalError("OpenSSL cannot start an ECDSA signature")
        }
        var length = 0
        let signature = message.withUnsafeBufferPointer { input -> [UInt8]? in
            // Some OpenSSL paths reject a NULL input pointer even for zero bytes.
            let empty: [UInt8] = [0]
            return empty.withUnsafeBufferPointer { placeholder -> [UInt8]? in
                let base = input.baseAddress ?? placeholder.baseAddress!
                guard EVP_DigestSign(context, nil, &length, base, input.count) == 1 else { return nil }
                var output = [UInt8](repeating: 0, count: length)
                guard EVP_DigestSign(context, &output, &length, base, input.count) == 1 else { return nil }
                // DER signatures are shorter than the maximum the first call reports.
                output.removeSubrange(length...)
                return output
            }
        }
        guard let signature else { fatalError("OpenSSL ECDSA signing failed") }
        return signature
    }

    /// The same signature as ``signDER(_:)`` in the 64-byte raw form `r || s` (each 32 bytes,
    /// big-endian, left-padded) that JWS ES256 uses (RFC 7518 §3.4).
    public func signJOSE(_ message: [UInt8]) -> [UInt8] {
        guard let raw = ECDSASignature.raw(fromDER: signDER(message)) else {
            fatalError("OpenSSL produced an unreadable ECDSA signature")
        }
        return raw
    }

    public var description: String { "ECPrivateKey(P-256)" }
}

/// An ECDSA P-256 public key, for checking ES256 and GAEN signatures.
public struct ECPublicKey: Sendable, CustomStringConvertible {
    let box: PKeyBox

    /// Reads a `BEGIN PUBLIC KEY` (SubjectPublicKeyInfo) PEM block; checks that it parses and
    /// that the key is ECDSA on P-256.
    public init(pem: String) throws(CryptoError) {
        defer { ERR_clear_error() }
        guard OpenSSL.pemLabels(pem).contains("PUBLIC KEY") else { throw .notAPublicKeyPEM }
        let pointer = OpenSSL.withReadBIO(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, cossl_no_password_cb(), nil) }
        guard let pointer else {
            ERR_clear_error()
            throw .unreadablePublicKey
        }
        let box = PKeyBox(pointer)
        if let found = OpenSSL.p256Mismatch(pointer) { throw .notP256(found: found) }
        self.box = box
    }

    /// From DER SubjectPublicKeyInfo; nil unless it parses as a P-256 key.
    init?(spki: [UInt8]) {
        defer { ERR_clear_error() }
        let pointer = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let pointer else {
            ERR_clear_error()
            return nil
        }
        let box = PKeyBox(pointer)
        guard OpenSSL.p256Mismatch(pointer) == nil else { return nil }
        self.box = box
    }

    /// The key as SubjectPublicKeyInfo PEM (`BEGIN PUBLIC KEY`).
    public func pem() -> String {
        guard let text = OpenSSL.writeBIO({ bio in PEM_write_bio_PUBKEY(bio, box.pointer) }) else {
            fatalError("OpenSSL cannot write a public key")
        }
        return text
    }

    /// True when `signature` (ASN.1 DER) is a valid ECDSA P-256 / SHA-256 signature of
    /// `message` by this key's private half. False for anything else, including malformed DER.
    public func verifyDER(signature: [UInt8], message: [UInt8]) -> Bool {
        OpenSSL.verify(key: box.pointer, digest: EVP_sha256(), signature: signature, message: message)
    }

    /// True when `signature` is the 64-byte `r || s` form (JWS ES256) of a valid signature of
    /// `message` by this key's private half.
    public func verifyJOSE(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
        return verifyDER(signature: der, message: message)
    }

    public var description: String { "ECPublicKey(P-256)" }
}

/// Conversions between the two encodings of a P-256 ECDSA signature.
public enum ECDSASignature {
    /// ASN.1 DER `SEQUENCE { r, s }` → 64-byte `r || s`; nil if the DER does not parse, has
    /// trailing bytes, or holds a value wider than 32 bytes.
    public static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else {
                ERR_clear_error()
                return nil
            }
            defer { ECDSA_SIG_free(signature) }
            guard cursor == start + buffer.count else { return nil }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var output = [UInt8](repeating: 0, count: 64)
            let written = output.withUnsafeMutableBufferPointer { out -> Bool in
                BN_bn2binpad(r, out.baseAddress, 32) == 32 && BN_bn2binpad(s, out.baseAddress! + 32, 32) == 32
            }
            return written ? output : nil
        }
    }

    /// 64-byte `r || s` → ASN.1 DER; nil unless exactly 64 bytes.
    public static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? output : nil
    }
}

extension OpenSSL {
    /// `EVP_DigestVerify` of `signature` over `message` with `key` (ECDSA takes DER, RSA takes
    /// PKCS#1 v1.5); false on any failure, with OpenSSL's error queue cleared.
    static func verify(key: OpaquePointer, digest: OpaquePointer?, signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let empty: [UInt8] = [0]
        let ok = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { input in
                empty.withUnsafeBufferPointer { placeholder in
                    EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1
                        && EVP_DigestVerify(
                            context, sig.baseAddress ?? placeholder.baseAddress!, sig.count,
                            input.baseAddress ?? placeholder.baseAddress!, input.count) == 1
                }
            }
        }
        if !ok { ERR_clear_error() }
        return ok
    }
}
