/// The protobuf wire format, as far as GAEN export files need it: varints, zigzag, fixed64 and
/// length-delimited fields. Hand-written because the package takes no outside Swift packages
/// and the messages are small and frozen.
enum WireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// Appends protobuf fields to a byte array. Callers write fields in field-number order.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init(prefix: [UInt8] = []) {
        bytes = prefix
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func tag(_ field: Int, _ wireType: WireType) {
        varint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// int32 and enum fields: a negative value is sign-extended to 64 bits, so it takes 10
    /// bytes, exactly as every protobuf runtime writes it.
    mutating func int32(_ field: Int, _ value: Int32) {
        tag(field, .varint)
        varint(UInt64(bitPattern: Int64(value)))
    }

    /// sint32 fields: zigzag, so small negative numbers stay short (−1 → 0x01).
    mutating func sint32(_ field: Int, _ value: Int32) {
        tag(field, .varint)
        varint(UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31))))
    }

    /// fixed64 fields: 8 bytes, little-endian.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func bytes(_ field: Int, _ value: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    /// A nested message, built by `body` into its own buffer and written length-prefixed.
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        bytes(field, nested.bytes)
    }
}

/// Reads protobuf fields one at a time from a range of a byte array, throwing on malformed
/// input. Offsets in errors are positions in the whole array (the file), not in the message.
struct ProtobufReader {
    /// The value of one field, with the raw payload of length-delimited ones as a range.
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case lengthDelimited(Range<Int>)
    }

    let bytes: [UInt8]
    /// `export.bin` or `export.sig`, for error messages.
    let part: String
    private(set) var position: Int
    let end: Int

    init(bytes: [UInt8], range: Range<Int>, part: String) {
        self.bytes = bytes
        self.part = part
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// A reader for a nested message held in `range` of the same bytes.
    func nested(_ range: Range<Int>) -> ProtobufReader {
        ProtobufReader(bytes: bytes, range: range, part: part)
    }

    /// The next field, or nil at the end of the message. Wire types 3, 4, 6 and 7 throw.
    mutating func next() throws(ExportError) -> (field: Int, value: Value)? {
        guard position < end else { return nil }
        let start = position
        let key = try varint()
        let field = key >> 3
        guard field >= 1, field <= (1 << 29) - 1 else { throw failure(.invalidFieldNumber, at: start) }
        let type = UInt8(key & 7)
        switch WireType(rawValue: type) {
        case .varint:
            return (Int(field), .varint(try varint()))
        case .fixed64:
            let payload = try take(8)
            var value: UInt64 = 0
            for index in payload.reversed() { value = value << 8 | UInt64(bytes[index]) }
            return (Int(field), .fixed64(value))
        case .fixed32:
            let payload = try take(4)
            var value: UInt32 = 0
            for index in payload.reversed() { value = value << 8 | UInt32(bytes[index]) }
            return (Int(field), .fixed32(value))
        case .lengthDelimited:
            let lengthStart = position
            let length = try varint()
            guard length <= UInt64(end - position) else {
                // Past the end of the file, or only past the end of the enclosing message.
                throw failure(
                    UInt64(bytes.count - position) >= length ? .overrunsEnclosingMessage : .lengthPastEnd,
                    at: lengthStart)
            }
            let payload = position..<(position + Int(length))
            position = payload.upperBound
            return (Int(field), .lengthDelimited(payload))
        case nil:
            throw failure(.unsupportedWireType(type), at: start)
        }
    }

    /// The payload of a length-delimited field as UTF-8 text; `name` names the field in errors.
    func string(_ range: Range<Int>, name: String) throws(ExportError) -> String {
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw failure(.invalidUTF8(field: name), at: range.lowerBound)
        }
        return text
    }

    private mutating func varint() throws(ExportError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        for index in 0..<10 {
            guard position < end else { throw endFailure(at: start) }
            let byte = bytes[position]
            position += 1
            // The 10th byte holds bit 63 only; anything more is an overlong or 65-bit varint.
            if index == 9, byte > 1 { throw failure(.overlongVarint, at: start) }
            value |= UInt64(byte & 0x7F) << UInt64(7 * index)
            if byte & 0x80 == 0 { return value }
        }
        throw failure(.overlongVarint, at: start)
    }

    private mutating func take(_ count: Int) throws(ExportError) -> Range<Int> {
        guard end - position >= count else { throw endFailure(at: position) }
        defer { position += count }
        return position..<(position + count)
    }

    /// Running out of data is truncation at the end of the file, and a nesting error inside.
    private func endFailure(at offset: Int) -> ExportError {
        failure(end == bytes.count ? .truncated : .overrunsEnclosingMessage, at: offset)
    }

    func failure(_ problem: ExportError.ProtobufProblem, at offset: Int) -> ExportError {
        .malformedProtobuf(part: part, offset: offset, problem: problem)
    }
}

extension ProtobufReader.Value {
    /// int32 and enum fields: the low 32 bits of the varint, as every protobuf runtime reads it.
    var int32: Int32? {
        guard case .varint(let raw) = self else { return nil }
        return Int32(truncatingIfNeeded: raw)
    }

    /// sint32 fields: zigzag over the low 32 bits.
    var sint32: Int32? {
        guard case .varint(let raw) = self else { return nil }
        let low = UInt32(truncatingIfNeeded: raw)
        return Int32(bitPattern: (low >> 1) ^ (0 &- (low & 1)))
    }

    var fixed64: UInt64? {
        guard case .fixed64(let value) = self else { return nil }
        return value
    }

    var payload: Range<Int>? {
        guard case .lengthDelimited(let range) = self else { return nil }
        return range
    }
}
