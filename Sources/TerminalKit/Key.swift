import DeskText

/// A key press, decoded by a backend from whatever the terminal sent.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (never a control character).
    case char(Character)
    /// Ctrl plus a lowercase letter (`ctrl("c")`).
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)

    /// How the key is written in help and footers ("Enter", "^C", "F1", "PgDn").
    public var description: String {
        switch self {
        case .char(" "): return tr("terminal.key.space")
        case .char(let c): return String(c)
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .enter: return tr("terminal.key.enter")
        case .escape: return tr("terminal.key.escape")
        case .tab: return tr("terminal.key.tab")
        case .backTab: return tr("terminal.key.backTab")
        case .backspace: return tr("terminal.key.backspace")
        case .delete: return tr("terminal.key.delete")
        case .insert: return tr("terminal.key.insert")
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return tr("terminal.key.home")
        case .end: return tr("terminal.key.end")
        case .pageUp: return tr("terminal.key.pageUp")
        case .pageDown: return tr("terminal.key.pageDown")
        case .function(let n): return "F\(n)"
        }
    }
}

/// A mouse action at a cell (0-based column and row).
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case press, release, wheelUp, wheelDown }
    public var kind: Kind
    public var x: Int
    public var y: Int
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// Everything a backend can report to the program loop.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(TerminalSize)
}

/// A terminal the program loop can draw on and read from.
///
/// Threading rule: used from one thread only (the program loop's); ncurses is not thread-safe.
/// Implementations: `NcursesBackend` (the real terminal) and ``TestBackend``.
public protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: TerminalSize { get }
    /// Applies changed cells (from ``Buffer/diff(from:)``) and the cursor, then shows them.
    func draw(_ changes: [CellChange], cursor: (x: Int, y: Int)?)
    /// Forgets what is on screen, so the next draw repaints everything (after a resize).
    func invalidate()
    /// The next input event, waiting at most `timeoutMilliseconds` (nil on timeout).
    func nextEvent(timeoutMilliseconds: Int) -> InputEvent?
    /// Puts `text` on the clipboard of the terminal's user (OSC 52, ``Clipboard``), bounded to
    /// ``Clipboard/maximumBytes``; a backend with nowhere to write answers `.unavailable`.
    func copyToClipboard(_ text: String) -> Clipboard.Outcome
    /// Ctrl-Z: hands the terminal back to the shell and stops the process (SIGTSTP); returns once
    /// it is continued (`fg`), back in full-screen mode with ``size`` read again. The caller then
    /// repaints everything. A terminal that cannot suspend returns at once.
    func suspend()
}

extension TerminalBackend {
    /// No job control (a test terminal, a pipe): nothing to do.
    public func suspend() {}
}

extension Key {
    /// A printable character: typed into a focused text field rather than a command there.
    public var isCharacter: Bool {
        if case .char = self { return true }
        return false
    }
}
