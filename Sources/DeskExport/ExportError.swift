/// Why a chunk (GAEN key export zip), its `export.bin` or its `export.sig` could not be written
/// or read.
///
/// Every case's ``message`` says what is wrong and what to do next. Messages never contain key
/// bytes or signatures; entry names read from a zip are shortened and stripped of control
/// characters before they are shown.
public enum ExportError: Error, Hashable, Sendable {
    /// The bytes are not a zip archive libzip can open; `reason` is libzip's explanation.
    case notAZip(reason: String)
    /// The zip holds an entry other than `export.bin` and `export.sig`.
    case unexpectedEntry(name: String)
    /// An entry name with a directory part (`/`, `\`) or a `..` component.
    case unsafeEntryPath(name: String)
    /// The zip holds `name` more than once.
    case duplicateEntry(name: String)
    /// The zip lacks `export.bin` or `export.sig`.
    case missingEntry(name: String)
    /// An entry bigger than ``ChunkArchive/maximumEntryBytes`` (its uncompressed size).
    case entryTooLarge(name: String, bytes: UInt64)
    /// An encrypted entry: chunks are never encrypted.
    case encryptedEntry(name: String)
    /// libzip could not read an entry (bad compressed data, CRC mismatch); `reason` is libzip's.
    case unreadableEntry(name: String, reason: String)
    /// libzip could not build the zip; `reason` is libzip's explanation.
    case zipWriteFailed(reason: String)
    /// `export.bin` does not start with the 16 bytes `EK Export v1` + 4 spaces.
    case missingHeader
    /// The protobuf in `part` (`export.bin` or `export.sig`) is malformed at byte `offset` of
    /// that file (the header counts: the first protobuf byte of export.bin is byte 16).
    case malformedProtobuf(part: String, offset: Int, problem: ProtobufProblem)
    /// ``SignedChunk/make(file:signer:)`` needs exactly one SignatureInfo; `count` were given.
    case signatureInfoCount(Int)
    /// ``SignedChunk/make(file:signer:)`` writes batch 1 of 1 only (Apple requires it).
    case notSingleBatch(batchNum: Int32, batchSize: Int32)
    /// The SignatureInfo names an algorithm other than ECDSA P-256 with SHA-256, which is the
    /// only one the signer produces.
    case unsupportedSignatureAlgorithm(String)

    /// What exactly is wrong with a protobuf message.
    public enum ProtobufProblem: Hashable, Sendable {
        /// The data ends inside a field.
        case truncated
        /// A field runs past the end of the message that contains it.
        case overrunsEnclosingMessage
        /// A varint longer than 10 bytes or wider than 64 bits.
        case overlongVarint
        /// A length prefix pointing past the end of the data.
        case lengthPastEnd
        /// Wire type 3 or 4 (groups) or the undefined 6 and 7.
        case unsupportedWireType(UInt8)
        /// Field number 0 or above 2^29 − 1.
        case invalidFieldNumber
        /// A string field whose bytes are not UTF-8; `field` names it.
        case invalidUTF8(field: String)
    }

    /// One or two sentences: what is wrong, then what to do.
    public var message: String {
        switch self {
        case .notAZip(let reason):
            return "not a chunk zip: \(reason); chunks are zip files holding export.bin and export.sig, "
                + "check that the whole file was downloaded."
        case .unexpectedEntry(let name):
            return "not a chunk zip: it holds \"\(Self.shown(name))\", but a chunk holds only export.bin and "
                + "export.sig at its root; rebuild the zip with exactly these two entries."
        case .unsafeEntryPath(let name):
            return "not a chunk zip: the entry \"\(Self.shown(name))\" has a directory or \"..\" in its name; "
                + "export.bin and export.sig must sit at the zip root."
        case .duplicateEntry(let name):
            return "not a chunk zip: \(Self.shown(name)) appears more than once; a chunk holds it exactly once."
        case .missingEntry(let name):
            return "not a chunk zip: \(name) is missing; a chunk holds both export.bin and export.sig."
        case .entryTooLarge(let name, let bytes):
            return "not a chunk zip: \(Self.shown(name)) is \(bytes) bytes uncompressed, over the "
                + "\(ChunkArchive.maximumEntryBytes)-byte limit; split the keys into several chunks."
        case .encryptedEntry(let name):
            return "not a chunk zip: \(Self.shown(name)) is encrypted; chunks are never encrypted."
        case .unreadableEntry(let name, let reason):
            return "not a chunk zip: \(Self.shown(name)) cannot be read (\(reason)); the file is damaged, "
                + "download it again."
        case .zipWriteFailed(let reason):
            return "could not build the chunk zip: \(reason)."
        case .missingHeader:
            return "export.bin does not start with the EK Export v1 header (\"EK Export v1\" and four spaces); "
                + "it is not a GAEN key export."
        case .malformedProtobuf(let part, let offset, let problem):
            return "\(part): \(Self.describe(problem)) at byte \(offset); the file is damaged or not a GAEN "
                + "key export, download or rebuild it."
        case .signatureInfoCount(let count):
            return "a signed chunk needs exactly one SignatureInfo in export.bin, found \(count); "
                + "set signatureInfos to the signing key's info only."
        case .notSingleBatch(let batchNum, let batchSize):
            return "chunks are always batch 1 of 1 (Apple requires it), this one is batch \(batchNum) of "
                + "\(batchSize); write several 1-of-1 chunks instead."
        case .unsupportedSignatureAlgorithm(let algorithm):
            return "the signature algorithm \"\(Self.shown(algorithm))\" is not supported; use "
                + "\(ExportSignatureInfo.ecdsaP256SHA256) (ECDSA P-256 with SHA-256)."
        }
    }

    private static func describe(_ problem: ProtobufProblem) -> String {
        switch problem {
        case .truncated: return "truncated protobuf"
        case .overrunsEnclosingMessage: return "a field runs past the end of its enclosing message"
        case .overlongVarint: return "varint longer than 10 bytes"
        case .lengthPastEnd: return "length points past the end of the data"
        case .unsupportedWireType(let type): return "unsupported protobuf wire type \(type)"
        case .invalidFieldNumber: return "invalid protobuf field number"
        case .invalidUTF8(let field): return "\(field) is not UTF-8"
        }
    }

    /// A name read from a file, made safe to print: control characters become `?` and long
    /// names are cut at 80 characters.
    public static func shown(_ name: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? "?" : scalar
                }))
        return cleaned.count > 80 ? String(cleaned.prefix(80)) + "…" : cleaned
    }
}
