import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One record of a contact file: the beacon heard and when (app clock; 0 = no timestamp).
public struct ContactRecord: Hashable, Sendable {
    /// The 20 beacon bytes as heard: a pseudo-id, or a foreign beacon.
    public var beacon: [UInt8]
    /// Unix seconds, or 0 when the app sent none.
    public var time: UInt32

    public init(beacon: [UInt8], time: UInt32) {
        self.beacon = beacon
        self.time = time
    }

    public var pseudoID: PseudoID? { PseudoID(beacon: beacon) }
}

/// The binary contact file: records of 24 bytes, 20-byte beacon + 4-byte big-endian unix time.
public enum ContactFile {
    public static let recordSize = 24
    public static let maxRecords = 43_690
    public static let maxBytes = maxRecords * recordSize  // 1 048 560

    /// Checks the length alone (before the body is read whole, for the 413).
    public static func checkLength(_ length: Int) -> ContactFileError? {
        if length == 0 { return .empty }
        if length > maxBytes { return .tooLarge(bytes: length) }
        if length % recordSize != 0 { return .notWholeRecords(bytes: length) }
        return nil
    }

    /// The records of a file; the length must be 1…43 690 whole records.
    public static func parse(_ bytes: [UInt8]) throws(ContactFileError) -> [ContactRecord] {
        if let problem = checkLength(bytes.count) { throw problem }
        var records: [ContactRecord] = []
        records.reserveCapacity(bytes.count / recordSize)
        var offset = 0
        while offset < bytes.count {
            let beacon = Array(bytes[offset..<offset + 20])
            let time =
                UInt32(bytes[offset + 20]) << 24 | UInt32(bytes[offset + 21]) << 16 | UInt32(bytes[offset + 22]) << 8
                | UInt32(bytes[offset + 23])
            records.append(ContactRecord(beacon: beacon, time: time))
            offset += recordSize
        }
        return records
    }

    /// Walks a file's records without copying them: `body` gets each record's byte offset, its
    /// pseudo-id suffix (nil for a foreign beacon) and its time. For reading many files fast
    /// (a lookup walks 864 000 records); the length must pass ``checkLength(_:)`` (nothing is
    /// walked otherwise). Agrees with ``parse(_:)`` record for record.
    public static func scan(_ bytes: [UInt8], _ body: (_ offset: Int, _ suffix: UInt32?, _ time: UInt32) -> Void) {
        guard checkLength(bytes.count) == nil else { return }
        bytes.withUnsafeBytes { raw in
            let prefix = UInt64(0x8888_8888_8888_8888)
            var offset = 0
            while offset < raw.count {
                let isPseudoID =
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == prefix
                    && raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) == prefix
                let suffix = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self))
                let time = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 20, as: UInt32.self))
                body(offset, isPseudoID ? suffix : nil, time)
                offset += recordSize
            }
        }
    }

    /// The records as a file.
    public static func encode(_ records: [ContactRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * recordSize)
        for record in records {
            bytes += record.beacon
            bytes += [
                UInt8(record.time >> 24), UInt8(record.time >> 16 & 0xff), UInt8(record.time >> 8 & 0xff),
                UInt8(record.time & 0xff),
            ]
        }
        return bytes
    }

    /// Whether a file for `day` may be uploaded `today` (UTC). The day is the phone's local day,
    /// which can be a day ahead of or behind UTC, so the window is the last `historyDays` days
    /// (today counting as one) widened by one day on each side: from
    /// ``oldestDay(today:historyDays:)`` to tomorrow.
    public static func checkDay(_ day: CivilDay, today: CivilDay, historyDays: Int) -> ContactFileError? {
        if day > today.adding(days: 1) { return .dayInFuture(day) }
        if day < oldestDay(today: today, historyDays: historyDays) { return .dayTooOld(day, historyDays: historyDays) }
        return nil
    }

    /// The oldest day whose file is accepted and kept: `historyDays` days back from today (UTC),
    /// today counting as one, and one more for phones behind UTC. Uploads, cleanup and lookups
    /// all use it.
    public static func oldestDay(today: CivilDay, historyDays: Int) -> CivilDay {
        today.adding(days: -max(1, historyDays))
    }

    /// A record's time as stored: app time + skew (server receive time − app clock at upload);
    /// zero stays zero ("no timestamp"). Kept within 1…UInt32.max.
    public static func adjusted(_ time: UInt32, skewSeconds: Int64) -> UInt32 {
        if time == 0 { return 0 }
        let value = Int64(time) + skewSeconds
        return UInt32(clamping: max(1, value))
    }
}

/// Why a contact file is refused; nothing is stored. Messages are for app developers and
/// staff reading logs: they say what is wrong and never quote the content.
public enum ContactFileError: Error, Hashable, Sendable {
    case empty
    case notWholeRecords(bytes: Int)
    case tooLarge(bytes: Int)
    case dayInFuture(CivilDay)
    case dayTooOld(CivilDay, historyDays: Int)

    public var message: String {
        switch self {
        case .empty:
            return
                "the contact file is empty: send 1 to 43690 records of 24 bytes, or send nothing for a day without contacts"
        case .notWholeRecords(let bytes):
            return
                "the contact file has \(bytes) bytes, not a multiple of 24: each record is a 20-byte beacon and a 4-byte big-endian time"
        case .tooLarge(let bytes):
            return
                "the contact file has \(bytes) bytes, more than 1048560 (43690 records): split the day or drop repeats"
        case .dayInFuture(let day):
            return "the contact file's day \(day.iso) is in the future (UTC): check the phone's date"
        case .dayTooOld(let day, let historyDays):
            return
                "the contact file's day \(day.iso) is older than the \(historyDays)-day contact history: it is not kept"
        }
    }
}
