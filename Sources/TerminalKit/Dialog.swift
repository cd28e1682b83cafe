import DeskText

/// One button of a ``DialogState``.
public struct DialogButton: Hashable, Sendable {
    public var label: String
    /// A letter that chooses this button directly (`y`, `n`); matched case-insensitively.
    public var shortcut: Character?

    public init(_ label: String, shortcut: Character? = nil) {
        self.label = label
        self.shortcut = shortcut
    }
}

/// What a key did to a ``DialogState``.
public enum DialogOutcome: Hashable, Sendable {
    /// The selected button moved.
    case changed
    case unchanged
    /// The operator chose the button at this index.
    case chosen(Int)
    /// Esc: close the dialog and do nothing.
    case cancelled
    /// A modal swallows keys; only keys it knows are reported otherwise (Ctrl-C, for one).
    case notHandled
}

/// The commands of a dialog, as listed in its ``DialogState/keyMap``.
public enum DialogAction: Hashable, Sendable {
    case previous, next, cycleForward, cycleBackward, choose, cancel
    case shortcut(Int)
}

/// A centred modal: title, word-wrapped message and a row of buttons.
///
/// Follows the usual conventions: Enter chooses the selected button, Esc cancels, letter
/// shortcuts choose directly, ←/→ and Tab move. ``confirm(title:message:confirm:cancel:)``
/// starts on the safe choice, so a stray Enter never confirms something destructive.
public struct DialogState: Hashable, Sendable {
    public var title: String
    public var message: String
    public var buttons: [DialogButton]
    public var selected: Int
    /// Draw a one-cell `.shadow` below and to the right (dims what is underneath).
    public var shadow: Bool

    public init(title: String, message: String, buttons: [DialogButton], selected: Int = 0, shadow: Bool = true) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selected = max(0, min(selected, buttons.count - 1))
        self.shadow = shadow
    }

    /// A yes/no question with `y`/`n` shortcuts; the cancel button (index 1) is selected.
    public static func confirm(
        title: String, message: String, confirm: String = tr("terminal.dialog.confirm"),
        cancel: String = tr("terminal.dialog.cancel")
    ) -> DialogState {
        DialogState(
            title: title, message: message,
            buttons: [DialogButton(confirm, shortcut: "y"), DialogButton(cancel, shortcut: "n")], selected: 1)
    }

    /// This dialog's keys, shortcuts included, for the footer and help (group "dialog").
    public var keyMap: KeyMap<DialogAction> {
        var bindings: [Binding<DialogAction>] = [
            Binding([.enter], .choose, help: tr("terminal.dialog.choose"), group: tr("terminal.group.dialog")),
            Binding(
                [.escape], .cancel, help: tr("terminal.dialog.cancel"), group: tr("terminal.group.dialog"), name: "back"
            ),
        ]
        for (index, button) in buttons.enumerated() {
            guard let shortcut = button.shortcut else { continue }
            let lower = Self.single(shortcut.lowercased()) ?? shortcut
            let upper = Self.single(shortcut.uppercased()) ?? shortcut
            let keys: [Key] = lower == upper ? [.char(lower)] : [.char(lower), .char(upper)]
            bindings.append(
                Binding(
                    keys, .shortcut(index), help: button.label, group: tr("terminal.group.dialog"), shownInFooter: false
                ))
        }
        bindings += [
            Binding(
                [.left, .char("h")], .previous, help: tr("terminal.dialog.previous"),
                group: tr("terminal.group.dialog"), shownInFooter: false),
            Binding(
                [.right, .char("l")], .next, help: tr("terminal.dialog.next"), group: tr("terminal.group.dialog"),
                shownInFooter: false),
            Binding(
                [.tab], .cycleForward, help: tr("terminal.dialog.next"), group: tr("terminal.group.dialog"),
                shownInFooter: false, name: "next-field"),
            Binding(
                [.backTab], .cycleBackward, help: tr("terminal.dialog.previous"), group: tr("terminal.group.dialog"),
                shownInFooter: false,
                name: "previous-field"),
        ]
        return KeyMap(bindings)
    }

    public mutating func handle(_ key: Key) -> DialogOutcome {
        guard let action = keyMap.action(for: key) else { return .notHandled }
        guard !buttons.isEmpty else { return action == .cancel ? .cancelled : .unchanged }
        let before = selected
        switch action {
        case .choose: return .chosen(selected)
        case .cancel: return .cancelled
        case .shortcut(let index): return .chosen(index)
        case .previous: selected = max(0, selected - 1)
        case .next: selected = min(buttons.count - 1, selected + 1)
        case .cycleForward: selected = (selected + 1) % buttons.count
        case .cycleBackward: selected = (selected + buttons.count - 1) % buttons.count
        }
        return selected == before ? .unchanged : .changed
    }

    /// The text as one character, or nil when case mapping made it longer ("ß" → "SS").
    private static func single(_ text: String) -> Character? {
        text.count == 1 ? text.first : nil
    }

    /// The buttons as drawn: `[Confirm]  [Cancel]`.
    private var buttonLabels: [String] { buttons.map { "[" + $0.label + "]" } }
    private var buttonsWidth: Int {
        buttonLabels.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * max(0, buttons.count - 1)
    }

    /// The dialog's rectangle (shadow excluded) when drawn in `area` with `glyphs`.
    public func frame(in area: Rect, glyphs: Glyphs = .unicode) -> Rect {
        let spare = shadow ? 1 : 0
        let innerMax = max(0, min(area.width - spare - 4, 56))
        let wrapped = TextWrap.wrap(glyphs(message), width: innerMax)
        let widest = wrapped.map(DisplayWidth.of).max() ?? 0
        let inner = min(innerMax, max(widest, buttonsWidth, DisplayWidth.of(glyphs(title)) + 2))
        let height = min(area.height - spare, wrapped.count + 5)
        let outer = area.centered(width: inner + 4 + spare, height: height + spare)
        return Rect(x: outer.x, y: outer.y, width: outer.width - spare, height: outer.height - spare)
    }

    /// Clears its rectangle and draws the dialog over whatever is there.
    ///
    /// - Returns: the dialog's rectangle (shadow excluded).
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Rect {
        let box = frame(in: area, glyphs: buffer.glyphs)
        guard !box.isEmpty else { return box }
        buffer.fill(box, with: .blank)
        if shadow {
            buffer.setStyle(Style(.shadow), in: Rect(x: box.maxX, y: box.y + 1, width: 1, height: box.height))
            buffer.setStyle(Style(.shadow), in: Rect(x: box.x + 1, y: box.maxY, width: box.width, height: 1))
        }
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 0)
        // Rows: blank, message…, blank, buttons; the buttons row wins when space is short.
        let buttonsRow = inner.maxY - 1
        for (index, line) in TextWrap.wrap(buffer.glyphs(message), width: text.width).enumerated() {
            let y = text.y + 1 + index
            guard y < buttonsRow - 1 else { break }
            buffer.put(line, x: text.x, y: y, clip: text)
        }
        var x = text.x + max(0, (text.width - buttonsWidth) / 2)
        for (index, label) in buttonLabels.enumerated() {
            let style = Style(index == selected ? .selection : .normal, index == selected ? .bold : [])
            x += buffer.put(label, x: x, y: buttonsRow, style: style, clip: text) + 2
        }
        return box
    }
}
