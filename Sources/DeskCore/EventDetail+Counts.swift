import CivilCalendar
import JSONText

/// The event details that carry counts: an upload, a published chunk, a contact file.
extension DeskEvent.Detail {
    /// How many of something, by reason or name, in stored order.
    public struct Count: Hashable, Sendable {
        public var key: String
        public var count: Int

        public init(_ key: String, _ count: Int) {
            self.key = key
            self.count = count
        }
    }

    /// An upload accepted: its keys, the ones dropped per reason, province and clock skew.
    public struct UploadAccepted: Hashable, Sendable {
        public enum Key {
            public static let uploadID = "upload_id"
            public static let keysAccepted = "keys_accepted"
            public static let keysDropped = "keys_dropped"
            public static let dropped = "dropped"
            public static let province = "province"
            public static let clockSkew = "clock_skew_s"
            public static let clockSkewFlagged = "clock_skew_flagged"
            public static let summaries = "summaries"
        }
        /// Nil only in rows written before the upload id was kept.
        public var uploadID: Int64?
        public var keysAccepted: Int
        public var keysDropped: Int
        /// Dropped keys per ``KeyDropReason`` raw value (written as ``KeyDropCounts``).
        public var dropped: [Count]
        public var province: String?
        /// Server minus phone, in seconds.
        public var clockSkewSeconds: Int64?
        public var clockSkewFlagged: Bool?
        public var summaries: Int?

        public init(
            uploadID: Int64?, keysAccepted: Int, keysDropped: Int, dropped: [Count], province: String?,
            clockSkewSeconds: Int64?, clockSkewFlagged: Bool?, summaries: Int?
        ) {
            self.uploadID = uploadID
            self.keysAccepted = keysAccepted
            self.keysDropped = keysDropped
            self.dropped = dropped
            self.province = province
            self.clockSkewSeconds = clockSkewSeconds
            self.clockSkewFlagged = clockSkewFlagged
            self.summaries = summaries
        }

        init?(_ r: DetailReader) {
            guard let accepted = r.int(Key.keysAccepted) else { return nil }
            let dropped = r.has(Key.dropped) ? r.member(Key.dropped).flatMap(KeyDropCounts.init(value:)) : .init([])
            guard let dropped else { return nil }
            self.init(
                uploadID: r.int64(Key.uploadID), keysAccepted: accepted, keysDropped: r.int(Key.keysDropped) ?? 0,
                dropped: dropped.counts, province: r.string(Key.province),
                clockSkewSeconds: r.int64(Key.clockSkew), clockSkewFlagged: r.bool(Key.clockSkewFlagged),
                summaries: r.int(Key.summaries))
        }

        public var json: String {
            let (before, after) = jsonAroundUploadID
            return before + (uploadID.map(String.init) ?? "null") + after
        }

        /// The stored text cut where the upload id goes, for a store that learns the id in the
        /// statement that writes the event (PostgreSQL: `$12 || u.id || $13`).
        public var jsonAroundUploadID: (before: String, after: String) {
            var w = DetailWriter()
            w.add(Key.keysAccepted, keysAccepted)
            w.add(Key.keysDropped, keysDropped)
            w.add(Key.dropped, KeyDropCounts(dropped).value)
            w.addOrNull(Key.province, province)
            w.addIfPresent(Key.clockSkew, clockSkewSeconds)
            w.addIfPresent(Key.clockSkewFlagged, clockSkewFlagged)
            w.addIfPresent(Key.summaries, summaries)
            var before = "{"
            JSONValue.writeString(Key.uploadID, into: &before)
            return (before + ":", "," + w.json.dropFirst())
        }
    }

    /// A chunk of keys published: its index, keys and padding, its window, the uploads in it.
    public struct ChunkPublished: Hashable, Sendable {
        public enum Key {
            public static let chunk = "chunk"
            public static let keys = "keys"
            public static let padding = "padding"
            public static let copiesSkipped = "copies_skipped"
            public static let windowStart = "window_start_s"
            public static let windowEnd = "window_end_s"
            public static let uploadIDs = "upload_ids"
        }
        public var chunk: Int64
        public var keys: Int
        public var padding: Int
        /// Keys uploaded twice and published once (nil in older rows).
        public var copiesSkipped: Int?
        /// Unix seconds.
        public var windowStart: Int64?
        public var windowEnd: Int64?
        public var uploadIDs: [Int64]

        public init(
            chunk: Int64, keys: Int, padding: Int, copiesSkipped: Int?, windowStart: Int64?, windowEnd: Int64?,
            uploadIDs: [Int64]
        ) {
            self.chunk = chunk
            self.keys = keys
            self.padding = padding
            self.copiesSkipped = copiesSkipped
            self.windowStart = windowStart
            self.windowEnd = windowEnd
            self.uploadIDs = uploadIDs
        }

        init?(_ r: DetailReader) {
            guard let chunk = r.int64(Key.chunk) else { return nil }
            self.init(
                chunk: chunk, keys: r.int(Key.keys) ?? 0, padding: r.int(Key.padding) ?? 0,
                copiesSkipped: r.int(Key.copiesSkipped), windowStart: r.int64(Key.windowStart),
                windowEnd: r.int64(Key.windowEnd), uploadIDs: r.int64s(Key.uploadIDs) ?? [])
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.chunk, chunk)
            w.add(Key.keys, keys)
            w.add(Key.padding, padding)
            w.addIfPresent(Key.copiesSkipped, copiesSkipped)
            w.addIfPresent(Key.windowStart, windowStart)
            w.addIfPresent(Key.windowEnd, windowEnd)
            w.add(Key.uploadIDs, .array(uploadIDs.map { .number(String($0)) }))
            return w.json
        }
    }

    /// An APRICOT contact file: its day, records, beacons heard and unknown, clock skew, and
    /// whether it replaced the day's earlier file.
    public struct ContactFileReceived: Hashable, Sendable {
        public enum Key {
            public static let day = "day"
            public static let records = "records"
            public static let distinctBeacons = "distinct_beacons"
            public static let unknownBeacons = "unknown_beacons"
            public static let clockSkew = "clock_skew_s"
            public static let replaced = "replaced"
        }
        public var day: CivilDay
        public var records: Int
        public var distinctBeacons: Int?
        public var unknownBeacons: Int?
        /// Server minus phone, in seconds.
        public var clockSkewSeconds: Int64?
        public var replaced: Bool

        public init(
            day: CivilDay, records: Int, distinctBeacons: Int?, unknownBeacons: Int?, clockSkewSeconds: Int64?,
            replaced: Bool
        ) {
            self.day = day
            self.records = records
            self.distinctBeacons = distinctBeacons
            self.unknownBeacons = unknownBeacons
            self.clockSkewSeconds = clockSkewSeconds
            self.replaced = replaced
        }

        init?(_ r: DetailReader) {
            guard let day = r.string(Key.day).flatMap(CivilDay.init(iso:)), let records = r.int(Key.records) else {
                return nil
            }
            self.init(
                day: day, records: records, distinctBeacons: r.int(Key.distinctBeacons),
                unknownBeacons: r.int(Key.unknownBeacons), clockSkewSeconds: r.int64(Key.clockSkew),
                replaced: r.bool(Key.replaced) ?? false)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.day, day.iso)
            w.add(Key.records, records)
            w.addIfPresent(Key.distinctBeacons, distinctBeacons)
            w.addIfPresent(Key.unknownBeacons, unknownBeacons)
            w.addIfPresent(Key.clockSkew, clockSkewSeconds)
            w.add(Key.replaced, replaced)
            return w.json
        }
    }
}
