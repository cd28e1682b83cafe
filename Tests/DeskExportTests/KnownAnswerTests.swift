import DeskCrypto
import DeskExport
import Testing

/// The byte-exact known answer reconstructed from Google's `TestMarshalUnmarshalExportFile`
/// (vectors README): our encoder must reproduce the reference server's bytes.
@Suite struct KnownAnswerTests {
    static let katName = "kat_google-server_exportfile_test_export.bin"

    /// The inputs listed for the KAT in the vectors README.
    static let katFile = ExportFile(
        startTimestamp: 1_588_291_200, endTimestamp: 1_588_294_800, region: "US", batchNum: 1, batchSize: 1,
        signatureInfos: [ExportSignatureInfo(verificationKeyVersion: "1", verificationKeyID: "310")],
        keys: [
            ExportKey(
                keyData: Array("ABC".utf8), transmissionRiskLevel: 8, rollingStartIntervalNumber: 18,
                rollingPeriod: 0, reportType: 2, daysSinceOnsetOfSymptoms: 0),
            ExportKey(
                keyData: Array("DEF".utf8), transmissionRiskLevel: 1, rollingStartIntervalNumber: 118,
                rollingPeriod: 1, reportType: 1, daysSinceOnsetOfSymptoms: -1),
            ExportKey(
                keyData: Array("GHI".utf8), transmissionRiskLevel: 5, rollingStartIntervalNumber: 118,
                rollingPeriod: 1, reportType: 3, daysSinceOnsetOfSymptoms: -1),
        ],
        revisedKeys: [
            ExportKey(
                keyData: Array("123".utf8), transmissionRiskLevel: 4, rollingStartIntervalNumber: 100,
                reportType: 5)
        ])

    @Test func encoderReproducesTheReferenceServerBytes() throws {
        let expected = try Vectors.bytes(Self.katName)
        let encoded = Self.katFile.exportBin()
        #expect(encoded == expected)
        #expect(
            Hex.encode(SHA256.digest(encoded)) == "868f40a943e5797a06b38c1ce4f11453b32f6d3a03af212743eac9f056f51ef7")
    }

    @Test func decodingTheKnownAnswerGivesTheInputsAndReencodesIdentically() throws {
        let bytes = try Vectors.bytes(Self.katName)
        let decoded = try ExportFile(exportBin: bytes)
        #expect(decoded == Self.katFile)
        #expect(decoded.exportBin() == bytes)
        #expect(decoded.revisedKeys[0].rollingPeriod == nil)
        #expect(decoded.revisedKeys[0].effectiveRollingPeriod == 144)
        #expect(decoded.keys[0].effectiveRollingPeriod == 0)
    }

    @Test func headerIsEKExportV1PaddedToSixteenBytes() {
        #expect(
            ExportFile.header == [
                0x45, 0x4B, 0x20, 0x45, 0x78, 0x70, 0x6F, 0x72, 0x74, 0x20, 0x76, 0x31, 0x20, 0x20, 0x20, 0x20,
            ])
    }

    /// The bytes of one key message inside export.bin (after the field-7 tag and length).
    static func keyBytes(_ key: ExportKey) -> [UInt8] {
        let file = ExportFile(startTimestamp: 0, endTimestamp: 0, region: "", keys: [key])
        let all = file.exportBin()
        // header, 9 + 8, 17 + 8, 1a 00, 20 01, 28 01, then 3a LEN and the key.
        let keyStart = 16 + 9 + 9 + 2 + 2 + 2
        #expect(all[keyStart] == 0x3A)
        return Array(all[(keyStart + 2)...])
    }

    @Test func daysSinceOnsetIsZigzagSoMinusOneIsOneByte() throws {
        let key = ExportKey(keyData: [0xAA], rollingStartIntervalNumber: 1, daysSinceOnsetOfSymptoms: -1)
        #expect(Self.keyBytes(key) == [0x0A, 0x01, 0xAA, 0x18, 0x01, 0x30, 0x01])
        for (value, wire) in [(0, [0x00]), (1, [0x02]), (-2, [0x03]), (14, [0x1C]), (-14, [0x1B])] as [(Int32, [UInt8])]
        {
            let bytes = Self.keyBytes(
                ExportKey(keyData: [], rollingStartIntervalNumber: 1, daysSinceOnsetOfSymptoms: value))
            #expect(Array(bytes.suffix(wire.count + 1)) == [0x30] + wire)
        }
        for value: Int32 in [-1, 0, 1, -14, 14, .min, .max] {
            let file = ExportFile(
                startTimestamp: 1, endTimestamp: 2, region: "222",
                keys: [ExportKey(keyData: [1], rollingStartIntervalNumber: 1, daysSinceOnsetOfSymptoms: value)])
            #expect(try ExportFile(exportBin: file.exportBin()) == file)
        }
    }

    @Test func negativeInt32IsATenByteVarintAsProtobufWritesIt() throws {
        let key = ExportKey(keyData: [], transmissionRiskLevel: -1, rollingStartIntervalNumber: 1)
        #expect(
            Self.keyBytes(key) == [
                0x0A, 0x00, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x18, 0x01,
            ])
        let file = ExportFile(startTimestamp: 0, endTimestamp: 0, region: "", keys: [key])
        #expect(try ExportFile(exportBin: file.exportBin()).keys == [key])
        let minimum = ExportKey(keyData: [], transmissionRiskLevel: .min, rollingStartIntervalNumber: .min)
        let extremes = ExportFile(startTimestamp: .max, endTimestamp: .max, region: "", keys: [minimum])
        #expect(try ExportFile(exportBin: extremes.exportBin()) == extremes)
    }

    @Test func timestampsAreLittleEndianFixed64() {
        let file = ExportFile(startTimestamp: 0x0102_0304_0506_0708, endTimestamp: 1, region: "")
        let bytes = file.exportBin()
        #expect(Array(bytes[16..<25]) == [0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        #expect(Array(bytes[25..<34]) == [0x11, 0x01, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func appBundleIDIsWrittenOnlyWhenNonEmpty() throws {
        func infoBytes(_ appBundleID: String?) -> [UInt8] {
            let info = ExportSignatureInfo(
                appBundleID: appBundleID, verificationKeyVersion: "v1", verificationKeyID: "222")
            return ExportSignatureList.encode([ExportSignature(signatureInfo: info, signature: [])])
        }
        #expect(infoBytes(nil) == infoBytes(""))
        let withID = infoBytes("it.ministerodellasalute.immuni")
        #expect(withID.count == infoBytes(nil).count + 2 + 30)
        let decoded = try ExportSignatureList.decode(withID)
        #expect(decoded.first?.signatureInfo.appBundleID == "it.ministerodellasalute.immuni")
        #expect(try ExportSignatureList.decode(infoBytes(nil)).first?.signatureInfo.appBundleID == nil)
    }

    @Test func signatureListEncodesFieldsInOrder() throws {
        let info = ExportSignatureInfo(verificationKeyVersion: "v1", verificationKeyID: "222")
        let list = ExportSignatureList.encode([ExportSignature(signatureInfo: info, signature: [0x30, 0x00])])
        let infoBytes: [UInt8] =
            [0x1A, 0x02] + Array("v1".utf8) + [0x22, 0x03] + Array("222".utf8) + [0x2A, 0x13]
            + Array("1.2.840.10045.4.3.2".utf8)
        let signature: [UInt8] =
            [0x0A, UInt8(infoBytes.count)] + infoBytes + [0x10, 0x01, 0x18, 0x01, 0x22, 0x02, 0x30, 0x00]
        #expect(list == [0x0A, UInt8(signature.count)] + signature)
        #expect(
            try ExportSignatureList.decode(list) == [ExportSignature(signatureInfo: info, signature: [0x30, 0x00])])
        #expect(try ExportSignatureList.decode([]) == [])
    }
}
