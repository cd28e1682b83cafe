import DeskCore
import DeskText
import Foundation
import TerminalKit

extension ConsoleApp {
    /// The screen's name in the title bar and the help title.
    public static func title(_ state: State) -> String {
        if state.lock != nil { return tr("console.frame.title.locked") }
        switch state.page {
        case .signIn: return tr("console.frame.title.signIn")
        case .firstAdmin: return tr("console.frame.title.firstAdmin")
        case .authorize: return tr("console.frame.title.authorize")
        case .monitor: return tr("console.frame.title.monitor")
        case .staff: return tr("console.frame.title.staff")
        case .audit: return tr("console.frame.title.audit")
        case .his: return tr("console.frame.title.his")
        case .trace: return tr("console.frame.title.trace")
        case .dashboard: return tr("console.frame.title.dashboard")
        case .queue: return state.queue.showsCase ? tr("console.frame.title.case") : tr("console.frame.title.queue")
        }
    }

    /// A role as the console names it ("operatore" in Italian); the wire name stays English.
    public static func roleName(_ role: StaffRole) -> String { tr("console.frame.role.\(role.rawValue)") }

    /// Draws the frame for `state`, in the symbols its terminal can show (``State/ascii``).
    public static func render(_ state: State, into buffer: inout Buffer) {
        buffer.glyphs = Glyphs(ascii: state.ascii)
        let area = buffer.area
        if state.isTooSmall {
            let text = tr(
                "console.frame.tooSmall",
                [
                    "width": String(state.size.width), "height": String(state.size.height),
                    "minWidth": String(minimumSize.width), "minHeight": String(minimumSize.height),
                ])
            let lines = TextWrap.wrap(text, width: max(1, area.width))
            let top = max(0, (area.height - lines.count) / 2)
            for (offset, line) in lines.enumerated() {
                let width = DisplayWidth.of(line)
                buffer.put(line, x: max(0, (area.width - width) / 2), y: top + offset, style: Style(.warning))
            }
            return
        }
        renderTitle(state, into: &buffer)
        let body = state.body
        if let lock = state.lock {
            LockScreen.render(lock, into: &buffer, area: body)
        } else {
            switch state.page {
            case .signIn: SignInScreen.render(state.signIn, location: state.location, into: &buffer, area: body)
            case .firstAdmin:
                FirstAdminScreen.render(state.firstAdmin, location: state.location, into: &buffer, area: body)
            case .authorize:
                AuthorizeScreen.render(state.authorize, into: &buffer, area: body)
                if state.authorize.phase != .editing { buffer.cursor = nil }
            case .monitor: MonitorScreen.render(state.monitor, into: &buffer, area: body)
            case .staff: StaffScreen.render(state.staff, into: &buffer, area: body)
            case .audit: AuditScreen.render(state.audit, into: &buffer, area: body)
            case .his: HISScreen.render(state.his, into: &buffer, area: body)
            case .trace: TraceScreen.render(state.trace, into: &buffer, area: body)
            case .queue: QueueScreen.render(state.queue, into: &buffer, area: body)
            case .dashboard:
                DashboardScreen.render(state.dashboard, into: &buffer, area: body)
                if !state.dashboard.isTyping { buffer.cursor = nil }
            }
        }
        if let help = state.help {
            buffer.cursor = nil
            help.render(into: &buffer, area: body)
        }
        if let palette = state.palette {
            buffer.cursor = nil
            palette.render(into: &buffer, area: body)
        }
        if state.showsDemoStrip, let citizen = state.demoCitizen {
            citizen.render(
                into: &buffer, area: Rect(x: 0, y: area.height - 2, width: area.width, height: 1),
                timeZone: state.timeZone, ascii: state.ascii)
        }
        Footer.render(
            footerHints(state), status: footerStatus(state),
            into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// The countdown stays in the corner whatever else is on screen (the lock and the monitor
    /// included: it shows no code) until the upload arrives.
    static func footerStatus(_ state: State) -> String {
        guard state.page == .authorize || state.page == .monitor, let left = state.authorize.secondsLeft else {
            return ""
        }
        if state.authorize.watch?.upload != nil { return tr("console.frame.status.codeUsed") + " " }
        return
            (left > 0
            ? tr("console.frame.status.codeValid", ["left": AuthorizeScreen.countdown(left)])
            : tr("console.frame.status.codeExpired")) + " "
    }

    /// A key map's footer hints with the first key of each binding ("a Add account").
    static func shortHints<A>(_ map: KeyMap<A>) -> [(keys: String, help: String)] {
        map.bindings.filter(\.shownInFooter).map { (keys: $0.keys.first?.description ?? "", help: $0.footerText) }
    }

    /// The footer's key hints for the current context.
    static func footerHints(_ state: State) -> [(keys: String, help: String)] {
        if state.help != nil { return HelpOverlayState.keyMap.footerHints }
        if state.palette != nil {
            return CommandPaletteState.keyMap.footerHints + [
                (keys: "↑↓", help: tr("console.frame.hint.choose")), (keys: "^C", help: tr("console.frame.hint.quit")),
            ]
        }
        let signOut = (keys: "^O", help: tr("console.frame.hint.signOut"))
        let quit = (keys: "^C", help: tr("console.frame.hint.quit"))
        let help = (keys: state.isTypingText ? "F1" : "?", help: tr("console.frame.hint.help"))
        if state.isTooSmall { return [quit] }
        if state.lock != nil { return shortHints(LockScreen.keyMap) + [signOut, help, quit] }
        switch state.page {
        case .signIn: return shortHints(SignInScreen.keyMap) + [help, quit]
        case .firstAdmin: return shortHints(FirstAdminScreen.keyMap) + [help, quit]
        case .authorize: return authorizeHints(state, signOut: signOut)
        case .monitor:
            if state.monitor.filtering { return MonitorScreen.filterKeyMap.footerHints + [help] }
            // Shorter words than help's, so the way back (F2), help and sign-out fit in 80
            // columns; the kinds' keys are in the legend just above.
            var hints: [(keys: String, help: String)] = [
                (
                    keys: Key.char(" ").description,
                    help: state.monitor.paused ? tr("console.frame.hint.resume") : tr("console.frame.hint.pause")
                ), (keys: "/", help: tr("console.frame.hint.filter")),
                (keys: Key.enter.description, help: tr("console.frame.hint.detail")),
                (keys: "w", help: tr("console.frame.hint.watch")),
            ]
            var back: [(keys: String, help: String)] = []
            if state.session?.role == .operator { back.append((keys: "F2", help: tr("console.frame.hint.authorize"))) }
            if state.session?.role == .supervisor {
                back.append((keys: "F2", help: tr("console.frame.hint.dashboard")))
            }
            // Quit last, where the footer drops it at 80 columns (^C is on every screen).
            return fitting(hints, back + [help, signOut], width: state.size.width) + [quit]
        case .staff:
            if let dialog = state.staff.confirm { return dialog.keyMap.footerHints }
            if let form = state.staff.form {
                let role = form.focus == .role ? shortHints(StaffScreen.Form.roleKeyMap) : []
                return shortHints(StaffScreen.Form.keyMap) + role + [help]
            }
            return fitting(
                shortHints(StaffScreen.keyMap),
                [(keys: "F3", help: tr("console.frame.hint.audit")), help, signOut, quit], width: state.size.width)
        case .audit:
            if state.audit.filterForm != nil { return shortHints(AuditScreen.FilterForm.keyMap) + [help] }
            return fitting(
                shortHints(AuditScreen.keyMap),
                [(keys: "F2", help: tr("console.frame.hint.staff")), help, signOut, quit], width: state.size.width)
        case .his:
            if let dialog = state.his.confirm { return dialog.keyMap.footerHints }
            if state.his.shownKey != nil {
                return [(keys: Key.enter.description, help: tr("console.frame.hint.done")), help]
            }
            if state.his.form != nil {
                return [
                    (keys: Key.enter.description, help: tr("console.frame.hint.nextOrAdd")),
                    (keys: Key.tab.description, help: tr("console.frame.hint.nextField")),
                    (keys: Key.escape.description, help: tr("console.frame.hint.cancel")), help,
                ]
            }
            // Help, sign-out and quit always show: a longer language drops the screen's own first.
            return fitting(
                shortHints(HISScreen.keyMap) + [(keys: "F2", help: tr("console.frame.hint.staff"))],
                [help, signOut, quit], width: state.size.width)
        case .trace:
            return traceHints(state.trace, width: state.size.width, help: help, signOut: signOut, quit: quit)
        case .queue:
            if state.queue.isModal { return QueueScreen.hints(state.queue) + [help] }
            return fitting(QueueScreen.hints(state.queue), [help, signOut, quit], width: state.size.width)
        case .dashboard:
            let dashboard = state.dashboard
            if dashboard.provincePrompt != nil { return shortHints(DashboardScreen.provinceKeyMap) + [help] }
            if let export = dashboard.export {
                if let dialog = export.confirm { return dialog.keyMap.footerHints }
                return shortHints(DashboardScreen.exportKeyMap) + [help]
            }
            // The ranges as one hint (help lists them one by one).
            let own =
                [(keys: "0-4", help: tr("console.frame.hint.range"))]
                + shortHints(KeyMap(DashboardScreen.keyMap.bindings.filter { $0.group != DashboardScreen.rangeGroup }))
            return fitting(
                own, [(keys: "F3", help: tr("console.frame.hint.monitor")), help, signOut, quit],
                width: state.size.width)
        }
    }

    /// The screen's own hints, then those always shown; screen hints that do not fit `width`
    /// are left off from the end (help lists them).
    static func fitting(
        _ own: [(keys: String, help: String)], _ always: [(keys: String, help: String)], width: Int
    ) -> [(keys: String, help: String)] {
        func used(_ hints: [(keys: String, help: String)]) -> Int {
            hints.reduce(0) { $0 + DisplayWidth.of($1.keys) + 1 + DisplayWidth.of($1.help) }
                + max(0, hints.count - 1) * Footer.gap
        }
        var own = own
        while !own.isEmpty, used(own + always) > width { own.removeLast() }
        return own + always
    }

    /// The contact-trace screen's hints, from its key maps (so they say what the keys do): the
    /// screen's own first, most useful first, then help, sign-out and quit, which are always
    /// shown; screen hints that do not fit `width` are left off from the end (help lists them).
    private static func traceHints(
        _ trace: TraceScreen.State, width: Int, help: (keys: String, help: String),
        signOut: (keys: String, help: String), quit: (keys: String, help: String)
    ) -> [(keys: String, help: String)] {
        func fitting(_ own: [(keys: String, help: String)], _ always: [(keys: String, help: String)])
            -> [(keys: String, help: String)]
        { ConsoleApp.fitting(own, always, width: width) }
        switch trace.phase {
        case .phone, .purpose:
            return fitting(shortHints(TraceScreen.inputKeyMap(trace)), [help, signOut, quit])
        case .loading: return fitting(shortHints(TraceScreen.loadingKeyMap), [help, signOut, quit])
        case .result:
            if let export = trace.export {
                if let dialog = export.confirm { return dialog.keyMap.footerHints }
                return shortHints(TraceScreen.inputKeyMap(trace)) + [help]
            }
            if trace.outcomeForm != nil { return TraceScreen.outcomeKeyMap.footerHints + [help] }
            if trace.filtering { return MonitorScreen.filterKeyMap.footerHints + [help] }
            if trace.detail != nil { return fitting(TraceScreen.detailHints, [help, signOut, quit]) }
            var hints = TraceScreen.tableHints
            // Once a case is open for the patient: its view, right after the digits.
            if trace.openedCase != nil {
                hints.insert((keys: "v", help: tr("console.frame.hint.case")), at: min(2, hints.count))
            }
            return fitting(hints, [help, signOut, quit])
        }
    }

    private static func authorizeHints(
        _ state: State, signOut: (keys: String, help: String)
    ) -> [(keys: String, help: String)] {
        var hints: [(keys: String, help: String)]
        switch state.authorize.phase {
        case .finished:
            hints = state.authorize.quitConfirm?.keyMap.footerHints ?? AuthorizeScreen.resultKeyMap.footerHints
        case .reviewing: hints = state.authorize.review?.keyMap.footerHints ?? []
        case .submitting: hints = []
        case .editing:
            hints = AuthorizeScreen.formKeyMap.footerHints.filter { $0.help != AuthorizeScreen.quitHelp }
        }
        hints.append((keys: "?", help: tr("console.frame.hint.help")))
        hints.append(signOut)
        if !hints.contains(where: { $0.help == AuthorizeScreen.quitHelp }) {
            hints.append((keys: "^C", help: tr("console.frame.hint.quit")))
        }
        if state.authorize.phase == .editing, state.authorize.focus == .onset {
            hints += AuthorizeScreen.onsetFooter.footerHints
        }
        if state.authorize.phase != .reviewing { hints.append((keys: "F3", help: tr("console.frame.hint.monitor"))) }
        return hints
    }

    /// Left: "TraceDesk · screen". Right: a connection problem (in words, first), then
    /// "user (role) · location · clock". When space is short the location shrinks from the left,
    /// then goes, then "TraceDesk · ", then the clock: the problem and the person stay.
    private static func renderTitle(_ state: State, into buffer: inout Buffer) {
        let row = Rect(x: 0, y: 0, width: buffer.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: Style(.title)))
        let who = state.session.map { "\($0.user) (\(roleName($0.role)))" }
        let problem = state.connectionProblem.map { " ! " + $0 + " " } ?? ""
        let problemWidth = DisplayWidth.of(problem)
        // "·" and a cut path's "…" in ASCII on a terminal without UTF-8 (they would not show).
        let g = Glyphs(ascii: state.ascii)
        var left = g(" TraceDesk · ") + title(state)
        func right(location: String?, clock: Bool) -> String {
            g(
                ([who, location, clock ? AuthorizeScreen.clock(state.now, state.timeZone) : nil].compactMap { $0 })
                    .joined(separator: " · ") + " ")
        }
        func room() -> Int { row.width - DisplayWidth.of(left) - 2 - (problem.isEmpty ? 0 : problemWidth + 1) }
        var shown = right(location: state.location, clock: true)
        if DisplayWidth.of(shown) > room() {
            let pathRoom = room() - 1 - DisplayWidth.of(right(location: "", clock: true))
            shown =
                pathRoom >= 8
                ? right(location: leftTruncate(state.location, to: pathRoom - (state.ascii ? 2 : 0)), clock: true)
                : right(location: nil, clock: true)
        }
        if DisplayWidth.of(shown) > room() { left = " " + title(state) }
        if DisplayWidth.of(shown) > room() { shown = right(location: nil, clock: false) }
        let leftWidth = buffer.put(left, x: 0, y: 0, style: Style(.title, .bold), clip: row)
        let x = max(leftWidth + 1 + (problem.isEmpty ? 0 : problemWidth + 1), row.width - DisplayWidth.of(shown))
        buffer.put(shown, x: x, y: 0, style: Style(.title), clip: row)
        if !problem.isEmpty {
            buffer.put(
                problem, x: max(leftWidth + 1, x - problemWidth - 1), y: 0, style: Style(.error, [.bold, .underline]),
                clip: row)
        }
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
