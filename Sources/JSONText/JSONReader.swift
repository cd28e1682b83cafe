import DeskText

/// A small strict JSON reader, with no Foundation: theme files (TerminalKit), the HTTP API's
/// request bodies and settings files (DeskAPI, DeskServer).
///
/// Strict RFC 8259 syntax (no comments, no trailing commas), objects kept in document order
/// with duplicate keys preserved, so a theme checker can report duplicates instead of
/// silently keeping one. Numbers keep their text; the caller decides what it accepts.
/// Errors carry the byte offset so a theme author can find the mistake.
public enum JSONValue: Hashable, Sendable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// What kind of value this is, for messages ("expected an object, found a string").
    public var kind: String {
        switch self {
        case .object: return tr("json.kind.object")
        case .array: return tr("json.kind.list")
        case .string: return tr("json.kind.string")
        case .number: return tr("json.kind.number")
        case .bool: return tr("json.kind.bool")
        case .null: return tr("json.kind.null")
        }
    }
}

/// A syntax error at a byte offset (0-based) of the input.
public struct JSONSyntaxError: Error, Hashable, Sendable {
    public var offset: Int
    public var reason: String
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

/// Parses one JSON document from UTF-8 text.
public struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(utf8: Array(text.utf8))
    }

    /// Parses raw bytes; invalid UTF-8 anywhere is a syntax error (at offset 0).
    public static func parse(utf8 bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw JSONSyntaxError(offset: 0, reason: tr("json.notUTF8"))
        }
        var reader = JSONReader(bytes: bytes)
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else {
            throw reader.error(tr("json.trailingText"))
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(JSONSyntaxError) {
        for byte in literal.utf8 {
            guard current == byte else { throw error(tr("json.expectedLiteral", ["literal": literal])) }
            index += 1
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw error(tr("json.unexpectedEnd")) }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error(tr("json.expectedValue"))
        }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw error(tr("json.tooDeep")) }
        index += 1
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error(tr("json.expectedKey")) }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error(tr("json.expectedColon", ["key": key])) }
            index += 1
            members.append(JSONValue.Member(key: key, value: try value()))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error(tr("json.expectedObjectEnd", ["key": key]))
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw error(tr("json.tooDeep")) }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw error(tr("json.expectedListEnd"))
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars) }
            run.removeAll()
        }
        while true {
            guard let byte = current else { throw error(tr("json.unterminatedString")) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if scalars.isEmpty { return String(decoding: run, as: UTF8.self) }
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                guard let escaped = current else { throw error(tr("json.unterminatedString")) }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                default:
                    index -= 1
                    throw error(tr("json.unknownEscape", ["escape": "\\" + String(Character(Unicode.Scalar(escaped)))]))
                }
            case 0..<0x20:
                throw error(tr("json.controlCharacter"))
            default:
                // Copy a whole run of plain bytes at once (paddings are 150 000 characters).
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
                    bytes[index] >= 0x20
                {
                    index += 1
                }
                run.append(contentsOf: bytes[start..<index])
            }
        }
    }

    /// The scalar of a `\uXXXX` escape (index just past the `u`), joining surrogate pairs.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error(tr("json.unpairedSurrogate"))
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw error(tr("json.invalidSurrogate")) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error(tr("json.invalidEscape")) }
        return scalar
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error(tr("json.unterminatedEscape")) }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(tr("json.expectedHex"))
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            var count = 0
            while let byte = reader.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                reader.index += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error(tr("json.expectedDigits")) }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            index = integerStart
            throw error(tr("json.leadingZero"))
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error(tr("json.expectedDecimals")) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error(tr("json.expectedExponent")) }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

extension JSONValue {
    /// Compact JSON text (members in document order, numbers exactly as read).
    public var serialized: String {
        var out = ""
        write(into: &out)
        return out
    }

    public func write(into out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.key, into: &out)
                out += ":"
                member.value.write(into: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .string(let text): JSONValue.writeString(text, into: &out)
        case .number(let text): out += text
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, `/` left alone.
    public static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The value of the first member named `key` (objects only).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
