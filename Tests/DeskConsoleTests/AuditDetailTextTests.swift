import DeskConsole
import DeskCore
import Foundation
import Testing

/// Audit details in words: the table's summary and the detail pane's lines per action, and
/// details this build does not read.
@Suite("Audit detail in words")
struct AuditDetailTextTests {
    static func entry(_ action: AuditAction, _ detail: String) -> AuditEntry {
        AuditEntry(
            id: 1, at: Fixture.now, actor: "rossi", action: action, target: nil, detail: detail,
            previousHash: String(repeating: "0", count: 64), hash: String(repeating: "1", count: 64))
    }

    @Test(
        "one summary per action, from what the store writes",
        arguments: [
            (
                AuditAction.signIn, #"{"expires_at_ms":1795961070000,"password_rehashed":true}"#,
                "session until 14:04:30, password hash renewed"
            ),
            (.signInFailed, #"{"failures":3}"#, "3 failures in a row"),
            (.signInFailed, #"{"reason":"unknown account"}"#, "reason: unknown account"),
            (.signInRefused, #"{"reason":"locked"}"#, "reason: account locked"),
            (.accountLocked, #"{"failures":5,"abandoned":2}"#, "after 5 failures, 2 abandoned attempts counted"),
            (.signOut, "{}", ""),
            (
                .otpAuthorized, #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#,
                "symptoms from 2026-11-28, valid until 14:04:30"
            ),
            (.staffAdded, #"{"role":"tracer"}"#, "role tracer"),
            (.staffDisabled, #"{"sessions_ended":1}"#, "1 session ended"),
            (.passwordReset, #"{"sessions_ended":0,"was_locked":true}"#, "0 sessions ended, was locked"),
            (
                .traceLookup, #"{"purpose":"case 9","found":false}"#,
                "purpose “case 9”, no app user has the number"
            ),
            (
                .traceLookup,
                #"{"purpose":"case 9","days":3,"sightings":40,"contacts":5,"close_contacts":2,"unresolved":1}"#,
                "purpose “case 9”, 3 days of files, 40 sightings, 5 contacts (2 close), 1 without an owner"
            ),
            (
                .traceLookup,
                #"{"purpose":"case 9","view":"sightings","of":"user 4","offset":50,"sightings":10,"total":60}"#,
                "purpose “case 9”, sightings of user 4, 10 of 60 from #51"
            ),
            (
                .traceExport, #"{"purpose":"case 9","kind":"contacts_csv","rows":12}"#,
                "purpose “case 9”, contacts as CSV, 12 rows"
            ),
            (
                .contactOutcome, #"{"patient":"user 3","outcome":"reached","purpose":"case 9"}"#,
                "contact of user 3, outcome: reached, purpose “case 9”"
            ),
            (.smsOutboxRead, #"{"messages":1}"#, "1 message shown"),
            (.hisClientAdded, #"{"rate_per_minute":60}"#, "at most 60 requests a minute"),
            (.hisClientAdded, #"{"rate_per_minute":null}"#, "the server's default rate"),
            (.hisClientRevoked, "{}", ""),
        ])
    func summaries(_ action: AuditAction, _ detail: String, _ expected: String) {
        let summary = AuditDetailText.summary(Self.entry(action, detail), zone: Fixture.utc)
        #expect(summary == expected)
        #expect(!summary.contains("_"), "a stored key name on screen: \(summary)")
    }

    @Test("the detail pane: one line a part, times with their day")
    func lines() {
        let entry = Self.entry(.signIn, #"{"expires_at_ms":1795961070000,"password_rehashed":false}"#)
        #expect(AuditDetailText.lines(entry, zone: Fixture.utc) == ["session until 2026-11-29 14:04:30 local"])
        #expect(AuditDetailText.lines(Self.entry(.signOut, "{}"), zone: Fixture.utc) == [])
    }

    @Test("what this build does not read says so in words (no JSON on screen), never a crash")
    func unread() {
        let newer = Self.entry(AuditAction(rawValue: "vaccine_pass_issued"), #"{"province":"MI"}"#)
        #expect(AuditDetailText.summary(newer, zone: Fixture.utc) == "details this version does not read")
        #expect(AuditDetailText.lines(newer, zone: Fixture.utc) == nil)
        let broken = Self.entry(.signIn, "not json")
        #expect(AuditDetailText.summary(broken, zone: Fixture.utc) == "details this version does not read")
        #expect(AuditDetailText.lines(broken, zone: Fixture.utc) == nil)
        #expect(AuditDetailText.summary(Self.entry(AuditAction(rawValue: "x"), "{}"), zone: Fixture.utc) == "")
    }
}
