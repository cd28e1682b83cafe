import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Migration 12 keeps facts on `cases` and `follow_ups` by triggers (Migrations+IndicatorFacts).
/// These tests drive the store's own writes (a case opened, one opened over a person already
/// followed, calls, checks, a reassignment, a person added by hand, a case closed, the retention
/// cleanup, an opening time changed) and after each one count the facts again from the rows,
/// with queries of their own written from the migration's definitions, on both engines.
@Suite("Store contract: the kept indicator facts (migration 12)")
struct IndicatorFactsStoreTests {
    /// Cases whose kept facts differ from a count of their pairs (0 when all agree).
    static let caseMismatches = """
        SELECT count(*) FROM cases c WHERE
            c.contact_count <> (SELECT count(*) FROM follow_up_cases p WHERE p.case_id = c.id)
            OR c.close_contact_count <> (SELECT count(*) FROM follow_up_cases p WHERE p.case_id = c.id AND p.is_close = 1)
            OR c.close_reached_in_24h_count <> (SELECT count(*) FROM follow_up_cases p
                JOIN follow_ups f ON f.id = p.follow_up_id
                WHERE p.case_id = c.id AND p.is_close = 1 AND f.reached_at_ms IS NOT NULL
                    AND f.reached_at_ms - c.opened_at_ms <= 86400000)
            OR c.first_reached_at_ms IS DISTINCT FROM (SELECT min(f.reached_at_ms) FROM follow_up_cases p
                JOIN follow_ups f ON f.id = p.follow_up_id WHERE p.case_id = c.id)
        """

    /// Follow-ups whose kept first and last case openings differ from their cases' (0: all agree).
    static let followUpMismatches = """
        SELECT count(*) FROM follow_ups f WHERE
            f.cases_first_opened_at_ms IS DISTINCT FROM (SELECT min(c.opened_at_ms) FROM follow_up_cases p
                JOIN cases c ON c.id = p.case_id WHERE p.follow_up_id = f.id)
            OR f.cases_last_opened_at_ms IS DISTINCT FROM (SELECT max(c.opened_at_ms) FROM follow_up_cases p
                JOIN cases c ON c.id = p.case_id WHERE p.follow_up_id = f.id)
        """

    /// Fails, naming `step`, when a kept fact no longer matches the rows.
    static func agree(_ space: StoreSpace, after step: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(
            try space.scalar(caseMismatches) == 0, "a case's kept facts after \(step)", sourceLocation: sourceLocation)
        #expect(
            try space.scalar(followUpMismatches) == 0, "a follow-up's kept openings after \(step)",
            sourceLocation: sourceLocation)
    }

    /// A case's kept facts: contacts, close contacts, close contacts reached in 24 h, first reach (-1: none).
    static func facts(_ space: StoreSpace, _ caseID: Int64) throws -> [Int64] {
        [
            try space.scalar("SELECT contact_count FROM cases WHERE id = \(caseID)"),
            try space.scalar("SELECT close_contact_count FROM cases WHERE id = \(caseID)"),
            try space.scalar("SELECT close_reached_in_24h_count FROM cases WHERE id = \(caseID)"),
            try space.scalar("SELECT coalesce(first_reached_at_ms, -1) FROM cases WHERE id = \(caseID)"),
        ]
    }

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    @Test(
        "after every kind of write the kept facts equal a count from the rows, and have the values worked out by hand",
        arguments: StoreKind.testable)
    func keptThroughWrites(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let users = try Follow.users(store, 8)
            try Follow.tracers(store, ["anna", "bruno"])
            let t0 = Fixture.now
            func follow(_ caseID: Int64, _ user: Int) throws -> Int64 {
                let detail = try #require(try store.caseDetail(id: caseID))
                return try #require(detail.followUps.first { $0.personUserID == users[user]! }?.id)
            }

            // Case A at t0: contacts 2 and 3 close, 4 not close.
            var notClose = Follow.contact(users[4]!)
            notClose.isCloseContact = false
            let a = try Follow.open(
                store, patient: users[1]!, [Follow.contact(users[2]!), Follow.contact(users[3]!), notClose]
            ).trace.id
            try Self.agree(space, after: "case A opened")
            #expect(try Self.facts(space, a) == [3, 2, 0, -1])

            // Case B ten hours later: contact 3 again (their follow-up names both cases) and 6.
            let b = try Follow.open(
                store, patient: users[5]!, [Follow.contact(users[3]!), Follow.contact(users[6]!)], reference: "ASL-2",
                at: t0 + 10 * 3_600
            ).trace.id
            try Self.agree(space, after: "case B opened over a person already followed")
            #expect(try Self.facts(space, b) == [2, 2, 0, -1])
            let shared = try follow(a, 3)
            #expect(try follow(b, 3) == shared, "one follow-up for a person in two cases")
            #expect(
                try space.scalar("SELECT cases_first_opened_at_ms FROM follow_ups WHERE id = \(shared)") == Self.ms(t0))
            #expect(
                try space.scalar("SELECT cases_last_opened_at_ms FROM follow_ups WHERE id = \(shared)")
                    == Self.ms(t0 + 10 * 3_600))

            // Calls: contact 2 no answer, then reached 2 h in; contact 3 reached 30 h in (late for A,
            // 20 h after B opened); contact 4 (not close) reached first of all, 1 h in.
            let two = try follow(a, 2)
            let four = try follow(a, 4)
            func attempt(_ id: Int64, _ outcome: CallOutcome, at: Date) throws {
                _ = try Follow.recorded(
                    try store.recordAttempt(
                        followUpID: id, outcome: outcome, note: "", by: "anna", onlyAssignedTo: nil, now: at,
                        settings: Follow.settings))
            }
            try attempt(two, .noAnswer, at: t0 + 1_800)
            try Self.agree(space, after: "an unanswered call")
            #expect(try Self.facts(space, a) == [3, 2, 0, -1])
            try attempt(four, .reached, at: t0 + 3_600)
            try attempt(two, .reached, at: t0 + 2 * 3_600)
            try Self.agree(space, after: "calls that reached")
            #expect(try Self.facts(space, a) == [3, 2, 1, Self.ms(t0 + 3_600)])
            try attempt(shared, .reached, at: t0 + 30 * 3_600)
            try Self.agree(space, after: "a late call reaching a person of two cases")
            #expect(try Self.facts(space, a) == [3, 2, 1, Self.ms(t0 + 3_600)])
            #expect(try Self.facts(space, b) == [2, 2, 1, Self.ms(t0 + 30 * 3_600)])

            // A daily check and a reassignment change no fact.
            _ = try Follow.recorded(
                try store.recordCheck(
                    followUpID: two, symptoms: false, isolating: true, note: "", by: "anna", onlyAssignedTo: nil,
                    now: t0 + 26 * 3_600, settings: Follow.settings))
            guard
                case .assigned = try store.assignFollowUps(ids: [two, shared], to: "bruno", by: "anna", now: t0)
            else {
                Issue.record("the reassignment was refused")
                return
            }
            try Self.agree(space, after: "a check and a reassignment")
            #expect(try Self.facts(space, a) == [3, 2, 1, Self.ms(t0 + 3_600)])

            // A person added to A by hand: one more close contact, not reached.
            guard
                case .added = try store.addFollowUp(
                    caseID: a, personUserID: users[7]!, reason: "household", by: "anna", now: t0 + 40 * 3_600,
                    settings: Follow.settings)
            else {
                Issue.record("the person was not added")
                return
            }
            try Self.agree(space, after: "a person added by hand")
            let added = try Self.facts(space, a)
            #expect(added[0] == 4 && added[2] == 1)

            // A closed, then deleted by the retention cleanup: B keeps its facts, the shared
            // follow-up's openings are B's alone.
            _ = try store.closeCase(id: a, reason: .recovered, note: "", by: "anna", now: t0 + 41 * 3_600)
            try Self.agree(space, after: "case A closed")
            let cleaned = try store.cleanup(
                now: t0 + 41 * 3_600 + 31 * 86_400, policy: RetentionPolicy(closedCaseDays: 30))
            #expect(cleaned.closedCases == 1)
            #expect(try space.scalar("SELECT count(*) FROM cases WHERE id = \(a)") == 0)
            try Self.agree(space, after: "the retention cleanup")
            #expect(try Self.facts(space, b) == [2, 2, 1, Self.ms(t0 + 30 * 3_600)])
            #expect(
                try space.scalar("SELECT cases_first_opened_at_ms FROM follow_ups WHERE id = \(shared)")
                    == Self.ms(t0 + 10 * 3_600))

            // B's opening moved two days earlier (as a fix of a wrong time would): the reach is now
            // 68 h after it, no longer within 24 h, and the follow-up's last opening moves with it.
            try space.execute("UPDATE cases SET opened_at_ms = opened_at_ms - 172800000 WHERE id = \(b)")
            try Self.agree(space, after: "a case's opening moved")
            #expect(try Self.facts(space, b)[2] == 0)
            #expect(
                try space.scalar("SELECT cases_last_opened_at_ms FROM follow_ups WHERE id = \(shared)")
                    == Self.ms(t0 + 10 * 3_600) - 172_800_000)
        }
    }
}
