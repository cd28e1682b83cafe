import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import Foundation
import Testing

/// A tracer's and a supervisor's morning of cases and follow-ups through both desks, every
/// answer and error written down: the remote transcript (RemoteDesk → the staff API → the
/// server's LocalDesk) must equal the local one value for value, and so must the audit trail
/// each leaves. Whatever LocalDesk decides, the staff API carries it whole: every field of every
/// answer, every refusal in the desk's own words.
@Suite struct FollowUpSameAnswersTests {
    struct Run {
        var lines: [String]
        var audit: [String]
        var serverLog: [String]
    }

    static func run(_ kind: DeskKind) async throws -> Run {
        try await ContractFixture.with(kind) { f in
            var lines: [String] = []
            func note<T>(_ label: String, _ body: () async throws(ServiceError) -> T) async -> T? {
                do {
                    let value = try await body()
                    lines.append("\(label): \(value)")
                    return value
                } catch {
                    lines.append("\(label): error \(error)")
                    return nil
                }
            }
            let desk = f.desk
            let admin = try await f.admin()
            var tina = try await f.person("tina", .tracer, by: admin)
            var tom = try await f.person("tom", .tracer, by: admin)
            var sue = try await f.person("sue", .supervisor, by: admin)
            let ana = try await f.person("ana", .operator, by: admin)
            let seeded = try TraceCase.seed(f.store, now: ContractFixture.start)
            let today = ContractFixture.today
            lines.append("seeded: \(seeded.patient) \(seeded.anna) \(seeded.bruno) \(seeded.idle)")

            // Opening a case: by a tracer, again, by a role that may not, with bad input.
            let opening = await note("open") { () async throws(ServiceError) in
                try await desk.openCase(
                    tina, phone: "+39 333 100 0001", reference: " ASL-2026-0412 ", indexDay: today.adding(days: -2),
                    indexKind: .symptomOnset, assignToMe: true)
            }
            _ = await note("open again") { () async throws(ServiceError) in
                try await desk.openCase(
                    tina, phone: TraceCase.patientPhone.e164, reference: "other", indexDay: nil, indexKind: .testDay,
                    assignToMe: false)
            }
            _ = await note("open by operator") { () async throws(ServiceError) in
                try await desk.openCase(
                    ana, phone: TraceCase.annaPhone.e164, reference: "ASL-9", indexDay: nil, indexKind: .testDay,
                    assignToMe: false)
            }
            _ = await note("open without reference") { () async throws(ServiceError) in
                try await desk.openCase(
                    tom, phone: TraceCase.annaPhone.e164, reference: "  ", indexDay: nil, indexKind: .testDay,
                    assignToMe: false)
            }
            _ = await note("open unknown number") { () async throws(ServiceError) in
                try await desk.openCase(
                    tom, phone: "+393339999999", reference: "ASL-8", indexDay: nil, indexKind: .testDay,
                    assignToMe: false)
            }
            let caseID = opening?.trace.id ?? 1
            f.clock.advance(seconds: 60)

            // Reading: the lists, the case, the queue of each.
            _ = await note("tina's cases") { () async throws(ServiceError) in
                try await desk.cases(tina, query: CaseQuery(status: .all))
            }
            _ = await note("sue's cases by tina") { () async throws(ServiceError) in
                try await desk.cases(sue, query: CaseQuery(status: .open, openedBy: "tina", limit: 10))
            }
            _ = await note("cases by operator") { () async throws(ServiceError) in
                try await desk.cases(ana, query: CaseQuery())
            }
            _ = await note("case detail") { () async throws(ServiceError) in
                try await desk.caseDetail(tina, caseID: caseID)
            }
            _ = await note("no such case") { () async throws(ServiceError) in
                try await desk.caseDetail(sue, caseID: 999)
            }
            let queue = await note("tina's queue") { () async throws(ServiceError) in
                try await desk.followUpQueue(tina, query: QueueQuery(scope: .mine, includeLater: true))
            }
            _ = await note("tina asks for everyone's") { () async throws(ServiceError) in
                try await desk.followUpQueue(tina, query: QueueQuery(scope: .everyone))
            }
            _ = await note("sue's queue of everyone, searched") { () async throws(ServiceError) in
                try await desk.followUpQueue(
                    sue, query: QueueQuery(scope: .everyone, includeLater: true, search: "333", limit: 1))
            }
            let followUpID = queue?.rows.first?.id ?? 1
            _ = await note("follow-up detail") { () async throws(ServiceError) in
                try await desk.followUpDetail(tina, followUpID: followUpID)
            }

            // Working it: attempts, the schedule, a check, refusals.
            _ = await note("check before reached") { () async throws(ServiceError) in
                try await desk.recordCheck(tina, followUpID: followUpID, symptoms: false, isolating: true, note: "")
            }
            _ = await note("no answer") { () async throws(ServiceError) in
                try await desk.recordAttempt(tina, followUpID: followUpID, outcome: .noAnswer, note: "rang 10 times")
            }
            _ = await note("tom on tina's") { () async throws(ServiceError) in
                try await desk.recordAttempt(tom, followUpID: followUpID, outcome: .reached, note: "")
            }
            // The retry interval later (sessions idle out meanwhile: everyone signs in again).
            f.clock.advance(seconds: 7_200)
            tina = try await desk.signIn(name: "tina", password: ContractFixture.password)
            tom = try await desk.signIn(name: "tom", password: ContractFixture.password)
            sue = try await desk.signIn(name: "sue", password: ContractFixture.password)
            _ = await note("reached") { () async throws(ServiceError) in
                try await desk.recordAttempt(tina, followUpID: followUpID, outcome: .reached, note: "")
            }
            _ = await note("check") { () async throws(ServiceError) in
                try await desk.recordCheck(
                    tina, followUpID: followUpID, symptoms: true, isolating: true, note: "mild cough")
            }
            _ = await note("copy") { () async throws(ServiceError) in
                try await desk.recordFollowUpPhoneCopy(tina, followUpID: followUpID)
            }
            let added = await note("add by hand") { () async throws(ServiceError) in
                try await desk.addFollowUp(tina, caseID: caseID, phone: "333 100 0003", reason: "same household")
            }
            _ = await note("add without reason") { () async throws(ServiceError) in
                try await desk.addFollowUp(tina, caseID: caseID, phone: TraceCase.idlePhone.e164, reason: "")
            }

            // The supervisor: assignments, indicators.
            let ids = [followUpID] + (added.map { [$0.id] } ?? [])
            _ = await note("assign to tom") { () async throws(ServiceError) in
                try await desk.assignFollowUps(sue, ids: ids, to: "tom")
            }
            _ = await note("assign to an operator") { () async throws(ServiceError) in
                try await desk.assignFollowUps(sue, ids: ids, to: "ana")
            }
            _ = await note("assign by a tracer") { () async throws(ServiceError) in
                try await desk.assignFollowUps(tina, ids: ids, to: "tina")
            }
            _ = await note("tom's queue") { () async throws(ServiceError) in
                try await desk.followUpQueue(tom, query: QueueQuery(includeLater: true))
            }
            _ = await note("indicators") { () async throws(ServiceError) in
                try await desk.followUpIndicators(sue, query: .last(.week, now: f.clock.now()))
            }
            _ = await note("indicators by a tracer") { () async throws(ServiceError) in
                try await desk.followUpIndicators(tina, query: .last(.week, now: f.clock.now()))
            }

            // Closing.
            _ = await note("close") { () async throws(ServiceError) in
                try await desk.closeCase(tina, caseID: caseID, reason: .recovered, note: "isolation over")
            }
            _ = await note("close again") { () async throws(ServiceError) in
                try await desk.closeCase(sue, caseID: caseID, reason: .other, note: "")
            }
            _ = await note("closed cases") { () async throws(ServiceError) in
                try await desk.cases(sue, query: CaseQuery(status: .closed))
            }

            // Sign-ins are left out: their entries name where they came from (local, 127.0.0.1).
            let followUpActions: Set<AuditAction> = [
                .caseOpened, .followUpViewed, .caseClosed, .followUpAdded, .followUpAttempt, .followUpCheck,
                .followUpAssigned, .phoneCopied,
            ]
            let audit = try f.auditTrail().filter { followUpActions.contains($0.action) }.map {
                "\($0.at) \($0.actor) \($0.action.rawValue) \($0.target ?? "-") \($0.detail)"
            }
            return Run(lines: lines, audit: audit, serverLog: f.logLines.all)
        }
    }

    @Test("the remote desk answers every call as the local one does, and leaves the same audit trail")
    func sameAnswers() async throws {
        let local = try await Self.run(.local)
        let remote = try await Self.run(.remote)
        #expect(local.lines.count == remote.lines.count)
        for (l, r) in zip(local.lines, remote.lines) { #expect(l == r) }
        #expect(local.audit == remote.audit)
        // The scenario is worth comparing: every use case answered, none is missing on a desk.
        #expect(!local.lines.contains { $0.contains("error unavailable(") }, "\(local.lines)")
        #expect(local.lines.contains { $0.hasPrefix("open: CaseOpening(") })
    }

    @Test("no phone number in an audit entry or a server log line, through the staff API")
    func privacy() async throws {
        let remote = try await Self.run(.remote)
        for phone in [
            TraceCase.patientPhone, TraceCase.annaPhone, TraceCase.brunoPhone, TraceCase.idlePhone,
        ] {
            let digits = String(phone.e164.dropFirst(3))
            #expect(!remote.audit.joined().contains(digits), "\(phone)")
            #expect(!remote.serverLog.joined().contains(digits), "\(phone)")
        }
        #expect(!remote.serverLog.joined().contains("3339999999"))
    }
}
