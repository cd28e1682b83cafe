import DeskCrypto
import Foundation
import Testing

@Suite("SafetyNet attestation")
struct SafetyNetTests {
    // MARK: - Good attestations

    @Test func goodRS256AttestationVerifies() async throws {
        let builder = try await AttestationBuilder()
        let jws = try await builder.jws()
        #expect(try builder.verify(jws).succeeded)
        // Several trusted roots: any one may anchor the chain.
        let both = try builder.verifier(rootsPEM: builder.fixture.otherRootPEM + builder.fixture.rootPEM)
        #expect(try builder.verify(jws, verifier: both).succeeded)
    }

    @Test func goodES256AttestationVerifies() async throws {
        let builder = try await AttestationBuilder()
        #expect(try await builder.verify(builder.jws(signer: .ecLeaf)).succeeded)
    }

    @Test func nonceIsBase64OfSHA256OfTheConcatenatedFields() async throws {
        // printf %s 'AG11012020-10-01c2FsdHNhbHRzYWx0c2FsdHNh' | openssl dgst -sha256 -binary | base64
        let nonce = SafetyNetVerifier.nonce(
            province: "AG", exposurePermission: 1, bluetoothActive: 1, notificationPermission: 0,
            exposureNotification: 1, lastRiskyExposureOn: "2020-10-01", salt: "c2FsdHNhbHRzYWx0c2FsdHNh")
        #expect(nonce == "TyXIBgPy41FAaT8EIQ3XzINqR4gHVIiyj5jYtAC5g1c=")

        let text = "RM0010" + "2026-11-20" + AttestationBuilder.salt
        let digest = try await Command.check(["openssl", "dgst", "-sha256", "-binary"], input: Data(text.utf8)).stdout
        let expected = SafetyNetVerifier.nonce(
            province: "RM", exposurePermission: 0, bluetoothActive: 0, notificationPermission: 1,
            exposureNotification: 0, lastRiskyExposureOn: "2026-11-20", salt: AttestationBuilder.salt)
        #expect(expected == digest.base64EncodedString())
    }

    // MARK: - One test per failure

    @Test(arguments: ["", "abc", "a.b", "a.b.c.d", "e30.e30.", "e30=.e30.AAAA", "e3 0.e30.AAAA", "e30.e30.AA+A"])
    func malformedJWS(jws: String) async throws {
        let builder = try await AttestationBuilder()
        #expect(try builder.verify(jws).failure == .malformedJWS)
    }

    @Test func malformedJWSWhenAGoodOneIsCut() async throws {
        let builder = try await AttestationBuilder()
        let parts = try await builder.jws().split(separator: ".")
        #expect(try builder.verify(parts.dropLast().joined(separator: ".")).failure == .malformedJWS)
        #expect(try builder.verify(parts.joined(separator: "..")).failure == .malformedJWS)
    }

    @Test(arguments: [
        "not json", "[1,2]", #"{"x5c":[]}"#, #"{"alg":"none","x5c":[]}"#, #"{"alg":"HS256","x5c":[]}"#,
        #"{"alg":256,"x5c":[]}"#,
    ])
    func badHeader(header: String) async throws {
        let builder = try await AttestationBuilder()
        #expect(try await builder.verify(builder.jws(header: header)).failure == .badHeader)
    }

    @Test(arguments: [#"{"alg":"RS256"}"#, #"{"alg":"RS256","x5c":[]}"#, #"{"alg":"RS256","x5c":"MIIB"}"#])
    func noCertificateChain(header: String) async throws {
        let builder = try await AttestationBuilder()
        #expect(try await builder.verify(builder.jws(header: header)).failure == .noCertificateChain)
    }

    @Test func unreadableCertificate() async throws {
        let builder = try await AttestationBuilder()
        let leaf = Base64.encode(builder.fixture.leafDER)
        for x5c in [
            "\"not base64!\"", "\"AAAA\"", "\"\(leaf)\",\"Zm9vYmFy\"",
            "\"\(Base64.encode(builder.fixture.leafDER + [0]))\"",
        ] {
            let header = #"{"alg":"RS256","x5c":[\#(x5c)]}"#
            #expect(try await builder.verify(builder.jws(header: header)).failure == .unreadableCertificate)
        }
    }

    @Test func chainDoesNotValidateToTheConfiguredRoot() async throws {
        let builder = try await AttestationBuilder()
        let fixture = builder.fixture
        func reason(_ jws: String, at: Date? = nil, verifier: SafetyNetVerifier? = nil) throws -> String? {
            guard case .chainInvalid(let reason) = try builder.verify(jws, at: at, verifier: verifier).failure else {
                return nil
            }
            return reason
        }
        // The intermediate is missing.
        let noIntermediate = try await builder.jws(header: builder.header(chain: [fixture.leafDER]))
        #expect(try reason(noIntermediate) == "unable to get local issuer certificate")
        // A leaf for the right host from an unrelated CA.
        let stranger = try await builder.jws(header: builder.header(chain: [fixture.strangerLeafDER]))
        #expect(try reason(stranger) == "unable to get local issuer certificate")
        // A good chain, but only the unrelated root is trusted.
        let good = try await builder.jws()
        #expect(try reason(good, verifier: builder.verifier(rootsPEM: fixture.otherRootPEM)) != nil)
        // Certificates are judged at the given instant: after the leaf expired, before it existed.
        #expect(try reason(good, at: builder.now.addingTimeInterval(2 * 366 * 86_400)) == "certificate has expired")
        #expect(try reason(good, at: builder.now.addingTimeInterval(-86_400)) == "certificate is not yet valid")
        // The root passed as a leaf is not a server certificate for anyone.
        let rootAsLeaf = try await builder.jws(header: builder.header(chain: [fixture.intermediateDER]))
        #expect(try reason(rootAsLeaf) != nil)
    }

    @Test func leafNotIssuedForTheHostname() async throws {
        let builder = try await AttestationBuilder()
        let header = builder.header(chain: [builder.fixture.otherHostLeafDER, builder.fixture.intermediateDER])
        #expect(try await builder.verify(builder.jws(header: header)).failure == .hostnameMismatch)
        // The same attestation passes a verifier configured for that host.
        let verifier = try SafetyNetVerifier(
            rootCertificatesPEM: builder.fixture.rootPEM, apkCertificateDigestSha256: AttestationBuilder.digest,
            hostname: "www.example.com")
        #expect(try await builder.verify(builder.jws(header: header), verifier: verifier).succeeded)
    }

    @Test func signatureInvalid() async throws {
        let builder = try await AttestationBuilder()
        // The payload changed after signing.
        let parts = try await builder.jws().split(separator: ".").map(String.init)
        var fields = builder.goodFields()
        fields["basicIntegrity"] = true
        fields["apkPackageName"] = "it.ministerodellasalute.immuni.fake"
        let forged = [parts[0], Base64.encodeURL(Array(try AttestationBuilder.json(fields).utf8)), parts[2]]
        #expect(try builder.verify(forged.joined(separator: ".")).failure == .signatureInvalid)
        // A signature by another key than the leaf's.
        let otherKey = try await builder.jws(header: builder.header(), signer: .ecLeafAsRS256)
        #expect(try builder.verify(otherKey).failure == .signatureInvalid)
        // The alg does not match the leaf's key type, either way round.
        let esOverRSA = try await builder.jws(header: builder.header(alg: "ES256"))
        #expect(try builder.verify(esOverRSA).failure == .signatureInvalid)
        let ecChain = [builder.fixture.ecLeafDER, builder.fixture.intermediateDER]
        let rsOverEC = try await builder.jws(
            header: builder.header(alg: "RS256", chain: ecChain), signer: .ecLeafAsRS256)
        #expect(try builder.verify(rsOverEC).failure == .signatureInvalid)
        // A flipped bit in the signature.
        var signature = Base64.decodeURL(parts[2])!
        signature[10] ^= 0x01
        let flipped = [parts[0], parts[1], Base64.encodeURL(signature)].joined(separator: ".")
        #expect(try builder.verify(flipped).failure == .signatureInvalid)
    }

    @Test(arguments: ["not json", "[1]", "\"text\"", "{\"nonce\":"])
    func payloadNotJSON(payload: String) async throws {
        let builder = try await AttestationBuilder()
        #expect(try await builder.verify(builder.jws(payload: payload)).failure == .payloadNotJSON)
    }

    @Test func timestampOutsideTheTolerance() async throws {
        let builder = try await AttestationBuilder()
        let nowMs = Int64((builder.now.timeIntervalSince1970 * 1000).rounded())
        for offset: Int64 in [-601_000, 601_000, -86_400_000] {
            let jws = try await builder.jws { $0["timestampMs"] = nowMs + offset }
            #expect(try builder.verify(jws).failure == .timestampOutOfRange)
        }
        let missing = try await builder.jws { $0.removeValue(forKey: "timestampMs") }
        #expect(try builder.verify(missing).failure == .timestampOutOfRange)
        let text = try await builder.jws { $0["timestampMs"] = String(nowMs) }
        #expect(try builder.verify(text).failure == .timestampOutOfRange)
        // The bounds are inclusive, and the tolerance is configurable.
        for offset: Int64 in [-600_000, 600_000] {
            #expect(try await builder.verify(builder.jws { $0["timestampMs"] = nowMs + offset }).succeeded)
        }
        let strict = try SafetyNetVerifier(
            rootCertificatesPEM: builder.fixture.rootPEM, apkCertificateDigestSha256: AttestationBuilder.digest,
            tolerance: .seconds(5))
        let tenSecondsOld = try await builder.jws { $0["timestampMs"] = nowMs - 10_000 }
        #expect(try builder.verify(tenSecondsOld, verifier: strict).failure == .timestampOutOfRange)
    }

    @Test func nonceMismatch() async throws {
        let builder = try await AttestationBuilder()
        let otherData = SafetyNetVerifier.nonce(
            province: "AG", exposurePermission: 1, bluetoothActive: 1, notificationPermission: 0,
            exposureNotification: 0, lastRiskyExposureOn: "2026-11-20", salt: AttestationBuilder.salt)
        #expect(try await builder.verify(builder.jws { $0["nonce"] = otherData }).failure == .nonceMismatch)
        #expect(try await builder.verify(builder.jws { $0.removeValue(forKey: "nonce") }).failure == .nonceMismatch)
        // The same attestation checked against other submitted data.
        let result = try await builder.verifier().verify(jws: builder.jws(), expectedNonce: otherData, now: builder.now)
        #expect(result.failure == .nonceMismatch)
    }

    @Test func packageNameMismatch() async throws {
        let builder = try await AttestationBuilder()
        let renamed = try await builder.jws { $0["apkPackageName"] = "it.ministerodellasalute.immuni.debug" }
        #expect(try builder.verify(renamed).failure == .packageNameMismatch)
        let missing = try await builder.jws { $0.removeValue(forKey: "apkPackageName") }
        #expect(try builder.verify(missing).failure == .packageNameMismatch)
    }

    @Test func certificateDigestMismatch() async throws {
        let builder = try await AttestationBuilder()
        let cases: [[String]?] = [
            ["b3RoZXIgZGlnZXN0"], [], ["b3RoZXIgZGlnZXN0", AttestationBuilder.digest], nil,
        ]
        for digests in cases {
            let jws = try await builder.jws { fields in
                if let digests {
                    fields["apkCertificateDigestSha256"] = digests
                } else {
                    fields.removeValue(forKey: "apkCertificateDigestSha256")
                }
            }
            #expect(try builder.verify(jws).failure == .certificateDigestMismatch)
        }
        // Only the first digest counts.
        let firstMatches = try await builder.jws {
            $0["apkCertificateDigestSha256"] = [AttestationBuilder.digest, "eA=="]
        }
        #expect(try builder.verify(firstMatches).succeeded)
    }

    @Test func basicIntegrityFalse() async throws {
        let builder = try await AttestationBuilder()
        let values: [(any Sendable)?] = [false, 1, "true", nil]
        for value in values {
            let jws = try await builder.jws { fields in
                if let value { fields["basicIntegrity"] = value } else { fields.removeValue(forKey: "basicIntegrity") }
            }
            #expect(try builder.verify(jws).failure == .basicIntegrityFailed)
        }
    }

    @Test func ctsProfileMatchFalse() async throws {
        let builder = try await AttestationBuilder()
        #expect(try await builder.verify(builder.jws { $0["ctsProfileMatch"] = false }).failure == .ctsProfileMismatch)
        let missing = try await builder.jws { $0.removeValue(forKey: "ctsProfileMatch") }
        #expect(try builder.verify(missing).failure == .ctsProfileMismatch)
    }

    @Test func evaluationTypeLacksHardwareBacked() async throws {
        let builder = try await AttestationBuilder()
        for value in ["BASIC", "", "HARDWARE_BACKED_X", "BASIC, HARDWARE_BACKED", "hardware_backed"] {
            #expect(
                try await builder.verify(builder.jws { $0["evaluationType"] = value }).failure == .notHardwareBacked)
        }
        let missing = try await builder.jws { $0.removeValue(forKey: "evaluationType") }
        #expect(try builder.verify(missing).failure == .notHardwareBacked)
        #expect(try await builder.verify(builder.jws { $0["evaluationType"] = "HARDWARE_BACKED" }).succeeded)
    }

    // MARK: - Configuration and privacy

    @Test func verifierRefusesUnusableSettings() async throws {
        let fixture = try await SafetyNetFixture.shared()
        let digest = AttestationBuilder.digest
        #expect(throws: CryptoError.noCertificates) {
            try SafetyNetVerifier(rootCertificatesPEM: "", apkCertificateDigestSha256: digest)
        }
        #expect(throws: CryptoError.noCertificates) {
            try SafetyNetVerifier(
                rootCertificatesPEM: ECPrivateKey.generate().publicKeyPEM(), apkCertificateDigestSha256: digest)
        }
        let broken = "-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n"
        #expect(throws: CryptoError.unreadableCertificate(index: 2)) {
            try SafetyNetVerifier(rootCertificatesPEM: fixture.rootPEM + broken, apkCertificateDigestSha256: digest)
        }
        let error = #expect(throws: CryptoError.self) {
            try SafetyNetVerifier(rootCertificatesPEM: fixture.intermediatePEM, apkCertificateDigestSha256: digest)
        }
        #expect(error?.message.contains("not self-signed") == true)
        #expect(throws: CryptoError.invalidSetting("apkCertificateDigestSha256 is empty")) {
            try SafetyNetVerifier(rootCertificatesPEM: fixture.rootPEM, apkCertificateDigestSha256: "")
        }
        #expect(throws: CryptoError.self) {
            try SafetyNetVerifier(
                rootCertificatesPEM: fixture.rootPEM, apkCertificateDigestSha256: digest, hostname: "")
        }
        #expect(throws: CryptoError.self) {
            try SafetyNetVerifier(
                rootCertificatesPEM: fixture.rootPEM, apkCertificateDigestSha256: digest, tolerance: .seconds(-1))
        }
    }

    @Test func failureMessagesAreShortAndNeverEchoTheAttestation() async throws {
        let builder = try await AttestationBuilder()
        let failures: [AttestationFailure] = [
            .malformedJWS, .badHeader, .noCertificateChain, .unreadableCertificate,
            .chainInvalid(reason: "certificate has expired"), .hostnameMismatch, .signatureInvalid, .payloadNotJSON,
            .timestampOutOfRange, .nonceMismatch, .packageNameMismatch, .certificateDigestMismatch,
            .basicIntegrityFailed, .ctsProfileMismatch, .notHardwareBacked,
        ]
        #expect(Set(failures.map(\.message)).count == failures.count)
        let secrets = [AttestationBuilder.nonce, AttestationBuilder.digest, AttestationBuilder.salt]
        for failure in failures {
            #expect(failure.message.count < 100)
            for secret in secrets { #expect(!failure.message.contains(secret)) }
        }
        // A real failure carries only OpenSSL's reason.
        let jws = try await builder.jws(header: builder.header(chain: [builder.fixture.leafDER]))
        let failure = try #require(try builder.verify(jws).failure)
        #expect(!failure.message.contains(String(jws.prefix(20))))
    }
}
