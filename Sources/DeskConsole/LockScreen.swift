import DeskCore
import DeskText
import Foundation
import TerminalKit

/// Covers the current screen when the desk is left alone (no key for the session's idle time)
/// or when the desk says the session is over; the screen underneath keeps its state.
///
/// It shows who is signed in and asks for their password: Enter signs the same person in again
/// (a new session replaces the old one) and the screen comes back as it was, half-typed code
/// included. Or sign out instead (back to the sign-in, screen state cleared).
/// Privacy: the screen underneath is not drawn while locked; the state holds a typed password.
public enum LockScreen {
    public struct State: Hashable, Sendable {
        public var user: String
        public var role: StaffRole
        /// Why the console locked: idle time, or the desk's message.
        public var reason: String
        public var password: TextFieldState
        public var unlocking = false
        public var notice: Notice?
        /// The spinner of a long sign-in, and a refusal's "wait N s" counted down.
        public var wait = SignInWait()

        public init(user: String, role: StaffRole, reason: String) {
            self.user = user
            self.role = role
            self.reason = reason
            password = ConsoleText.passwordField()
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        /// The password was refused (or the desk unreachable): the message says what to do.
        case failed(String)
        /// The frame's clock: counts down a "wait N s" and turns the wait's spinner.
        case ticked(Date)
    }

    public enum Command: Hashable, Sendable {
        case unlock(name: String, password: String)
    }

    public enum Action: Hashable, Sendable { case unlock, clear }

    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding([.enter], .unlock, help: tr("console.lock.key.unlock")),
            // Esc has no level to go back to on the lock screen: it does nothing (a convention key).
            Binding([.ctrl("u")], .clear, help: tr("console.lock.key.clear"), shownInFooter: false, name: "clear"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .ticked(let now):
            if let notice = state.wait.ticked(now, signingIn: state.unlocking) { state.notice = notice }
            return []
        case .failed(let message):
            state.unlocking = false
            state.notice = state.wait.failed(message)
            state.password = ConsoleText.passwordField()
            return []
        case .keyPressed(let key):
            guard !state.unlocking else { return [] }
            switch keyMap.action(for: key) {
            case .unlock:
                guard !state.password.text.isEmpty else {
                    state.notice = .error(tr("console.signin.typePassword"))
                    return []
                }
                state.unlocking = true
                state.notice = state.wait.started()
                return [.unlock(name: state.user, password: state.password.text)]
            case .clear:
                state.password = ConsoleText.passwordField()
                return []
            case nil:
                _ = state.password.handle(key)
                return []
            }
        }
    }

    public static func passwordRect(in area: Rect) -> Rect {
        let panel = panelRect(in: area)
        let inner = panel.inset(horizontal: 2, vertical: 1)
        let x = inner.x + 12
        return Rect(x: x, y: inner.y + 5, width: max(0, min(34, inner.maxX - x)), height: 1)
    }

    static func panelRect(in area: Rect) -> Rect {
        area.centered(width: min(66, area.width), height: min(14, area.height))
    }

    /// Blanks `area` (what was underneath must not show) and draws the lock panel.
    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        buffer.fill(area, with: .blank)
        let panel = panelRect(in: area)
        let inner = Panel(title: tr("console.lock.title"), focused: true).render(into: &buffer, area: panel)
        guard inner.width > 4 else { return }
        let text = inner.inset(horizontal: 1, vertical: 0)
        buffer.put(
            tr("console.lock.signedInAs", ["user": state.user, "role": ConsoleApp.roleName(state.role)]), x: text.x,
            y: text.y, style: Style(.header),
            clip: text)
        ConsoleText.putWrapped(
            state.reason, style: Style(.normal), into: &buffer, x: text.x, y: text.y + 1, width: text.width, rows: 2)
        buffer.put(
            tr("console.lock.kept"), x: text.x, y: text.y + 3,
            style: Style(.muted), clip: text)
        let field = passwordRect(in: area)
        ConsoleText.putLabel(
            tr("console.frame.label.password"), focused: !state.unlocking, into: &buffer, x: text.x, y: field.y,
            clip: text)
        ConsoleText.renderSecret(state.password, into: &buffer, area: field, focused: !state.unlocking)
        if let notice = state.notice {
            notice.render(into: &buffer, x: text.x, y: field.y + 2, width: text.width, rows: 3)
        }
        buffer.put(
            tr("console.lock.notYou", ["user": state.user]), x: text.x, y: inner.maxY - 1, style: Style(.muted),
            clip: text)
        if state.unlocking { buffer.cursor = nil }
    }
}
