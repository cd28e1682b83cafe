import DeskExport
import Foundation
import Testing

/// Damaged or hostile input throws a precise ``ExportError`` and never crashes.
@Suite struct MalformedInputTests {
    static let header = ExportFile.header

    static func malformed(_ offset: Int, _ problem: ExportError.ProtobufProblem, part: String = "export.bin")
        -> ExportError
    {
        .malformedProtobuf(part: part, offset: offset, problem: problem)
    }

    // MARK: zip

    @Test func unzipRefusesEmptyAndRandomBytes() {
        #expect(throws: ExportError.notAZip(reason: "the data is empty")) { try ChunkArchive.unzip([]) }
        var generator = SeededGenerator(seed: 1)
        for length in [1, 4, 22, 100, 1000] {
            #expect {
                try ChunkArchive.unzip(generator.bytes(length))
            } throws: { error in
                guard case .notAZip = error as? ExportError else { return false }
                return true
            }
        }
        // The zip signature followed by garbage.
        #expect(throws: ExportError.self) { try ChunkArchive.unzip([0x50, 0x4B, 0x03, 0x04] + generator.bytes(200)) }
    }

    @Test func unzipRefusesEntriesOtherThanBinAndSig() async throws {
        try await withTemporaryDirectory { directory in
            let cases: [([(String, Int)], ExportError)] = [
                ([("export.bin", 20), ("export.sig", 10), ("extra.txt", 1)], .unexpectedEntry(name: "extra.txt")),
                ([("export.bin", 20), ("export.sign", 10)], .unexpectedEntry(name: "export.sign")),
                ([("EXPORT.BIN", 20), ("export.sig", 10)], .unexpectedEntry(name: "EXPORT.BIN")),
                ([("export.bin", 20), ("export.bin", 20), ("export.sig", 10)], .duplicateEntry(name: "export.bin")),
                ([("export.bin", 20), ("export.sig", 10), ("export.sig", 10)], .duplicateEntry(name: "export.sig")),
                ([("dir/export.bin", 20), ("export.sig", 10)], .unsafeEntryPath(name: "dir/export.bin")),
                ([("../export.bin", 20), ("export.sig", 10)], .unsafeEntryPath(name: "../export.bin")),
                ([("export.bin", 20), ("..", 10)], .unsafeEntryPath(name: "..")),
                ([("export.bin", 20)], .missingEntry(name: "export.sig")),
                ([("export.sig", 20)], .missingEntry(name: "export.bin")),
                (
                    [("export.bin", ChunkArchive.maximumEntryBytes + 1), ("export.sig", 10)],
                    .entryTooLarge(name: "export.bin", bytes: UInt64(ChunkArchive.maximumEntryBytes + 1))
                ),
            ]
            for (entries, expected) in cases {
                let zip = try await pythonZip(entries, in: directory)
                #expect(throws: expected, "\(entries.map(\.0))") { try ChunkArchive.unzip(zip) }
            }
            // Order does not matter, and python's zips read fine.
            let reversed = try await pythonZip([("export.sig", 10), ("export.bin", 20)], in: directory)
            let (bin, sig) = try ChunkArchive.unzip(reversed)
            #expect(bin == [UInt8](repeating: 0x41, count: 20))
            #expect(sig == [UInt8](repeating: 0x41, count: 10))
            // An archive with no entries at all.
            let empty = try await pythonZip([], in: directory)
            #expect(throws: ExportError.missingEntry(name: "export.bin")) { try ChunkArchive.unzip(empty) }
        }
    }

    @Test func unzipRefusesDamagedData() throws {
        let chunk = try ChunkArchive.zip(exportBin: Array(repeating: 7, count: 5000), exportSig: [1, 2, 3])
        var generator = SeededGenerator(seed: 2)
        var refused = 0
        for _ in 0..<200 {
            var damaged = chunk
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] ^= UInt8.random(
                in: 1...255, using: &generator)
            // Either libzip notices (CRC, inconsistent headers) or the flip hit a byte that does
            // not matter (a timestamp); both are fine as long as nothing crashes.
            if (try? ChunkArchive.unzip(damaged)) == nil { refused += 1 }
        }
        #expect(refused > 100)
        for length in stride(from: 0, to: chunk.count, by: 7) {
            #expect(throws: ExportError.self) { try ChunkArchive.unzip(Array(chunk.prefix(length))) }
        }
    }

    // MARK: export.bin

    @Test func everyPrefixOfTheKnownAnswerThrowsOrIsAFieldBoundary() throws {
        let bytes = try Vectors.bytes(KnownAnswerTests.katName)
        // Where a top-level field ends: such a prefix is itself a complete (shorter) message.
        let boundaries: Set = [16, 25, 34, 38, 40, 42, 73, 90, 107, 124, 137]
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            if length < 16 {
                #expect(throws: ExportError.missingHeader) { try ExportFile(exportBin: prefix) }
            } else if boundaries.contains(length) {
                #expect(throws: Never.self, "prefix \(length)") { try ExportFile(exportBin: prefix) }
            } else {
                #expect("prefix \(length)") {
                    try ExportFile(exportBin: prefix)
                } throws: { error in
                    guard case .malformedProtobuf("export.bin", let offset, _) = error as? ExportError else {
                        return false
                    }
                    // The offset is where the incomplete field starts, at most the end of the data.
                    return (16...length).contains(offset)
                }
            }
        }
        // The header alone is an empty message: everything at its proto2 default.
        let empty = try ExportFile(exportBin: Self.header)
        #expect(empty == ExportFile(startTimestamp: 0, endTimestamp: 0, region: "", batchNum: 0, batchSize: 0))
    }

    @Test func everyPrefixOfAnExportSigThrowsOrDecodes() throws {
        let zip = try Vectors.bytes("generated_valid_chunk_222.zip")
        let sig = try ChunkArchive.unzip(zip).exportSig
        for length in 0..<sig.count {
            let prefix = Array(sig.prefix(length))
            if length == 0 {
                #expect(try ExportSignatureList.decode(prefix) == [])
            } else {
                #expect(throws: ExportError.self, "prefix \(length)") { try ExportSignatureList.decode(prefix) }
            }
        }
    }

    @Test func randomCorruptionNeverCrashesTheDecoder() throws {
        let originals = [
            try Vectors.bytes(KnownAnswerTests.katName),
            try ChunkArchive.unzip(try Vectors.bytes("generated_valid_chunk_222.zip")).exportBin,
        ]
        var generator = SeededGenerator(seed: 3)
        for original in originals {
            for _ in 0..<1000 {
                var damaged = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let at = Int.random(in: 16..<damaged.count, using: &generator)
                    damaged[at] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = try? ExportFile(exportBin: damaged)
                _ = try? ExportSignatureList.decode(Array(damaged.dropFirst(16)))
            }
        }
    }

    @Test func wrongHeaderIsRefused() {
        for header in ["EK Export v2    ", "EK Export v1\0\0\0\0", "ek export v1    ", "EK Export v1   \t"] {
            #expect(throws: ExportError.missingHeader) { try ExportFile(exportBin: Array(header.utf8) + [0x20, 0x01]) }
        }
        #expect(throws: ExportError.missingHeader) { try ExportFile(exportBin: []) }
    }

    @Test func overlongVarintsAreRefused() throws {
        // Eleven bytes for batch_num.
        let eleven: [UInt8] = [0x20] + Array(repeating: 0xFF, count: 10) + [0x01]
        #expect(throws: Self.malformed(17, .overlongVarint)) { try ExportFile(exportBin: Self.header + eleven) }
        // Ten bytes, but the last one carries bits above 2^64.
        let wide: [UInt8] = [0x20] + Array(repeating: 0xFF, count: 9) + [0x02]
        #expect(throws: Self.malformed(17, .overlongVarint)) { try ExportFile(exportBin: Self.header + wide) }
        // An overlong tag.
        #expect(throws: Self.malformed(16, .overlongVarint)) {
            try ExportFile(exportBin: Self.header + Array(repeating: 0x80, count: 11) + [0x00])
        }
        // Ten bytes ending in 0x01 is the longest legal varint: a negative int32.
        let negative: [UInt8] = [0x20] + Array(repeating: 0xFF, count: 9) + [0x01]
        #expect(try ExportFile(exportBin: Self.header + negative).batchNum == -1)
        // Non-minimal but short varints are legal protobuf.
        #expect(try ExportFile(exportBin: Self.header + [0x20, 0x81, 0x80, 0x00]).batchNum == 1)
    }

    @Test func truncatedVarintsAndFixedFieldsAreRefused() {
        #expect(throws: Self.malformed(17, .truncated)) { try ExportFile(exportBin: Self.header + [0x20, 0xFF]) }
        #expect(throws: Self.malformed(16, .truncated)) { try ExportFile(exportBin: Self.header + [0x80]) }
        #expect(throws: Self.malformed(17, .truncated)) {
            try ExportFile(exportBin: Self.header + [0x09, 1, 2, 3, 4, 5, 6, 7])
        }
        #expect(throws: Self.malformed(17, .truncated)) { try ExportFile(exportBin: Self.header + [0x4D, 1, 2, 3]) }
    }

    @Test func lengthsPastTheEndAreRefused() {
        #expect(throws: Self.malformed(17, .lengthPastEnd)) {
            try ExportFile(exportBin: Self.header + [0x1A, 0x05, 0x55, 0x53])
        }
        // A length of 2^63: no overflow, just past the end.
        let huge: [UInt8] = [0x1A] + Array(repeating: 0xFF, count: 8) + [0x7F]
        #expect(throws: Self.malformed(17, .lengthPastEnd)) { try ExportFile(exportBin: Self.header + huge) }
        #expect(throws: Self.malformed(1, .lengthPastEnd, part: "export.sig")) {
            try ExportSignatureList.decode([0x0A, 0x10, 0x00])
        }
    }

    @Test func fieldsRunningPastTheirEnclosingMessageAreRefused() {
        // A key message of 3 bytes whose key_data claims 5 bytes; the file goes on for 10 more.
        let bytes = Self.header + [0x3A, 0x03, 0x0A, 0x05, 0x41] + Array(repeating: 0x00, count: 10)
        #expect(throws: Self.malformed(19, .overrunsEnclosingMessage)) { try ExportFile(exportBin: bytes) }
        // A key message of 2 bytes ending inside a varint.
        let varint = Self.header + [0x3A, 0x02, 0x10, 0xFF, 0x01]
        #expect(throws: Self.malformed(19, .overrunsEnclosingMessage)) { try ExportFile(exportBin: varint) }
        // A malformed SignatureInfo inside a TEKSignature inside export.sig.
        #expect(throws: Self.malformed(4, .unsupportedWireType(3), part: "export.sig")) {
            try ExportSignatureList.decode([0x0A, 0x03, 0x0A, 0x01, 0x0B])
        }
    }

    @Test(arguments: [3, 4, 6, 7] as [UInt8])
    func groupAndUndefinedWireTypesAreRefused(_ wireType: UInt8) {
        let tag = UInt8(9 << 3) | wireType
        #expect(throws: Self.malformed(18, .unsupportedWireType(wireType))) {
            try ExportFile(exportBin: Self.header + [0x20, 0x01, tag, 0x00])
        }
        // Also inside a key.
        #expect(throws: Self.malformed(18, .unsupportedWireType(wireType))) {
            try ExportFile(exportBin: Self.header + [0x3A, 0x02, tag, 0x00])
        }
    }

    @Test func fieldNumberZeroIsRefused() {
        #expect(throws: Self.malformed(16, .invalidFieldNumber)) {
            try ExportFile(exportBin: Self.header + [0x00, 0x00])
        }
        // Field number 2^29 does not fit the 29 bits protobuf allows.
        #expect(throws: Self.malformed(16, .invalidFieldNumber)) {
            try ExportFile(exportBin: Self.header + [0x80, 0x80, 0x80, 0x80, 0x20, 0x00])
        }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: Self.malformed(18, .invalidUTF8(field: "region"))) {
            try ExportFile(exportBin: Self.header + [0x1A, 0x02, 0xC3, 0x28])
        }
    }

    @Test func unknownFieldsAndUnexpectedWireTypesAreSkipped() throws {
        var bytes = Self.header
        bytes += [0x08, 0x05]  // field 1 as a varint instead of fixed64: unknown, skipped
        bytes += [0x48, 0x96, 0x01]  // field 9, varint
        bytes += [0x55, 1, 2, 3, 4]  // field 10, fixed32
        bytes += [0x59, 1, 2, 3, 4, 5, 6, 7, 8]  // field 11, fixed64
        bytes += [0x62, 0x03, 0x61, 0x62, 0x63]  // field 12, bytes
        bytes += [0xFA, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]  // field 2^29 - 1, empty bytes
        // A key with variant_of_concern (field 8) and a field 7.
        bytes += [0x3A, 0x09, 0x0A, 0x01, 0x41, 0x18, 0x05, 0x38, 0x01, 0x40, 0x02]
        let file = try ExportFile(exportBin: bytes)
        #expect(file.startTimestamp == 0)
        #expect(file.keys == [ExportKey(keyData: [0x41], rollingStartIntervalNumber: 5)])
    }

    @Test func lastValueWinsForSingularFieldsAndRepeatedFieldsKeepTheirOrder() throws {
        var bytes = Self.header
        bytes += [0x1A, 0x02] + Array("US".utf8) + [0x1A, 0x03] + Array("222".utf8)
        bytes += [0x20, 0x05, 0x20, 0x01]
        bytes += [0x3A, 0x05, 0x0A, 0x01, 0x01, 0x18, 0x01]
        bytes += [0x42, 0x05, 0x0A, 0x01, 0x03, 0x18, 0x03]
        bytes += [0x3A, 0x07, 0x0A, 0x01, 0x02, 0x18, 0x02, 0x18, 0x07]
        let file = try ExportFile(exportBin: bytes)
        #expect(file.region == "222")
        #expect(file.batchNum == 1)
        #expect(file.keys.map(\.keyData) == [[1], [2]])
        #expect(file.keys.map(\.rollingStartIntervalNumber) == [1, 7])
        #expect(file.revisedKeys.map(\.keyData) == [[3]])
    }

    @Test func legacySignatureInfoFieldsAreReadAsDocumented() throws {
        // Field 1 (app_bundle_id) is kept, field 2 (android_package) ignored.
        var info: [UInt8] = [0x0A, 0x03] + Array("app".utf8) + [0x12, 0x03] + Array("pkg".utf8)
        info += [0x1A, 0x02] + Array("v1".utf8) + [0x22, 0x03] + Array("222".utf8)
        let file = try ExportFile(exportBin: Self.header + [0x32, UInt8(info.count)] + info)
        #expect(
            file.signatureInfos == [
                ExportSignatureInfo(
                    appBundleID: "app", verificationKeyVersion: "v1", verificationKeyID: "222", signatureAlgorithm: "")
            ])
    }

    @Test func errorMessagesSayWhatIsWrongAndNeverShowKeyBytes() throws {
        #expect(ExportError.missingHeader.message.hasPrefix("export.bin does not start with the EK Export v1 header"))
        #expect(Self.malformed(42, .truncated).message.hasPrefix("export.bin: truncated protobuf at byte 42"))
        #expect(
            ExportError.notAZip(reason: "Not a zip archive").message.hasPrefix("not a chunk zip: Not a zip archive"))
        #expect(ExportError.unexpectedEntry(name: "a\u{1B}[2Jb").message.contains("a?[2Jb"))
        let longName = String(repeating: "x", count: 500)
        #expect(ExportError.unexpectedEntry(name: longName).message.count < 300)

        // A key inside a damaged file: the error names positions, not bytes.
        let secret: [UInt8] = Array("SECRETKEYBYTES!!".utf8)
        let file = ExportFile(
            startTimestamp: 1, endTimestamp: 2, region: "222",
            keys: [ExportKey(keyData: secret, rollingStartIntervalNumber: 1)])
        var damaged = file.exportBin()
        damaged.append(0x0B)
        do {
            _ = try ExportFile(exportBin: damaged)
            Issue.record("expected an error")
        } catch {
            #expect(!error.message.contains("SECRET"))
            #expect(!"\(error)".contains("SECRET"))
        }
    }
}
