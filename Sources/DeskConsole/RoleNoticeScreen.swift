import DeskCore
import TerminalKit

/// What tracers see after signing in, until their screens exist: who they are signed in as, that
/// their screens are not in this version, and what they can do now. (Supervisors have the
/// monitor.)
///
/// Honest rather than empty: no menu of things that do not work.
public enum RoleNoticeScreen {
    public enum Action: Hashable, Sendable { case quit }

    public static let keyMap = KeyMap<Action>([
        Binding([.char("q")], .quit, help: "Quit")
    ])

    /// The lines shown for `role` (nil for roles that have their screens).
    public static func lines(user: String, role: StaffRole) -> [(String, Style)]? {
        switch role {
        case .tracer:
            return [
                ("Signed in as \(user) (tracer).", Style(.header)),
                ("", Style(.normal)),
                (
                    "The contact-trace screens (look up a positive patient, browse their contacts, record call outcomes, export) are not in this version of TraceDesk yet.",
                    Style(.normal)
                ),
                ("", Style(.normal)),
                ("What you can do now: nothing in this console. Sign out (^O) so the desk is free.", Style(.normal)),
            ]
        case .operator, .supervisor, .admin:
            return nil
        }
    }

    public static func render(user: String, role: StaffRole, into buffer: inout Buffer, area: Rect) {
        let panel = area.centered(width: min(76, area.width), height: min(16, area.height))
        let inner = Panel(title: "Signed in", focused: true).render(into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 0 else { return }
        var y = text.y
        for (line, style) in lines(user: user, role: role) ?? [] {
            if line.isEmpty {
                y += 1
                continue
            }
            for row in TextWrap.wrap(line, width: text.width) {
                guard y < text.maxY else { return }
                buffer.put(row, x: text.x, y: y, style: style, clip: text)
                y += 1
            }
        }
    }
}
