extension ExportFile {
    /// The complete export.bin: ``header``, then the message with its fields in field-number
    /// order (1–8), repeated fields in array order.
    public func exportBin() -> [UInt8] {
        var writer = ProtobufWriter(prefix: Self.header)
        writer.fixed64(1, startTimestamp)
        writer.fixed64(2, endTimestamp)
        writer.string(3, region)
        writer.int32(4, batchNum)
        writer.int32(5, batchSize)
        for info in signatureInfos {
            writer.message(6) { info.write(to: &$0) }
        }
        for key in keys {
            writer.message(7) { key.write(to: &$0) }
        }
        for key in revisedKeys {
            writer.message(8) { key.write(to: &$0) }
        }
        return writer.bytes
    }

    /// Reads an export.bin: checks the 16-byte header, then decodes the message with proto2
    /// rules. Unknown fields (of any valid wire type) and known fields with an unexpected wire
    /// type are skipped; malformed input throws ``ExportError/malformedProtobuf(part:offset:problem:)``.
    public init(exportBin bytes: [UInt8]) throws(ExportError) {
        guard bytes.count >= Self.header.count, bytes.starts(with: Self.header) else { throw .missingHeader }
        self.init(startTimestamp: 0, endTimestamp: 0, region: "", batchNum: 0, batchSize: 0)
        var reader = ProtobufReader(bytes: bytes, range: Self.header.count..<bytes.count, part: "export.bin")
        while let (field, value) = try reader.next() {
            switch field {
            case 1: if let number = value.fixed64 { startTimestamp = number }
            case 2: if let number = value.fixed64 { endTimestamp = number }
            case 3: if let range = value.payload { region = try reader.string(range, name: "region") }
            case 4: if let number = value.int32 { batchNum = number }
            case 5: if let number = value.int32 { batchSize = number }
            case 6:
                if let range = value.payload { signatureInfos.append(try ExportSignatureInfo(reader.nested(range))) }
            case 7: if let range = value.payload { keys.append(try ExportKey(reader.nested(range))) }
            case 8: if let range = value.payload { revisedKeys.append(try ExportKey(reader.nested(range))) }
            default: break
            }
        }
    }
}

extension ExportKey {
    func write(to writer: inout ProtobufWriter) {
        writer.bytes(1, keyData)
        if let transmissionRiskLevel { writer.int32(2, transmissionRiskLevel) }
        writer.int32(3, rollingStartIntervalNumber)
        if let rollingPeriod { writer.int32(4, rollingPeriod) }
        if let reportType { writer.int32(5, reportType) }
        if let daysSinceOnsetOfSymptoms { writer.sint32(6, daysSinceOnsetOfSymptoms) }
    }

    init(_ reader: ProtobufReader) throws(ExportError) {
        var reader = reader
        self.init(keyData: [], rollingStartIntervalNumber: 0)
        while let (field, value) = try reader.next() {
            switch field {
            case 1: if let range = value.payload { keyData = Array(reader.bytes[range]) }
            case 2: if let number = value.int32 { transmissionRiskLevel = number }
            case 3: if let number = value.int32 { rollingStartIntervalNumber = number }
            case 4: if let number = value.int32 { rollingPeriod = number }
            case 5: if let number = value.int32 { reportType = number }
            case 6: if let number = value.sint32 { daysSinceOnsetOfSymptoms = number }
            default: break
            }
        }
    }
}

extension ExportSignatureInfo {
    func write(to writer: inout ProtobufWriter) {
        if let appBundleID, !appBundleID.isEmpty { writer.string(1, appBundleID) }
        writer.string(3, verificationKeyVersion)
        writer.string(4, verificationKeyID)
        writer.string(5, signatureAlgorithm)
    }

    /// An empty info (fields 3–5 are "" when absent), for decoding into.
    static let absent = ExportSignatureInfo(verificationKeyVersion: "", verificationKeyID: "", signatureAlgorithm: "")

    init(_ reader: ProtobufReader) throws(ExportError) {
        self = .absent
        try merge(reader)
    }

    /// Proto2 merge: fields present in `reader` replace the current values, so a
    /// SignatureInfo sent twice in one TEKSignature combines like protobuf runtimes do.
    mutating func merge(_ reader: ProtobufReader) throws(ExportError) {
        var reader = reader
        while let (field, value) = try reader.next() {
            switch field {
            case 1: if let range = value.payload { appBundleID = try reader.string(range, name: "app_bundle_id") }
            case 3:
                if let range = value.payload {
                    verificationKeyVersion = try reader.string(range, name: "verification_key_version")
                }
            case 4:
                if let range = value.payload {
                    verificationKeyID = try reader.string(range, name: "verification_key_id")
                }
            case 5:
                if let range = value.payload {
                    signatureAlgorithm = try reader.string(range, name: "signature_algorithm")
                }
            // Field 2 (android_package) is reserved: skipped like any unknown field.
            default: break
            }
        }
    }
}

/// export.sig: the protobuf `TEKSignatureList` (no header), one entry per signing key.
public enum ExportSignatureList {
    /// The bytes of export.sig for `signatures`, in array order.
    public static func encode(_ signatures: [ExportSignature]) -> [UInt8] {
        var writer = ProtobufWriter()
        for signature in signatures {
            writer.message(1) { nested in
                nested.message(1) { signature.signatureInfo.write(to: &$0) }
                nested.int32(2, signature.batchNum)
                nested.int32(3, signature.batchSize)
                nested.bytes(4, signature.signature)
            }
        }
        return writer.bytes
    }

    /// Reads export.sig. A signature without a SignatureInfo gets an empty one; absent batch
    /// numbers read as 0 (the proto2 default).
    public static func decode(_ bytes: [UInt8]) throws(ExportError) -> [ExportSignature] {
        var reader = ProtobufReader(bytes: bytes, range: 0..<bytes.count, part: "export.sig")
        var signatures: [ExportSignature] = []
        while let (field, value) = try reader.next() {
            guard field == 1, let range = value.payload else { continue }
            signatures.append(try ExportSignature(reader.nested(range)))
        }
        return signatures
    }
}

extension ExportSignature {
    init(_ reader: ProtobufReader) throws(ExportError) {
        var reader = reader
        self.init(
            signatureInfo: .absent, batchNum: 0, batchSize: 0, signature: [])
        while let (field, value) = try reader.next() {
            switch field {
            case 1: if let range = value.payload { try signatureInfo.merge(reader.nested(range)) }
            case 2: if let number = value.int32 { batchNum = number }
            case 3: if let number = value.int32 { batchSize = number }
            case 4: if let range = value.payload { signature = Array(reader.bytes[range]) }
            default: break
            }
        }
    }
}
