import CivilCalendar
import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Lets an HIS operator authorise a citizen's key upload while they are on the phone.
///
/// The citizen reads out the 10-character code their app shows; the operator types it (the
/// alphabet and the check character are checked as they type), picks the symptom-onset day,
/// reviews and confirms. The result panel then counts down the code's lifetime and becomes a
/// live watch of the code: the app checked it, the upload arrived (keys accepted, dropped and
/// why), the keys were published (or what they wait for). From an empty form to authorised
/// takes 13 keys: ten characters, `y` (or `t`, `-3`…), Enter, Enter.
///
/// The watch is asked for right after authorising, again whenever the frame passes on feed
/// events about the code (or a chunk while its keys wait), and every few seconds as a fallback
/// until nothing more can happen (``WatchRefresh``).
///
/// Pure: ``update(_:_:)`` changes state and returns commands as data; the program performs
/// them through a ``DeskService`` and feeds the result back as a message.
public enum AuthorizeScreen {
    public enum Field: Hashable, Sendable { case code, onset }

    public enum Phase: Hashable, Sendable {
        /// Typing the code and the day.
        case editing
        /// The review dialog is open.
        case reviewing
        /// Waiting for the desk's answer.
        case submitting
        /// The desk answered (or could not be reached).
        case finished(Outcome)
    }

    public enum Outcome: Hashable, Sendable {
        case authorized(OtpAuthorization)
        case alreadyAuthorized(OtpAuthorization)
        case refused(String)
        case failed(String)
    }

    public struct State: Hashable, Sendable {
        public var focus: Field = .code
        public var code: TextFieldState
        public var onset: DateFieldState
        /// The last problem with a field, shown under it (cleared by the next good key).
        public var codeMessage: String?
        public var onsetMessage: String?
        public var phase: Phase = .editing
        /// The desk's clock at the last tick, for countdowns.
        public var now: Date
        /// What was submitted, kept for the result panel.
        public var submitted: Submission?
        /// The review dialog while ``phase`` is `.reviewing`.
        public var review: DialogState?
        /// Zone for clock times shown to the operator (instants are UTC inside).
        public var timeZone: TimeZone = .current
        /// What the desk knows about the authorised code; nil until its first answer.
        public var watch: CodeWatch?
        /// Why the last ask for the watch failed or was refused; nil after a good answer.
        public var watchError: String?
        /// When to ask for the watch again.
        public var watchRefresh = WatchRefresh()
        /// Set by the frame while the console is locked: asks for the watch wait for the unlock.
        public var callsHeld = false
        /// The focus moved to the onset by itself (a complete, valid code): the next Tab, typed
        /// from habit, keeps it there instead of sending the next letter into the code.
        public var movedToOnset = false
        /// "Quit while the code is live?", open after `q` on the result of a code still in use.
        public var quitConfirm: DialogState?
        /// When the authorisation was sent, for the spinner of a long wait.
        public var submittedAt: Date?

        public init(now: Date) {
            self.now = now
            let today = now.utcDay
            code = TextFieldState(
                maxLength: OtpRules.length,
                transform: CharacterRule(uppercase: true, ignored: OtpRules.separators, allowed: Set(OtpRules.alphabet))
            )
            onset = DateFieldState(today: today, minimum: SymptomOnset.earliest(today: today), maximum: today)
        }

        /// The code as the operator sees it, grouped 3-4-3.
        public var groupedCode: String { OtpRules.group(code.text) }

        /// The check-character verdict once ten characters are in; nil before.
        public var codeVerdict: Result<Otp, OtpError>? {
            guard code.text.count == OtpRules.length else { return nil }
            do {
                return .success(try Otp(validating: code.text))
            } catch {
                return .failure(error)
            }
        }

        /// The symptom-onset verdict for the chosen day; nil until one is chosen.
        public var onsetVerdict: Result<SymptomOnset.Verdict, SymptomOnsetError>? {
            guard let day = onset.value else { return nil }
            do {
                return .success(try SymptomOnset.check(day, today: now.utcDay))
            } catch {
                return .failure(error)
            }
        }

        /// What the watch asks the desk about: the code of this call the first time, then an
        /// event about it (the watch's `asOf`), so the typed code crosses the wire once, not
        /// every few seconds for as long as the keys wait to be published.
        public var watchTarget: WatchTarget? {
            if let watch, watch.asOf > 0 { return .event(watch.asOf) }
            return submitted.map { .code($0.code) }
        }

        /// Seconds left on an authorisation shown in the result panel.
        /// Never more than the authorisation's lifetime, even when the desk's clock and this
        /// one differ by a fraction of a second (150 s never shows as 2:31).
        public var secondsLeft: Int? {
            watchedRecord.map { record in
                let lifetime = Int(record.expiresAt.timeIntervalSince(record.authorizedAt).rounded())
                let left = Int(record.expiresAt.timeIntervalSince(now).rounded(.up))
                return max(0, min(lifetime, left))
            }
        }

        /// The code can still be used and nothing has arrived yet: quitting now would leave the
        /// citizen's call without anyone watching it.
        public var codeIsLive: Bool {
            guard let left = secondsLeft, left > 0 else { return false }
            return watch?.upload == nil
        }

        /// What "already authorised" must add when the stored onset is not the day just chosen
        /// (nothing was changed: the code keeps the stored day); nil when they agree.
        public var storedOnsetDiffers: String? {
            guard case .finished(.alreadyAuthorized(let record)) = phase, let chosen = submitted?.day,
                chosen != record.symptomsStartedOn
            else { return nil }
            return tr(
                "console.authorize.storedOnset", ["stored": record.symptomsStartedOn.iso, "chosen": chosen.iso])
        }

        /// The authorisation whose watch the result panel shows; nil while there is none.
        public var watchedRecord: OtpAuthorization? {
            guard case .finished(let outcome) = phase else { return nil }
            switch outcome {
            case .authorized(let record), .alreadyAuthorized(let record): return record
            default: return nil
            }
        }
    }

    /// What was sent to the desk.
    public struct Submission: Hashable, Sendable {
        public var code: String
        public var day: CivilDay
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case fieldClicked(Field)
        case daySelected(CivilDay)
        case ticked(Date)
        case authorizeFinished(AuthorizeResult)
        case authorizeFailed(String)
        /// The feed delivered events (any: the screen picks those about its code).
        case eventsArrived([MonitorEvent])
        case watchLoaded(CodeWatch)
        /// The ask failed (the desk unreachable): shown, and asked again later.
        case watchFailed(String, for: WatchTarget)
        /// The desk will not show this code (another operator's, unknown): shown, not asked again.
        case watchRefused(String, for: WatchTarget)
    }

    public enum Command: Hashable, Sendable {
        case authorize(code: String, symptomsStartedOn: CivilDay)
        /// Asks the desk for the watch of the authorised code.
        case watch(WatchTarget)
        case quit
    }

    /// Applies one message.
    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .ticked(let now):
            state.now = now
            let today = now.utcDay
            if today != state.onset.today {
                state.onset.today = today
                state.onset.maximum = today
                state.onset.minimum = SymptomOnset.earliest(today: today)
            }
            return askForWatch(&state)
        case .fieldClicked(let field):
            if state.phase == .editing {
                state.focus = field
                state.movedToOnset = false
            }
            return []
        case .daySelected(let day):
            guard state.phase == .editing else { return [] }
            state.focus = .onset
            state.movedToOnset = false
            state.onset.value = state.onset.clamp(day)
            state.onsetMessage = nil
            return []
        case .authorizeFinished(let result):
            closeWatch(&state)
            state.submittedAt = nil
            switch result {
            case .authorized(let record): state.phase = .finished(.authorized(record))
            case .alreadyAuthorized(let record): state.phase = .finished(.alreadyAuthorized(record))
            case .invalid(let refusal): state.phase = .finished(.refused(refusal.message))
            }
            return askForWatch(&state)
        case .authorizeFailed(let message):
            state.submittedAt = nil
            state.phase = .finished(.failed(message))
            return []
        case .eventsArrived(let events):
            guard let record = state.watchedRecord,
                WatchRefresh.concerns(events, tag: record.otpHash.tag, watch: state.watch)
            else { return [] }
            state.watchRefresh.wanted = true
            return askForWatch(&state)
        case .watchLoaded(let watch):
            guard let record = state.watchedRecord, watch.codeTag == record.otpHash.tag else { return [] }
            state.watch = watch
            state.watchError = nil
            state.watchRefresh.answered()
            return askForWatch(&state)
        case .watchFailed(let message, let target):
            // A late answer about an earlier call's code must not land on this one.
            guard state.watchedRecord != nil, target == state.watchTarget else { return [] }
            state.watchError = message
            state.watchRefresh.answered()
            return []
        case .watchRefused(let message, let target):
            guard state.watchedRecord != nil, target == state.watchTarget else { return [] }
            state.watchError = message
            state.watchRefresh.answered()
            state.watchRefresh.stopped = true
            return []
        case .keyPressed(let key):
            return handleKey(&state, key)
        }
    }

    /// Sends the ask for the watch when one is due (see ``WatchRefresh``).
    public static func askForWatch(_ state: inout State) -> [Command] {
        guard state.watchedRecord != nil, let target = state.watchTarget else { return [] }
        let finished = WatchPane.isFinished(state.watch, now: state.now)
        guard state.watchRefresh.ask(now: state.now, finished: finished, held: state.callsHeld) else { return [] }
        return [.watch(target)]
    }

    private static func closeWatch(_ state: inout State) {
        state.watch = nil
        state.watchError = nil
        state.watchRefresh = WatchRefresh()
    }

    private static func handleKey(_ state: inout State, _ key: Key) -> [Command] {
        switch state.phase {
        case .submitting:
            return []
        case .reviewing:
            return handleReviewKey(&state, key)
        case .finished(let outcome):
            if state.quitConfirm != nil { return handleQuitConfirmKey(&state, key) }
            return handleResultKey(&state, key, outcome)
        case .editing:
            let moved = state.movedToOnset
            state.movedToOnset = false
            if moved, key == .tab { return [] }
            if let action = formKeyMap.action(for: key) { return perform(&state, action) }
            switch state.focus {
            case .code: handleCodeKey(&state, key)
            case .onset: handleOnsetKey(&state, key)
            }
            return []
        }
    }

    static func perform(_ state: inout State, _ action: FormAction) -> [Command] {
        switch action {
        case .nextField, .previousField:
            state.focus = state.focus == .code ? .onset : .code
        case .review:
            review(&state)
        case .quit:
            return [.quit]
        }
        return []
    }

    private static func handleCodeKey(_ state: inout State, _ key: Key) {
        // Esc is "back", and the code field is the first level: nothing to go back to, and
        // nothing typed is lost. Clearing has its own key.
        if key == .escape { return }
        if codeFieldKeyMap.action(for: key) == .clear {
            state.code = TextFieldState(maxLength: state.code.maxLength, transform: state.code.transform)
            state.codeMessage = nil
            return
        }
        let before = state.code.text
        switch state.code.handle(key) {
        case .rejected(let character):
            // Position: where the character would have gone in the code.
            let position = state.code.cursor + 1
            state.codeMessage = OtpError.forbiddenCharacter(character, position: position).message
        case .unchanged:
            if case .char = key, state.code.text.count == OtpRules.length {
                state.codeMessage = tr(
                    "console.authorize.codeComplete",
                    ["backspace": Key.backspace.description, "tab": Key.tab.description])
            }
        case .changed:
            state.codeMessage = nil
            // A complete, valid code moves on to the date: one key less per call.
            if state.code.text != before, case .success = state.codeVerdict, state.code.cursor == OtpRules.length {
                state.focus = .onset
                state.movedToOnset = true
            }
        case .notHandled:
            if case .char(let c) = key, state.code.text.count < OtpRules.length {
                state.codeMessage = OtpError.forbiddenCharacter(c, position: state.code.cursor + 1).message
            }
        }
    }

    private static func handleOnsetKey(_ state: inout State, _ key: Key) {
        let before = state.onset.value
        let edit = state.onset.handle(key)
        switch edit {
        case .changed:
            state.onsetMessage = nil
        case .refused(let message):
            state.onsetMessage = onsetWording(state, fallback: message)
        case .unchanged:
            if [.right, .down, .pageDown, .end].contains(key), before == state.onset.maximum {
                state.onsetMessage =
                    SymptomOnsetError.inFuture(
                        state.onset.today.adding(days: 1), today: state.onset.today
                    ).message
            } else if [.left, .up, .pageUp, .home].contains(key), before == state.onset.minimum {
                state.onsetMessage = tr(
                    "console.authorize.atMostBack", ["maximum": String(SymptomOnset.maximumDaysBack)])
            }
        case .notHandled:
            if key == .escape {
                state.focus = .code
            } else if case .char(let c) = key {
                state.onsetMessage = tr(
                    "console.authorize.doesNothing",
                    ["character": String(c), "hint": onsetHint(today: state.onset.today)])
            }
        }
    }

    /// The ways to give the day, with example dates three days before `today` (a fixed date
    /// would be refused once it is more than 180 days old).
    static func onsetHint(today: CivilDay) -> String {
        let example = today.adding(days: -3)
        let (_, month, day) = example.components
        let short = (day < 10 ? "0" : "") + String(day) + "/" + (month < 10 ? "0" : "") + String(month)
        return tr("console.authorize.onsetHint", ["iso": example.iso, "short": short])
    }

    /// The date field's generic refusal, in the words of symptom onset.
    private static func onsetWording(_ state: State, fallback: String) -> String {
        if case .failure(let refusal) = state.onset.interpret(state.onset.typed.text) {
            switch refusal {
            case .afterMaximum(let day, _):
                return SymptomOnsetError.inFuture(day, today: state.onset.today).message
            case .beforeMinimum(let day, _):
                return SymptomOnsetError.tooOld(day, daysAgo: state.onset.today.days(since: day)).message
            default: break
            }
        }
        return fallback
    }

    /// Enter on the form: say what is missing, or open the review.
    private static func review(_ state: inout State) {
        if state.focus == .onset, state.onset.isTyping {
            handleOnsetKey(&state, .enter)
            if state.onset.isTyping { return }
        }
        guard case .success = state.codeVerdict else {
            state.focus = .code
            switch state.codeVerdict {
            case .failure(let error): state.codeMessage = error.message
            default:
                state.codeMessage =
                    state.code.text.isEmpty
                    ? OtpError.empty.message : OtpError.tooShort(count: state.code.text.count).message
            }
            return
        }
        guard let verdict = state.onsetVerdict else {
            state.focus = .onset
            state.onsetMessage = tr("console.authorize.chooseDay")
            return
        }
        if case .failure(let error) = verdict {
            state.focus = .onset
            state.onsetMessage = error.message
            return
        }
        state.phase = .reviewing
        state.review = reviewDialog(state)
    }

    private static func handleReviewKey(_ state: inout State, _ key: Key) -> [Command] {
        if [.ctrl("c"), .ctrl("q"), .function(10)].contains(key) { return [.quit] }
        guard var dialog = state.review else {
            state.phase = .editing
            return []
        }
        let outcome = dialog.handle(key)
        state.review = dialog
        switch outcome {
        case .chosen(0):
            guard let day = state.onset.value else {
                state.phase = .editing
                return []
            }
            state.phase = .submitting
            state.submittedAt = state.now
            state.review = nil
            state.submitted = Submission(code: state.code.text, day: day)
            return [.authorize(code: state.code.text, symptomsStartedOn: day)]
        case .chosen, .cancelled:
            state.phase = .editing
            state.review = nil
            // Going back from a warned day is going back to the date.
            if case .success(let verdict) = state.onsetVerdict, verdict.warning != nil { state.focus = .onset }
            return []
        case .changed, .unchanged, .notHandled:
            return []
        }
    }

    private static func handleResultKey(_ state: inout State, _ key: Key, _ outcome: Outcome) -> [Command] {
        if let action = resultKeyMap.action(for: key) {
            switch action {
            case .nextCall:
                let zone = state.timeZone
                state = State(now: state.now)
                state.timeZone = zone
            case .edit:
                state.phase = .editing
                state.focus = .code
                closeWatch(&state)
            case .retry:
                guard case .failed = outcome, let submitted = state.submitted else { return [] }
                state.phase = .submitting
                state.submittedAt = state.now
                return [.authorize(code: submitted.code, symptomsStartedOn: submitted.day)]
            case .quit:
                guard state.codeIsLive else { return [.quit] }
                state.quitConfirm = quitDialog(state)
            }
        }
        return []
    }

    /// Asked before `q` quits while the code is live: the default is to stay.
    static func quitDialog(_ state: State) -> DialogState {
        DialogState.confirm(
            title: tr("console.authorize.quit.title"),
            message: tr("console.authorize.quit.message", ["left": countdown(state.secondsLeft ?? 0)]),
            confirm: tr("console.authorize.key.quit"), cancel: tr("console.authorize.quit.stay"))
    }

    private static func handleQuitConfirmKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var dialog = state.quitConfirm else { return [] }
        let outcome = dialog.handle(key)
        state.quitConfirm = dialog
        switch outcome {
        case .chosen(0):
            state.quitConfirm = nil
            return [.quit]
        case .chosen, .cancelled:
            state.quitConfirm = nil
        case .changed, .unchanged, .notHandled:
            break
        }
        return []
    }
}
