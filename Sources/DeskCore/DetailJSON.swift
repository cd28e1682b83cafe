import JSONText

/// The small JSON objects stored as the `detail` of events and audit entries, written and read
/// in one place so the typed details (``DeskEvent/Detail``, ``AuditEntry/Detail``) spell each
/// key once.
///
/// Writing keeps the members in the order given, compact, strings escaped by JSONText: the
/// bytes are the ones the store has always kept (the golden tests in DeskCoreTests pin them).
/// Reading never traps: a member missing or of another type reads as nil, a number that is not
/// a whole number in range reads as nil.
struct DetailWriter {
    private(set) var members: [JSONValue.Member] = []

    mutating func add(_ key: String, _ value: String) { members.append(.init(key: key, value: .string(value))) }
    mutating func add(_ key: String, _ value: Int) { members.append(.init(key: key, value: .number(String(value)))) }
    mutating func add(_ key: String, _ value: Int64) { members.append(.init(key: key, value: .number(String(value)))) }
    mutating func add(_ key: String, _ value: Bool) { members.append(.init(key: key, value: .bool(value))) }
    mutating func add(_ key: String, _ value: JSONValue) { members.append(.init(key: key, value: value)) }

    /// Added only when there is a value (a key older rows lack, or one written only when true).
    mutating func addIfPresent(_ key: String, _ value: Int?) { if let value { add(key, value) } }
    mutating func addIfPresent(_ key: String, _ value: Int64?) { if let value { add(key, value) } }
    mutating func addIfPresent(_ key: String, _ value: String?) { if let value { add(key, value) } }
    mutating func addIfPresent(_ key: String, _ value: Bool?) { if let value { add(key, value) } }

    /// Added always: `null` when there is no value.
    mutating func addOrNull(_ key: String, _ value: String?) { add(key, value.map { .string($0) } ?? .null) }
    mutating func addOrNull(_ key: String, _ value: Int?) { add(key, value.map { .number(String($0)) } ?? .null) }

    var json: String { JSONValue.object(members).serialized }
}

/// A stored detail's JSON object, read member by member.
struct DetailReader {
    let object: JSONValue

    /// Nil when `json` is not a JSON object.
    init?(_ json: String) {
        guard let value = try? JSONReader.parse(json), case .object = value else { return nil }
        object = value
    }

    init?(value: JSONValue) {
        guard case .object = value else { return nil }
        object = value
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    func string(_ key: String) -> String? {
        guard case .string(let text)? = object[key] else { return nil }
        return text
    }

    func int64(_ key: String) -> Int64? {
        guard case .number(let text)? = object[key] else { return nil }
        return Int64(text)
    }

    func int(_ key: String) -> Int? { int64(key).flatMap { Int(exactly: $0) } }

    func bool(_ key: String) -> Bool? {
        guard case .bool(let flag)? = object[key] else { return nil }
        return flag
    }

    /// True when the member is there and `null`.
    func isNull(_ key: String) -> Bool { object[key] == .null }

    /// The member when it is there (of any type).
    func member(_ key: String) -> JSONValue? { object[key] }

    /// A list of whole numbers; nil when any item is not one.
    func int64s(_ key: String) -> [Int64]? {
        guard case .array(let items)? = object[key] else { return nil }
        var out: [Int64] = []
        for item in items {
            guard case .number(let text) = item, let number = Int64(text) else { return nil }
            out.append(number)
        }
        return out
    }
}
