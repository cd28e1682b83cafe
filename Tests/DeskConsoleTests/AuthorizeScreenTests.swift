import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// `update` step by step: whole-state expectations and the commands returned as data.
@Suite("Authorise screen update")
struct AuthorizeScreenTests {
    func fresh() -> AuthorizeScreen.State {
        var state = AuthorizeScreen.State(now: Fixture.now)
        state.timeZone = Fixture.utc
        return state
    }

    func send(_ keys: [Key], to state: inout AuthorizeScreen.State) -> [AuthorizeScreen.Command] {
        keys.flatMap { AuthorizeScreen.update(&state, .keyPressed($0)) }
    }

    func chars(_ text: String) -> [Key] { text.map { .char($0) } }

    @Test("thirteen keys from an empty form to an authorise command")
    func thirteenKeys() {
        var state = fresh()
        let keys = chars("9K2RAY8UUQ") + [.char("y"), .enter, .enter]
        #expect(keys.count == 13)
        let commands = send(keys, to: &state)
        #expect(commands == [.authorize(code: "9K2RAY8UUQ", symptomsStartedOn: Fixture.now.utcDay.adding(days: -1))])
        #expect(state.phase == .submitting)
    }

    @Test("lowercase, spaces and dashes are normalised as typed")
    func forgivingInput() {
        var state = fresh()
        _ = send(chars("9k2 ray8-uuq"), to: &state)
        #expect(state.code.text == "9K2RAY8UUQ")
        #expect(state.groupedCode == "9K2-RAY8-UUQ")
        #expect(state.codeMessage == nil)
        #expect(state.focus == .onset, "a complete valid code moves on to the date")
    }

    @Test("a character outside the alphabet is refused at once, named with its position")
    func forbiddenCharacter() {
        var state = fresh()
        _ = send(chars("9K0"), to: &state)
        #expect(state.code.text == "9K")
        #expect(state.codeMessage == OtpError.forbiddenCharacter("0", position: 3).message)
        _ = send(chars("2"), to: &state)
        #expect(state.codeMessage == nil, "the next good key clears the message")
    }

    @Test("the check-character verdict appears at ten characters, and the focus stays on a bad code")
    func checkCharacter() {
        var state = fresh()
        _ = send(chars("9K2RAY8UU"), to: &state)
        #expect(state.codeVerdict == nil)
        _ = send(chars("A"), to: &state)
        #expect(state.codeVerdict == .failure(.checkCharacterMismatch))
        #expect(state.focus == .code)
        _ = send([.backspace] + chars("Q"), to: &state)
        #expect(state.codeVerdict == .success(try! Otp(validating: "9K2RAY8UUQ")))
    }

    @Test("Enter with a short code says what is missing and opens nothing")
    func reviewNeedsACode() {
        var state = fresh()
        _ = send(chars("9K2") + [.enter], to: &state)
        #expect(state.phase == .editing)
        #expect(state.codeMessage == OtpError.tooShort(count: 3).message)
    }

    @Test("Enter without a day asks for one")
    func reviewNeedsADay() {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + [.enter], to: &state)
        #expect(state.phase == .editing)
        #expect(state.focus == .onset)
        #expect(state.onsetMessage?.contains("choose the day symptoms started") == true)
    }

    @Test("the calendar keys move the day and never past today")
    func calendarKeys() {
        var state = fresh()
        state.focus = .onset
        let today = Fixture.now.utcDay
        _ = send([.char("t"), .left, .up], to: &state)
        #expect(state.onset.value == today.adding(days: -8))
        _ = send([.pageUp], to: &state)
        #expect(state.onset.value == today.adding(days: -8).adding(months: -1))
        _ = send([.char("t"), .right], to: &state)
        #expect(state.onset.value == today)
        #expect(state.onsetMessage?.contains("in the future") == true)
    }

    @Test("typed dates: YYYY-MM-DD, DD/MM and -N; a future date is refused in onset words")
    func typedDates() {
        var state = fresh()
        state.focus = .onset
        _ = send(chars("-3") + [.tab], to: &state)
        // Tab leaves typed text alone; Enter commits it.
        state.focus = .onset
        _ = send([.enter], to: &state)
        #expect(state.onset.value == Fixture.now.utcDay.adding(days: -3))
        var future = fresh()
        future.focus = .onset
        _ = send(chars("2026-12-01") + [.enter], to: &future)
        #expect(future.onset.value == nil)
        #expect(future.onsetMessage?.contains("is in the future") == true)
    }

    @Test("more than 14 days back is allowed, with a warning in the review")
    func oldOnset() throws {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + chars("-20") + [.enter], to: &state)
        #expect(state.phase == .reviewing)
        let review = try #require(state.review)
        #expect(review.message.contains("no keys older than 14 days are published"))
    }

    @Test("Esc in the review goes back to editing, with everything kept")
    func reviewCancel() {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + [.char("y"), .enter], to: &state)
        #expect(state.phase == .reviewing)
        let commands = send([.escape], to: &state)
        #expect(commands.isEmpty)
        #expect(state.phase == .editing)
        #expect(state.code.text == "9K2RAY8UUQ")
        #expect(state.onset.value == Fixture.now.utcDay.adding(days: -1))
    }

    @Test("results: authorised counts down; n starts a clean call")
    func authorizedThenNext() {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + [.char("y"), .enter, .enter], to: &state)
        let record = Fixture.record()
        _ = AuthorizeScreen.update(&state, .authorizeFinished(.authorized(record)))
        #expect(state.phase == .finished(.authorized(record)))
        #expect(state.secondsLeft == 150)
        _ = AuthorizeScreen.update(&state, .ticked(Fixture.now.addingTimeInterval(30.2)))
        #expect(state.secondsLeft == 120)
        _ = AuthorizeScreen.update(&state, .ticked(Fixture.now.addingTimeInterval(200)))
        #expect(state.secondsLeft == 0)
        _ = send([.char("n")], to: &state)
        var expected = AuthorizeScreen.State(now: Fixture.now.addingTimeInterval(200))
        expected.timeZone = Fixture.utc
        #expect(state == expected)
    }

    @Test("a store failure can be retried with the same code and day")
    func retry() {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + [.char("t"), .enter, .enter], to: &state)
        _ = AuthorizeScreen.update(&state, .authorizeFailed("the store is locked by another process"))
        #expect(state.phase == .finished(.failed("the store is locked by another process")))
        let commands = send([.char("r")], to: &state)
        #expect(commands == [.authorize(code: "9K2RAY8UUQ", symptomsStartedOn: Fixture.now.utcDay)])
        #expect(state.phase == .submitting)
    }

    @Test("keys are ignored while the desk answers")
    func submittingIgnoresKeys() {
        var state = fresh()
        _ = send(chars("9K2RAY8UUQ") + [.char("t"), .enter, .enter], to: &state)
        let before = state
        #expect(send(chars("abc") + [.enter, .char("n")], to: &state).isEmpty)
        #expect(state == before)
    }

    @Test("quit keys work in every phase, signing out first", arguments: [Key.ctrl("c"), .ctrl("q"), .function(10)])
    func quit(_ key: Key) {
        var app = Fixture.app()
        let signOutThenQuit: [ConsoleApp.Command] = [.signOut(Fixture.session()), .quit]
        #expect(ConsoleApp.update(&app, .keyPressed(key)) == signOutThenQuit)
        Fixture.type("9K2RAY8UUQ", into: &app)
        _ = Fixture.press(.char("y"), .enter, into: &app)
        #expect(ConsoleApp.update(&app, .keyPressed(key)) == signOutThenQuit)
    }

    @Test("the date rolls over at midnight UTC: today and the limits follow the clock")
    func midnight() {
        var state = fresh()
        let tomorrow = Fixture.now.addingTimeInterval(86_400)
        _ = AuthorizeScreen.update(&state, .ticked(tomorrow))
        #expect(state.onset.today == tomorrow.utcDay)
        #expect(state.onset.maximum == tomorrow.utcDay)
    }
}
