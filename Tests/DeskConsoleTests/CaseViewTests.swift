import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// A case as a desk's ``DeskService/caseDetail(_:caseID:)`` answers it, at ``Fixture/now``.
enum CaseFixture {
    static func trace(
        id: Int64 = 1, status: CaseStatus = .open, cameFrom: [CaseLink] = [], ledTo: [CaseLink] = []
    ) -> TraceCase {
        TraceCase(
            id: id, reference: "ASL-2026-0412", patientUserID: 7, phone: TraceFixture.patientPhone,
            indexDay: CivilDay(iso: "2026-11-27")!, indexKind: .symptomOnset, openedBy: "tina",
            openedAt: Fixture.now.addingTimeInterval(-7_200), status: status, contacts: 4, cameFrom: cameFrom,
            ledTo: ledTo)
    }

    /// Four contacts: overdue, due, a reached one, one ended (wrong number) assigned to toni.
    static func followUps() -> [FollowUp] {
        var rows = [
            QueueFixture.followUp(11, dueMinutes: -180, attempts: 1, last: .noAnswer),
            QueueFixture.followUp(12, dueMinutes: -5, cases: 2),
            QueueFixture.followUp(14, dueMinutes: 600, state: .monitoring, attempts: 1, last: .reached),
            QueueFixture.followUp(16, state: .wrongNumber, attempts: 1, last: .wrongNumber, assignedTo: "toni"),
        ]
        rows[3].nextDueAt = nil
        return rows
    }

    static func history() -> [CaseHistoryEntry] {
        [
            CaseHistoryEntry(at: Fixture.now.addingTimeInterval(-7_200), actor: "tina", text: "opened with 4 contacts"),
            CaseHistoryEntry(
                at: Fixture.now.addingTimeInterval(-3_600), actor: "tina", text: "follow-up 16: wrong number"),
            CaseHistoryEntry(at: Fixture.now.addingTimeInterval(-1_800), actor: "tina", text: "follow-up 14: reached"),
        ]
    }

    static func detail(_ trace: TraceCase = trace()) -> CaseDetail {
        CaseDetail(trace: trace, followUps: followUps(), history: history())
    }

    /// A tracer's console on the case view of case 1, opened from the queue's person view of
    /// follow-up 11, with the case read.
    static func app(width: Int = 80, height: Int = 24, detail: CaseDetail = detail()) -> ConsoleApp.State {
        var state = QueueFixture.app(width: width, height: height)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(
            &state,
            .queue(.detailLoaded(FollowUpDetail(followUp: QueueFixture.rows()[0], attempts: [], checks: []))))
        _ = Fixture.press(.char("v"), into: &state)
        _ = ConsoleApp.update(&state, .queue(.caseLoaded(detail)))
        return state
    }

    static func queue(_ commands: [ConsoleApp.Command]) -> [QueueScreen.Command] {
        QueueFixture.attempts(commands)
    }
}

@Suite("Case view")
struct CaseViewTests {
    @Test("the trace screen opens the case it opened (v); Esc goes back to the trace screen")
    func fromTrace() throws {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("ASL-2026-0412", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(
            &state,
            .trace(
                .caseOpened(
                    CaseOpening(trace: CaseFixture.trace(), existing: false, followUpsCreated: 4, followUpsJoined: 0))))
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        let footer = Fixture.render(state).lines.last ?? ""
        #expect(footer.contains("v Case"), "\(footer)")
        let commands = Fixture.press(.char("v"), into: &state)
        #expect(state.page == .queue)
        #expect(ConsoleApp.title(state) == "Case")
        #expect(CaseFixture.queue(commands).contains(.caseDetail(caseID: 1)), "the desk's audited read")
        _ = ConsoleApp.update(&state, .queue(.caseLoaded(CaseFixture.detail())))
        #expect(Fixture.prose(state).contains("Case ASL-2026-0412"))
        #expect(Fixture.press(.escape, into: &state).isEmpty)
        #expect(state.page == .trace)
        #expect(state.trace.phase == .result)
        #expect(state.queue.caseView == nil)
    }

    @Test("v on a look-up without a case says so")
    func noCase() {
        var state = TraceFixture.app()
        state.trace.lookup = TraceFixture.lookup()
        state.trace.phase = .result
        #expect(Fixture.press(.char("v"), into: &state).isEmpty)
        #expect(state.page == .trace)
        #expect(state.trace.notice?.text.contains("no case is open for this look-up") == true)
    }

    @Test("the case: reference, patient, index day, status, opener, its contacts, its history, the chain")
    func shows() {
        let trace = CaseFixture.trace(
            cameFrom: [CaseLink(caseID: 3, reference: "ASL-2026-0390", followUpID: 9)],
            ledTo: [CaseLink(caseID: 5, reference: "ASL-2026-0433", followUpID: 16)])
        let text = Fixture.prose(CaseFixture.app(width: 160, height: 40, detail: CaseFixture.detail(trace)))
        #expect(text.contains("Case ASL-2026-0412 · case 1"))
        #expect(text.contains("Patient +39 333 123 4567 · index day 2026-11-27 (symptom onset)"))
        #expect(text.contains("Status: open · opened by tina 2026-11-29 12:02"))
        #expect(text.contains("came from contact follow-up 9 of case ASL-2026-0390 (case 3)"))
        #expect(text.contains("led to case ASL-2026-0433 (case 5): contact follow-up 16 became a case"))
        #expect(text.contains("Contacts (4, 3 active)"))
        #expect(text.contains("+39 347 000 0016 toni wrong number wrong number"))
        #expect(text.contains("wrong number"))
        #expect(text.contains("overdue 11:02"))
        #expect(text.contains("History (3)"))
        #expect(text.contains("2026-11-29 13:32 tina follow-up 14: reached"))
    }

    @Test("Enter on a contact opens the queue's person view; Esc comes back to the case, read again")
    func person() {
        var state = CaseFixture.app()
        _ = Fixture.press(.char("j"), into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(CaseFixture.queue(commands) == [.detail(followUpID: 12)])
        #expect(state.queue.detail?.followUpID == 12)
        #expect(ConsoleApp.title(state) == "Call queue")
        let back = Fixture.press(.escape, into: &state)
        #expect(CaseFixture.queue(back) == [.caseDetail(caseID: 1)])
        #expect(state.queue.showsCase)
        #expect(state.queue.caseView?.selected == 1, "the cursor stays on the contact")
        // Esc on the case: back to the person it was opened from.
        let person = Fixture.press(.escape, into: &state)
        #expect(CaseFixture.queue(person) == [.detail(followUpID: 11)])
        #expect(state.queue.caseView == nil)
        #expect(state.queue.detail?.followUpID == 11)
        _ = Fixture.press(.escape, into: &state)
        #expect(state.queue.detail == nil)
    }

    @Test("a person named by two cases: v lists them, Enter opens the one chosen")
    func twoCases() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("j"), .enter, into: &state)
        #expect(Fixture.press(.char("v"), into: &state).isEmpty)
        let picker = state.queue.picker
        #expect(
            picker?.options.map(\.label) == [
                "case ASL-2026-0412 (a contact of it)", "case ASL-2026-0415 (a contact of it)",
            ])
        let commands = Fixture.press(.down, .enter, into: &state)
        #expect(CaseFixture.queue(commands) == [.caseDetail(caseID: 2)])
        #expect(state.queue.caseView?.origin == .person(12))
    }

    @Test("x: why (a digit or ↑↓), then a confirmation naming what ends; Keep is the default, y closes")
    func close() {
        var state = CaseFixture.app()
        #expect(Fixture.press(.char("x"), into: &state).isEmpty)
        #expect(state.queue.caseView?.closeForm != nil)
        #expect(state.isTypingText, "the note takes letters")
        _ = Fixture.press(.char("2"), into: &state)
        #expect(state.queue.caseView?.closeForm?.reason == .transferred)
        Fixture.type("to Verona", into: &state)
        _ = Fixture.press(.enter, into: &state)
        let dialog = state.queue.caseView?.confirm
        #expect(dialog?.title == "Close case ASL-2026-0412?")
        #expect(dialog?.message.contains("Reason: transferred.") == true)
        // 11 and 14 name only this case; 12 names another open case too; 16 has ended.
        #expect(dialog?.message.contains("2 active follow-ups of this case end") == true)
        #expect(Fixture.render(state).text.contains("Keep it open"))
        // A stray Enter keeps the case open (back to the form, as it was).
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(state.queue.caseView?.confirm == nil)
        #expect(state.queue.caseView?.closeForm?.note.text == "to Verona")
        _ = Fixture.press(.enter, into: &state)
        let commands = Fixture.press(.char("y"), into: &state)
        #expect(
            CaseFixture.queue(commands) == [.closeCase(caseID: 1, reason: .transferred, note: "to Verona")])
        #expect(state.queue.caseView?.closing == true)
        var closed = CaseFixture.trace()
        closed.status = .closed(reason: .transferred, by: "tina", at: Fixture.now)
        let after = ConsoleApp.update(&state, .queue(.caseClosed(closed)))
        #expect(CaseFixture.queue(after).first == .caseDetail(caseID: 1))
        #expect(CaseFixture.queue(after).contains { if case .load = $0 { true } else { false } })
        #expect(Fixture.prose(state).contains("case ASL-2026-0412 closed: transferred"))
        _ = ConsoleApp.update(&state, .queue(.caseLoaded(CaseFixture.detail(closed))))
        #expect(Fixture.prose(state).contains("Status: closed: transferred, by tina 2026-11-29 14:02"))
        // Closed: x says so.
        #expect(Fixture.press(.char("x"), into: &state).isEmpty)
        #expect(state.queue.caseView?.closeForm == nil)
        #expect(state.queue.notice?.text == "case ASL-2026-0412 is closed already")
    }

    @Test("Esc on the close form leaves the case open; the desk's refusal is shown, nothing changes")
    func refused() {
        var state = CaseFixture.app()
        _ = Fixture.press(.char("x"), .escape, into: &state)
        #expect(state.queue.caseView?.closeForm == nil)
        #expect(state.queue.showsCase)
        _ = Fixture.press(.char("x"), .enter, .char("y"), into: &state)
        _ = ConsoleApp.update(
            &state,
            .queue(.caseCloseFailed("case 1 was opened by toni: only they or a supervisor close it", caseID: 1)))
        #expect(state.queue.caseView?.closing == false)
        #expect(Fixture.prose(state).contains("the case was not closed: case 1 was opened by toni"))
        #expect(state.queue.caseView?.loaded?.trace.status == .open)
    }

    @Test("a digit from a contact opened from the case records and comes back to the case, read again")
    func record() {
        var state = CaseFixture.app()
        _ = Fixture.press(.enter, into: &state)
        let commands = Fixture.press(.char("1"), into: &state)
        #expect(CaseFixture.queue(commands) == [.attempt(followUpID: 11, outcome: .noAnswer, note: "")])
        #expect(state.queue.showsCase)
        var saved = QueueFixture.rows()[0]
        saved.attempts = 2
        let after = ConsoleApp.update(&state, .queue(.attemptSaved(saved, outcome: .noAnswer)))
        #expect(CaseFixture.queue(after) == [.caseDetail(caseID: 1)])
    }

    @Test("the case's keys are in help and the palette; the footer names them")
    func keys() {
        var state = CaseFixture.app()
        let footer = Fixture.render(state).text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(footer.contains("Enter Open"))
        #expect(footer.contains("x Close case"))
        #expect(footer.contains("Esc Back"))
        #expect(ConsoleApp.paletteEntries(state).contains { $0.name == "close-case" })
        _ = Fixture.press(.char("?"), into: &state)
        #expect(state.help?.sections.contains { $0.group == "case" } == true)
    }

    @Test("a supervisor reaches the case from the queue's person view too, and F4 goes back to the queue")
    func supervisor() {
        var state = QueueFixture.app(session: QueueFixture.supervisor)
        _ = Fixture.press(.enter, .char("v"), into: &state)
        #expect(state.queue.caseView?.caseID == 1)
        _ = ConsoleApp.update(&state, .queue(.caseLoaded(CaseFixture.detail())))
        #expect(Fixture.prose(state).contains("Contacts (4, 3 active)"))
        _ = Fixture.press(.function(4), into: &state)
        #expect(state.queue.caseView == nil)
        #expect(ConsoleApp.title(state) == "Call queue")
    }
}
