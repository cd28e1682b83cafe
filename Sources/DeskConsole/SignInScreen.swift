import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where staff say who they are: a user name and a password, checked by the ``DeskService``
/// (locally or on a server), so the screen is the same in both modes.
///
/// The password is drawn as • and never echoed. After a failure the service's message shows
/// under the form (wrong password, locked, disabled, wait N s, unreachable), the typed name
/// stays and the password is cleared.
///
/// Pure: ``update(_:_:)`` returns commands as data; the program runs `signIn` and answers with
/// ``Msg/failed(_:)`` (a success is the console's `signedIn`, which replaces this screen).
/// Privacy: the state holds a typed password; never log it.
public enum SignInScreen {
    public enum Field: Hashable, Sendable { case name, password }

    public struct State: Hashable, Sendable {
        public var name: TextFieldState
        public var password: TextFieldState
        public var focus: Field
        /// Waiting for the desk's answer; keys other than the global ones wait too.
        public var signingIn = false
        /// Checking whether any account exists (the first-admin setup otherwise).
        public var checking = false
        /// The last failure, or what happened before this screen (signed out, session ended).
        public var notice: Notice?
        /// The spinner of a long sign-in, and a refusal's "wait N s" counted down.
        public var wait = SignInWait()

        /// An empty form, or one with the name filled in (`--user NAME`): the focus then starts
        /// on the password.
        public init(name: String = "") {
            self.name = ConsoleText.nameField(name)
            password = ConsoleText.passwordField()
            focus = name.isEmpty ? .name : .password
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case fieldClicked(Field)
        /// The desk refused or could not be reached; its message says what to do.
        case failed(String)
        /// The frame's clock: counts down a "wait N s" and turns the wait's spinner.
        case ticked(Date)
    }

    public enum Command: Hashable, Sendable {
        case signIn(name: String, password: String)
    }

    public enum Action: Hashable, Sendable { case submit, nextField, previousField }

    /// Checked before a field sees the key; everything else is typed.
    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding([.enter], .submit, help: tr("console.signin.key.submit")),
            Binding([.tab, .down], .nextField, help: tr("console.frame.hint.nextField"), name: "next-field"),
            Binding(
                [.backTab, .up], .previousField, help: tr("console.frame.key.previousField"), shownInFooter: false,
                name: "previous-field"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .fieldClicked(let field):
            if !state.signingIn { state.focus = field }
            return []
        case .ticked(let now):
            if let notice = state.wait.ticked(now, signingIn: state.signingIn) { state.notice = notice }
            return []
        case .failed(let message):
            state.signingIn = false
            state.notice = state.wait.failed(message)
            state.password = ConsoleText.passwordField()
            state.focus = state.name.text.isEmpty ? .name : .password
            return []
        case .keyPressed(let key):
            guard !state.signingIn else { return [] }
            if let action = keyMap.action(for: key) {
                switch action {
                case .nextField:
                    state.focus = FormFocus.step(state.focus, by: 1, in: [.name, .password])
                    return []
                case .previousField:
                    state.focus = FormFocus.step(state.focus, by: -1, in: [.name, .password])
                    return []
                case .submit:
                    return submit(&state)
                }
            }
            switch state.focus {
            case .name: _ = state.name.handle(key)
            case .password: _ = state.password.handle(key)
            }
            return []
        }
    }

    /// Enter: on the name with no password yet, moves on; otherwise signs in, or says what is
    /// missing.
    private static func submit(_ state: inout State) -> [Command] {
        let name = state.name.text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty {
            state.focus = .name
            state.notice = .error(tr("console.signin.typeName"))
            return []
        }
        if state.password.text.isEmpty {
            if state.focus == .name {
                state.focus = .password
            } else {
                state.notice = .error(tr("console.signin.typePassword"))
            }
            return []
        }
        state.signingIn = true
        state.notice = state.wait.started()
        return [.signIn(name: name, password: state.password.text)]
    }

    // MARK: Drawing

    /// Where the form and its fields go in a body area (drawing and mouse hit-tests).
    public struct Regions: Hashable, Sendable {
        public var panel: Rect
        public var nameField: Rect
        public var passwordField: Rect
        public var notice: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let panel = area.centered(width: min(64, area.width), height: min(14, area.height))
        let inner = panel.inset(horizontal: 2, vertical: 1)
        // The fields start after the longer label (marker, space, label, space): 13 in English.
        let labels = [tr("console.frame.label.name"), tr("console.frame.label.password")]
        let fieldX = inner.x + max(13, 4 + (labels.map(DisplayWidth.of).max() ?? 0))
        let fieldWidth = max(0, min(34, inner.maxX - fieldX))
        return Regions(
            panel: panel,
            nameField: Rect(x: fieldX, y: inner.y + 3, width: fieldWidth, height: 1),
            passwordField: Rect(x: fieldX, y: inner.y + 5, width: fieldWidth, height: 1),
            notice: Rect(x: inner.x, y: inner.y + 7, width: inner.width, height: max(0, inner.maxY - inner.y - 7)))
    }

    public static func render(_ state: State, location: String, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        let inner = Panel(title: tr("console.signin.title"), focused: true).render(into: &buffer, area: regions.panel)
        guard inner.width > 4 else { return }
        let text = inner.inset(horizontal: 1, vertical: 0)
        buffer.put(tr("console.signin.heading"), x: text.x, y: text.y, style: Style(.header), clip: text)
        buffer.put(
            DisplayWidth.truncate(tr("console.signin.data", ["location": location]), to: text.width), x: text.x,
            y: text.y + 1,
            style: Style(.muted), clip: text)
        let editing = !state.signingIn
        ConsoleText.putLabel(
            tr("console.frame.label.name"), focused: editing && state.focus == .name, into: &buffer, x: text.x,
            y: regions.nameField.y, clip: text)
        state.name.render(
            into: &buffer, area: regions.nameField, focused: editing && state.focus == .name,
            placeholder: tr("console.signin.namePlaceholder"))
        ConsoleText.putLabel(
            tr("console.frame.label.password"), focused: editing && state.focus == .password, into: &buffer, x: text.x,
            y: regions.passwordField.y, clip: text)
        ConsoleText.renderSecret(
            state.password, into: &buffer, area: regions.passwordField, focused: editing && state.focus == .password)
        if let notice = state.notice {
            notice.render(
                into: &buffer, x: regions.notice.x, y: regions.notice.y, width: regions.notice.width,
                rows: max(1, regions.notice.height - 1))
        } else if state.checking {
            Notice.working(tr("console.signin.checking")).render(
                into: &buffer, x: regions.notice.x, y: regions.notice.y, width: regions.notice.width, rows: 1)
        }
        if regions.notice.height > 0 {
            buffer.put(
                tr("console.signin.noAccount"), x: text.x, y: regions.notice.maxY - 1,
                style: Style(.muted), clip: text)
        }
        if !editing { buffer.cursor = nil }
    }
}
