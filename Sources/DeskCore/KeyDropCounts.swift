import JSONText

/// An upload's dropped keys per reason, as the store keeps them: the `uploads.dropped_reasons`
/// column and the `dropped` member of the upload's `upload_accepted` event hold this one object,
/// `{"future":1,"too_old":2}` (``KeyDropReason`` raw values, in the order written, compact).
/// The statistics' SQL reads its members (`json_each`, `jsonb_each_text`), so each key is a
/// reason and each value a whole number. Written and read here only; the golden test in
/// DeskCoreTests pins the bytes.
public struct KeyDropCounts: Hashable, Sendable {
    public var counts: [DeskEvent.Detail.Count]

    public init(_ counts: [DeskEvent.Detail.Count]) { self.counts = counts }

    /// An evaluation's drops, in the reasons' order (``UploadEvaluation/droppedCounts``).
    public init(_ evaluation: UploadEvaluation) {
        self.init(evaluation.droppedCounts.map { .init($0.reason.rawValue, $0.count) })
    }

    /// Nil when `json` is not an object whose every member is a whole number.
    public init?(json: String) {
        guard let value = try? JSONReader.parse(json) else { return nil }
        self.init(value: value)
    }

    init?(value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        var counts: [DeskEvent.Detail.Count] = []
        for member in members {
            guard case .number(let text) = member.value, let count = Int(text) else { return nil }
            counts.append(.init(member.key, count))
        }
        self.init(counts)
    }

    /// The stored text.
    public var json: String { value.serialized }

    var value: JSONValue { .object(counts.map { .init(key: $0.key, value: .number(String($0.count))) }) }

    /// Summed per reason (a reason written twice counts both times).
    public var byReason: [String: Int] {
        var out: [String: Int] = [:]
        for count in counts { out[count.key, default: 0] += count.count }
        return out
    }
}
