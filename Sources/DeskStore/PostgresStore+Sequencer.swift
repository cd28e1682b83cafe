import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The sequencer of PostgreSQL: reads of the stream first give committed events their positions
// (``SQLEngine/positionEvents(_:)``), then read by position.
extension PostgresStore {
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
}
