import DeskCore
import Foundation

/// The routine sign-in/sign-out pairs the audit screen can hide (`h`): each run of a
/// `tracedesk` command signs in and out, and a log read by day is mostly those.
///
/// The rule, exactly: a `sign_in` by X is hidden with a `sign_out` by X when, in the order of
/// the log, the sign-out is the next entry that names X at all (as actor or as target) and it
/// comes before the sign-in's session would have expired. So a session that did anything the
/// log records (a lookup, an authorisation, a change to an account), or to whose account
/// anything was done meanwhile (a reset, a lock, a disable), stays whole; failed and refused
/// sign-ins and locks are never hidden; a sign-in without its sign-out (a session still open,
/// or one that ended by expiry) stays; and of two sessions of one person that overlap, only the
/// inner pair can be hidden. Only the entries loaded are looked at: a sign-out whose sign-in is
/// on a page not yet loaded stays shown until that page comes (`n`).
public enum RoutineSignIns {
    /// The ids of the entries to hide among `entries` (any order).
    public static func hidden(in entries: [AuditEntry]) -> Set<Int64> {
        var hidden: Set<Int64> = []
        // The sign-in of each person still waiting for its sign-out, oldest entry first.
        var open: [String: AuditEntry] = [:]
        for entry in entries.sorted(by: { $0.id < $1.id }) {
            if entry.action == .signOut, let signIn = open[entry.actor], withinSession(signIn, entry) {
                hidden.insert(signIn.id)
                hidden.insert(entry.id)
                open[entry.actor] = nil
                if let target = entry.target { open[target] = nil }
                continue
            }
            open[entry.actor] = nil
            if let target = entry.target { open[target] = nil }
            if entry.action == .signIn { open[entry.actor] = entry }
        }
        return hidden
    }

    /// The sign-out came while the sign-in's session could still be open.
    static func withinSession(_ signIn: AuditEntry, _ signOut: AuditEntry) -> Bool {
        guard case .signIn(let detail) = AuditEntry.Detail(kind: .signIn, json: signIn.detail) else { return true }
        return signOut.at <= detail.expiresAt
    }
}
