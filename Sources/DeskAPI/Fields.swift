import CivilCalendar
import JSONText

/// What is wrong with one field, worded for the `detail` of an error body. Never holds the
/// value that was sent.
public struct FieldProblem: Error, Hashable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
}

/// Reads the members of one JSON object with strict types and names the path of any problem.
struct ObjectReader {
    let path: String
    /// Small objects (a key, a summary: the common case) are searched in order; large ones
    /// through a dictionary, so that a body with thousands of members stays linear.
    private let list: [JSONValue.Member]
    private var index: [String: JSONValue]?

    var keys: [String] { list.map(\.key) }

    init(_ value: JSONValue, path: String) throws(FieldProblem) {
        self.path = path
        guard case .object(let list) = value else {
            throw FieldProblem("\(path.isEmpty ? "the body" : path) must be a JSON object, not \(value.kind)")
        }
        self.list = list
        if list.count <= 16 {
            for (i, member) in list.enumerated() where list[..<i].contains(where: { $0.key == member.key }) {
                throw FieldProblem("\(name(member.key)) appears more than once")
            }
        } else {
            var index: [String: JSONValue] = [:]
            index.reserveCapacity(list.count)
            for member in list {
                if index.updateValue(member.value, forKey: member.key) != nil {
                    throw FieldProblem("\(name(member.key)) appears more than once")
                }
            }
            self.index = index
        }
    }

    private func member(_ key: String) -> JSONValue? {
        if let index { return index[key] }
        return list.first { $0.key == key }?.value
    }

    func name(_ key: String) -> String {
        let shown = Fields.safeName(key)
        return path.isEmpty ? shown : "\(path).\(shown)"
    }

    /// The value of `key`, nil when absent. The contract has no nullable field: a JSON null is
    /// refused (leave the field out instead), except where `allowNull` says otherwise.
    func optional(_ key: String, allowNull: Bool = false) throws(FieldProblem) -> JSONValue? {
        guard let value = member(key) else { return nil }
        if case .null = value {
            if allowNull { return nil }
            throw FieldProblem("\(name(key)) may not be null: leave it out or give a value")
        }
        return value
    }

    func required(_ key: String) throws(FieldProblem) -> JSONValue {
        guard let value = try optional(key) else { throw FieldProblem("\(name(key)) is required") }
        return value
    }

    /// Refuses members not in `allowed` (for bodies where an unknown field means a mistake).
    func refuseUnknown(_ allowed: Set<String>) throws(FieldProblem) {
        if let extra = keys.first(where: { !allowed.contains($0) }) {
            throw FieldProblem(
                "\(name(extra)) is not a field of this request (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ key: String, required: Bool = true, allowNull: Bool = false) throws(FieldProblem) -> String? {
        guard let value = required ? try self.required(key) : try optional(key, allowNull: allowNull) else {
            return nil
        }
        guard case .string(let text) = value else {
            throw FieldProblem("\(name(key)) must be a string, not \(value.kind)")
        }
        return text
    }

    func integer(_ key: String, in range: ClosedRange<Int64>, required: Bool = true) throws(FieldProblem) -> Int64? {
        guard let value = required ? try self.required(key) : try optional(key) else { return nil }
        return try Fields.integer(value, name: name(key), in: range)
    }

    func array(_ key: String, maxCount: Int? = nil, required: Bool = true) throws(FieldProblem) -> [JSONValue]? {
        guard let value = required ? try self.required(key) : try optional(key) else { return nil }
        guard case .array(let items) = value else {
            throw FieldProblem("\(name(key)) must be a list, not \(value.kind)")
        }
        if let maxCount, items.count > maxCount {
            throw FieldProblem("\(name(key)) has \(items.count) items; at most \(maxCount) are allowed")
        }
        return items
    }

    func date(_ key: String, required: Bool = true) throws(FieldProblem) -> CivilDay? {
        guard let text = try string(key, required: required) else { return nil }
        guard let day = Fields.isoDate(text) else {
            throw FieldProblem("\(name(key)) must be a date written YYYY-MM-DD")
        }
        return day
    }
}

/// Value checks shared by every request.
public enum Fields {
    public static let int32Max = Int64(Int32.max)

    /// A JSON integer literal (no fraction, no exponent, no quotes) inside `range`.
    /// `name` is built only when there is a problem to report (this runs for every number of
    /// every upload).
    static func integer(_ value: JSONValue, name: @autoclosure () -> String, in range: ClosedRange<Int64>)
        throws(FieldProblem) -> Int64
    {
        if case .number(let text) = value, let number = parseInteger(text), range.contains(number) { return number }
        let bounds = "from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let text) = value else {
            throw FieldProblem("\(name()) must be a whole number \(bounds), not \(value.kind)")
        }
        guard parseInteger(text) != nil else {
            throw FieldProblem("\(name()) must be a whole number \(bounds) (no fraction, no exponent)")
        }
        throw FieldProblem("\(name()) must be \(bounds)")
    }

    /// `-?[0-9]+` within Int64; nil for anything else (including overflow).
    public static func parseInteger(_ text: String) -> Int64? {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") {
            negative = true
            utf8 = utf8.dropFirst()
        }
        guard !utf8.isEmpty, utf8.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(byte - 0x30))
            if o1 || o2 { return nil }
            value = plus
        }
        return negative ? -value : value
    }

    /// Exactly `YYYY-MM-DD` naming a real day.
    public static func isoDate(_ text: String) -> CivilDay? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        for i in [0, 1, 2, 3, 5, 6, 8, 9] where !(0x30...0x39).contains(bytes[i]) { return nil }
        return CivilDay(iso: text)
    }

    /// Standard base64 with padding, as the contract's pattern says; nil if it is not.
    public static func base64Decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 4 * 3)
        var i = 0
        while i < bytes.count {
            var quad: [UInt8] = []
            var pads = 0
            for j in 0..<4 {
                let c = bytes[i + j]
                if c == UInt8(ascii: "=") {
                    // Padding only at the very end, and only in the last two places.
                    guard i + 4 == bytes.count, j >= 2 else { return nil }
                    pads += 1
                    quad.append(0)
                } else {
                    guard pads == 0, let v = sextet(c) else { return nil }
                    quad.append(v)
                }
            }
            let n = (UInt32(quad[0]) << 18) | (UInt32(quad[1]) << 12) | (UInt32(quad[2]) << 6) | UInt32(quad[3])
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            if pads < 2 { out.append(UInt8(truncatingIfNeeded: n >> 8)) }
            if pads < 1 { out.append(UInt8(truncatingIfNeeded: n)) }
            i += 4
        }
        return out
    }

    private static func sextet(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    /// A field name as it may appear in an error: our own field names (lowercase letters, digits,
    /// `_`, at most 40) as sent; anything else, which could be a code or a token put where a
    /// name belongs, as "an unexpected field".
    public static func safeName(_ key: String) -> String {
        let plain =
            !key.isEmpty && key.utf8.count <= 40
            && key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        return plain ? key : "(an unexpected field name)"
    }

    /// `^[a-zA-Z0-9]*$` of at most `maxLength` characters.
    static func padding(_ text: String, name: String, maxLength: Int) throws(FieldProblem) {
        guard text.utf8.count <= maxLength else {
            throw FieldProblem("\(name) is longer than \(maxLength) characters")
        }
        guard text.utf8.allSatisfy({ isAlnum($0) }) else {
            throw FieldProblem("\(name) may contain only letters A–Z, a–z and digits")
        }
    }

    static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    static func isLowerHex(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
