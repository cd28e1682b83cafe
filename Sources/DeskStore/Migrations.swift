/// A numbered, forward-only schema change. Applied once, in its own transaction; never edited
/// after it has shipped. The SQL is kept portable between SQLite and PostgreSQL where it can
/// be; a PostgreSQL adapter supplies its own text with the same meaning.
struct Migration: Sendable {
    let version: Int
    let name: String
    let sql: String
}

enum Migrations {
    /// Marks a TraceDesk SQLite file (`PRAGMA application_id`): 'TRDK'.
    static let applicationID: Int32 = 0x5452_444B

    static let all: [Migration] = [
        Migration(
            version: 1, name: "0001_authorizations_and_events",
            sql: """
                CREATE TABLE otp_authorizations (
                    otp_hash TEXT PRIMARY KEY NOT NULL CHECK (length(otp_hash) = 64),
                    symptoms_started_on TEXT NOT NULL CHECK (length(symptoms_started_on) = 10),
                    authorized_at_ms INTEGER NOT NULL,
                    expires_at_ms INTEGER NOT NULL CHECK (expires_at_ms > authorized_at_ms),
                    authorized_by TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('authorized', 'consumed')),
                    consumed_at_ms INTEGER,
                    CHECK ((state = 'consumed') = (consumed_at_ms IS NOT NULL))
                );
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at_ms INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    otp_hash TEXT CHECK (otp_hash IS NULL OR length(otp_hash) = 64),
                    actor TEXT,
                    detail TEXT NOT NULL DEFAULT '{}'
                );
                CREATE INDEX events_by_otp_hash ON events (otp_hash);
                """
        )
    ]

    static var latestVersion: Int { all.last?.version ?? 0 }
}
