/// The SQL of staff accounts, sessions and the audit log. Written once: the text means the same
/// in SQLite and PostgreSQL (PostgreSQL gets it with numbered placeholders, ``PGSQL/numbered(_:)``).
enum StaffSQL {
    /// The columns every account read selects, in the order ``StaffRow`` reads them.
    static let accountColumns = """
        name, role, disabled, locked, failed_sign_ins, created_at_ms, created_by, password_changed_at_ms,
            last_sign_in_at_ms, password_hash, last_failed_at_ms, sign_ins_in_flight, last_attempt_at_ms
        """
    static let countStaff = "SELECT count(*) FROM staff"
    static let selectAccounts = "SELECT \(accountColumns) FROM staff ORDER BY name"
    static let selectAccount = "SELECT \(accountColumns) FROM staff WHERE name = ?"
    static let insertStaff = """
        INSERT INTO staff (name, role, password_hash, disabled, locked, failed_sign_ins, created_at_ms, created_by,
            password_changed_at_ms)
        VALUES (?, ?, ?, 0, 0, 0, ?, ?, ?)
        ON CONFLICT (name) DO NOTHING
        """
    static let disable = "UPDATE staff SET disabled = 1 WHERE name = ? AND disabled = 0"
    static let resetPassword = """
        UPDATE staff SET password_hash = ?, password_changed_at_ms = ?, failed_sign_ins = 0, sign_ins_in_flight = 0,
            last_failed_at_ms = NULL, last_attempt_at_ms = NULL, locked = 0
        WHERE name = ?
        """
    static let rehash = "UPDATE staff SET password_hash = ? WHERE name = ?"
    /// Counts a sign-in attempt as a failure and as in flight (the new counts and the attempt's
    /// time are bound: the caller computed them), only if the account is still as it was read
    /// (enabled, unlocked, the same counts, last failure and last attempt): the wait was decided
    /// on that. No row when another attempt (or an admin) changed it first; the caller reads again.
    static let countAttempt = """
        UPDATE staff SET failed_sign_ins = ?, sign_ins_in_flight = ?, last_attempt_at_ms = ?
        WHERE name = ? AND disabled = 0 AND locked = 0 AND failed_sign_ins = ? AND sign_ins_in_flight = ?
            AND coalesce(last_failed_at_ms, -1) = ? AND coalesce(last_attempt_at_ms, -1) = ?
        RETURNING \(accountColumns)
        """
    /// A wrong password: the attempt is no longer in flight, its failure is confirmed now.
    /// Only while the account has the password hash that was checked and attempts in flight:
    /// no row when a reset, a success or the abandoning of attempts took this one off the count.
    /// Returns the confirmed failures. (The count cannot tell attempts apart: a wrong guess begun
    /// before a success and finished while newer attempts are in flight confirms one of theirs
    /// early, which makes the wait and the lock stricter, never laxer.)
    static let failedAttempt = """
        UPDATE staff SET sign_ins_in_flight = sign_ins_in_flight - 1, last_failed_at_ms = ?
        WHERE name = ? AND password_hash = ? AND sign_ins_in_flight > 0
        RETURNING failed_sign_ins - sign_ins_in_flight
        """
    /// A successful sign-in, only if the account is enabled, unlocked and has the password hash
    /// the password was checked against; the hash is replaced by a stronger one when given. It
    /// ends the episode: no failures, none in flight.
    static let signedIn = """
        UPDATE staff SET failed_sign_ins = 0, sign_ins_in_flight = 0, last_failed_at_ms = NULL, last_sign_in_at_ms = ?,
            password_hash = coalesce(?, password_hash)
        WHERE name = ? AND disabled = 0 AND locked = 0 AND password_hash = ?
        RETURNING \(accountColumns)
        """
    /// Locks after a wrong password, unless locked already or given a new password meanwhile.
    static let lockAccount = "UPDATE staff SET locked = 1 WHERE name = ? AND locked = 0 AND password_hash = ?"
    /// Locks when abandoned attempts, counted as failures, reach the limit; only if the counts
    /// are still the ones the decision read.
    static let lockAbandoned = """
        UPDATE staff SET locked = 1, sign_ins_in_flight = 0
        WHERE name = ? AND locked = 0 AND failed_sign_ins = ? AND sign_ins_in_flight = ?
        """

    /// One source's failures on an account (migration 8): the waits follow them.
    static let selectSource =
        "SELECT failures, last_failed_at_ms FROM staff_sign_in_sources WHERE staff_name = ? AND source = ?"
    /// A confirmed failure from a source: one more, and its time.
    static let sourceFailed = """
        INSERT INTO staff_sign_in_sources (staff_name, source, failures, last_failed_at_ms) VALUES (?, ?, 1, ?)
        ON CONFLICT (staff_name, source) DO UPDATE
        SET failures = staff_sign_in_sources.failures + 1, last_failed_at_ms = excluded.last_failed_at_ms
        """
    /// A success from a source ends its failures, and forgets other sources' that are older than
    /// the bound instant (a day: their waits ended long ago), so the table does not grow for good.
    static let sourceSucceeded =
        "DELETE FROM staff_sign_in_sources WHERE staff_name = ? AND (source = ? OR last_failed_at_ms < ?)"
    /// A reset forgets every source's failures (a new password: earlier guesses were at the old one).
    static let clearSources = "DELETE FROM staff_sign_in_sources WHERE staff_name = ?"
    /// How many sources have failed on each account (the staff list).
    static let countSources = "SELECT staff_name, count(*) FROM staff_sign_in_sources GROUP BY staff_name"

    static let insertSession = """
        INSERT INTO staff_sessions (token_hash, staff_name, created_at_ms, last_seen_at_ms, expires_at_ms, ended_at_ms,
            idle_seconds)
        VALUES (?, ?, ?, ?, ?, NULL, ?)
        """
    static let selectSession = """
        SELECT s.staff_name, a.role, a.disabled, s.created_at_ms, s.last_seen_at_ms, s.expires_at_ms, s.ended_at_ms,
            s.idle_seconds
        FROM staff_sessions s JOIN staff a ON a.name = s.staff_name
        WHERE s.token_hash = ?
        """
    /// Records activity only when the last record is older than the bound instant (now − 30 s).
    static let touchSession = """
        UPDATE staff_sessions SET last_seen_at_ms = ?
        WHERE token_hash = ? AND ended_at_ms IS NULL AND last_seen_at_ms < ?
        """
    static let endSession = """
        UPDATE staff_sessions SET ended_at_ms = ? WHERE token_hash = ? AND ended_at_ms IS NULL
        RETURNING staff_name
        """
    static let endSessionsOf =
        "UPDATE staff_sessions SET ended_at_ms = ? WHERE staff_name = ? AND ended_at_ms IS NULL"

    static let auditColumns = "id, at_ms, actor, action, target, detail, previous_hash, hash"
    static let lastAudit = "SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1"
    /// When `actor` last had an entry with `action` (the (actor, id) index finds it at once).
    static let lastAuditOf =
        "SELECT at_ms FROM audit_log WHERE actor = ? AND action = ? ORDER BY id DESC LIMIT 1"
    static let insertAudit = "INSERT INTO audit_log (\(auditColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let auditAfter = "SELECT \(auditColumns) FROM audit_log WHERE id > ? ORDER BY id LIMIT ?"

    /// A browse of the log, newest first: `conditions` joined with AND, then the limit's `?`.
    static func auditMatching(_ conditions: [String]) -> String {
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return "SELECT \(auditColumns) FROM audit_log\(filter) ORDER BY id DESC LIMIT ?"
    }
}
