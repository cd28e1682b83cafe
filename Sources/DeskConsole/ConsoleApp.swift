import DeskCore
import DeskService
import Foundation
import TerminalKit

/// The console's frame around the current screen: title bar, footer, `?` help, the
/// too-small-terminal message, and mouse hit-testing.
///
/// Pure like the screens: ``update(_:_:)`` returns commands, ``render(_:into:)`` draws.
public enum ConsoleApp {
    public static let minimumSize = TerminalSize(width: 80, height: 24)

    public struct State: Hashable, Sendable {
        public var size: TerminalSize
        public var identity: DeskIdentity
        public var authorize: AuthorizeScreen.State
        public var help: HelpOverlayState?

        public init(size: TerminalSize, identity: DeskIdentity, now: Date, timeZone: TimeZone = .current) {
            self.size = size
            self.identity = identity
            authorize = AuthorizeScreen.State(now: now)
            authorize.timeZone = timeZone
        }

        public var isTooSmall: Bool { size.width < minimumSize.width || size.height < minimumSize.height }
        var body: Rect { Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2)) }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case mouse(MouseEvent)
        case resized(TerminalSize)
        case authorize(AuthorizeScreen.Msg)
    }

    public enum Command: Hashable, Sendable {
        case authorize(AuthorizeScreen.Command)
    }

    /// Keys the frame takes before the screen (`?` is never part of a code or a date).
    public static let globalKeyMap = KeyMap<String>([
        Binding([.char("?"), .function(1)], "help", help: "Help", group: "global"),
        Binding([.ctrl("c"), .ctrl("q"), .function(10)], "quit", help: "Quit", group: "global"),
        Binding([.ctrl("l")], "redraw", help: "Redraw the screen", group: "global", shownInFooter: false),
    ])

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .resized(let size):
            state.size = size
            return []
        case .authorize(let inner):
            return AuthorizeScreen.update(&state.authorize, inner).map(Command.authorize)
        case .mouse(let event):
            guard event.kind == .press, state.help == nil, !state.isTooSmall else { return [] }
            let regions = AuthorizeScreen.regions(in: state.body)
            if regions.codeField.contains(x: event.x, y: event.y)
                || (regions.form.contains(x: event.x, y: event.y) && event.y < regions.onsetField.y - 1)
            {
                return update(&state, .authorize(.fieldClicked(.code)))
            }
            if regions.form.contains(x: event.x, y: event.y) || regions.calendar.contains(x: event.x, y: event.y) {
                return update(&state, .authorize(.fieldClicked(.onset)))
            }
            return []
        case .keyPressed(let key):
            if var help = state.help {
                if [.ctrl("c"), .ctrl("q"), .function(10)].contains(key) { return [.authorize(.quit)] }
                if help.handle(key, area: state.body) == .closed {
                    state.help = nil
                } else {
                    state.help = help
                }
                return []
            }
            if state.isTooSmall {
                return [.ctrl("c"), .ctrl("q"), .function(10), .char("q"), .escape].contains(key)
                    ? [.authorize(.quit)] : []
            }
            if globalKeyMap.action(for: key) == "quit" { return [.authorize(.quit)] }
            if globalKeyMap.action(for: key) == "help" {
                state.help = HelpOverlayState(title: "Help: authorise an upload", sections: helpSections(state))
                return []
            }
            return update(&state, .authorize(.keyPressed(key)))
        }
    }

    /// Every binding of the current context, grouped: what `?` shows.
    static func helpSections(_ state: State) -> [HelpSection] {
        var sections: [HelpSection] = []
        func add<A>(_ map: KeyMap<A>, as name: String? = nil) {
            for section in map.helpSections {
                let rows = section.rows.map { HelpRow(keys: $0.keys, help: $0.help) }
                let group = name ?? section.group
                if let index = sections.firstIndex(where: { $0.group == group }) {
                    sections[index].rows += rows.filter { row in !sections[index].rows.contains(row) }
                } else {
                    sections.append(HelpSection(group: group, rows: rows))
                }
            }
        }
        switch state.authorize.phase {
        case .finished: add(AuthorizeScreen.resultKeyMap, as: "result")
        case .reviewing: if let dialog = state.authorize.review { add(dialog.keyMap, as: "review") }
        default:
            add(AuthorizeScreen.formKeyMap, as: "form")
            sections.append(
                HelpSection(
                    group: "code", rows: [HelpRow(keys: "A…9", help: "Type it: \(OtpRules.alphabetDescription)")]))
            add(AuthorizeScreen.codeFieldHelp, as: "code")
            add(AuthorizeScreen.onsetFooter, as: "symptom onset")
            add(DateFieldState.keyMap, as: "symptom onset")
            add(TextFieldState.keyMap, as: "editing text")
        }
        add(globalKeyMap, as: "global")
        return sections
    }

    /// The footer's key hints for the current context.
    static func footerHints(_ state: State) -> [(keys: String, help: String)] {
        if state.help != nil { return HelpOverlayState.keyMap.footerHints }
        var hints: [(keys: String, help: String)]
        switch state.authorize.phase {
        case .finished: hints = AuthorizeScreen.resultKeyMap.footerHints
        case .reviewing: hints = state.authorize.review?.keyMap.footerHints ?? []
        case .submitting: hints = []
        case .editing:
            hints = AuthorizeScreen.formKeyMap.footerHints.filter { $0.help != "Quit" }
        }
        hints.append((keys: "?", help: "Help"))
        if !hints.contains(where: { $0.help == "Quit" }) { hints.append((keys: "^C", help: "Quit")) }
        if state.authorize.phase == .editing, state.authorize.focus == .onset {
            hints += AuthorizeScreen.onsetFooter.footerHints
        }
        return hints
    }

    public static func render(_ state: State, into buffer: inout Buffer) {
        let area = buffer.area
        if state.isTooSmall {
            let text =
                "terminal too small: have \(state.size.width)×\(state.size.height), need \(minimumSize.width)×\(minimumSize.height)"
            let lines = TextWrap.wrap(text, width: max(1, area.width))
            let top = max(0, (area.height - lines.count) / 2)
            for (offset, line) in lines.enumerated() {
                let width = DisplayWidth.of(line)
                buffer.put(line, x: max(0, (area.width - width) / 2), y: top + offset, style: Style(.warning))
            }
            return
        }
        renderTitle(state, into: &buffer)
        AuthorizeScreen.render(state.authorize, into: &buffer, area: state.body)
        if let help = state.help {
            buffer.cursor = nil
            help.render(into: &buffer, area: state.body)
        }
        if state.authorize.phase != .editing { buffer.cursor = nil }
        Footer.render(
            footerHints(state), status: footerStatus(state),
            into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// The countdown stays in the corner whatever else is on screen.
    static func footerStatus(_ state: State) -> String {
        guard let left = state.authorize.secondsLeft else { return "" }
        return left > 0 ? "code valid " + AuthorizeScreen.countdown(left) + " " : "code expired "
    }

    private static func renderTitle(_ state: State, into buffer: inout Buffer) {
        let row = Rect(x: 0, y: 0, width: buffer.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: Style(.title)))
        let left = " TraceDesk · Authorise an upload"
        let leftWidth = buffer.put(left, x: 0, y: 0, style: Style(.title, .bold), clip: row)
        let clock = AuthorizeScreen.clock(state.authorize.now, state.authorize.timeZone)
        let room = row.width - leftWidth - 3
        var right = "\(state.identity.user) · \(state.identity.location) · \(clock) "
        if DisplayWidth.of(right) > room {
            let fixed = "\(state.identity.user) ·  · \(clock) "
            let pathRoom = max(1, room - DisplayWidth.of(fixed))
            right = "\(state.identity.user) · " + leftTruncate(state.identity.location, to: pathRoom) + " · \(clock) "
        }
        let width = DisplayWidth.of(right)
        buffer.put(right, x: max(leftWidth + 1, row.width - width), y: 0, style: Style(.title), clip: row)
    }

    /// Keeps the end of a path, which is the part that tells files apart: `…/tracedesk.sqlite`.
    public static func leftTruncate(_ text: String, to columns: Int) -> String {
        guard DisplayWidth.of(text) > columns, columns > 0 else { return text }
        var result = ""
        var width = 1
        for character in text.reversed() {
            let w = DisplayWidth.of(character)
            if width + w > columns { break }
            result.insert(character, at: result.startIndex)
            width += w
        }
        return "…" + result
    }
}
