@preconcurrency import COpenSSL
import DeskText

/// Owns one `EVP_PKEY` and frees it with the last reference.
///
/// `@unchecked Sendable`: the key is never mutated after creation, and OpenSSL 3 allows concurrent
/// signing and verification with one `EVP_PKEY` (each operation uses its own `EVP_MD_CTX`).
final class PKeyBox: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}

/// The process's use of OpenSSL as a whole.
public enum CryptoLibrary {
    /// Tells OpenSSL not to tear itself down in `exit`: its handler frees what other threads may
    /// still be using (a server that could not listen exits while its decoy password hash is
    /// being made on a background thread: that exit crashed, 1 run in a few hundred). The
    /// process's end frees everything anyway. Call it first in `main`, before any other use of
    /// OpenSSL (libpq and libcurl use it too): only the first initialisation can say so.
    public static func keepUntilExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}

/// Small helpers around OpenSSL's BIO, PEM and error-queue conventions.
enum OpenSSL {
    /// Runs `body` with a read-only memory BIO over `text`'s UTF-8 bytes; nil if OpenSSL cannot
    /// allocate one.
    static func withReadBIO<T>(_ text: String, _ body: (OpaquePointer) -> T?) -> T? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw -> T? in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// What `write` put into a fresh memory BIO, as text; nil if it failed.
    static func writeBIO(_ write: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let count = cossl_BIO_get_mem_data(bio, &data)
        guard count >= 0, let data else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    /// The labels of the PEM blocks in `text` ("PRIVATE KEY", "EC PRIVATE KEY", "CERTIFICATE"…),
    /// in order, one per `-----BEGIN …-----` line.
    static func pemLabels(_ text: String) -> [String] {
        var labels: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingASCIIWhitespace()
            guard trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----"), trimmed.count > 16 else { continue }
            labels.append(String(trimmed.dropFirst(11).dropLast(5)))
        }
        return labels
    }

    /// The DER encoding of a public key (SubjectPublicKeyInfo); nil if OpenSSL fails.
    static func spkiDER(_ pkey: OpaquePointer) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>?
        let count = i2d_PUBKEY(pkey, &buffer)
        guard count > 0, let buffer else { return nil }
        defer { cossl_free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(count)))
    }

    /// nil when `pkey` is an ECDSA key on P-256; otherwise a short description of what it is
    /// ("an RSA key", "an EC key on secp384r1"), for ``CryptoError/notP256(found:)``.
    static func p256Mismatch(_ pkey: OpaquePointer) -> String? {
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC else {
            guard let name = EVP_PKEY_get0_type_name(pkey) else { return tr("messages.crypto.found.unknown") }
            let type = String(cString: name)
            // OpenSSL names are acronyms ("RSA", "ED25519"), read letter by letter: "an RSA key".
            let article = type.first.map { "AEFHILMNORSX".contains($0) } == true ? "an" : "a"
            return tr("messages.crypto.found.\(article)", ["type": type])
        }
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pkey, &buffer, buffer.count, &length) == 1 else {
            ERR_clear_error()
            return tr("messages.crypto.found.explicitCurve")
        }
        let group = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var nid = OBJ_sn2nid(group)
        if nid == NID_undef { nid = EC_curve_nist2nid(group) }
        return nid == NID_X9_62_prime256v1 ? nil : tr("messages.crypto.found.curve", ["curve": group])
    }
}

extension Substring {
    func trimmingASCIIWhitespace() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
