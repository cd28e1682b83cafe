import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// Follow-ups as a desk's queue answers them, at ``Fixture/now`` (2026-11-29 14:02 UTC).
enum QueueFixture {
    static let tracer = Fixture.session("tina", role: .tracer)
    static let supervisor = Fixture.session("sara", role: .supervisor)

    static func phone(_ n: Int) -> PhoneNumber { PhoneNumber(e164: "+3934700\(String(format: "%05d", n))")! }

    static func followUp(
        _ id: Int64, dueMinutes: Int = 0, state: FollowUpState = .calling, attempts: Int = 0,
        last: CallOutcome? = nil, assignedTo: String? = "tina", symptoms: Bool = false,
        reference: String = "ASL-2026-0412", cases: Int = 1
    ) -> FollowUp {
        let exposure = CivilDay(iso: "2026-11-28")!
        var reasons = [
            FollowUpReason(
                caseID: 1, caseReference: reference, lastExposureDay: exposure, minutes: 40 + Int(id), days: 2,
                mostMinutesOnOneDay: 21, isCloseContact: true)
        ]
        if cases > 1 {
            reasons.append(
                FollowUpReason(
                    caseID: 2, caseReference: "ASL-2026-0415", lastExposureDay: exposure.adding(days: -1), minutes: 16,
                    days: 1, mostMinutesOnOneDay: 16, isCloseContact: true))
        }
        return FollowUp(
            id: id, personUserID: 100 + id, phone: phone(Int(id)), reasons: reasons, lastExposureDay: exposure,
            periodEndsOn: exposure.adding(days: 14), assignedTo: assignedTo, state: state,
            createdAt: Fixture.now.addingTimeInterval(-3600),
            nextDueAt: Fixture.now.addingTimeInterval(Double(dueMinutes) * 60), attempts: attempts,
            lastOutcome: last, symptomsFlagged: symptoms)
    }

    /// Overdue, due, due, a reached person whose check is due, one due later today.
    static func rows() -> [FollowUp] {
        [
            followUp(11, dueMinutes: -180, attempts: 1, last: .noAnswer),
            followUp(12, dueMinutes: -5, cases: 2),
            followUp(13, dueMinutes: 0),
            followUp(14, dueMinutes: -1, state: .monitoring, attempts: 1, last: .reached),
            followUp(15, dueMinutes: 120, attempts: 2, last: .voicemail),
        ]
    }

    static func page(_ rows: [FollowUp] = rows(), next: QueueCursor? = nil) -> QueuePage {
        QueuePage(
            rows: rows, counts: QueueCounts(overdue: 1, due: 3, laterToday: 1, later: 2), next: next,
            readAt: Fixture.now)
    }

    /// A tracer's console on the queue with `rows` read.
    static func app(
        width: Int = 80, height: Int = 24, session: StaffSession = tracer, rows: [FollowUp] = rows(),
        demo: Bool = false,
        ascii: Bool = false
    ) -> ConsoleApp.State {
        var state = ConsoleApp.State(
            size: TerminalSize(width: width, height: height), location: Fixture.location, now: Fixture.now,
            timeZone: Fixture.utc, ascii: ascii)
        if demo { state.demoAccounts = DemoAccounts(accounts: []) }
        _ = ConsoleApp.update(&state, .signedIn(session))
        if session.role == .supervisor {
            _ = ConsoleApp.update(&state, .keyPressed(.function(4)))
            _ = ConsoleApp.update(&state, .queue(.tracersLoaded(["tina", "toni"])))
        }
        _ = ConsoleApp.update(&state, .queue(.loaded(page(rows), request: state.queue.request, append: false)))
        return state
    }

    static func attempts(_ commands: [ConsoleApp.Command]) -> [QueueScreen.Command] {
        commands.compactMap { if case .queue(let inner) = $0 { return inner } else { return nil } }
    }
}

@Suite("Call queue screen")
struct QueueScreenTests {
    @Test("a tracer signs in on the queue: their own, today's, the first page")
    func home() {
        var state = Fixture.signedOut()
        let commands = ConsoleApp.update(&state, .signedIn(QueueFixture.tracer))
        #expect(state.page == .queue)
        #expect(
            commands.contains(
                .queue(.load(QueueQuery(scope: .mine, limit: QueueScreen.pageSize), request: 1, append: false))))
        #expect(Fixture.prose(state).contains("reading the queue"))
    }

    @Test("each row: due, the whole number, the case, attempts, last outcome, why a contact")
    func rows() {
        let state = QueueFixture.app(width: 120, height: 40)
        let text = Fixture.prose(state)
        #expect(text.contains("Your calls · 1 overdue · 3 due now · 1 later today"))
        #expect(text.contains("overdue 11:02 +39 347 000 0011 ASL-2026-0412 1 no answer"))
        #expect(text.contains("+39 347 000 0012 ASL-2026-0412 +1"))
        #expect(text.contains("check due"))
        #expect(text.contains("today 16:02"))
        #expect(text.contains("51 min · 2 d · last 11-28"))
        // The pane: every case the person is followed for.
        #expect(text.contains("case ASL-2026-0412: 51 min over 2 days, most 21 on one day, last exposure 2026-11-28"))
    }

    @Test("a digit records the outcome at once and moves to the next person due; the row says it is being recorded")
    func digit() {
        var state = QueueFixture.app()
        let commands = Fixture.press(.char("1"), into: &state)
        #expect(QueueFixture.attempts(commands) == [.attempt(followUpID: 11, outcome: .noAnswer, note: "")])
        #expect(state.queue.selectedRow?.id == 12, "the next person due")
        #expect(state.queue.saving[11] == .noAnswer)
        #expect(Fixture.prose(state).contains("no answer…"))
        // Every digit is its CallOutcome, in order.
        for outcome in CallOutcome.allCases {
            var fresh = QueueFixture.app()
            let sent = QueueFixture.attempts(Fixture.press(.char(Character(String(outcome.digit))), into: &fresh))
            #expect(sent == [.attempt(followUpID: 11, outcome: outcome, note: "")])
        }
    }

    @Test("saved: the row in place with its new schedule, the notice says what comes next")
    func saved() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("1"), into: &state)
        var after = QueueFixture.rows()[0]
        after = FollowUpSchedule.attempted(after, outcome: .noAnswer, at: Fixture.now, settings: .standard)
        _ = ConsoleApp.update(&state, .queue(.attemptSaved(after, outcome: .noAnswer)))
        #expect(state.queue.rows.map(\.id) == [11, 12, 13, 14, 15], "the rows do not move")
        #expect(state.queue.rows[0].attempts == 2)
        #expect(state.queue.saving.isEmpty)
        #expect(Fixture.prose(state).contains("no answer recorded for +39 347 000 0011: next call due 16:02"))
    }

    @Test("refused by the desk: the desk's message, the row as it was, the digit can be pressed again")
    func refused() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("2"), into: &state)
        _ = ConsoleApp.update(
            &state,
            .queue(
                .attemptFailed(
                    "follow-up 11 is assigned to toni, not you: reload the queue (r)", followUp: 11, outcome: .voicemail
                )))
        #expect(state.queue.saving.isEmpty)
        let text = Fixture.prose(state)
        #expect(text.contains("“voicemail” for +39 347 000 0011 was not recorded: follow-up 11 is assigned to toni"))
        _ = Fixture.press(.char("k"), into: &state)
        #expect(
            QueueFixture.attempts(Fixture.press(.char("2"), into: &state)) == [
                .attempt(followUpID: 11, outcome: .voicemail, note: "")
            ])
    }

    @Test("a digit on a row still being recorded waits, and says so")
    func digitWhileSaving() {
        var state = QueueFixture.app(rows: [QueueFixture.followUp(11)])
        _ = Fixture.press(.char("1"), into: &state)
        #expect(Fixture.press(.char("1"), into: &state).isEmpty)
        #expect(state.queue.notice?.text.contains("still being recorded") == true)
        #expect(state.queue.notice?.text.contains("nobody else is due now") == false)
    }

    @Test("the last one due: the notice says nobody else is due")
    func lastDue() {
        var state = QueueFixture.app(rows: [QueueFixture.followUp(11), QueueFixture.followUp(15, dueMinutes: 120)])
        _ = Fixture.press(.char("1"), into: &state)
        #expect(state.queue.notice?.text.contains("nobody else is due now") == true)
    }

    @Test("o: the outcome with a note; a digit in the empty note picks the outcome")
    func noteForm() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("o"), .char("4"), into: &state)
        #expect(state.queue.attemptForm?.choice == .reached)
        Fixture.type("call back at 6", into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            QueueFixture.attempts(commands) == [.attempt(followUpID: 11, outcome: .reached, note: "call back at 6")])
        _ = ConsoleApp.update(&state, .queue(.attemptFailed("the note is too long", followUp: 11, outcome: .reached)))
        #expect(state.queue.attemptForm?.error == "the note is too long", "the form stays, with the desk's words")
        _ = Fixture.press(.escape, into: &state)
        #expect(state.queue.attemptForm == nil)
    }

    @Test("c before the person was reached: the schedule's message; after: the check asks y/n for both")
    func check() {
        var state = QueueFixture.app()
        #expect(Fixture.press(.char("c"), into: &state).isEmpty)
        #expect(state.queue.notice?.text.contains("has not been reached yet: record the call as reached first") == true)
        _ = Fixture.press(.char("j"), .char("j"), .char("j"), .char("c"), into: &state)
        #expect(state.queue.checkForm?.followUpID == 14)
        // Enter with nothing answered asks for it; nothing is sent.
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(state.queue.checkForm?.error == "any symptoms today? press y or n")
        _ = Fixture.press(.char("y"), .char("n"), into: &state)
        Fixture.type("no fever", into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            QueueFixture.attempts(commands) == [
                .check(followUpID: 14, symptoms: true, isolating: false, note: "no fever")
            ])
        var after = QueueFixture.rows()[3]
        after = FollowUpSchedule.checked(after, symptoms: true, at: Fixture.now, settings: .standard)
        _ = ConsoleApp.update(&state, .queue(.checkSaved(after, symptoms: true)))
        #expect(state.queue.checkForm == nil)
        let text = Fixture.prose(state)
        #expect(text.contains("symptoms, flagged for the supervisor and the case's tracer"))
        #expect(text.contains("! checked"))
    }

    @Test("in the check's note y and n are letters, and ? too")
    func checkNoteLetters() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("j"), .char("j"), .char("j"), .char("c"), .char("n"), .char("y"), into: &state)
        Fixture.type("yes? no", into: &state)
        #expect(state.queue.checkForm?.note.text == "yes? no")
        #expect(state.help == nil)
    }

    @Test("y: the copy is recorded by the desk first, then the number is copied whole")
    func copy() {
        var state = QueueFixture.app()
        let commands = QueueFixture.attempts(Fixture.press(.char("y"), into: &state))
        #expect(commands == [.copyPhone(followUpID: 11, phone: "+393470000011")])
        let clip = ClipboardCopy("+393470000011", what: "phone number")
        let copy = QueueFixture.attempts(ConsoleApp.update(&state, .queue(.phoneCopyRecorded(clip, followUp: 11))))
        #expect(copy == [.copy(clip)])
    }

    @Test(
        "/ asks the desk as you type (case reference or digits); Esc clears it and reads again; stale answers are dropped"
    )
    func filter() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("/"), into: &state)
        var commands: [ConsoleApp.Command] = []
        for character in "0415" { commands += ConsoleApp.update(&state, .keyPressed(.char(character))) }
        let queries = QueueFixture.attempts(commands).compactMap { command -> QueueQuery? in
            if case .load(let query, _, _) = command { return query } else { return nil }
        }
        #expect(queries.map(\.search) == ["0", "04", "041", "0415"])
        // The answer to "04" arrives after "0415" was asked: dropped.
        _ = ConsoleApp.update(
            &state, .queue(.loaded(QueueFixture.page([]), request: state.queue.request - 2, append: false)))
        #expect(state.queue.rows.count == 5)
        _ = ConsoleApp.update(
            &state,
            .queue(
                .loaded(
                    QueueFixture.page([QueueFixture.followUp(12, cases: 2)]), request: state.queue.request,
                    append: false)))
        #expect(state.queue.rows.map(\.id) == [12])
        _ = Fixture.press(.enter, into: &state)
        #expect(Fixture.prose(state).contains("filter: 0415"))
        let cleared = QueueFixture.attempts(Fixture.press(.escape, into: &state))
        #expect(
            cleared == [
                .load(
                    QueueQuery(scope: .mine, limit: QueueScreen.pageSize), request: state.queue.request, append: false)
            ])
    }

    @Test("past the last row the next page is read and added")
    func paging() {
        let cursor = QueueCursor(dueAtMilliseconds: Fixture.now.unixMilliseconds + 7_200_000, followUpID: 15)
        var state = QueueFixture.app()
        _ = ConsoleApp.update(
            &state, .queue(.loaded(QueueFixture.page(next: cursor), request: state.queue.request, append: false)))
        let commands = QueueFixture.attempts(Fixture.press(.char("G"), into: &state))
        guard case .load(let query, let request, true) = commands.first else {
            Issue.record("no next page asked: \(commands)")
            return
        }
        #expect(query.after == cursor)
        _ = ConsoleApp.update(
            &state,
            .queue(
                .loaded(QueueFixture.page([QueueFixture.followUp(16, dueMinutes: 200)]), request: request, append: true)
            ))
        #expect(state.queue.rows.map(\.id) == [11, 12, 13, 14, 15, 16])
        #expect(state.queue.selectedRow?.id == 15, "the cursor stays")
    }

    @Test("Enter opens the person: every call and check and the evidence; a digit there records and comes back")
    func detail() {
        var state = QueueFixture.app(width: 120, height: 40)
        #expect(QueueFixture.attempts(Fixture.press(.enter, into: &state)) == [.detail(followUpID: 11)])
        let row = QueueFixture.rows()[0]
        let detail = FollowUpDetail(
            followUp: row,
            attempts: [
                CallAttempt(
                    id: 1, followUpID: 11, at: Fixture.now.addingTimeInterval(-10_800), by: "tina", outcome: .noAnswer,
                    note: "rang out")
            ],
            checks: [])
        _ = ConsoleApp.update(&state, .queue(.detailLoaded(detail)))
        let text = Fixture.prose(state)
        #expect(text.contains("Calls (1)"))
        #expect(text.contains("2026-11-29 11:02 no answer by tina · rang out"))
        #expect(text.contains("Daily checks (0)"))
        #expect(text.contains("Why a contact"))
        let commands = QueueFixture.attempts(Fixture.press(.char("4"), into: &state))
        #expect(commands == [.attempt(followUpID: 11, outcome: .reached, note: "")])
        #expect(state.queue.detail == nil)
    }

    @Test("q waits while a call is being recorded")
    func quitWaits() {
        var state = QueueFixture.app()
        _ = Fixture.press(.char("1"), into: &state)
        #expect(!Fixture.press(.char("q"), into: &state).contains(.quit))
        #expect(state.queue.notice?.text.contains("q quits once it is") == true)
    }

    @Test("the desk's refusal to read the queue is shown, and r reads again")
    func loadFailed() {
        var state = Fixture.signedOut()
        _ = ConsoleApp.update(&state, .signedIn(QueueFixture.tracer))
        _ = ConsoleApp.update(
            &state, .queue(.loadFailed("case follow-up is not available on this desk yet", request: 1)))
        #expect(
            Fixture.prose(state).contains("could not read the queue: case follow-up is not available on this desk yet"))
        #expect(QueueFixture.attempts(Fixture.press(.char("r"), into: &state)).count == 1)
    }

    @Test("the demo says what the simulated contact does when called, so the tracer knows which digit")
    func demoLine() {
        let state = QueueFixture.app(rows: [QueueFixture.followUp(13)], demo: true)
        let hint = DemoContactAnswer.hint(followUpID: 13, attempt: 1)
        #expect(hint == "does not answer this call: press 1 (no answer)")
        #expect(Fixture.prose(state).contains("Demo: this contact does not answer this call: press 1 (no answer)"))
        #expect(!Fixture.prose(QueueFixture.app(rows: [QueueFixture.followUp(13)])).contains("Demo:"))
    }

    @Test("the demo's answers are fixed per follow-up and attempt, and every outcome occurs")
    func demoAnswers() {
        let firsts = (1...10).map { DemoContactAnswer.outcome(followUpID: Int64($0), attempt: 1) }
        #expect(Set(firsts) == Set(CallOutcome.allCases))
        #expect(DemoContactAnswer.outcome(followUpID: 13, attempt: 2) == .reached)
        #expect(
            DemoContactAnswer.outcome(followUpID: 13, attempt: 1)
                == DemoContactAnswer.outcome(followUpID: 13, attempt: 1))
    }

    @Test("a tracer's footer: Open, 1-5 Outcome, Check; the digit legend on the table's border")
    func footer() {
        let state = QueueFixture.app()
        let lines = Fixture.render(state).lines
        #expect(lines[23].contains("Enter Open"))
        #expect(lines[23].contains("1-5 Outcome"))
        #expect(lines.contains { $0.contains("1 no answer  2 voicemail  3 wrong number  4 reached  5 refused") })
    }
}

@Suite("Call queue, the supervisor's view")
struct QueueSupervisorTests {
    @Test("F4 or Q opens everyone's queue; the tracers' names are asked for; no digits")
    func opens() {
        var state = Fixture.app(session: QueueFixture.supervisor)
        let commands = QueueFixture.attempts(Fixture.press(.char("Q"), into: &state))
        #expect(state.page == .queue)
        #expect(commands.contains(.tracers))
        #expect(
            commands.contains(
                .load(QueueQuery(scope: .everyone, limit: QueueScreen.pageSize), request: 1, append: false)))
        _ = ConsoleApp.update(&state, .queue(.loaded(QueueFixture.page(), request: 1, append: false)))
        #expect(QueueFixture.attempts(Fixture.press(.char("1"), .char("c"), .char("o"), into: &state)).isEmpty)
        #expect(Fixture.prose(state).contains("Everyone's queue"))
    }

    @Test("t: one tracer's queue, nobody's yet, everyone's")
    func scope() {
        var state = QueueFixture.app(session: QueueFixture.supervisor)
        _ = Fixture.press(.char("t"), into: &state)
        #expect(
            state.queue.picker?.options.map(\.label) == ["everyone's", "nobody's yet (unassigned)", "tina", "toni"])
        Fixture.type("ton", into: &state)
        let commands = QueueFixture.attempts(Fixture.press(.enter, into: &state))
        #expect(state.queue.scope == .tracer("toni"))
        #expect(
            commands == [
                .load(
                    QueueQuery(scope: .tracer("toni"), limit: QueueScreen.pageSize), request: state.queue.request,
                    append: false)
            ])
        _ = Fixture.press(.char("t"), .down, .enter, into: &state)
        #expect(state.queue.scope == .unassigned)
    }

    @Test("Space marks rows, a reassigns the marked to the tracer picked; the desk's refusal is shown, nothing lost")
    func reassign() {
        var state = QueueFixture.app(session: QueueFixture.supervisor)
        _ = Fixture.press(.char(" "), .char("j"), .char(" "), into: &state)
        #expect(state.queue.marks == [11, 13])
        #expect(Fixture.prose(state).contains("2 marked"))
        _ = Fixture.press(.char("a"), into: &state)
        Fixture.type("toni", into: &state)
        let commands = QueueFixture.attempts(Fixture.press(.enter, into: &state))
        #expect(commands == [.assign(ids: [11, 13], to: "toni")])
        _ = ConsoleApp.update(&state, .queue(.assignFailed("toni is not an enabled tracer's account: pick a tracer")))
        #expect(state.queue.marks == [11, 13], "the marks stay for another try")
        #expect(Fixture.prose(state).contains("nothing was reassigned: toni is not an enabled tracer's account"))
        var moved = QueueFixture.rows()
        moved[0].assignedTo = "toni"
        moved[2].assignedTo = "toni"
        let reload = QueueFixture.attempts(
            ConsoleApp.update(&state, .queue(.assigned([moved[0], moved[2]], to: "toni"))))
        #expect(state.queue.marks.isEmpty)
        #expect(reload.count == 1)
        #expect(Fixture.prose(state).contains("2 follow-ups assigned to toni"))
    }

    @Test("without marks, a reassigns the selected row; a name typed that no list holds goes to the desk as typed")
    func reassignOne() {
        var state = QueueFixture.app(session: QueueFixture.supervisor)
        _ = Fixture.press(.char("a"), into: &state)
        Fixture.type("nobody-known", into: &state)
        #expect(QueueFixture.attempts(Fixture.press(.enter, into: &state)) == [.assign(ids: [11], to: "nobody-known")])
    }

    @Test("symptom flags show for the supervisor, with the tracer of each row")
    func symptoms() {
        let state = QueueFixture.app(
            width: 120, height: 40, session: QueueFixture.supervisor,
            rows: [
                QueueFixture.followUp(
                    14, state: .monitoring, attempts: 1, last: .reached, assignedTo: nil, symptoms: true)
            ])
        let text = Fixture.prose(state)
        #expect(text.contains("! check due"))
        #expect(text.contains("nobody"))
        #expect(text.contains("! symptoms reported"))
    }

    @Test("80 columns: the supervisor's queue keeps a 12-letter tracer's name and the symptom flag whole")
    func supervisorNarrow() {
        var rows = QueueFixture.rows()
        for index in rows.indices { rows[index].assignedTo = "bench-tracer" }
        rows[3].symptomsFlagged = true
        let state = QueueFixture.app(width: 80, height: 24, session: QueueFixture.supervisor, rows: rows)
        let lines = Fixture.render(state).lines
        #expect(lines.filter { $0.contains("bench-tracer") }.count >= rows.count, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("! check due") && $0.contains("bench-tracer") })
        #expect(!lines.contains { $0.contains("…") && $0.contains("bench-tr") && !$0.contains("bench-tracer") })
    }
}
