import DeskText

/// What a key did to a ``TextFieldState``.
public enum TextFieldEdit: Hashable, Sendable {
    /// The text or the cursor moved.
    case changed
    /// An editing key that had nothing to do (Backspace at the start, a full field).
    case unchanged
    /// The field's ``CharacterRule`` refused this character; the screen may say why.
    case rejected(Character)
    /// Not an editing key (Enter, Tab, ↑…): the screen decides.
    case notHandled
}

/// The editing commands of a text field, as listed in its ``TextFieldState/keyMap``.
public enum TextFieldAction: Hashable, Sendable {
    case moveLeft, moveRight, moveToStart, moveToEnd
    case deleteBackward, deleteForward, clearToStart, clearToEnd, deleteWordBackward
}

/// A one-line text input: text, cursor and the rule for typed characters.
///
/// A plain value: a screen keeps one per field in its state, feeds it keys in `update`, and
/// draws it in `render`. The cursor counts characters (graphemes), not columns or bytes.
/// Privacy: the text may be an OTP or a phone number; never log a field state.
public struct TextFieldState: Hashable, Sendable {
    /// The text as typed (after the rule); setting it keeps the cursor in range.
    public var text: String {
        didSet { cursor = min(max(0, cursor), text.count) }
    }
    /// Insertion point: 0 is before the first character, `text.count` after the last.
    public var cursor: Int {
        didSet { cursor = min(max(0, cursor), text.count) }
    }
    /// At most this many characters; nil for no limit. Typing into a full field is `.unchanged`.
    public var maxLength: Int?
    public var transform: CharacterRule

    public init(_ text: String = "", maxLength: Int? = nil, transform: CharacterRule = .any) {
        let kept = maxLength.map { String(text.prefix(max(0, $0))) } ?? text
        self.text = kept
        self.cursor = kept.count
        self.maxLength = maxLength
        self.transform = transform
    }

    /// The editing keys, for the help overlay (group "text field"; none shown in the footer).
    public static var keyMap: KeyMap<TextFieldAction> {
        KeyMap([
            Binding(
                [.left], .moveLeft, help: tr("terminal.text.moveLeft"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.right], .moveRight, help: tr("terminal.text.moveRight"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.home, .ctrl("a")], .moveToStart, help: tr("terminal.text.moveToStart"),
                group: tr("terminal.group.text"), shownInFooter: false),
            Binding(
                [.end, .ctrl("e")], .moveToEnd, help: tr("terminal.text.moveToEnd"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.backspace], .deleteBackward, help: tr("terminal.text.deleteBackward"),
                group: tr("terminal.group.text"), shownInFooter: false),
            Binding(
                [.delete], .deleteForward, help: tr("terminal.text.deleteForward"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.ctrl("u")], .clearToStart, help: tr("terminal.text.clearToStart"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.ctrl("k")], .clearToEnd, help: tr("terminal.text.clearToEnd"), group: tr("terminal.group.text"),
                shownInFooter: false),
            Binding(
                [.ctrl("w")], .deleteWordBackward, help: tr("terminal.text.deleteWordBackward"),
                group: tr("terminal.group.text"),
                shownInFooter: false),
        ])
    }

    /// Applies one key: printable characters go through ``transform``; editing keys come from
    /// ``keyMap``; anything else is `.notHandled`.
    public mutating func handle(_ key: Key) -> TextFieldEdit {
        if case .char(let character) = key { return insert(character) }
        guard let action = Self.keyMap.action(for: key) else { return .notHandled }
        return perform(action)
    }

    /// Types one character at the cursor, as if it had been pressed.
    public mutating func insert(_ character: Character) -> TextFieldEdit {
        switch transform.apply(character) {
        case .ignore: return .unchanged
        case .reject: return .rejected(character)
        case .insert(let kept):
            if let maxLength, text.count >= maxLength { return .unchanged }
            var characters = Array(text)
            characters.insert(kept, at: cursor)
            let newCursor = cursor + 1
            text = String(characters)
            cursor = newCursor
            return .changed
        }
    }

    /// Runs one editing command.
    public mutating func perform(_ action: TextFieldAction) -> TextFieldEdit {
        let before = self
        var characters = Array(text)
        var position = cursor
        switch action {
        case .moveLeft: position -= 1
        case .moveRight: position += 1
        case .moveToStart: position = 0
        case .moveToEnd: position = characters.count
        case .deleteBackward:
            if position > 0 {
                characters.remove(at: position - 1)
                position -= 1
            }
        case .deleteForward:
            if position < characters.count { characters.remove(at: position) }
        case .clearToStart:
            characters.removeSubrange(0..<position)
            position = 0
        case .clearToEnd:
            characters.removeSubrange(position..<characters.count)
        case .deleteWordBackward:
            var start = position
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<position)
            position = start
        }
        text = String(characters)
        cursor = position
        return self == before ? .unchanged : .changed
    }

    /// The text as shown, split into `groups` of characters joined by `separator`, and the
    /// column of the cursor in it.
    ///
    /// With groups `[3, 4, 3]`, `9K2RA` shows as `9K2-RA`: a separator appears only once the
    /// group after it has started. Characters beyond the groups continue the last one.
    public func display(groups: [Int] = [], separator: Character = "-") -> (text: String, cursorColumn: Int) {
        var boundaries: Set<Int> = []
        var total = 0
        for size in groups.dropLast() where size > 0 {
            total += size
            boundaries.insert(total)
        }
        var shown = ""
        var column = 0
        var cursorColumn: Int?
        for (index, character) in text.enumerated() {
            if boundaries.contains(index) {
                shown.append(separator)
                column += DisplayWidth.of(separator)
            }
            if index == cursor { cursorColumn = column }
            shown.append(character)
            column += DisplayWidth.of(character)
        }
        return (shown, cursorColumn ?? column)
    }

    /// Draws the field on the first row of `area`, scrolled so the cursor stays visible, and
    /// places the terminal cursor when `focused`. An empty field shows `placeholder` (muted).
    public func render(
        into buffer: inout Buffer, area: Rect, focused: Bool, groups: [Int] = [], separator: Character = "-",
        placeholder: String = ""
    ) {
        guard !area.isEmpty else { return }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        let style = Style(focused ? .inputFocused : .input)
        buffer.fill(row, with: Cell(" ", style: style))
        let (shown, cursorColumn) = display(groups: groups, separator: separator)
        // Keep one column free after the text for the cursor when it is at the end.
        let offset = max(0, cursorColumn - (row.width - 1))
        if text.isEmpty, !placeholder.isEmpty {
            let hint = buffer.glyphs.truncate(placeholder, to: row.width)
            buffer.put(hint, x: row.x, y: row.y, style: Style(.muted), clip: row)
        } else {
            buffer.put(shown, x: row.x - offset, y: row.y, style: style, clip: row)
        }
        if focused {
            buffer.cursor = (x: row.x + min(cursorColumn - offset, row.width - 1), y: row.y)
        }
    }
}
