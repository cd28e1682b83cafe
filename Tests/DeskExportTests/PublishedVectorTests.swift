import DeskCrypto
import DeskExport
import Foundation
import Testing

/// The signed chunks published by Google, and one generated independently, decode and verify
/// with the facts listed in the vectors README.
@Suite struct PublishedVectorTests {
    struct Expected: CustomTestStringConvertible, Sendable {
        let zip: String
        let publicKey: String
        let keyCount: Int
        let region: String
        let keyID: String
        let keyVersion: String
        let window: ClosedRange<UInt64>
        let exportBinSize: Int
        let exportBinSHA256: String
        let exportSigSize: Int
        var testDescription: String { zip }
    }

    static let chunks = [
        Expected(
            zip: "google-server_testExport-2-records-1-of-1.zip", publicKey: "google-server_example_public.pem",
            keyCount: 2, region: "US", keyID: "some_id", keyVersion: "1", window: 1_590_159_600...1_590_246_000,
            exportBinSize: 135, exportBinSHA256: "38edb6fc758d9ba014eb66226a9ee580201de3a985dca5467234c5f41099ad3f",
            exportSigSize: 115),
        Expected(
            zip: "google-internals_sample_diagnosis_key_file.zip", publicKey: "google-internals_test_public_310-v1.pem",
            keyCount: 140, region: "US", keyID: "310", keyVersion: "v1", window: 1_593_633_600...1_593_633_900,
            exportBinSize: 3854, exportBinSHA256: "1df2d78a603e2f85ca178f2fbd339a587f699bffd9d46a79f61b0448e79fe9f7",
            exportSigSize: 111),
        Expected(
            // 2026-11-28T14:00Z ... 2026-11-29T14:00Z
            zip: "generated_valid_chunk_222.zip", publicKey: "generated_valid_chunk_222_public.pem",
            keyCount: 57, region: "222", keyID: "222", keyVersion: "v1", window: 1_795_874_400...1_795_960_800,
            exportBinSize: 1842, exportBinSHA256: "8bcdc66cde8984b7a3ab621d88508d5df551bdd0724437acdaae74195ba5fc67",
            exportSigSize: 111),
    ]

    @Test(arguments: chunks) func chunkDecodesAndVerifies(_ expected: Expected) throws {
        let zip = try Vectors.bytes(expected.zip)
        let (exportBin, exportSig) = try ChunkArchive.unzip(zip)
        #expect(exportBin.count == expected.exportBinSize)
        #expect(exportSig.count == expected.exportSigSize)

        let chunk = try ChunkInspection(zip: zip)
        #expect(chunk.file.keys.count == expected.keyCount)
        #expect(chunk.file.revisedKeys.isEmpty)
        #expect(chunk.file.region == expected.region)
        #expect(chunk.file.startTimestamp == expected.window.lowerBound)
        #expect(chunk.file.endTimestamp == expected.window.upperBound)
        #expect(chunk.file.batchNum == 1 && chunk.file.batchSize == 1)
        #expect(Hex.encode(chunk.exportBinSHA256) == expected.exportBinSHA256)
        #expect(chunk.exportBin == exportBin)

        let info = ExportSignatureInfo(verificationKeyVersion: expected.keyVersion, verificationKeyID: expected.keyID)
        #expect(chunk.file.signatureInfos == [info])
        #expect(chunk.signatures.count == 1)
        #expect(chunk.signatures.first?.signatureInfo == info)
        #expect(chunk.signatures.first?.batchNum == 1 && chunk.signatures.first?.batchSize == 1)
        #expect(chunk.file.keys.allSatisfy { $0.keyData.count == 16 })

        let publicKey = try Vectors.publicKey(expected.publicKey)
        #expect(chunk.signatureVerifies(with: publicKey))
        // The signature covers the header too: without it, it does not verify.
        let signature = try #require(chunk.signatures.first).signature
        #expect(!publicKey.verifyDER(signature: signature, message: Array(exportBin.dropFirst(16))))
    }

    @Test(arguments: chunks) func flippedByteInExportBinFailsVerification(_ expected: Expected) throws {
        let (exportBin, exportSig) = try ChunkArchive.unzip(try Vectors.bytes(expected.zip))
        let original = try ChunkInspection(exportBin: exportBin, exportSig: exportSig)
        // Flip one bit inside the first key's bytes, so the file still decodes.
        let keyData = try #require(original.file.keys.first).keyData
        let at = try #require(exportBin.firstRange(of: keyData)).lowerBound
        var tampered = exportBin
        tampered[at] ^= 0x01
        let chunk = try ChunkInspection(exportBin: tampered, exportSig: exportSig)
        #expect(chunk.file.keys.count == expected.keyCount)
        #expect(!chunk.signatureVerifies(with: try Vectors.publicKey(expected.publicKey)))
    }

    /// All three are canonical (fields in number order, minimal varints), so our encoder gives
    /// back their exact bytes.
    @Test(arguments: chunks) func exportBinRoundTripsByteForByte(_ expected: Expected) throws {
        let (exportBin, exportSig) = try ChunkArchive.unzip(try Vectors.bytes(expected.zip))
        #expect(try ExportFile(exportBin: exportBin).exportBin() == exportBin)
        #expect(ExportSignatureList.encode(try ExportSignatureList.decode(exportSig)) == exportSig)
    }

    @Test func sampleZipDoesNotVerifyWithTheOtherAndroidTestKey() throws {
        let chunk = try ChunkInspection(zip: try Vectors.bytes("google-internals_sample_diagnosis_key_file.zip"))
        #expect(
            !chunk.signatureVerifies(with: try Vectors.publicKey("google-internals_test_public_ExampleServer-v1.pem")))
    }

    @Test func googleServerChunkHoldsTheKeysOfItsPublishRequest() throws {
        let chunk = try ChunkInspection(zip: try Vectors.bytes("google-server_testExport-2-records-1-of-1.zip"))
        let first = ExportKey(
            keyData: try #require(Base64.decode("Fy/EgOWYSQw0F3YEM5sVQw==")), transmissionRiskLevel: 8,
            rollingStartIntervalNumber: 2_649_980, rollingPeriod: 1)
        let second = ExportKey(
            keyData: try #require(Base64.decode("K2MFOsSDI43hdhaehh89zQ==")), transmissionRiskLevel: 1,
            rollingStartIntervalNumber: 2_649_866, rollingPeriod: 114)
        #expect(chunk.file.keys == [first, second])
    }

    @Test func generatedChunkKeysAreImmuniStyle() throws {
        let file = try ChunkInspection(zip: try Vectors.bytes("generated_valid_chunk_222.zip")).file
        #expect(file.keys.allSatisfy { $0.reportType == 1 && $0.rollingPeriod == nil })
        #expect(file.keys.allSatisfy { $0.rollingStartIntervalNumber % 144 == 0 })
        #expect(file.keys.allSatisfy { (1...8).contains($0.transmissionRiskLevel ?? 0) })
        #expect(file.keys.allSatisfy { (-14...14).contains($0.daysSinceOnsetOfSymptoms ?? 99) })
        #expect(file.keys.map(\.keyData).lexicographicallyOrdered)
    }

    @Test(arguments: [("google-internals_app_raw_export.bin", 110), ("google-internals_cpp_testdata_export.bin", 200)])
    func rawExportBinDecodes(_ name: String, _ keyCount: Int) throws {
        let bytes = try Vectors.bytes(name)
        let file = try ExportFile(exportBin: bytes)
        #expect(file.keys.count == keyCount)
        #expect(file.region == "US")
        #expect(file.batchNum == 1 && file.batchSize == 1)
        #expect(file.keys.allSatisfy { $0.keyData.count == 16 })
        // The SignatureInfo sets only the deprecated field 2, which is ignored.
        #expect(
            file.signatureInfos == [
                ExportSignatureInfo(verificationKeyVersion: "", verificationKeyID: "", signatureAlgorithm: "")
            ])
        // Some keys omit rolling_period (144 by default).
        #expect(file.keys.contains { $0.rollingPeriod == nil })
        // Re-encoding drops field 2 and writes the empty fields 3-5, so only the values survive.
        let reencoded = file.exportBin()
        #expect(reencoded != bytes)
        #expect(try ExportFile(exportBin: reencoded) == file)
    }
}

extension Array where Element == [UInt8] {
    /// True when each element is lexicographically <= the next (byte order).
    var lexicographicallyOrdered: Bool {
        zip(self, dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) }
    }
}
