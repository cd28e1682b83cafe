// The one door the bench's bulk seeding (DeskBench) has into a store: statements it writes
// itself, run in one transaction on a store that holds no uploads yet. `package`, so that no
// production module can use it and the store's connection stays private.

extension SQLiteStore {
    /// Runs `statements` (written for SQLite) in one transaction, then `ANALYZE`; refused when
    /// the store already holds uploads, so real data is never mixed with seeded rows.
    package func bulkLoadEmptyStore(_ statements: (SQLDialect) -> [String]) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in
            let uploads = try connection.query("SELECT count(*) FROM uploads", operation: "seed") { $0.integer(0) }
            guard uploads.first == 0 else {
                throw StoreError.failed(operation: "seed", reason: "the store already holds uploads: use an empty one")
            }
            try connection.transaction(operation: "seed") { () throws(StoreError) in
                for statement in statements(.sqlite) { try connection.execute(statement, operation: "seed") }
            }
            try connection.execute("ANALYZE", operation: "seed")
        }
    }
}

extension PostgresStore {
    /// Runs `statements` (written for PostgreSQL) in one transaction, then `VACUUM ANALYZE`; refused
    /// when the store already holds uploads.
    package func bulkLoadEmptyStore(_ statements: (SQLDialect) -> [String]) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            let uploads = try connection.query("SELECT count(*) FROM uploads", operation: "seed") { $0.integer(0) }
            guard uploads.first == 0 else {
                throw StoreError.failed(operation: "seed", reason: "the store already holds uploads: use an empty one")
            }
            try connection.transaction(operation: "seed") { () throws(StoreError) in
                for statement in statements(.postgres) { try connection.execute(statement, operation: "seed") }
            }
            // VACUUM too: a live database's autovacuum keeps the visibility map that index-only
            // scans (a queue's counts) rely on; fresh bulk-loaded pages would lack it.
            try connection.execute("VACUUM ANALYZE", operation: "seed")
        }
    }
}
