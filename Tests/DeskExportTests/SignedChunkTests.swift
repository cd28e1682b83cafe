import DeskCrypto
import DeskExport
import Foundation
import Testing

/// Chunks we sign ourselves verify with our reader, with the openssl command-line tool, and
/// unzip with Python's zipfile module (independent of libzip).
@Suite struct SignedChunkTests {
    static let info = ExportSignatureInfo(verificationKeyVersion: "v1", verificationKeyID: "222")

    static func sampleFile(keys: Int = 20) -> ExportFile {
        var generator = SeededGenerator(seed: 222)
        var exportKeys: [ExportKey] = []
        for index in 0..<Int32(keys) {
            let start: Int32 = 2_993_040 - (index % 14) * 144
            exportKeys.append(
                ExportKey(
                    keyData: generator.bytes(16), transmissionRiskLevel: index % 8 + 1,
                    rollingStartIntervalNumber: start, reportType: 1, daysSinceOnsetOfSymptoms: index % 29 - 14))
        }
        return ExportFile(
            startTimestamp: 1_795_874_400, endTimestamp: 1_795_960_800, region: "222", signatureInfos: [info],
            keys: exportKeys)
    }

    @Test func ourChunkVerifiesWithOurReader() throws {
        let key = ECPrivateKey.generate()
        let file = Self.sampleFile()
        let chunk = try SignedChunk.make(file: file, signer: key)
        #expect(chunk.exportBin == file.exportBin())

        let inspection = try ChunkInspection(zip: chunk.zip)
        #expect(inspection.file == file)
        #expect(inspection.exportBin == chunk.exportBin)
        #expect(inspection.exportBinSHA256 == SHA256.digest(chunk.exportBin))
        #expect(inspection.signatures.count == 1)
        #expect(inspection.signatures.first?.signatureInfo == Self.info)
        #expect(inspection.signatures.first?.batchNum == 1 && inspection.signatures.first?.batchSize == 1)
        #expect(inspection.signatureVerifies(with: key.publicKey))
        #expect(!inspection.signatureVerifies(with: ECPrivateKey.generate().publicKey))
        #expect(try ExportSignatureList.decode(chunk.exportSig) == inspection.signatures)
    }

    @Test func opensslVerifiesOurSignatureOverTheWholeExportBin() async throws {
        let key = ECPrivateKey.generate()
        let chunk = try SignedChunk.make(file: Self.sampleFile(), signer: key)
        try await withTemporaryDirectory { directory in
            let (exportBin, exportSig) = try ChunkArchive.unzip(chunk.zip)
            let signature = try #require(try ExportSignatureList.decode(exportSig).first).signature
            try directory.appendingPathComponent("export.bin").write(exportBin)
            try directory.appendingPathComponent("sig.der").write(signature)
            try directory.appendingPathComponent("pub.pem").write(key.publicKeyPEM())
            let verified = try await Command.run(
                ["openssl", "dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "export.bin"],
                in: directory)
            #expect(verified.status == 0)
            #expect(verified.stdout.contains("Verified OK"))

            // Not vacuous: the same signature over export.bin without its header is refused.
            try directory.appendingPathComponent("body.bin").write(Array(exportBin.dropFirst(16)))
            let refused = try await Command.run(
                ["openssl", "dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "body.bin"],
                in: directory)
            #expect(refused.status != 0)
        }
    }

    @Test func zipHoldsBinThenSigDeflatedAndPythonReadsIt() async throws {
        let chunk = try SignedChunk.make(file: Self.sampleFile(), signer: ECPrivateKey.generate())
        // Both dated 1980-01-01 00:00:00 (DOS date 0x0021, time 0) whatever the time zone.
        #expect(
            centralDirectory(chunk.zip) == [
                ZipDirectoryEntry(name: "export.bin", method: 8, dosTime: 0, dosDate: 0x21),
                ZipDirectoryEntry(name: "export.sig", method: 8, dosTime: 0, dosDate: 0x21),
            ])
        // The local headers come in the same order: export.bin's is first in the file.
        #expect(Array(chunk.zip.prefix(4)) == [0x50, 0x4B, 0x03, 0x04])
        #expect(Array(chunk.zip[30..<40]) == Array("export.bin".utf8))

        try await withTemporaryDirectory { directory in
            try directory.appendingPathComponent("chunk.zip").write(chunk.zip)
            let script = """
                import sys, zipfile
                z = zipfile.ZipFile("chunk.zip")
                assert z.testzip() is None
                print(" ".join("%s:%d" % (i.filename, i.compress_type) for i in z.infolist()))
                open("bin", "wb").write(z.read("export.bin"))
                open("sig", "wb").write(z.read("export.sig"))
                """
            try directory.appendingPathComponent("read.py").write(script)
            let listing = try await Command.check(["python3", "read.py"], in: directory)
            #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "export.bin:8 export.sig:8")
            #expect(try directory.appendingPathComponent("bin").bytes() == chunk.exportBin)
            #expect(try directory.appendingPathComponent("sig").bytes() == chunk.exportSig)
        }
    }

    @Test func sameInputsGiveTheSameZipBytes() throws {
        let bin = Self.sampleFile().exportBin()
        let sig: [UInt8] = [1, 2, 3]
        #expect(
            try ChunkArchive.zip(exportBin: bin, exportSig: sig) == ChunkArchive.zip(exportBin: bin, exportSig: sig))
    }

    @Test func zipRoundTripsEmptyAndLargeEntries() throws {
        var generator = SeededGenerator(seed: 7)
        // 500,000 keys of 32 bytes, the order of a busy day: well under the 16 MB entry limit.
        let large = generator.bytes(1_000_000)
        for (bin, sig) in [([UInt8](), [UInt8]()), (large, [0x30]), ([UInt8](repeating: 0, count: 4_000_000), [])] {
            let zip = try ChunkArchive.zip(exportBin: bin, exportSig: sig)
            let (readBin, readSig) = try ChunkArchive.unzip(zip)
            #expect(readBin == bin)
            #expect(readSig == sig)
        }
    }

    @Test func zipRefusesAnEntryOverSixteenMegabytes() {
        let tooLarge = [UInt8](repeating: 0, count: ChunkArchive.maximumEntryBytes + 1)
        #expect(throws: ExportError.entryTooLarge(name: "export.bin", bytes: UInt64(tooLarge.count))) {
            try ChunkArchive.zip(exportBin: tooLarge, exportSig: [])
        }
    }

    @Test func makeRefusesFilesItCannotSignCorrectly() {
        let key = ECPrivateKey.generate()
        var file = Self.sampleFile(keys: 1)
        file.signatureInfos = []
        #expect(throws: ExportError.signatureInfoCount(0)) { try SignedChunk.make(file: file, signer: key) }
        file.signatureInfos = [Self.info, Self.info]
        #expect(throws: ExportError.signatureInfoCount(2)) { try SignedChunk.make(file: file, signer: key) }

        file.signatureInfos = [
            ExportSignatureInfo(
                verificationKeyVersion: "v1", verificationKeyID: "222", signatureAlgorithm: "1.2.840.10045.4.3.4")
        ]
        #expect(throws: ExportError.unsupportedSignatureAlgorithm("1.2.840.10045.4.3.4")) {
            try SignedChunk.make(file: file, signer: key)
        }

        file.signatureInfos = [Self.info]
        file.batchNum = 2
        file.batchSize = 3
        #expect(throws: ExportError.notSingleBatch(batchNum: 2, batchSize: 3)) {
            try SignedChunk.make(file: file, signer: key)
        }
    }
}
