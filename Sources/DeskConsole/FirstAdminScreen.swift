import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The first-admin setup, shown instead of the sign-in when the desk has no staff account yet
/// (``DeskService/needsFirstAdmin()``): a name and a password typed twice, and, through a
/// server (``DeskService/firstAdminNeedsSetupToken``), the one-time setup token `tracedesk
/// serve` printed at start, without which anyone reaching the server could make its admin.
///
/// The name (``StaffName``), the password (``PasswordRules``) and the match are checked as they
/// are typed, so Enter only sends a form the desk will take. The desk refuses a second first
/// admin (`.conflict`): the console then shows the sign-in with that message.
/// Privacy: the state holds typed passwords; never log it.
public enum FirstAdminScreen {
    public enum Field: Hashable, Sendable, CaseIterable { case name, password, again, token }

    public struct State: Hashable, Sendable {
        public var name: TextFieldState
        public var password: TextFieldState
        public var again: TextFieldState
        /// The server's setup token; only asked for when ``needsToken``.
        public var token: TextFieldState
        public var needsToken: Bool
        public var focus: Field
        public var creating = false
        public var notice: Notice?

        public init(name: String = "", needsToken: Bool = false) {
            self.name = ConsoleText.nameField(name)
            password = ConsoleText.passwordField()
            again = ConsoleText.passwordField()
            token = ConsoleText.passwordField()
            self.needsToken = needsToken
            focus = name.isEmpty ? .name : .password
        }

        /// The fields shown, in order.
        public var fields: [Field] { needsToken ? Field.allCases : [.name, .password, .again] }

        /// What is wrong with the typed name; nil while it is empty or when it is fine.
        public var nameProblem: String? {
            guard !name.text.isEmpty, case .failure(let problem) = StaffName.normalize(name.text) else { return nil }
            return problem.message
        }

        /// The name as it will be stored (lowercase), when it is acceptable.
        public var normalizedName: String? {
            guard case .success(let normalized) = StaffName.normalize(name.text) else { return nil }
            return normalized
        }

        /// What is wrong with the password; nil while it is empty or when it is fine.
        public var passwordProblem: String? {
            guard !password.text.isEmpty else { return nil }
            return PasswordRules.problem(password.text, user: normalizedName ?? name.text)?.message
        }

        /// "the two passwords differ" once something is typed in the second field.
        public var againProblem: String? {
            guard !again.text.isEmpty, again.text != password.text else { return nil }
            return again.text.count < password.text.count && password.text.hasPrefix(again.text)
                ? nil : tr("console.firstadmin.differ")
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case fieldClicked(Field)
        case failed(String)
    }

    public enum Command: Hashable, Sendable {
        case createFirstAdmin(name: String, password: String, setupToken: String? = nil)
    }

    public enum Action: Hashable, Sendable { case submit, nextField, previousField }

    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding([.enter], .submit, help: tr("console.firstadmin.key.submit")),
            Binding([.tab, .down], .nextField, help: tr("console.frame.hint.nextField"), name: "next-field"),
            Binding(
                [.backTab, .up], .previousField, help: tr("console.frame.key.previousField"), shownInFooter: false,
                name: "previous-field"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .fieldClicked(let field):
            if !state.creating { state.focus = field }
            return []
        case .failed(let message):
            state.creating = false
            state.notice = .error(message)
            return []
        case .keyPressed(let key):
            guard !state.creating else { return [] }
            if let action = keyMap.action(for: key) {
                switch action {
                case .nextField: state.focus = FormFocus.step(state.focus, by: 1, in: state.fields)
                case .previousField: state.focus = FormFocus.step(state.focus, by: -1, in: state.fields)
                case .submit: return submit(&state)
                }
                return []
            }
            var cut: String?
            switch state.focus {
            case .name:
                let edit = state.name.handle(key)
                cut = FieldLimit.cut(state.name, by: key, edit).map {
                    tr("console.firstadmin.nameCut", ["problem": $0])
                }
            case .password: _ = state.password.handle(key)
            case .again: _ = state.again.handle(key)
            case .token: _ = state.token.handle(key)
            }
            if state.notice?.kind == .error { state.notice = nil }
            if let cut { state.notice = .error(cut) }
            return []
        }
    }

    /// Enter: moves to the next field until the last; there, sends the form or says what to fix
    /// (with the focus on that field).
    private static func submit(_ state: inout State) -> [Command] {
        guard FormFocus.advance(&state.focus, in: state.fields) else { return [] }
        guard let name = state.normalizedName else {
            state.focus = .name
            if case .failure(let problem) = StaffName.normalize(state.name.text) {
                state.notice = .error(problem.message)
            }
            return []
        }
        if let problem = PasswordRules.problem(state.password.text, user: name) {
            state.focus = .password
            state.notice = .error(problem.message)
            return []
        }
        guard state.again.text == state.password.text else {
            state.focus = .again
            state.notice = .error(tr("console.firstadmin.differTwice"))
            return []
        }
        var token: String?
        if state.needsToken {
            let typed = state.token.text.trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else {
                state.focus = .token
                state.notice = .error(tr("console.firstadmin.typeToken"))
                return []
            }
            token = typed
        }
        state.creating = true
        state.notice = .working(tr("console.firstadmin.creating"))
        return [.createFirstAdmin(name: name, password: state.password.text, setupToken: token)]
    }

    // MARK: Drawing

    public struct Regions: Hashable, Sendable {
        public var panel: Rect
        public var fields: [Field: Rect]
        public var notice: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let panel = area.centered(width: min(72, area.width), height: min(20, area.height))
        let inner = panel.inset(horizontal: 2, vertical: 1)
        // The fields start after the longest label (marker, space, label, space): 13 in English.
        let labels = [
            tr("console.frame.label.name"), tr("console.frame.label.password"), tr("console.firstadmin.again"),
        ]
        let fieldX = inner.x + max(13, 4 + (labels.map(DisplayWidth.of).max() ?? 0))
        let fieldWidth = max(0, min(34, inner.maxX - fieldX))
        func row(_ offset: Int) -> Rect { Rect(x: fieldX, y: inner.y + offset, width: fieldWidth, height: 1) }
        return Regions(
            panel: panel, fields: [.name: row(5), .password: row(8), .again: row(11), .token: row(14)],
            notice: Rect(x: inner.x, y: inner.y + 14, width: inner.width, height: max(0, inner.maxY - inner.y - 14)))
    }

    /// The regions for `state`: with the token field, the notice moves below it.
    public static func regions(for state: State, in area: Rect) -> Regions {
        var regions = regions(in: area)
        if state.needsToken {
            let notice = regions.notice
            regions.notice = Rect(x: notice.x, y: notice.y + 3, width: notice.width, height: max(0, notice.height - 3))
            // "Setup token" is the longest label: every field starts two columns later, so that
            // a space stays between it and its field.
            let inner = regions.panel.inset(horizontal: 2, vertical: 1)
            let shift = max(
                0, 4 + DisplayWidth.of(tr("console.firstadmin.token")) - ((regions.fields[.name]?.x ?? 0) - inner.x))
            regions.fields = regions.fields.mapValues { Rect(x: $0.x + shift, y: $0.y, width: $0.width, height: 1) }
        } else {
            regions.fields[.token] = nil
        }
        return regions
    }

    public static func render(_ state: State, location: String, into buffer: inout Buffer, area: Rect) {
        let regions = regions(for: state, in: area)
        let inner = Panel(title: tr("console.firstadmin.title"), focused: true).render(
            into: &buffer, area: regions.panel)
        guard inner.width > 4 else { return }
        let text = inner.inset(horizontal: 1, vertical: 0)
        let intro = tr("console.firstadmin.intro", ["location": location])
        ConsoleText.putWrapped(
            intro, style: Style(.normal), into: &buffer, x: text.x, y: text.y, width: text.width, rows: 4)
        let editing = !state.creating
        let labels: [(Field, String)] = [
            (.name, tr("console.frame.label.name")), (.password, tr("console.frame.label.password")),
            (.again, tr("console.firstadmin.again")), (.token, tr("console.firstadmin.token")),
        ]
        for (field, label) in labels where state.fields.contains(field) {
            guard let rect = regions.fields[field] else { continue }
            let focused = editing && state.focus == field
            ConsoleText.putLabel(label, focused: focused, into: &buffer, x: text.x, y: rect.y, clip: text)
            switch field {
            case .name:
                state.name.render(
                    into: &buffer, area: rect, focused: focused, placeholder: tr("console.firstadmin.namePlaceholder"))
            case .password: ConsoleText.renderSecret(state.password, into: &buffer, area: rect, focused: focused)
            case .again: ConsoleText.renderSecret(state.again, into: &buffer, area: rect, focused: focused)
            case .token: ConsoleText.renderSecret(state.token, into: &buffer, area: rect, focused: focused)
            }
            let verdictWidth = text.maxX - rect.x
            switch field {
            case .name:
                // Each field has a verdict row and a blank one under it: a long rule wraps into both.
                ConsoleText.putVerdict(
                    state.nameProblem,
                    ok: state.normalizedName.map { tr("console.firstadmin.storedAs", ["name": $0]) } ?? "",
                    into: &buffer,
                    x: rect.x, y: rect.y + 1, width: verdictWidth, rows: 2)
            case .password:
                let rule = tr("console.firstadmin.rule", ["length": String(PasswordRules.minimumLength)])
                if state.password.text.isEmpty {
                    ConsoleText.putWrapped(
                        rule, style: Style(.muted), into: &buffer, x: rect.x, y: rect.y + 1, width: verdictWidth,
                        rows: 2)
                } else {
                    ConsoleText.putVerdict(
                        state.passwordProblem, ok: tr("console.firstadmin.accepted"), into: &buffer, x: rect.x,
                        y: rect.y + 1,
                        width: verdictWidth, rows: 2)
                }
            case .again:
                ConsoleText.putVerdict(
                    state.againProblem,
                    ok: !state.again.text.isEmpty && state.again.text == state.password.text
                        ? tr("console.firstadmin.match") : "",
                    into: &buffer, x: rect.x, y: rect.y + 1, width: verdictWidth, rows: 2)
            case .token:
                ConsoleText.putWrapped(
                    tr("console.firstadmin.tokenHint"), style: Style(.muted), into: &buffer,
                    x: rect.x, y: rect.y + 1, width: verdictWidth, rows: 2)
            }
        }
        if let notice = state.notice {
            notice.render(
                into: &buffer, x: regions.notice.x, y: regions.notice.y, width: regions.notice.width,
                rows: max(1, regions.notice.height))
        }
        if !editing { buffer.cursor = nil }
    }
}
