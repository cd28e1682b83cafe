import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The monitor's reads and the job runs on PostgreSQL. Reads of the stream first give committed
// events their positions (the sequencer, ``PostgresStore/assignPositions(_:pending:)``), then
// read by position.
extension PostgresStore {
    public func eventPage(
        after: Int64, limit: Int, visibleTo operatorName: String?
    ) throws(StoreError) -> StoredEventPage {
        try pool.withConnection { connection throws(StoreError) in
            try Self.assignPositions(connection)
            // READ COMMITTED, one statement at a time: the highest position is read first, and
            // every position up to it stays visible to the statements after.
            return try Self.eventWork(connection).page(after: after, limit: limit, visibleTo: operatorName)
        }
    }

    public func eventTail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        try pool.withConnection { connection throws(StoreError) in
            try Self.assignPositions(connection)
            return try Self.eventWork(connection).tail(limit: limit, visibleTo: operatorName)
        }
    }

    public func code(ofEvent position: Int64) throws(StoreError) -> EventCode {
        try pool.withConnection { connection throws(StoreError) in
            try Self.eventWork(connection).code(ofEvent: position)
        }
    }

    public func codeWatch(
        storedKey: OtpHash, now: Date, policy: PublishingPolicy
    ) throws(StoreError) -> StoredCodeWatch? {
        try pool.withConnection { connection throws(StoreError) in
            // Positioned first, so `asOf` covers the events counted.
            try Self.assignPositions(connection)
            return try connection.transaction(begin: Self.snapshot, operation: "read the watch of a code") {
                () throws(StoreError) -> StoredCodeWatch? in
                try Self.eventWork(connection).watch(storedKey: storedKey, now: now, policy: policy)
            }
        }
    }

    public func traffic(since: Date) throws(StoreError) -> TrafficShare {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "read traffic") {
                () throws(StoreError) -> TrafficShare in
                try Self.eventWork(connection).traffic(since: since)
            }
        }
    }

    public func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            try Self.eventWork(connection).recordJobRun(job, ranAt: ranAt, nextRunAt: nextRunAt)
        }
    }

    public func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun? {
        try pool.withConnection { connection throws(StoreError) in try Self.eventWork(connection).jobRun(job) }
    }

    /// The sequencer: gives committed events that have no position yet their positions, in id
    /// order, in one short transaction under the sequencer's advisory lock (see
    /// ``PGSQL/assignPositions``). A reader that finds the lock held does not wait: another
    /// reader is doing it, and what it commits shows at the next read. `pending` is true when the
    /// caller has just seen rows waiting (the check is skipped).
    static func assignPositions(_ connection: PGConnection, pending: Bool = false) throws(StoreError) {
        let op = "give events their positions"
        if !pending {
            let waiting = try connection.query(PGSQL.anyUnsequenced, operation: op) { $0.integer(0) }.first ?? 0
            guard waiting > 0 else { return }
        }
        try connection.transaction(begin: PGSQL.beginReadCommitted, operation: op) { () throws(StoreError) in
            let taken = try connection.query(PGSQL.trySequencerLock, operation: op) { $0.integer(0) }.first == 1
            guard taken else { return }
            // READ COMMITTED: this statement's snapshot is taken after the lock, so it sees the
            // positions the previous holder committed and gives none twice.
            try connection.run(PGSQL.assignPositions, [.integer(PGSQL.positionsPerRound)], operation: op)
        }
    }

    /// The shared event reads, on `connection`.
    static func eventWork(_ connection: PGConnection) -> EventWork<PGConnection> {
        EventWork(db: connection, sql: .postgres, reads: .postgres)
    }
}
