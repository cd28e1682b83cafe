import CivilCalendar
import DeskContract
import DeskCore
import DeskStore
import Foundation
import Testing

/// Contact follow-up (issue 21) through both desks: LocalDesk, and RemoteDesk through the staff
/// API to the server's LocalDesk.
@Suite struct FollowUpContractTests {
    static let kinds: [DeskKind] = DeskKind.allCases

    struct Team {
        var admin: StaffSession
        var tina: StaffSession
        var tom: StaffSession
        var sara: StaffSession
        var ids: TraceCase
    }

    func team(_ f: ContractFixture) async throws -> Team {
        let admin = try await f.admin()
        let tina = try await f.person("tina", .tracer, by: admin)
        let tom = try await f.person("tom", .tracer, by: admin)
        let sara = try await f.person("sara", .supervisor, by: admin)
        let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
        return Team(admin: admin, tina: tina, tom: tom, sara: sara, ids: ids)
    }

    /// A second patient whose phone heard Anna for 20 minutes this morning (today, 08:00 UTC).
    func secondPatient(_ f: ContractFixture, _ ids: TraceCase) throws -> PhoneNumber {
        let phone = PhoneNumber(e164: "+393331000009")!
        var next: UInt32 = 0x9000
        let login = try f.store.login(
            phone: phone, appID: "it.test.apricot", deviceID: "device-second", tokenHash: "hash-second",
            tokenExpiresAt: ContractFixture.start + 86_400, now: ContractFixture.start, count: 2,
            nextSuffix: {
                next += 1
                return next
            })
        guard case .signedIn(let user, _, _) = login else { throw TraceCaseError() }
        let anna = try #require(try f.store.tracePatient(userID: ids.anna)?.ownSuffixes.min())
        let eight: UInt32 = 1_795_939_200
        let records = (0..<20).map {
            ContactRecord(beacon: PseudoID(suffix: anna).bytes, time: eight + UInt32($0 * 60))
        }
        _ = try f.store.storeContactFile(
            userID: user, day: ContractFixture.today, records: records, receivedAt: ContractFixture.start,
            clientClock: Int64(ContractFixture.start.timeIntervalSince1970), skewSeconds: 0)
        return phone
    }

    func open(_ f: ContractFixture, _ session: StaffSession, _ phone: String, _ reference: String, toMe: Bool = false)
        async throws(ServiceError) -> CaseOpening
    {
        try await f.desk.openCase(
            session, phone: phone, reference: reference, indexDay: nil, indexKind: .testDay, assignToMe: toMe)
    }

    @Test("opening a case follows the close contacts the lookup shows, audited with the reference", arguments: kinds)
    func openCase(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let t = try await team(f)
            let opening = try await open(f, t.tina, "333 100 0001", "  ASL-2026-0412 ")
            #expect(!opening.existing)
            #expect(opening.trace.reference == "ASL-2026-0412")
            #expect(opening.trace.patientUserID == t.ids.patient)
            #expect(opening.trace.indexDay == ContractFixture.today)
            #expect(opening.followUpsCreated == 1, "Anna is close, Bruno is not")
            let detail = try await f.desk.caseDetail(t.tina, caseID: opening.trace.id)
            let anna = try #require(detail.followUps.first)
            #expect(anna.personUserID == t.ids.anna)
            #expect(anna.lastExposureDay == TraceCase.day)
            #expect(anna.reasons.first?.minutes == 20)
            #expect(anna.assignedTo == "tina" || anna.assignedTo == "tom")

            let again = try await open(f, t.tina, TraceCase.patientPhone.e164, "ANOTHER")
            #expect(again.existing)
            #expect(again.trace.id == opening.trace.id)

            let trail = try f.auditTrail()
            let opened = try #require(trail.first { $0.action == .caseOpened })
            #expect(opened.actor == "tina")
            #expect(opened.target == "user \(t.ids.patient)")
            #expect(opened.detail.contains(#""reference":"ASL-2026-0412""#))
            #expect(trail.filter { $0.action == .followUpViewed }.count == 2, "the existing case and the detail")
            for entry in trail { #expect(!entry.detail.contains("3331000"), "no phone number in the audit log") }
        }
    }

    @Test("bad input says what to do and records nothing", arguments: kinds)
    func badInput(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let t = try await team(f)
            let empty = await failure { () async throws(ServiceError) in try await open(f, t.tina, "3331000001", "  ") }
            #expect(empty?.message.contains("a case reference is required") == true)
            let unknown = await failure { () async throws(ServiceError) in
                try await open(f, t.tina, "3339999999", "ASL-1")
            }
            #expect(unknown == .invalid(ServiceChecks.unknownPatient))
            let future = await failure { () async throws(ServiceError) in
                try await f.desk.openCase(
                    t.tina, phone: "3331000001", reference: "ASL-1", indexDay: ContractFixture.today.adding(days: 1),
                    indexKind: .symptomOnset, assignToMe: false)
            }
            #expect(future?.message.contains("after today") == true)
            let op = try await f.person("olga", .operator, by: t.admin)
            let byOperator = await failure { () async throws(ServiceError) in
                try await open(f, op, "3331000001", "ASL-1")
            }
            #expect(byOperator?.isForbidden == true)
            #expect(try f.store.cases(status: .all, openedBy: nil, limit: 10).isEmpty)
            for text in [empty?.message, unknown?.message, future?.message] {
                #expect(text?.contains("3331000001") == false)
            }
        }
    }

    @Test("a person in two cases has one follow-up naming both, with the latest exposure", arguments: kinds)
    func twoCases(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let t = try await team(f)
            let second = try secondPatient(f, t.ids)
            let first = try await open(f, t.tina, TraceCase.patientPhone.e164, "ASL-1")
            let other = try await open(f, t.tom, second.e164, "ASL-2")
            #expect(other.followUpsJoined == 1)
            #expect(other.followUpsCreated == 0)
            let page = try await f.desk.followUpQueue(t.sara, query: QueueQuery(scope: .everyone, includeLater: true))
            #expect(page.rows.count == 1)
            let anna = try #require(page.rows.first)
            #expect(anna.reasons.map(\.caseID) == [first.trace.id, other.trace.id])
            #expect(anna.lastExposureDay == ContractFixture.today)
            #expect(anna.periodEndsOn == ContractFixture.today.adding(days: 14))
        }
    }

    @Test("a contact opened as a case: the follow-up became that case, and both cases show the link", arguments: kinds)
    func chain(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let t = try await team(f)
            let first = try await open(f, t.tina, TraceCase.patientPhone.e164, "ASL-1")
            let child = try await open(f, t.tina, TraceCase.annaPhone.e164, "ASL-2")
            let parent = try await f.desk.caseDetail(t.sara, caseID: first.trace.id)
            #expect(parent.followUps.first?.state == .becameCase)
            #expect(parent.trace.ledTo.map(\.caseID) == [child.trace.id])
            let childDetail = try await f.desk.caseDetail(t.sara, caseID: child.trace.id)
            #expect(childDetail.trace.cameFrom.map(\.caseID) == [first.trace.id])
        }
    }

    @Test(
        "a tracer works only their own follow-ups; a supervisor reassigns; the schedule refuses what it must",
        arguments: kinds)
    func roles(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let t = try await team(f)
            let opening = try await open(f, t.tina, TraceCase.patientPhone.e164, "ASL-1", toMe: true)
            let mine = try await f.desk.followUpQueue(t.tina, query: QueueQuery())
            let id = try #require(mine.rows.first?.id)
            #expect(mine.counts.due == 1)
            #expect(try await f.desk.followUpQueue(t.tom, query: QueueQuery()).rows.isEmpty)

            let notTom = await failure { () async throws(ServiceError) in
                try await f.desk.recordAttempt(t.tom, followUpID: id, outcome: .reached, note: "")
            }
            #expect(
                notTom
                    == .forbidden(
                        "follow-up \(id) is assigned to tina: nothing recorded; ask a supervisor to reassign it to you")
            )
            let tomReads = await failure { () async throws(ServiceError) in
                try await f.desk.caseDetail(t.tom, caseID: opening.trace.id)
            }
            #expect(tomReads?.isForbidden == true)
            let tomCloses = await failure { () async throws(ServiceError) in
                try await f.desk.closeCase(t.tom, caseID: opening.trace.id, reason: .other, note: "")
            }
            #expect(tomCloses?.isForbidden == true)
            let tomEveryone = await failure { () async throws(ServiceError) in
                try await f.desk.followUpQueue(t.tom, query: QueueQuery(scope: .everyone))
            }
            #expect(tomEveryone?.isForbidden == true)

            let early = await failure { () async throws(ServiceError) in
                try await f.desk.recordCheck(t.tina, followUpID: id, symptoms: false, isolating: true, note: "")
            }
            #expect(early?.message.contains("not been reached yet") == true)

            let toSupervisor = await failure { () async throws(ServiceError) in
                try await f.desk.assignFollowUps(t.sara, ids: [id], to: "sara")
            }
            #expect(
                toSupervisor
                    == .invalid("sara is not an enabled tracer's account: assign to a tracer from the staff list"))
            let byTracer = await failure { () async throws(ServiceError) in
                try await f.desk.assignFollowUps(t.tina, ids: [id], to: "tom")
            }
            #expect(byTracer?.isForbidden == true)
            let moved = try await f.desk.assignFollowUps(t.sara, ids: [id], to: "tom")
            #expect(moved.map(\.assignedTo) == ["tom"])

            let reached = try await f.desk.recordAttempt(
                t.tom, followUpID: id, outcome: .reached, note: "fine, at home")
            #expect(reached.state == .monitoring)
            let checked = try await f.desk.recordCheck(t.tom, followUpID: id, symptoms: true, isolating: true, note: "")
            #expect(checked.symptomsFlagged)
            let wrong = try await f.desk.recordAttempt(t.tom, followUpID: id, outcome: .wrongNumber, note: "")
            #expect(wrong.state == .wrongNumber)
            let ended = await failure { () async throws(ServiceError) in
                try await f.desk.recordAttempt(t.tom, followUpID: id, outcome: .reached, note: "")
            }
            #expect(ended?.message.contains("has ended") == true)

            let detail = try await f.desk.followUpDetail(t.tina, followUpID: id)
            #expect(detail.attempts.count == 2)
            #expect(detail.checks.count == 1)
            try await f.desk.recordFollowUpPhoneCopy(t.tom, followUpID: id)
            let closed = try await f.desk.closeCase(t.tina, caseID: opening.trace.id, reason: .recovered, note: "")
            #expect(!closed.status.isOpen)

            let trail = try f.auditTrail()
            let actions = Set(trail.map(\.action))
            for action in [
                AuditAction.caseOpened, .followUpViewed, .followUpAssigned, .followUpAttempt, .followUpCheck,
                .phoneCopied, .caseClosed,
            ] {
                #expect(actions.contains(action), "\(action) audited")
            }
            #expect(trail.first { $0.action == .phoneCopied }?.target == "user \(t.ids.anna)")
            for entry in trail {
                #expect(!entry.detail.contains("3331000"), "no phone number in the audit log")
                #expect(!entry.detail.contains("at home"), "never a note")
            }
        }
    }
}
