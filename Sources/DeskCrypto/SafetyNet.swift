@preconcurrency import COpenSSL

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a SafetyNet attestation was refused. Checked in the order of the cases; the first failure
/// is reported. Messages are short and never contain the attestation, its certificates or nonce.
public enum AttestationFailure: Error, Hashable, Sendable {
    /// Not three dot-separated base64url segments (RFC 7515 compact serialisation).
    case malformedJWS
    /// The header is not a JSON object, or its `alg` is neither RS256 nor ES256.
    case badHeader
    /// The header has no `x5c` certificate chain (or an empty or oversized one).
    case noCertificateChain
    /// An `x5c` entry is not standard base64 of one DER X.509 certificate.
    case unreadableCertificate
    /// The chain does not validate, at the given instant, to a configured root; `reason` is
    /// OpenSSL's verification error ("unable to get local issuer certificate").
    case chainInvalid(reason: String)
    /// The leaf certificate was not issued for the configured hostname.
    case hostnameMismatch
    /// The JWS signature does not verify with the leaf certificate's key.
    case signatureInvalid
    /// The payload is not a JSON object.
    case payloadNotJSON
    /// `timestampMs` is missing, or further from now than the tolerance.
    case timestampOutOfRange
    /// `nonce` is missing or differs from the expected one.
    case nonceMismatch
    /// `apkPackageName` is missing or is not the configured package.
    case packageNameMismatch
    /// The first `apkCertificateDigestSha256` is missing or is not the configured digest.
    case certificateDigestMismatch
    /// `basicIntegrity` is not `true`.
    case basicIntegrityFailed
    /// `ctsProfileMatch` is not `true`.
    case ctsProfileMismatch
    /// `evaluationType` does not list `HARDWARE_BACKED`.
    case notHardwareBacked

    public var message: String {
        switch self {
        case .malformedJWS: return "the attestation is not a compact JWS (three base64url parts)"
        case .badHeader: return "the JWS header is not JSON or its alg is not RS256/ES256"
        case .noCertificateChain: return "the JWS header has no x5c certificate chain"
        case .unreadableCertificate: return "an x5c certificate is not base64 DER"
        case .chainInvalid(let reason): return "the certificate chain does not validate to a trusted root (\(reason))"
        case .hostnameMismatch: return "the signing certificate was not issued for the attestation host"
        case .signatureInvalid: return "the JWS signature does not verify with the signing certificate"
        case .payloadNotJSON: return "the JWS payload is not a JSON object"
        case .timestampOutOfRange: return "timestampMs is missing or outside the allowed clock skew"
        case .nonceMismatch: return "the nonce does not match the submitted data"
        case .packageNameMismatch: return "apkPackageName is not the expected app"
        case .certificateDigestMismatch: return "apkCertificateDigestSha256 is not the expected signing certificate"
        case .basicIntegrityFailed: return "basicIntegrity is not true"
        case .ctsProfileMismatch: return "ctsProfileMatch is not true"
        case .notHardwareBacked: return "evaluationType does not include HARDWARE_BACKED"
        }
    }
}

/// Verifies Google SafetyNet attestations (JWS) sent with Android analytics uploads, as Immuni did:
/// the `x5c` chain must validate to one of the configured roots and the leaf must be issued for
/// `hostname`; the JWS must be signed by the leaf (RS256, or ES256); and the payload must be
/// recent, carry the expected nonce, package and signing-certificate digest, and report
/// `basicIntegrity`, `ctsProfileMatch` and a `HARDWARE_BACKED` evaluation.
///
/// A value type holding only bytes and strings; safe to share across tasks.
public struct SafetyNetVerifier: Sendable {
    /// DER of each trusted root, in configuration order.
    private let rootsDER: [[UInt8]]
    public let apkPackageName: String
    public let apkCertificateDigestSha256: String
    public let hostname: String
    public let tolerance: Duration

    /// The longest `x5c` chain accepted (OpenSSL's default verification depth is 100; real
    /// SafetyNet chains have 2 entries).
    public static let maximumChainLength = 10

    /// Checks that `rootCertificatesPEM` holds at least one readable, self-signed certificate
    /// (every one is trusted; an intermediate cannot be pinned) and that the other settings are
    /// usable (non-empty names and digest, non-negative tolerance).
    public init(
        rootCertificatesPEM: String, apkPackageName: String = "it.ministerodellasalute.immuni",
        apkCertificateDigestSha256: String, hostname: String = "attest.android.com",
        tolerance: Duration = .seconds(600)
    ) throws(CryptoError) {
        guard !apkPackageName.isEmpty else { throw .invalidSetting("apkPackageName is empty") }
        guard !apkCertificateDigestSha256.isEmpty else { throw .invalidSetting("apkCertificateDigestSha256 is empty") }
        guard !hostname.isEmpty else { throw .invalidSetting("the SafetyNet hostname is empty") }
        guard tolerance >= .zero else { throw .invalidSetting("the SafetyNet clock tolerance is negative") }
        self.rootsDER = try Self.readRoots(rootCertificatesPEM)
        self.apkPackageName = apkPackageName
        self.apkCertificateDigestSha256 = apkCertificateDigestSha256
        self.hostname = hostname
        self.tolerance = tolerance
    }

    /// Verifies `jws` for an upload whose data hashes to `expectedNonce` (see ``nonce(province:exposurePermission:bluetoothActive:notificationPermission:exposureNotification:lastRiskyExposureOn:salt:)``),
    /// with certificate validity and `timestampMs` judged at `now`.
    public func verify(jws: String, expectedNonce: String, now: Date) -> Result<Void, AttestationFailure> {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
            let headerBytes = Base64.decodeURL(String(segments[0])),
            let payloadBytes = Base64.decodeURL(String(segments[1])),
            let signature = Base64.decodeURL(String(segments[2])),
            !signature.isEmpty
        else { return .failure(.malformedJWS) }

        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            let algorithm = header.alg, algorithm == "RS256" || algorithm == "ES256"
        else { return .failure(.badHeader) }
        guard let x5c = header.x5c, !x5c.isEmpty, x5c.count <= Self.maximumChainLength else {
            return .failure(.noCertificateChain)
        }
        var chainDER: [[UInt8]] = []
        for entry in x5c {
            guard let der = Base64.decode(entry), !der.isEmpty else { return .failure(.unreadableCertificate) }
            chainDER.append(der)
        }
        guard let chain = X509List(der: chainDER), let roots = X509List(der: rootsDER) else {
            return .failure(.unreadableCertificate)
        }
        // `leaf` is a raw pointer owned by `chain`: keep `chain` (and `roots`) alive while it is used.
        let verdict: AttestationFailure? = withExtendedLifetime((chain, roots)) {
            let leaf = chain.certificates[0]
            if let reason = Self.validate(chain: chain, roots: roots, at: now) {
                return .chainInvalid(reason: reason)
            }
            let hostMatches = hostname.utf8CString.withUnsafeBufferPointer { name in
                X509_check_host(
                    leaf, name.baseAddress, name.count - 1, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS), nil)
            }
            guard hostMatches == 1 else { return .hostnameMismatch }
            let signingInput = Array(segments[0].utf8) + [UInt8(ascii: ".")] + Array(segments[1].utf8)
            guard Self.signatureIsValid(signature, of: signingInput, algorithm: algorithm, leaf: leaf) else {
                return .signatureInvalid
            }
            return nil
        }
        if let verdict { return .failure(verdict) }

        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(payloadBytes)) else {
            return .failure(.payloadNotJSON)
        }
        return check(payload, expectedNonce: expectedNonce, now: now)
    }

    /// The nonce an Immuni Android app asks SafetyNet to sign for an operational-info upload:
    /// standard base64 of SHA-256 over the UTF-8 concatenation of the province, the four flags
    /// (decimal, 0 or 1), the `last_risky_exposure_on` text and the salt, without separators.
    public static func nonce(
        province: String, exposurePermission: Int, bluetoothActive: Int, notificationPermission: Int,
        exposureNotification: Int, lastRiskyExposureOn: String, salt: String
    ) -> String {
        let text =
            province + String(exposurePermission) + String(bluetoothActive) + String(notificationPermission)
            + String(exposureNotification) + lastRiskyExposureOn + salt
        return Base64.encode(SHA256.digest(Array(text.utf8)))
    }

    // MARK: - Payload

    private func check(_ payload: Payload, expectedNonce: String, now: Date) -> Result<Void, AttestationFailure> {
        let nowMs = (now.timeIntervalSince1970 * 1000).rounded()
        let (seconds, attoseconds) = tolerance.components
        let toleranceMs = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        guard let timestamp = payload.timestampMs, abs(timestamp - nowMs) <= toleranceMs else {
            return .failure(.timestampOutOfRange)
        }
        guard payload.nonce == expectedNonce else { return .failure(.nonceMismatch) }
        guard payload.apkPackageName == apkPackageName else { return .failure(.packageNameMismatch) }
        guard payload.apkCertificateDigestSha256?.first == apkCertificateDigestSha256 else {
            return .failure(.certificateDigestMismatch)
        }
        guard payload.basicIntegrity == true else { return .failure(.basicIntegrityFailed) }
        guard payload.ctsProfileMatch == true else { return .failure(.ctsProfileMismatch) }
        let evaluation = payload.evaluationType?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        guard evaluation.contains("HARDWARE_BACKED") else { return .failure(.notHardwareBacked) }
        return .success(())
    }

    private struct Header: Decodable {
        var alg: String?
        var x5c: [String]?

        enum CodingKeys: String, CodingKey { case alg, x5c }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alg = container.lenient(String.self, .alg)
            x5c = container.lenient([String].self, .x5c)
        }
    }

    /// The fields checked; a missing field or one of the wrong JSON type reads as nil (and then
    /// fails its own check), so `"basicIntegrity": 1` or `"true"` is not `true`.
    private struct Payload: Decodable {
        var timestampMs: Double?
        var nonce: String?
        var apkPackageName: String?
        var apkCertificateDigestSha256: [String]?
        var basicIntegrity: Bool?
        var ctsProfileMatch: Bool?
        var evaluationType: String?

        enum CodingKeys: String, CodingKey {
            case timestampMs, nonce, apkPackageName, apkCertificateDigestSha256, basicIntegrity
            case ctsProfileMatch, evaluationType
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            timestampMs = container.lenient(Int64.self, .timestampMs).map(Double.init)
            if timestampMs == nil { timestampMs = container.lenient(Double.self, .timestampMs) }
            nonce = container.lenient(String.self, .nonce)
            apkPackageName = container.lenient(String.self, .apkPackageName)
            apkCertificateDigestSha256 = container.lenient([String].self, .apkCertificateDigestSha256)
            basicIntegrity = container.lenient(Bool.self, .basicIntegrity)
            ctsProfileMatch = container.lenient(Bool.self, .ctsProfileMatch)
            evaluationType = container.lenient(String.self, .evaluationType)
        }
    }

    // MARK: - Certificates

    private static func readRoots(_ pem: String) throws(CryptoError) -> [[UInt8]] {
        let expected = OpenSSL.pemLabels(pem).filter { $0 == "CERTIFICATE" }.count
        guard expected > 0 else { throw .noCertificates }
        let parsed: [[UInt8]] =
            OpenSSL.withReadBIO(pem) { bio -> [[UInt8]] in
                var ders: [[UInt8]] = []
                while ders.count < expected, let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
                    defer { X509_free(cert) }
                    var buffer: UnsafeMutablePointer<UInt8>?
                    let count = i2d_X509(cert, &buffer)
                    guard count > 0, let buffer else { break }
                    ders.append(Array(UnsafeBufferPointer(start: buffer, count: Int(count))))
                    cossl_free(buffer)
                }
                return ders
            } ?? []
        ERR_clear_error()
        guard parsed.count == expected else { throw .unreadableCertificate(index: parsed.count + 1) }
        guard let list = X509List(der: parsed) else { throw .unreadableCertificate(index: 1) }
        // The certificates are owned by `list`: it must outlive the loop.
        let notSelfSigned = withExtendedLifetime(list) {
            list.certificates.firstIndex { X509_check_issued($0, $0) != X509_V_OK }
        }
        if let index = notSelfSigned {
            throw .invalidSetting(
                "trusted certificate \(index + 1) is not self-signed; configure the root CA, not an intermediate")
        }
        return parsed
    }

    /// nil when `chain[0]` validates through `chain[1...]` (untrusted intermediates) to one of
    /// `roots` at `now` for TLS server use; otherwise OpenSSL's reason.
    private static func validate(chain: X509List, roots: X509List, at now: Date) -> String? {
        guard let store = X509_STORE_new() else { return "out of memory" }
        defer { X509_STORE_free(store) }
        for root in roots.certificates where X509_STORE_add_cert(store, root) != 1 {
            ERR_clear_error()
            return "cannot load a trusted root"
        }
        guard let untrusted = cossl_sk_X509_new_null() else { return "out of memory" }
        defer { cossl_sk_X509_pop_free(untrusted) }
        for intermediate in chain.certificates.dropFirst() {
            X509_up_ref(intermediate)
            if cossl_sk_X509_push(untrusted, intermediate) == 0 {
                X509_free(intermediate)
                return "out of memory"
            }
        }
        guard let context = X509_STORE_CTX_new() else { return "out of memory" }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, chain.certificates[0], untrusted) == 1 else {
            ERR_clear_error()
            return "cannot start verification"
        }
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        X509_STORE_CTX_set_time(context, 0, time_t(now.timeIntervalSince1970.rounded(.down)))
        if X509_verify_cert(context) == 1 { return nil }
        let code = X509_STORE_CTX_get_error(context)
        ERR_clear_error()
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "error \(code)" }
        return String(cString: text)
    }

    private static func signatureIsValid(
        _ signature: [UInt8], of input: [UInt8], algorithm: String, leaf: OpaquePointer
    ) -> Bool {
        guard let key = X509_get0_pubkey(leaf) else {
            ERR_clear_error()
            return false
        }
        switch algorithm {
        case "RS256":
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { return false }
            return OpenSSL.verify(key: key, digest: EVP_sha256(), signature: signature, message: input)
        case "ES256":
            guard OpenSSL.p256Mismatch(key) == nil, let der = ECDSASignature.der(fromRaw: signature) else {
                return false
            }
            return OpenSSL.verify(key: key, digest: EVP_sha256(), signature: der, message: input)
        default:
            return false
        }
    }
}

/// Parsed X.509 certificates, freed together.
private final class X509List {
    let certificates: [OpaquePointer]

    /// nil unless every entry is exactly one DER certificate (no trailing bytes).
    init?(der entries: [[UInt8]]) {
        var parsed: [OpaquePointer] = []
        for der in entries {
            let cert = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                guard let start = buffer.baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = start
                guard let cert = d2i_X509(nil, &cursor, buffer.count) else { return nil }
                guard cursor == start + buffer.count else {
                    X509_free(cert)
                    return nil
                }
                return cert
            }
            guard let cert else {
                ERR_clear_error()
                for cert in parsed { X509_free(cert) }
                return nil
            }
            parsed.append(cert)
        }
        certificates = parsed
    }

    deinit {
        for cert in certificates { X509_free(cert) }
    }
}

extension KeyedDecodingContainer {
    /// The value if present and of type `T`; nil if missing, null or of another JSON type.
    fileprivate func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
