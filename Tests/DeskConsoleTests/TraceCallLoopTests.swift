import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The tracer's call loop (issue 20, Conventions 4): outcomes by digit, the next contact to
/// call, the sort kept while it makes sense, `?` from an empty phone field. The fixture's
/// default order is 11, 13, 12, 14; 13 is already reached (isolating, with a note).
@Suite("Contact-trace call loop")
struct TraceCallLoopTests {
    static func recorded(_ outcome: ContactOutcome, note: String = "") -> RecordedOutcome {
        RecordedOutcome(outcome: outcome, note: note, by: "tina", at: Fixture.now)
    }

    static func phone(_ n: Int) -> String { TraceFixture.phone(n).spaced }

    static func sent(
        _ contact: Int64, _ outcome: ContactOutcome, note: String = ""
    ) -> [ConsoleApp.Command] {
        [
            .trace(
                .recordOutcome(
                    patientUserID: 7, contactUserID: contact, outcome: outcome, note: note,
                    purpose: TraceFixture.purpose))
        ]
    }

    /// The table's row showing `contact` (not a notice naming its number).
    static func row(_ state: ConsoleApp.State, _ contact: Int) -> String {
        Fixture.render(state).lines.first { $0.hasPrefix("│") && $0.contains(phone(contact)) } ?? ""
    }

    @Test(
        "1 … 5 are the five outcomes in a fixed order, from not yet called to wrong number, on the table and in the detail"
    )
    func digits() {
        let expected: [ContactOutcome] = [.notYetCalled, .noAnswer, .reachedIsolating, .reachedRefused, .wrongNumber]
        #expect(TraceScreen.outcomeByDigit == expected)
        #expect(Set(ContactOutcome.allCases) == Set(expected))
        for (index, outcome) in expected.enumerated() {
            let key = Key.char(Character(String(index + 1)))
            #expect(TraceScreen.keyMap.action(for: key) == .record(outcome))
            #expect(TraceScreen.detailKeyMap.action(for: key) == .record(outcome))
        }
        #expect(TraceScreen.keyMap.action(for: .char("6")) == nil)
        #expect(TraceScreen.keyMap.action(for: .char("0")) == nil)
    }

    @Test("a digit records at once through the outcome call, shows it as saving, and moves to the next contact to call")
    func digitRecordsAndMoves() {
        var state = TraceFixture.looked()
        #expect(state.trace.selectedContact?.summary.userID == 11)
        #expect(Fixture.press(.char("2"), into: &state) == Self.sent(11, .noAnswer))
        // 13 is already reached: the next to call is 12.
        #expect(state.trace.selectedContact?.summary.userID == 12)
        #expect(state.trace.lookup?.contacts[0].outcome == nil)
        #expect(Self.row(state, 11).contains("saving…"))
        #expect(!Self.row(state, 11).contains("no answer"))
        #expect(Fixture.prose(state).contains("… saving “no answer” for \(Self.phone(11))"))
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(Self.recorded(.noAnswer), patient: 7, contact: 11)))
        #expect(state.trace.lookup?.contacts[0].outcome == Self.recorded(.noAnswer))
        #expect(state.trace.savingOutcomes.isEmpty)
        #expect(Self.row(state, 11).contains("no answer"))
        #expect(Fixture.prose(state).contains("✓ outcome recorded: no answer for \(Self.phone(11))"))
        // The cursor stayed where the loop put it; the order did not change.
        #expect(state.trace.selectedContact?.summary.userID == 12)
        #expect(TraceFixture.phones(state) == [11, 13, 12, 14])
    }

    @Test("after the last contact to call the cursor stays and the screen says every contact has an outcome")
    func lastContact() {
        var state = TraceFixture.looked()
        #expect(Fixture.press(.char("2"), into: &state) == Self.sent(11, .noAnswer))
        #expect(Fixture.press(.char("4"), into: &state) == Self.sent(12, .reachedRefused))
        #expect(state.trace.selectedContact?.summary.userID == 14)
        #expect(Fixture.press(.char("5"), into: &state) == Self.sent(14, .wrongNumber))
        #expect(state.trace.selectedContact?.summary.userID == 14)
        #expect(Fixture.prose(state).contains("every contact has an outcome"))
        for (contact, outcome) in [(11, ContactOutcome.noAnswer), (12, .reachedRefused), (14, .wrongNumber)] {
            _ = ConsoleApp.update(
                &state, .trace(.outcomeSaved(Self.recorded(outcome), patient: 7, contact: Int64(contact))))
        }
        #expect(
            Fixture.prose(state).contains(
                "✓ outcome recorded: wrong number for \(Self.phone(14)) · every contact has an outcome"))
        #expect(state.trace.selectedContact?.summary.userID == 14)
    }

    @Test("the next contact to call is below first, then from the top; 1 (not yet called) still needs a call")
    func wrapsAndNotCalled() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.end, into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 14)
        #expect(Fixture.press(.char("3"), into: &state) == Self.sent(14, .reachedIsolating))
        #expect(state.trace.selectedContact?.summary.userID == 11)
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(Self.recorded(.reachedIsolating), patient: 7, contact: 14)))
        // 1 records "not yet called": the contact still needs a call, so the loop comes back to
        // it after the others.
        #expect(Fixture.press(.char("1"), into: &state) == Self.sent(11, .notYetCalled))
        #expect(state.trace.selectedContact?.summary.userID == 12)
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(Self.recorded(.notYetCalled), patient: 7, contact: 11)))
        _ = Fixture.press(.char("2"), into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 11)
        #expect(!Fixture.prose(state).contains("every contact has an outcome"))
    }

    @Test("a failed save is not shown as saved: the row keeps its outcome and a notice names the number")
    func failedSave() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("4"), into: &state)
        _ = ConsoleApp.update(
            &state, .trace(.outcomeFailed("the desk cannot be reached", patient: 7, contact: 11)))
        #expect(state.trace.lookup?.contacts[0].outcome == nil)
        #expect(state.trace.savingOutcomes.isEmpty)
        #expect(Self.row(state, 11).contains("not yet called"))
        let prose = Fixture.prose(state)
        #expect(prose.contains("✗ the outcome for \(Self.phone(11)) was not saved: the desk cannot be reached"))
        #expect(prose.contains("It still shows “not yet called”"))
        // Another patient's failure says nothing here.
        _ = Fixture.press(.char("2"), into: &state)
        _ = ConsoleApp.update(&state, .trace(.outcomeFailed("refused", patient: 8, contact: 12)))
        #expect(state.trace.savingOutcomes[12] == .noAnswer)
    }

    @Test("a digit keeps the contact's note; from the detail it records and goes back to the table on the next contact")
    func fromDetail() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.down, into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 13)
        _ = Fixture.press(.enter, into: &state)
        #expect(state.trace.detail != nil)
        #expect(
            Fixture.press(.char("4"), into: &state) == Self.sent(13, .reachedRefused, note: "isolating, calls back Tue")
        )
        #expect(state.trace.detail == nil)
        #expect(state.trace.selectedContact?.summary.userID == 12)
        #expect(Fixture.render(state).lines.last?.contains("1-5 Outcome") == true)
    }

    @Test("a contact still saving takes no second outcome; q waits until nothing is on its way")
    func savingGuards() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("2"), .home, into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 11)
        #expect(Fixture.press(.char("3"), into: &state).isEmpty)
        #expect(Fixture.prose(state).contains("still being saved"))
        #expect(Fixture.press(.char("o"), into: &state).isEmpty)
        #expect(state.trace.outcomeForm == nil)
        #expect(Fixture.press(.char("q"), into: &state).isEmpty)
        #expect(Fixture.prose(state).contains("q quits once it is"))
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(Self.recorded(.noAnswer), patient: 7, contact: 11)))
        #expect(Fixture.press(.char("q"), into: &state).contains(.quit))
    }

    @Test("digits are typed in the filter and in the outcome form's note, never recorded")
    func digitsTyped() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("/"), into: &state)
        #expect(Fixture.press(.char("0"), .char("1"), .char("2"), into: &state).isEmpty)
        #expect(state.trace.filter.text == "012")
        #expect(TraceFixture.phones(state) == [12])
        _ = Fixture.press(.escape, into: &state)
        _ = Fixture.press(.char("o"), into: &state)
        #expect(Fixture.press(.char("2"), .char("5"), into: &state).isEmpty)
        #expect(state.trace.outcomeForm?.note.text == "25")
        #expect(state.trace.outcomeForm?.choice == .notYetCalled)
    }

    @Test("the sort, filter and selection are kept for the same patient (r, or n with their number), not for another")
    func sortKept() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("l"), into: &state)
        #expect(TraceFixture.phones(state) == [12, 11, 13, 14])
        #expect(state.trace.selectedContact?.summary.userID == 11)
        // r: the same patient again.
        _ = Fixture.press(.char("r"), into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        #expect(state.trace.sort == .lastSeen)
        #expect(state.trace.selectedContact?.summary.userID == 11)
        // A filter stays too.
        _ = Fixture.press(.char("/"), into: &state)
        Fixture.type("close", into: &state)
        _ = Fixture.press(.enter, .char("r"), into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        #expect(state.trace.filter.text == "close")
        #expect(TraceFixture.phones(state) == [11, 13])
        // n with the same patient's number, another purpose.
        _ = Fixture.press(.char("n"), into: &state)
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("case 2026-1234 second call", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        #expect(state.trace.sort == .lastSeen)
        #expect(state.trace.filter.text == "close")
        // Another patient: the default order, no filter, the first row.
        var other = TraceFixture.lookup()
        other.patient.userID = 8
        other.patient.phone = PhoneNumber(e164: "+393339999999")!
        _ = Fixture.press(.char("n"), into: &state)
        Fixture.type("333 999 9999", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("case 2026-77", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(other)))
        #expect(state.trace.sort == .minutes)
        #expect(state.trace.filter.text.isEmpty)
        #expect(state.trace.selected == 0)
        #expect(TraceFixture.phones(state) == [11, 13, 12, 14])
        #expect(Fixture.prose(state).contains("sorted by minutes"))
    }

    @Test("a recorded outcome does not move rows under the cursor, even when the filter no longer matches it")
    func noReorderOnOutcome() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("/"), into: &state)
        Fixture.type("not yet", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(TraceFixture.phones(state) == [11, 12, 14])
        _ = Fixture.press(.char("2"), into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 12)
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(Self.recorded(.noAnswer), patient: 7, contact: 11)))
        #expect(TraceFixture.phones(state) == [11, 12, 14])
        #expect(state.trace.selectedContact?.summary.userID == 12)
        // The form's save keeps the rows too.
        _ = Fixture.press(.char("o"), .down, .down, .enter, into: &state)
        _ = ConsoleApp.update(
            &state, .trace(.outcomeSaved(Self.recorded(.reachedIsolating), patient: 7, contact: 12)))
        #expect(TraceFixture.phones(state) == [11, 12, 14])
        // Changing the filter applies it again.
        _ = Fixture.press(.char("/"), .backspace, .char("t"), .enter, into: &state)
        #expect(TraceFixture.phones(state) == [14])
    }

    @Test("? opens help from an empty phone field; once something is typed it is a character (refused on Enter)")
    func questionMarkInPhone() {
        var state = TraceFixture.app()
        #expect(!state.isTypingText)
        #expect(Fixture.render(state).lines.last?.contains("? Help") == true)
        _ = Fixture.press(.char("?"), into: &state)
        #expect(state.help != nil)
        #expect(Fixture.prose(state).contains("look up"))
        _ = Fixture.press(.escape, into: &state)
        #expect(state.help == nil)
        #expect(state.trace.phone.text.isEmpty)
        Fixture.type("333", into: &state)
        #expect(state.isTypingText)
        #expect(Fixture.render(state).lines.last?.contains("F1 Help") == true)
        _ = Fixture.press(.char("?"), into: &state)
        #expect(state.help == nil)
        #expect(state.trace.phone.text == "333?")
        _ = Fixture.press(.enter, into: &state)
        #expect(state.trace.phoneError == PhoneNumberError.notADigit.message)
        // F1 is help whatever the field holds.
        _ = Fixture.press(.function(1), into: &state)
        #expect(state.help != nil)
        _ = Fixture.press(.escape, into: &state)
        // After n over a shown lookup the field is empty again: ? is help there too.
        var shown = TraceFixture.looked()
        _ = Fixture.press(.char("n"), .char("?"), into: &shown)
        #expect(shown.help != nil)
        #expect(shown.trace.phone.text.isEmpty)
    }

    @Test("the footer shows 1-5 Outcome, the table's border the five digits, help each one: all from the key map")
    func legend() {
        var state = TraceFixture.looked()
        let lines = Fixture.render(state).lines
        #expect(lines.last?.hasPrefix("Enter Detail  1-5 Outcome  / Filter  o Note  n New") == true)
        #expect(lines.last?.hasSuffix("^C Quit") == true)
        #expect(lines.contains { $0.contains("1 not called  2 no answer  3 isolating  4 refused  5 wrong number") })
        _ = Fixture.press(.char("?"), into: &state)
        let help = Fixture.prose(state)
        #expect(help.contains("Record “wrong number”, go to the next to call"))
        #expect(help.contains("Record the outcome with a note"))
        // The detail's footer has the digits too.
        _ = Fixture.press(.escape, .enter, into: &state)
        #expect(Fixture.render(state).lines.last?.contains("1-5 Outcome") == true)
    }

    @Test(
        "conventions on the table: / filters in place keeping the selection, Esc goes back one level, q types in fields"
    )
    func conventions() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.down, .down, into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 12)
        _ = Fixture.press(.char("/"), into: &state)
        // In place: the table stays on screen while the filter is typed.
        Fixture.type("far", into: &state)
        #expect(Fixture.prose(state).contains("Contacts (2)"))
        #expect(state.trace.selectedContact?.summary.userID == 12)
        // Esc leaves the filter (cleared), the selection kept.
        _ = Fixture.press(.escape, into: &state)
        #expect(!state.trace.filtering && state.trace.filter.text.isEmpty)
        #expect(state.trace.selectedContact?.summary.userID == 12)
        // Esc from the detail and from the form: one level back each.
        _ = Fixture.press(.enter, .char("o"), .escape, into: &state)
        #expect(state.trace.outcomeForm == nil && state.trace.detail != nil)
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.detail == nil && state.trace.phase == .result)
        // q is a character in the filter.
        _ = Fixture.press(.char("/"), .char("q"), into: &state)
        #expect(state.trace.filter.text == "q")
        #expect(Fixture.prose(state).contains("Contacts (0)"))
        _ = Fixture.press(.escape, into: &state)
        // Esc on the bare table does nothing (the top level); q quits there: nothing is lost.
        #expect(Fixture.press(.escape, into: &state).isEmpty)
        #expect(state.trace.phase == .result)
        #expect(Fixture.press(.char("q"), into: &state).contains(.quit))
    }
    @Test("50 000 contacts, all called but the last: a digit finds it, and the one after finds none")
    func large() {
        let called = RecordedOutcome(outcome: .noAnswer, note: "", by: "tina", at: Fixture.now)
        let many = (0..<50_000).map { i in
            TraceContact(
                summary: ContactSummary(
                    userID: Int64(100 + i), phone: TraceFixture.phone(i), firstSeen: nil, lastSeen: nil,
                    sightings: 1, minutes: 50_000 - i, days: 1, mostMinutesOnOneDay: 1, isCloseContact: false,
                    timeline: []), outcome: i == 0 || i == 49_999 ? nil : called)
        }
        var state = TraceFixture.looked(TraceFixture.lookup(contacts: many))
        _ = Fixture.press(.char("2"), into: &state)
        #expect(state.trace.selected == 49_999)
        _ = Fixture.press(.char("2"), into: &state)
        #expect(state.trace.selected == 49_999)
        #expect(state.trace.notice?.text.contains("every contact has an outcome") == true)
    }
}
