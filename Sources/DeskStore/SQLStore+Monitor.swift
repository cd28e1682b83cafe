import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The monitor's reads and the job runs, once for both engines. Reads of the stream first let
// the engine give committed events their positions (``SQLEngine/positionEvents(_:)``: the
// PostgreSQL sequencer; nothing on SQLite, whose writes are serialised by the file's write lock
// and whose positions are ids), then read by position.
extension SQLStore {
    public func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent] {
        try read { db throws(StoreError) in
            try positionEvents(db)
            return try eventWork(on: db).events(after: afterID, limit: limit)
        }
    }

    public func eventPage(
        after: Int64, limit: Int, visibleTo operatorName: String?
    ) throws(StoreError) -> StoredEventPage {
        try read { db throws(StoreError) in
            try positionEvents(db)
            return try transaction(db, .streamRead, "read events") { () throws(StoreError) -> StoredEventPage in
                try eventWork(on: db).page(after: after, limit: limit, visibleTo: operatorName)
            }
        }
    }

    public func eventTail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        try read { db throws(StoreError) in
            try positionEvents(db)
            return try transaction(db, .streamRead, "read events") { () throws(StoreError) -> StoredEventPage in
                try eventWork(on: db).tail(limit: limit, visibleTo: operatorName)
            }
        }
    }

    public func code(ofEvent position: Int64) throws(StoreError) -> EventCode {
        try read { db throws(StoreError) in try eventWork(on: db).code(ofEvent: position) }
    }

    public func codeWatch(
        storedKey: OtpHash, now: Date, policy: PublishingPolicy
    ) throws(StoreError) -> StoredCodeWatch? {
        try read { db throws(StoreError) in
            // Positioned first, so `asOf` covers the events counted.
            try positionEvents(db)
            return try transaction(db, .snapshot, "read the watch of a code") {
                () throws(StoreError) -> StoredCodeWatch? in
                try eventWork(on: db).watch(storedKey: storedKey, now: now, policy: policy)
            }
        }
    }

    public func traffic(since: Date) throws(StoreError) -> TrafficShare {
        try snapshot("read traffic") { db throws(StoreError) in try eventWork(on: db).traffic(since: since) }
    }

    public func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError) {
        try read { db throws(StoreError) in try eventWork(on: db).recordJobRun(job, ranAt: ranAt, nextRunAt: nextRunAt)
        }
    }

    public func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun? {
        try read { db throws(StoreError) in try eventWork(on: db).jobRun(job) }
    }
}
