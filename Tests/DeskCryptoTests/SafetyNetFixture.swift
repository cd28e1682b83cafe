import DeskCrypto
import DeskTestSupport
import Foundation

/// A test PKI made once per test run with the `openssl` command-line tool, in a temporary
/// directory that is removed as soon as the files are read:
///
///     root (EC) ── intermediate (EC) ─┬─ leaf        CN/SAN attest.android.com (RSA 2048)
///                                     ├─ otherHost   SAN www.example.com      (same RSA key)
///                                     └─ ecLeaf      SAN attest.android.com   (EC P-256)
///     otherRoot (EC) ─────────────────── stranger    SAN attest.android.com   (same RSA key)
struct SafetyNetFixture: Sendable {
    let rootPEM: String
    let otherRootPEM: String
    let intermediatePEM: String
    let intermediateDER: [UInt8]
    let leafDER: [UInt8]
    let leafKeyPEM: String
    let otherHostLeafDER: [UInt8]
    let strangerLeafDER: [UInt8]
    let ecLeafDER: [UInt8]
    let ecLeafKeyPEM: String

    /// The fixture, built by the first caller; later callers wait for the same build.
    static func shared() async throws -> SafetyNetFixture { try await cache.get() }

    private actor Cache {
        private var build: Task<SafetyNetFixture, any Error>?

        func get() async throws -> SafetyNetFixture {
            if build == nil { build = Task { try await SafetyNetFixture.build() } }
            return try await build!.value
        }
    }

    private static let cache = Cache()

    private static func build() async throws -> SafetyNetFixture {
        try await withTemporaryDirectory { directory in
            func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
            func run(_ arguments: String...) async throws { try await Command.check(arguments, in: directory) }
            try file("ca.ext").write(
                "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n")
            try file("intermediate.ext").write(
                "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n"
                    + "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n")
            for (name, host) in [("leaf", "attest.android.com"), ("other-host", "www.example.com")] {
                try file("\(name).ext").write(
                    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                        + "extendedKeyUsage=serverAuth\nsubjectAltName=DNS:\(host)\n")
            }

            func ecKey(_ name: String) async throws {
                try await run(
                    "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name)
            }
            func selfSigned(_ name: String, _ subject: String) async throws {
                try await ecKey("\(name).key")
                try await run("openssl", "req", "-new", "-key", "\(name).key", "-subj", subject, "-out", "\(name).csr")
                try await run(
                    "openssl", "x509", "-req", "-in", "\(name).csr", "-signkey", "\(name).key", "-days", "3650",
                    "-set_serial", "1", "-extfile", "ca.ext", "-out", "\(name).pem")
            }
            func issue(_ name: String, key: String, subject: String, by issuer: String, ext: String, serial: Int)
                async throws
            {
                try await run("openssl", "req", "-new", "-key", key, "-subj", subject, "-out", "\(name).csr")
                try await run(
                    "openssl", "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                    "-days", "365", "-set_serial", String(serial), "-extfile", ext, "-out", "\(name).pem")
                try await run("openssl", "x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der")
            }

            try await selfSigned("root", "/CN=TraceDesk Test Root")
            try await selfSigned("other-root", "/CN=TraceDesk Unrelated Root")
            try await ecKey("intermediate.key")
            try await issue(
                "intermediate", key: "intermediate.key", subject: "/CN=TraceDesk Test Intermediate", by: "root",
                ext: "intermediate.ext", serial: 2)
            try await run(
                "openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "leaf.key")
            try await issue(
                "leaf", key: "leaf.key", subject: "/CN=attest.android.com", by: "intermediate", ext: "leaf.ext",
                serial: 3)
            try await issue(
                "other-host", key: "leaf.key", subject: "/CN=www.example.com", by: "intermediate",
                ext: "other-host.ext", serial: 4)
            try await issue(
                "stranger", key: "leaf.key", subject: "/CN=attest.android.com", by: "other-root", ext: "leaf.ext",
                serial: 5)
            try await ecKey("ec-leaf.key")
            try await issue(
                "ec-leaf", key: "ec-leaf.key", subject: "/CN=attest.android.com", by: "intermediate",
                ext: "leaf.ext", serial: 6)

            return SafetyNetFixture(
                rootPEM: try file("root.pem").text(), otherRootPEM: try file("other-root.pem").text(),
                intermediatePEM: try file("intermediate.pem").text(),
                intermediateDER: try file("intermediate.der").bytes(), leafDER: try file("leaf.der").bytes(),
                leafKeyPEM: try file("leaf.key").text(), otherHostLeafDER: try file("other-host.der").bytes(),
                strangerLeafDER: try file("stranger.der").bytes(), ecLeafDER: try file("ec-leaf.der").bytes(),
                ecLeafKeyPEM: try file("ec-leaf.key").text())
        }
    }

    /// `openssl dgst -sha256 -sign` over `input` with `keyPEM`: PKCS#1 v1.5 for RSA, DER ECDSA
    /// for EC.
    static func opensslSign(_ input: [UInt8], keyPEM: String) async throws -> [UInt8] {
        try await withTemporaryDirectory { directory in
            try directory.appendingPathComponent("key.pem").write(keyPEM)
            try directory.appendingPathComponent("input").write(input)
            try await Command.check(
                ["openssl", "dgst", "-sha256", "-sign", "key.pem", "-out", "signature", "input"], in: directory)
            return try directory.appendingPathComponent("signature").bytes()
        }
    }
}

/// Builds compact JWS attestations for tests.
struct AttestationBuilder {
    enum Signer {
        /// RS256 with the leaf's RSA key (the real SafetyNet form).
        case rsaLeaf
        /// ES256 (raw r||s) with the EC leaf's key.
        case ecLeaf
        /// DER ECDSA from the EC leaf's key, put where an RS256 signature belongs.
        case ecLeafAsRS256
    }

    static let digest = "3Qq3VxS1Vx2n1Yb0jV5uGZ2c0ZJ3m4iYbYdJcE1pG2Q="
    static let salt = "c2FsdHNhbHRzYWx0c2FsdHNh"
    static let nonce = SafetyNetVerifier.nonce(
        province: "AG", exposurePermission: 1, bluetoothActive: 1, notificationPermission: 0, exposureNotification: 1,
        lastRiskyExposureOn: "2026-11-20", salt: salt)

    let fixture: SafetyNetFixture
    /// The verification instant; read after the fixture exists, so never before a certificate's
    /// notBefore.
    let now: Date

    init() async throws {
        fixture = try await SafetyNetFixture.shared()
        now = Date()
    }

    /// A verifier trusting the test root (or the given PEM) with the test digest.
    func verifier(rootsPEM: String? = nil) throws -> SafetyNetVerifier {
        try SafetyNetVerifier(
            rootCertificatesPEM: rootsPEM ?? fixture.rootPEM, apkCertificateDigestSha256: Self.digest)
    }

    /// The payload of a good attestation made at `now`.
    func goodFields() -> [String: any Sendable] {
        [
            "nonce": Self.nonce,
            "timestampMs": Int64((now.timeIntervalSince1970 * 1000).rounded()),
            "apkPackageName": "it.ministerodellasalute.immuni",
            "apkDigestSha256": "bm90IGNoZWNrZWQ=",
            "apkCertificateDigestSha256": [Self.digest],
            "ctsProfileMatch": true,
            "basicIntegrity": true,
            "evaluationType": "BASIC,HARDWARE_BACKED",
        ]
    }

    /// `{"alg": alg, "x5c": [base64 DER…]}`.
    func header(alg: String = "RS256", chain: [[UInt8]]? = nil) -> String {
        let certificates = (chain ?? [fixture.leafDER, fixture.intermediateDER]).map { "\"\(Base64.encode($0))\"" }
        return #"{"alg":"\#(alg)","x5c":[\#(certificates.joined(separator: ","))]}"#
    }

    static func json(_ fields: [String: any Sendable]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A signed compact JWS of `header` and `payload` (JSON texts, or any text).
    func jws(header: String? = nil, payload: String, signer: Signer = .rsaLeaf) async throws -> String {
        let header =
            header
            ?? self.header(
                alg: signer == .ecLeaf ? "ES256" : "RS256",
                chain: signer == .rsaLeaf ? nil : [fixture.ecLeafDER, fixture.intermediateDER])
        let input = Base64.encodeURL(Array(header.utf8)) + "." + Base64.encodeURL(Array(payload.utf8))
        let signature: [UInt8]
        switch signer {
        case .rsaLeaf:
            signature = try await SafetyNetFixture.opensslSign(Array(input.utf8), keyPEM: fixture.leafKeyPEM)
        case .ecLeaf:
            let der = try await SafetyNetFixture.opensslSign(Array(input.utf8), keyPEM: fixture.ecLeafKeyPEM)
            signature = ECDSASignature.raw(fromDER: der)!
        case .ecLeafAsRS256:
            signature = try await SafetyNetFixture.opensslSign(Array(input.utf8), keyPEM: fixture.ecLeafKeyPEM)
        }
        return input + "." + Base64.encodeURL(signature)
    }

    /// A good attestation with `change` applied to its payload fields.
    func jws(
        header: String? = nil, signer: Signer = .rsaLeaf, _ change: (inout [String: any Sendable]) -> Void = { _ in }
    ) async throws -> String {
        var fields = goodFields()
        change(&fields)
        return try await jws(header: header, payload: Self.json(fields), signer: signer)
    }

    /// The default verifier's answer for `jws` at `now` (or `at`).
    func verify(_ jws: String, at: Date? = nil, verifier: SafetyNetVerifier? = nil) throws -> Result<
        Void, AttestationFailure
    > {
        try (verifier ?? self.verifier()).verify(jws: jws, expectedNonce: Self.nonce, now: at ?? now)
    }
}

extension Result where Success == Void {
    /// The failure, or nil on success.
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    var succeeded: Bool { failure == nil }
}
