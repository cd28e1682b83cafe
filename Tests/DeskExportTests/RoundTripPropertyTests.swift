import DeskExport
import Testing

/// Random values (from a fixed seed) survive encode → decode unchanged.
@Suite struct RoundTripPropertyTests {
    /// Mostly small values, sometimes the extremes and negatives, which take other varint lengths.
    static func int32(_ generator: inout SeededGenerator) -> Int32 {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return [Int32.min, .max, -1, 0, 1, 127, 128, -129][Int.random(in: 0..<8, using: &generator)]
        case 1: return Int32.random(in: .min ... .max, using: &generator)
        default: return Int32.random(in: -20...200, using: &generator)
        }
    }

    static func optionalInt32(_ generator: inout SeededGenerator) -> Int32? {
        Bool.random(using: &generator) ? int32(&generator) : nil
    }

    static func text(_ generator: inout SeededGenerator, allowEmpty: Bool = true) -> String {
        let alphabet = Array("abcXYZ019_.-/ éü€日本😀")
        let count = Int.random(in: (allowEmpty ? 0 : 1)...12, using: &generator)
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    static func key(_ generator: inout SeededGenerator) -> ExportKey {
        ExportKey(
            keyData: generator.bytes(Int.random(in: 0...20, using: &generator)),
            transmissionRiskLevel: optionalInt32(&generator), rollingStartIntervalNumber: int32(&generator),
            rollingPeriod: optionalInt32(&generator), reportType: optionalInt32(&generator),
            daysSinceOnsetOfSymptoms: optionalInt32(&generator))
    }

    static func info(_ generator: inout SeededGenerator) -> ExportSignatureInfo {
        // An empty app bundle id is not written, so it reads back as nil: use nil or non-empty.
        ExportSignatureInfo(
            appBundleID: Bool.random(using: &generator) ? text(&generator, allowEmpty: false) : nil,
            verificationKeyVersion: text(&generator), verificationKeyID: text(&generator),
            signatureAlgorithm: Bool.random(using: &generator) ? ExportSignatureInfo.ecdsaP256SHA256 : text(&generator))
    }

    static func file(_ generator: inout SeededGenerator) -> ExportFile {
        ExportFile(
            startTimestamp: UInt64.random(in: .min ... .max, using: &generator),
            endTimestamp: UInt64.random(in: .min ... .max, using: &generator), region: text(&generator),
            batchNum: int32(&generator), batchSize: int32(&generator),
            signatureInfos: (0..<Int.random(in: 0...3, using: &generator)).map { _ in info(&generator) },
            keys: (0..<Int.random(in: 0...40, using: &generator)).map { _ in key(&generator) },
            revisedKeys: (0..<Int.random(in: 0...5, using: &generator)).map { _ in key(&generator) })
    }

    @Test func randomExportFilesRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<200 {
            let file = Self.file(&generator)
            let bytes = file.exportBin()
            let decoded = try ExportFile(exportBin: bytes)
            #expect(decoded == file)
            #expect(decoded.exportBin() == bytes)
        }
    }

    @Test func randomSignatureListsRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x516)
        for _ in 0..<200 {
            let signatures = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                ExportSignature(
                    signatureInfo: Self.info(&generator), batchNum: Self.int32(&generator),
                    batchSize: Self.int32(&generator),
                    signature: generator.bytes(Int.random(in: 0...80, using: &generator)))
            }
            #expect(try ExportSignatureList.decode(ExportSignatureList.encode(signatures)) == signatures)
        }
    }

    @Test func randomChunksRoundTripThroughTheZip() throws {
        var generator = SeededGenerator(seed: 0x2222)
        for _ in 0..<20 {
            let bin = Self.file(&generator).exportBin()
            let sig = generator.bytes(Int.random(in: 0...300, using: &generator))
            let (readBin, readSig) = try ChunkArchive.unzip(try ChunkArchive.zip(exportBin: bin, exportSig: sig))
            #expect(readBin == bin)
            #expect(readSig == sig)
        }
    }
}
