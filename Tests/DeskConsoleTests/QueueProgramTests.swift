import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The call queue through the whole program over ``FakeDesk``, which schedules follow-ups with
/// ``FollowUpSchedule`` as the real desks do: keys in, the desk's records and the screen out.
@Suite("Call queue over the fake desk")
struct QueueProgramTests {
    static let accounts: [(String, StaffRole)] = [
        ("tina", .tracer), ("toni", .tracer), ("sara", .supervisor), ("oscar", .operator),
    ]

    func desk() -> FakeDesk {
        let desk = FakeDesk(accounts: Self.accounts, now: Fixture.now, location: Fixture.location)
        desk.seedFollowUp(phone: "+393470000011", userID: 111, assignedTo: "tina")
        desk.seedFollowUp(phone: "+393470000012", userID: 112, assignedTo: "tina")
        desk.seedFollowUp(phone: "+393470000013", userID: 113, reference: "ASL-2026-0415", assignedTo: "tina")
        desk.seedFollowUp(phone: "+393470000014", userID: 114, assignedTo: "toni")
        return desk
    }

    func console(_ desk: FakeDesk, _ user: String, width: Int = 80, height: Int = 24) async -> Console {
        let c = Console(desk, width: width, height: height)
        await c.send([])
        await c.signIn(user)
        return c
    }

    @Test("a tracer's morning: the queue, digits through it to the end, a reached person's check")
    func morning() async throws {
        let desk = desk()
        let c = await console(desk, "tina")
        #expect(c.state.page == .queue)
        #expect(c.state.queue.rows.map(\.id) == [1, 2, 3], "tina's own, by due time then id")
        #expect(c.prose.contains("+39 347 000 0011"))
        await c.press(.char("1"))
        #expect(desk.followUp(1)?.attempts == 1)
        #expect(desk.followUp(1)?.lastOutcome == .noAnswer)
        #expect(c.state.queue.selectedRow?.id == 2)
        await c.press(.char("4"))
        #expect(desk.followUp(2)?.state == .monitoring)
        await c.press(.char("3"))
        #expect(desk.followUp(3)?.state == .wrongNumber)
        // Only the reached person is still due now: their check.
        #expect(c.state.queue.selectedRow?.id == 2)
        await c.press(.char("c"), .char("n"), .char("y"), .enter)
        let checked = try #require(desk.followUp(2))
        #expect(checked.checkedDays == 1)
        #expect(checked.nextDueAt == FollowUpSchedule.start(of: Fixture.now.utcDay.adding(days: 1)))
        #expect(c.prose.contains("check recorded for +39 347 000 0012"))
        let actions = desk.auditActions
        #expect(actions.filter { $0 == .followUpAttempt }.count == 3)
        #expect(actions.contains(.followUpCheck))
        // Nobody is due any more once the queue is read again.
        await c.press(.char("r"))
        #expect(c.state.queue.counts.due + c.state.queue.counts.overdue == 0)
        #expect(c.state.queue.rows.map(\.id) == [1], "the retry later today; the check is tomorrow's")
    }

    @Test("a call the desk refuses (assigned to someone else meanwhile): its message, nothing recorded")
    func refusedAttempt() async throws {
        let desk = desk()
        let c = await console(desk, "tina")
        let sara = try await desk.signIn(name: "sara", password: FakeDesk.password)
        _ = try await desk.assignFollowUps(sara, ids: [1], to: "toni")
        await c.press(.char("2"))
        #expect(c.prose.contains("was not recorded: follow-up 1 is assigned to toni, not you"))
        #expect(desk.followUp(1)?.attempts == 0)
    }

    @Test("y: copy_phone audited with the person's user id (never the number), then copied")
    func copy() async throws {
        let desk = desk()
        let c = await console(desk, "tina")
        await c.press(.char("y"))
        #expect(c.backend.copied == ["+393470000011"])
        let entry = try #require(desk.auditEntries.last)
        #expect(entry.action == .phoneCopied)
        #expect(entry.target == "user 111")
        #expect(!entry.detail.contains("3470000011"))
        #expect(c.screen.contains("phone number copied"))
    }

    @Test("/ with digits or a case reference: the desk's search")
    func filter() async throws {
        let desk = desk()
        let c = await console(desk, "tina")
        await c.press(.char("/"))
        await c.type("0415")
        #expect(c.state.queue.rows.map(\.id) == [3])
        await c.press(.escape)
        #expect(c.state.queue.rows.count == 3)
        await c.press(.char("/"))
        await c.type("0000012")
        #expect(c.state.queue.rows.map(\.id) == [2])
    }

    @Test("Enter opens the person; the view is audited")
    func detail() async throws {
        let desk = desk()
        let c = await console(desk, "tina", width: 120, height: 40)
        await c.press(.char("1"))
        await c.press(.char("k"), .enter)
        #expect(c.prose.contains("Calls (1)"))
        #expect(c.prose.contains("no answer by tina"))
        #expect(desk.auditEntries.contains { $0.action == .followUpViewed && $0.target == "follow-up 1" })
    }

    @Test(
        "a supervisor reassigns two marked follow-ups to another tracer; a non-tracer is refused with the desk's words")
    func reassign() async throws {
        let desk = desk()
        let c = await console(desk, "sara")
        await c.press(.function(4))
        #expect(c.state.page == .queue)
        #expect(c.state.queue.rows.count == 4, "everyone's")
        #expect(c.state.queue.tracers == ["tina", "toni"])
        await c.press(.char("a"))
        await c.type("oscar")
        await c.press(.enter)
        #expect(c.prose.contains("nothing was reassigned: oscar is not an enabled tracer's account"))
        #expect(desk.followUp(1)?.assignedTo == "tina")
        await c.press(.char(" "), .char(" "))
        await c.press(.char("a"))
        await c.type("toni")
        await c.press(.enter)
        #expect(desk.followUp(1)?.assignedTo == "toni")
        #expect(desk.followUp(2)?.assignedTo == "toni")
        #expect(desk.followUp(3)?.assignedTo == "tina")
        #expect(c.prose.contains("2 follow-ups assigned to toni"))
        await c.press(.char("t"))
        await c.type("tina")
        await c.press(.enter)
        #expect(c.state.queue.rows.map(\.id) == [3])
    }

    @Test("a desk that cannot be reached: the queue says so, and nothing crashes")
    func unavailable() async throws {
        let desk = desk()
        let c = await console(desk, "tina")
        desk.fail(with: .unavailable("the store is locked"))
        await c.press(.char("r"))
        #expect(c.prose.contains("could not read the queue: the store is locked"))
        await c.press(.char("1"))
        #expect(c.prose.contains("was not recorded: the store is locked"))
    }

    @Test("a tracer opening a case through the desk gets follow-ups in the queue; the same patient again is that case")
    func openCase() async throws {
        let desk = FakeDesk(accounts: Self.accounts, now: Fixture.now, location: Fixture.location)
        desk.canned { $0.lookups["333 123 4567"] = TraceFixture.lookup() }
        let tina = try await desk.signIn(name: "tina", password: FakeDesk.password)
        let opened = try await desk.openCase(
            tina, phone: "333 123 4567", reference: " ASL-2026-0412 ", indexDay: nil, indexKind: .testDay,
            assignToMe: true)
        #expect(opened.trace.reference == "ASL-2026-0412")
        #expect(!opened.existing)
        #expect(opened.followUpsCreated == TraceFixture.lookup().contacts.filter(\.summary.isCloseContact).count)
        let again = try await desk.openCase(
            tina, phone: "333 123 4567", reference: "other", indexDay: nil, indexKind: .testDay, assignToMe: true)
        #expect(again.existing)
        #expect(again.trace.id == opened.trace.id)
        await #expect(
            throws: ServiceError.invalid(
                "a case reference is required: type the authority's case number, e.g. ASL-2026-0412")
        ) {
            _ = try await desk.openCase(
                tina, phone: "333 123 4567", reference: "  ", indexDay: nil, indexKind: .testDay, assignToMe: true)
        }
        let c = await console(desk, "tina")
        #expect(c.state.queue.rows.count == opened.followUpsCreated)
    }

    @Test("the trace screen opens a case, v shows it through the desk (audited), Enter a contact, x closes it")
    func caseView() async throws {
        let desk = FakeDesk(accounts: Self.accounts, now: Fixture.now, location: Fixture.location)
        desk.canned { $0.lookups["333 123 4567"] = TraceFixture.lookup() }
        let c = await console(desk, "tina", width: 120, height: 40)
        await c.press(.function(2))
        await c.type("333 123 4567")
        await c.press(.enter)
        await c.type("ASL-2026-0412")
        await c.press(.enter)
        #expect(try await c.until { c.state.trace.phase == .result })
        let caseID = try #require(c.state.trace.openedCase?.trace.id)
        await c.press(.char("v"))
        #expect(try await c.until { c.state.queue.caseView?.loaded != nil })
        #expect(c.prose.contains("Case ASL-2026-0412 · case \(caseID)"))
        #expect(c.prose.contains("Status: open · opened by tina"))
        let contacts = try #require(c.state.queue.caseView?.loaded?.followUps)
        #expect(contacts.count == TraceFixture.lookup().contacts.filter(\.summary.isCloseContact).count)
        #expect(desk.auditEntries.contains { $0.action == .followUpViewed && $0.target == "case \(caseID)" })
        await c.press(.enter)
        #expect(try await c.until { c.state.queue.detail?.loaded != nil })
        #expect(c.prose.contains("Calls (0)"))
        await c.press(.escape)
        #expect(c.state.queue.showsCase)
        await c.press(.char("x"), .char("3"), .enter, .char("y"))
        #expect(try await c.until { c.state.queue.caseView?.loaded?.trace.status.isOpen == false })
        #expect(c.prose.contains("Status: closed: opened in error, by tina"))
        #expect(desk.auditActions.contains(.caseClosed))
        #expect(contacts.allSatisfy { desk.followUp($0.id)?.state == .caseClosed })
        await c.press(.escape)
        #expect(c.state.page == .trace)
    }
}
