import DeskText
import TerminalKit

/// The prompt for the file an export writes (the contact trace, the dashboard's figures): the
/// path, the question asked when the file exists, and what the writing answered.
///
/// Pure, like the screens: ``handle(_:_:)`` takes a key and the action the screen's key map
/// gives it, and says what the screen should do next; the screen owns the command that writes
/// (what is written, and whether it is audited, are its own).
public struct ExportPrompt: Hashable, Sendable {
    public var path: TextFieldState
    /// Asked when the file exists.
    public var confirm: DialogState?
    public var writing = false
    public var error: String?

    public init(path: String) { self.path = TextFieldState(path, maxLength: 1_024) }

    /// What a screen's key map makes of a key in the prompt.
    public enum Action: Hashable, Sendable { case submit, back }

    /// What the screen does after a key.
    public enum Step: Hashable, Sendable {
        /// Nothing more: the prompt took the key (or ignored it).
        case stay
        /// Close the prompt without writing.
        case cancel
        /// Write the file; an existing one only with `overwrite`.
        case write(overwrite: Bool)
    }

    /// Applies one key. While the file is being written keys are ignored; while the overwrite
    /// question is open it takes them.
    public mutating func handle(_ key: Key, _ action: Action?) -> Step {
        guard !writing else { return .stay }
        if var dialog = confirm {
            switch dialog.handle(key) {
            case .chosen(0): return .write(overwrite: true)
            case .chosen, .cancelled:
                confirm = nil
                error = tr("console.frame.export.kept", ["enter": Key.enter.description])
            case .changed, .unchanged, .notHandled:
                confirm = dialog
            }
            return .stay
        }
        switch action {
        case .back: return .cancel
        case .submit: return .write(overwrite: false)
        case nil:
            if path.handle(key) == .changed { error = nil }
            return .stay
        }
    }

    /// Starts writing: the checked path, or nil with the problem shown (``ExportPath``).
    public mutating func start(defaultPath: String, example: String) -> String? {
        confirm = nil
        switch ExportPath.checked(path.text, defaultPath: defaultPath, example: example) {
        case .success(let checked):
            writing = true
            error = nil
            return checked
        case .failure(let problem):
            error = problem.message
            return nil
        }
    }

    /// The file exists: ask before overwriting it.
    public mutating func fileExists(_ path: String) {
        writing = false
        confirm = .confirm(
            title: tr("console.frame.export.overwriteTitle"),
            message: tr("console.frame.export.exists", ["path": path]),
            confirm: tr("console.frame.export.overwrite"), cancel: tr("console.frame.export.keep"))
    }

    /// The writing failed: say why, and let the path be changed.
    public mutating func failed(_ message: String) {
        writing = false
        error = message
    }

    /// Draws the prompt centred in `area`: `title` on its frame, `summary` (what is written)
    /// above the path, and below it the problem, the progress or the keys.
    public func render(title: String, summary: String, into buffer: inout Buffer, area: Rect, ascii: Bool) {
        let panel = area.centered(width: min(72, area.width), height: min(9, area.height))
        buffer.fill(panel)
        let inner = Panel(title: title, focused: confirm == nil).render(into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4 else { return }
        var y = text.y
        buffer.put(summary, x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
        y += 1
        buffer.put(tr("console.frame.export.file"), x: text.x, y: y, style: Style(.header), clip: text)
        y += 1
        path.render(
            into: &buffer, area: Rect(x: text.x, y: y, width: text.width, height: 1),
            focused: confirm == nil && !writing)
        y += 1
        if let error {
            Notice.error(error).render(into: &buffer, x: text.x, y: y, width: text.width, rows: 2, ascii: ascii)
        } else if writing {
            Notice.working(tr("console.frame.export.writing")).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: ascii)
        } else {
            buffer.put(
                Glyphs(ascii: ascii)(
                    tr("console.frame.export.keys", ["enter": Key.enter.description, "esc": Key.escape.description])),
                x: text.x, y: y, style: Style(.muted), clip: text)
        }
        if let confirm {
            buffer.cursor = nil
            _ = confirm.render(into: &buffer, area: area)
        }
    }
}
