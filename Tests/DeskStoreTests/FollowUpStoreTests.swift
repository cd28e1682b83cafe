import CivilCalendar
import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Helpers for the follow-up part of the store contract.
enum Follow {
    static let settings = FollowUpSettings.standard
    static var today: CivilDay { Fixture.now.utcDay }

    /// Registers users 1…`count` (phones ``Apricot/phone(_:)``) and returns their ids by n.
    static func users(_ store: any Store, _ count: Int) throws -> [Int: Int64] {
        let counter = Apricot.Counter()
        var ids: [Int: Int64] = [:]
        for n in 1...count { ids[n] = try Apricot.register(store, n, count: 2, suffixes: counter.take).userID }
        return ids
    }

    static func tracers(_ store: any Store, _ names: [String], disabled: [String] = []) throws {
        for name in names + disabled {
            _ = try store.addStaff(
                name: name, role: .tracer, passwordHash: Staff.hashA, by: "admin1", now: Fixture.now,
                onlyIfEmpty: false)
        }
        for name in disabled { _ = try store.disableStaff(name: name, by: "admin1", now: Fixture.now) }
    }

    static func contact(_ id: Int64, daysAgo: Int = 2, minutes: Int = 30) -> CaseContact {
        CaseContact(
            userID: id, lastExposureDay: today.adding(days: -daysAgo), minutes: minutes, days: 1,
            mostMinutesOnOneDay: minutes, isCloseContact: true)
    }

    @discardableResult
    static func open(
        _ store: any Store, patient: Int64, _ contacts: [CaseContact], reference: String = "ASL-1", by: String = "anna",
        toOpener: Bool = false, at now: Date = Fixture.now
    ) throws -> CaseOpening {
        try store.openCase(
            CaseOpenRequest(
                patientUserID: patient, reference: reference, indexDay: today, indexKind: .testDay, openedBy: by,
                assignToOpener: toOpener, contacts: contacts), now: now, settings: settings)
    }

    static func queue(
        _ store: any Store, _ scope: QueueScope = .everyone, later: Bool = true, search: String? = nil,
        after: QueueCursor? = nil, limit: Int = 100, at now: Date = Fixture.now
    ) throws -> QueuePage {
        try store.followUpQueue(
            QueueQuery(scope: scope, includeLater: later, search: search, after: after, limit: limit), now: now,
            settings: settings)
    }

    static func audit(_ store: any Store, _ action: AuditAction) throws -> [AuditEntry] {
        try store.auditEntries(after: 0, limit: 10_000).filter { $0.action == action }
    }

    static func recorded(_ change: FollowUpChange) throws -> FollowUp {
        guard case .recorded(let followUp) = change else {
            throw RawSQLiteError(code: -1, message: "expected a recorded change, got \(change)")
        }
        return followUp
    }
}

@Suite("Store contract: cases and follow-ups")
struct FollowUpStoreTests {
    @Test(
        "opening a case makes a follow-up per contact, round-robin to enabled tracers, audited with an event",
        arguments: StoreKind.testable)
    func openCase(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 6)
            try Follow.tracers(store, ["anna", "bruno"], disabled: ["carla"])
            let contacts = (2...6).map { Follow.contact(users[$0]!, daysAgo: $0) }
            let opening = try Follow.open(store, patient: users[1]!, contacts)
            #expect(!opening.existing)
            #expect(opening.followUpsCreated == 5)
            #expect(opening.followUpsJoined == 0)
            #expect(opening.trace.contacts == 5)
            #expect(opening.trace.status == .open)
            #expect(opening.trace.phone == Apricot.phone(1))
            #expect(opening.trace.reference == "ASL-1")

            let detail = try #require(try store.caseDetail(id: opening.trace.id))
            #expect(detail.followUps.count == 5)
            let assigned = detail.followUps.compactMap(\.assignedTo)
            #expect(assigned.count == 5)
            #expect(Set(assigned) == ["anna", "bruno"], "never the disabled tracer")
            #expect(abs(assigned.filter { $0 == "anna" }.count - assigned.filter { $0 == "bruno" }.count) <= 1)
            for followUp in detail.followUps {
                #expect(followUp.state == .calling)
                #expect(followUp.nextDueAt == Fixture.now)
                #expect(followUp.periodEndsOn == followUp.lastExposureDay.adding(days: 14))
                #expect(followUp.reasons.count == 1)
                #expect(followUp.reasons.first?.caseReference == "ASL-1")
                #expect(followUp.reasons.first?.minutes == 30)
            }
            #expect(detail.history.count == 1)
            let audit = try Follow.audit(store, .caseOpened)
            #expect(audit.count == 1)
            #expect(audit.first?.target == "user \(users[1]!)")
            #expect(audit.first?.detail.contains("\"reference\":\"ASL-1\"") == true)
            let events = try Apricot.events(store, .caseOpened)
            #expect(events.count == 1)
            for entry in try store.auditEntries(after: 0, limit: 100) {
                #expect(!entry.detail.contains("333000"), "no phone number in the audit log")
            }
            for event in try store.events(after: 0, limit: 100) {
                #expect(!event.detail.contains("333000"), "no phone number in an event")
            }
        }
    }

    @Test(
        "a patient's open case is returned as it is; a person in two cases has one follow-up with the latest exposure",
        arguments: StoreKind.testable)
    func existingAndMerged(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 5)
            try Follow.tracers(store, ["anna"])
            let first = try Follow.open(store, patient: users[1]!, [Follow.contact(users[3]!, daysAgo: 5)])
            let again = try Follow.open(store, patient: users[1]!, [], reference: "OTHER")
            #expect(again.existing)
            #expect(again.trace.id == first.trace.id)
            #expect(again.trace.reference == "ASL-1")
            let second = try Follow.open(
                store, patient: users[2]!, [Follow.contact(users[3]!, daysAgo: 1), Follow.contact(users[4]!)],
                reference: "ASL-2")
            #expect(second.followUpsCreated == 1)
            #expect(second.followUpsJoined == 1)
            let page = try Follow.queue(store)
            #expect(page.rows.count == 2)
            let shared = try #require(page.rows.first { $0.personUserID == users[3]! })
            #expect(shared.reasons.map(\.caseID) == [first.trace.id, second.trace.id])
            #expect(shared.lastExposureDay == Follow.today.adding(days: -1))
            #expect(shared.periodEndsOn == Follow.today.adding(days: 13))
            #expect(try Follow.audit(store, .caseOpened).count == 2, "the existing case is no new opening")
        }
    }

    @Test(
        "a follow-up's person opened as a case: the follow-up became the case, both show the link",
        arguments: StoreKind.testable)
    func chain(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 3)
            try Follow.tracers(store, ["anna"])
            let first = try Follow.open(store, patient: users[1]!, [Follow.contact(users[2]!)])
            let followUpID = try #require(try store.caseDetail(id: first.trace.id)?.followUps.first?.id)
            let second = try Follow.open(store, patient: users[2]!, [Follow.contact(users[3]!)], reference: "ASL-2")
            let became = try #require(try store.caseDetail(id: first.trace.id))
            #expect(became.followUps.first?.state == .becameCase)
            #expect(became.followUps.first?.becameCaseID == second.trace.id)
            #expect(became.followUps.first?.nextDueAt == nil)
            #expect(
                became.trace.ledTo == [CaseLink(caseID: second.trace.id, reference: "ASL-2", followUpID: followUpID)])
            let child = try #require(try store.caseDetail(id: second.trace.id))
            #expect(
                child.trace.cameFrom == [CaseLink(caseID: first.trace.id, reference: "ASL-1", followUpID: followUpID)])
            #expect(try Follow.queue(store).rows.map(\.personUserID) == [users[3]!])
        }
    }

    @Test(
        "the queue pages by due time then id, per scope, with counts over the whole scope and a search",
        arguments: StoreKind.testable)
    func queue(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 12)
            try Follow.tracers(store, ["anna"])
            let opening = try Follow.open(
                store, patient: users[1]!, (2...11).map { Follow.contact(users[$0]!) }, reference: "ASL-Rossi")
            // Nobody's: opened when no other tracer could take it.
            _ = try store.disableStaff(name: "anna", by: "admin1", now: Fixture.now)
            _ = try Follow.open(store, patient: users[12]!, [], reference: "ASL-Empty")
            #expect(opening.followUpsCreated == 10)

            var seen: [Int64] = []
            var cursor: QueueCursor?
            repeat {
                let page = try Follow.queue(store, .tracer("anna"), after: cursor, limit: 3)
                #expect(page.counts.due == 10, "counts are over the whole scope")
                seen += page.rows.map(\.id)
                cursor = page.next
            } while cursor != nil
            #expect(seen.count == 10)
            #expect(seen == seen.sorted(), "same due time: by id")
            #expect(try Follow.queue(store, .unassigned).rows.isEmpty)
            #expect(try Follow.queue(store, .tracer("bruno")).rows.isEmpty)

            // One attempt: due again in two hours (later today), the other nine overdue an hour later.
            let firstID = seen[0]
            _ = try Follow.recorded(
                store.recordAttempt(
                    followUpID: firstID, outcome: .noAnswer, note: "", by: "anna", onlyAssignedTo: "anna",
                    now: Fixture.now, settings: Follow.settings))
            let later = Fixture.now + 3 * 3600
            let page = try Follow.queue(store, .tracer("anna"), at: later)
            #expect(page.counts.overdue == 9)
            #expect(page.counts.due == 1)
            #expect(page.rows.last?.id == firstID)

            let digits = String(Apricot.phone(5).e164.dropFirst(4))
            let byPhone = try Follow.queue(store, search: digits)
            #expect(byPhone.rows.map(\.personUserID) == [users[5]!])
            #expect(byPhone.counts.overdue + byPhone.counts.due + byPhone.counts.laterToday == 1)
            #expect(try Follow.queue(store, search: "rossi").rows.count == 10, "a reference, any case")
            #expect(try Follow.queue(store, search: "nobody%").rows.isEmpty)
        }
    }

    @Test(
        "attempts and checks follow the schedule; ended, someone else's and unreached follow-ups refuse them",
        arguments: StoreKind.testable)
    func attemptsAndChecks(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 3)
            try Follow.tracers(store, ["anna"])
            let opening = try Follow.open(
                store, patient: users[1]!, [Follow.contact(users[2]!), Follow.contact(users[3]!)])
            let ids = try #require(try store.caseDetail(id: opening.trace.id)).followUps.map(\.id)
            func attempt(_ id: Int64, _ outcome: CallOutcome, by: String = "anna", at: Date = Fixture.now) throws
                -> FollowUpChange
            {
                try store.recordAttempt(
                    followUpID: id, outcome: outcome, note: "called", by: by, onlyAssignedTo: by, now: at,
                    settings: Follow.settings)
            }
            func check(_ id: Int64, at: Date = Fixture.now) throws -> FollowUpChange {
                try store.recordCheck(
                    followUpID: id, symptoms: true, isolating: true, note: "", by: "anna", onlyAssignedTo: "anna",
                    now: at, settings: Follow.settings)
            }
            guard case .refused(let early) = try check(ids[0]) else {
                Issue.record("a check before reached")
                return
            }
            #expect(early.contains("not been reached"))
            #expect(try attempt(ids[0], .reached, by: "bruno") == .notAssigned(assignedTo: "anna"))
            let reached = try Follow.recorded(attempt(ids[0], .reached))
            #expect(reached.state == .monitoring)
            #expect(reached.reachedAt == Fixture.now)
            let checked = try Follow.recorded(check(ids[0]))
            #expect(checked.checkedDays == 1)
            #expect(checked.symptomsFlagged)
            #expect(checked.nextDueAt == FollowUpSchedule.start(of: Follow.today.adding(days: 1)))
            let wrong = try Follow.recorded(attempt(ids[1], .wrongNumber))
            #expect(wrong.state == .wrongNumber)
            guard case .refused(let ended) = try attempt(ids[1], .reached) else {
                Issue.record("an attempt on an ended follow-up")
                return
            }
            #expect(ended.contains("has ended"))
            #expect(try attempt(999, .reached) == .notFound)

            let detail = try #require(try store.followUpDetail(id: ids[0], now: Fixture.now, settings: Follow.settings))
            #expect(detail.attempts.map(\.outcome) == [.reached])
            #expect(detail.attempts.first?.note == "called")
            #expect(detail.checks.count == 1)
            #expect(detail.caseOpeners == [opening.trace.id: "anna"])
            #expect(try Follow.audit(store, .followUpAttempt).count == 2, "refused attempts are not recorded")
            #expect(try Follow.audit(store, .followUpCheck).count == 1)
            for entry in try store.auditEntries(after: 0, limit: 100) { #expect(!entry.detail.contains("called")) }
            #expect(try store.caseDetail(id: opening.trace.id)?.history.count == 4)
        }
    }

    @Test(
        "time settles before the queue is read: a period that ended completes, a contact never reached is lost",
        arguments: StoreKind.testable)
    func settles(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 3)
            try Follow.tracers(store, ["anna"])
            let opening = try Follow.open(
                store, patient: users[1]!, [Follow.contact(users[2]!, daysAgo: 13), Follow.contact(users[3]!)])
            let ids = try #require(try store.caseDetail(id: opening.trace.id)).followUps.map(\.id)
            _ = try Follow.recorded(
                store.recordAttempt(
                    followUpID: ids[0], outcome: .reached, note: "", by: "anna", onlyAssignedTo: "anna",
                    now: Fixture.now, settings: Follow.settings))
            _ = try Follow.recorded(
                store.recordAttempt(
                    followUpID: ids[1], outcome: .noAnswer, note: "", by: "anna", onlyAssignedTo: "anna",
                    now: Fixture.now, settings: Follow.settings))
            let much = Fixture.now + 4 * 86_400
            let page = try Follow.queue(store, at: much)
            #expect(page.rows.isEmpty)
            let followUps = try #require(try store.caseDetail(id: opening.trace.id)).followUps
            #expect(followUps.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.completed, .lost])
            #expect(try Apricot.events(store, .followUpChanged).filter { $0.detail.contains("settled") }.count == 2)
        }
    }

    @Test("closing a case ends the follow-ups that name no other open case", arguments: StoreKind.testable)
    func close(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 4)
            try Follow.tracers(store, ["anna"])
            let first = try Follow.open(
                store, patient: users[1]!, [Follow.contact(users[3]!), Follow.contact(users[4]!)])
            _ = try Follow.open(store, patient: users[2]!, [Follow.contact(users[3]!)], reference: "ASL-2")
            guard
                case .closed(let trace, let ended) = try store.closeCase(
                    id: first.trace.id, reason: .recovered, note: "isolation over", by: "anna", now: Fixture.now + 60)
            else {
                Issue.record("the case should close")
                return
            }
            #expect(ended == 1)
            #expect(!trace.status.isOpen)
            let states = try #require(try store.caseDetail(id: first.trace.id)).followUps.map {
                ($0.personUserID, $0.state)
            }
            #expect(states.first { $0.0 == users[3]! }?.1 == .calling, "still a contact of an open case")
            #expect(states.first { $0.0 == users[4]! }?.1 == .caseClosed)
            #expect(
                try store.closeCase(id: first.trace.id, reason: .other, note: "", by: "anna", now: Fixture.now)
                    == .alreadyClosed(trace))
            #expect(try store.cases(status: .open, openedBy: nil, limit: 10).count == 1)
            #expect(try store.cases(status: .closed, openedBy: "anna", limit: 10).map(\.id) == [first.trace.id])
            #expect(try store.cases(status: .all, openedBy: "bruno", limit: 10).isEmpty)
            let audit = try #require(try Follow.audit(store, .caseClosed).first)
            #expect(!audit.detail.contains("isolation"), "never the note")

            // Retention: closed long enough ago, the case and its ended follow-ups go.
            #expect(try store.deleteClosedCases(closedBefore: Fixture.now) == 0)
            #expect(try store.deleteClosedCases(closedBefore: Fixture.now + 86_400) == 1)
            #expect(try store.caseDetail(id: first.trace.id) == nil)
            #expect(try Follow.queue(store).rows.map(\.personUserID) == [users[3]!])
        }
    }

    @Test(
        "assigning needs an enabled tracer and active follow-ups; adding by hand joins or makes one",
        arguments: StoreKind.testable)
    func assignAndAdd(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 4)
            try Follow.tracers(store, ["anna", "bruno"], disabled: ["carla"])
            _ = try store.addStaff(
                name: "sara", role: .supervisor, passwordHash: Staff.hashA, by: "admin1", now: Fixture.now,
                onlyIfEmpty: false)
            let opening = try Follow.open(store, patient: users[1]!, [Follow.contact(users[2]!)], toOpener: true)
            let id = try #require(try store.caseDetail(id: opening.trace.id)?.followUps.first?.id)
            #expect(try store.caseDetail(id: opening.trace.id)?.followUps.first?.assignedTo == "anna")
            #expect(try store.assignFollowUps(ids: [id], to: "carla", by: "sara", now: Fixture.now) == .notATracer)
            #expect(try store.assignFollowUps(ids: [id], to: "sara", by: "sara", now: Fixture.now) == .notATracer)
            #expect(
                try store.assignFollowUps(ids: [id, 77], to: "bruno", by: "sara", now: Fixture.now) == .notFound([77]))
            guard
                case .assigned(let done) = try store.assignFollowUps(
                    ids: [id], to: "bruno", by: "sara", now: Fixture.now)
            else {
                Issue.record("assigned")
                return
            }
            #expect(done.map(\.assignedTo) == ["bruno"])
            #expect(try Follow.audit(store, .followUpAssigned).first?.target == "bruno")

            guard
                case .added(let added, let joined) = try store.addFollowUp(
                    caseID: opening.trace.id, personUserID: users[3]!, reason: "household", by: "anna",
                    now: Fixture.now, settings: Follow.settings)
            else {
                Issue.record("added")
                return
            }
            #expect(!joined)
            #expect(added.reasons.first?.addedByHand == "household")
            #expect(added.lastExposureDay == Follow.today)
            #expect(
                try store.addFollowUp(
                    caseID: opening.trace.id, personUserID: users[3]!, reason: "again", by: "anna", now: Fixture.now,
                    settings: Follow.settings) == .alreadyFollowed(added))
            #expect(
                try store.addFollowUp(
                    caseID: opening.trace.id, personUserID: users[1]!, reason: "self", by: "anna", now: Fixture.now,
                    settings: Follow.settings) == .isPatient)
            #expect(
                try store.addFollowUp(
                    caseID: 999, personUserID: users[3]!, reason: "x", by: "anna", now: Fixture.now,
                    settings: Follow.settings) == .caseNotFound)
            #expect(try Follow.audit(store, .followUpAdded).map(\.target) == ["user \(users[3]!)"])
            for entry in try store.auditEntries(after: 0, limit: 100) { #expect(!entry.detail.contains("household")) }
        }
    }

    @Test("the cleanup deletes cases closed longer ago than closed_case_retention_days", arguments: StoreKind.testable)
    func retention(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let users = try Follow.users(store, 2)
            try Follow.tracers(store, ["anna"])
            let opening = try Follow.open(store, patient: users[1]!, [Follow.contact(users[2]!)])
            _ = try store.closeCase(id: opening.trace.id, reason: .recovered, note: "", by: "anna", now: Fixture.now)
            let early = try store.cleanup(now: Fixture.now + 29 * 86_400, policy: RetentionPolicy(closedCaseDays: 30))
            #expect(early.closedCases == 0)
            let late = try store.cleanup(now: Fixture.now + 31 * 86_400, policy: RetentionPolicy(closedCaseDays: 30))
            #expect(late.closedCases == 1)
            #expect(late.summary.contains("1 closed case"))
            #expect(try store.caseDetail(id: opening.trace.id) == nil)
            #expect(try store.cases(status: .all, openedBy: nil, limit: 10).isEmpty)
        }
    }
}
