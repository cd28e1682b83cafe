import DeskText

/// One command the palette offers: its name (`monitor`), the keys that do the same outside
/// the palette (`F3/M`), and what it does.
public struct PaletteEntry: Hashable, Sendable {
    /// What is typed after `:` (`monitor`, `export`, `signout`).
    public var name: String
    /// Other names that run it when typed exactly (`q` for `quit`).
    public var aliases: [String]
    /// The keys, as help writes them (`F3/M`); empty when it has none.
    public var keys: String
    public var help: String
    /// Where it comes from: a screen's action, a screen, global.
    public var group: String
    /// The key that runs it: the caller feeds it to its normal key handling, so the palette
    /// does exactly what the key does.
    public var key: Key?

    public init(
        name: String, aliases: [String] = [], keys: String, help: String, group: String = "", key: Key? = nil
    ) {
        self.name = name
        self.key = key
        self.aliases = aliases
        self.keys = keys
        self.help = help
        self.group = group
    }
}

/// What a key did to a ``CommandPaletteState``.
public enum PaletteEdit: Hashable, Sendable {
    case changed, unchanged
    /// Enter on an entry: close the palette and run it.
    case run(PaletteEntry)
    /// Esc (or Enter with nothing matching the text): close it, nothing done.
    case closed
}

/// The commands of the palette, as listed in its ``CommandPaletteState/keyMap``.
public enum PaletteAction: Hashable, Sendable { case up, down, pageUp, pageDown, run, close }

/// The `:` command palette: a text field over a list of commands filtered as you type.
///
/// Matching is fuzzy: the typed letters must appear in the name in order (`mon` → `monitor`,
/// `so` → `signout`); names that start with the text, match whole words or keep the letters
/// together rank first, then shorter names. An exact name or alias always ranks first, so
/// `:monitor` + Enter and `:q` + Enter do what they say. A leading `:` is ignored (typing
/// `:mon` after Ctrl-P works as after `:`). The entries come from key maps (``Binding/name``),
/// so the palette lists only what the keys do in the same context.
public struct CommandPaletteState: Hashable, Sendable {
    public var entries: [PaletteEntry]
    public var query: TextFieldState
    /// Index into ``matches``.
    public var selected: Int
    /// The first match shown (the list scrolls with the selection).
    public var scroll: Int

    public init(entries: [PaletteEntry], query: String = "") {
        self.entries = entries
        self.query = TextFieldState(query, maxLength: 60)
        selected = 0
        scroll = 0
    }

    public static var keyMap: KeyMap<PaletteAction> {
        KeyMap([
            Binding(
                [.enter], .run, help: tr("terminal.palette.run"), group: tr("terminal.group.palette"),
                footer: tr("terminal.palette.runShort")),
            Binding(
                [.escape], .close, help: tr("terminal.palette.close"), group: tr("terminal.group.palette"),
                footer: tr("terminal.palette.closeShort"), name: "back"),
            Binding(
                [.up, .ctrl("p")], .up, help: tr("terminal.palette.previous"), group: tr("terminal.group.palette"),
                shownInFooter: false),
            Binding(
                [.down, .ctrl("n")], .down, help: tr("terminal.palette.next"), group: tr("terminal.group.palette"),
                shownInFooter: false),
            Binding(
                [.pageUp], .pageUp, help: tr("terminal.pageUp"), group: tr("terminal.group.palette"),
                shownInFooter: false),
            Binding(
                [.pageDown], .pageDown, help: tr("terminal.pageDown"), group: tr("terminal.group.palette"),
                shownInFooter: false),
        ])
    }

    /// The text matched: what was typed, without a leading `:` and surrounding spaces.
    public var needle: String {
        var text = Substring(query.text)
        while text.first == ":" || text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text).lowercased()
    }

    /// The entries matching the text, best first (all of them, in order, while it is empty).
    public var matches: [PaletteEntry] {
        let needle = needle
        guard !needle.isEmpty else { return entries }
        let scored = entries.enumerated().compactMap { index, entry -> (Int, Int, PaletteEntry)? in
            guard let score = Self.score(needle, entry) else { return nil }
            return (score, index, entry)
        }
        return scored.sorted { a, b in
            if a.0 != b.0 { return a.0 > b.0 }
            if a.2.name.count != b.2.name.count { return a.2.name.count < b.2.name.count }
            return a.1 < b.1
        }.map(\.2)
    }

    /// The selected entry, if anything matches.
    public var selectedEntry: PaletteEntry? {
        let list = matches
        return list.indices.contains(selected) ? list[selected] : nil
    }

    /// How well `needle` (lowercase) matches an entry: its name or an alias exactly, its name
    /// fuzzily, then (worth less) a word of its help that starts with it; nil: no match.
    public static func score(_ needle: String, _ entry: PaletteEntry) -> Int? {
        if entry.name.lowercased() == needle || entry.aliases.contains(where: { $0.lowercased() == needle }) {
            return 10_000
        }
        let byName = score(needle, in: entry.name.lowercased())
        // In the help only a word that starts with the text counts ("csv" finds the export):
        // letters scattered over a sentence would match almost anything.
        let words = entry.help.lowercased().split { !$0.isLetter && !$0.isNumber }
        let byHelp: Int? = words.contains { $0.hasPrefix(needle) } ? 5 * needle.count : nil
        switch (byName, byHelp) {
        case (nil, nil): return nil
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (let a?, let b?): return max(a, b)
        }
    }

    /// Subsequence score of `needle` in `text` (both lowercase): each letter found counts, more
    /// when it follows the previous one or starts a word, and a prefix counts most; letters
    /// skipped cost a little. nil: the letters are not all there in order.
    public static func score(_ needle: String, in text: String) -> Int? {
        let letters = Array(text)
        var position = 0
        var previous: Int?
        var total = 0
        for character in needle {
            var found: Int?
            // Prefer the next word start holding the letter over an earlier letter mid-word,
            // unless the letter follows the previous match directly.
            if position < letters.count, letters[position] == character {
                found = position
            } else {
                var candidate: Int?
                var index = position
                while index < letters.count {
                    if letters[index] == character {
                        if candidate == nil { candidate = index }
                        if index == 0 || isBoundary(letters[index - 1]) {
                            found = index
                            break
                        }
                    }
                    index += 1
                }
                if found == nil { found = candidate }
            }
            guard let at = found else { return nil }
            total += 10
            if at == 0 || isBoundary(letters[at - 1]) { total += 15 }
            if let previous, at == previous + 1 { total += 12 }
            total -= min(at - position, 10)
            previous = at
            position = at + 1
        }
        if text.hasPrefix(needle) { total += 50 }
        return total
    }

    private static func isBoundary(_ character: Character) -> Bool {
        character == " " || character == "-" || character == "_" || character == "/" || character == "("
    }

    /// Applies one key: the ``keyMap`` first, everything else edits the text (and the selection
    /// goes back to the best match).
    public mutating func handle(_ key: Key) -> PaletteEdit {
        let count = matches.count
        if let action = Self.keyMap.action(for: key) {
            let before = selected
            switch action {
            case .close: return .closed
            case .run: return selectedEntry.map(PaletteEdit.run) ?? .closed
            case .up: selected -= 1
            case .down: selected += 1
            case .pageUp: selected -= 8
            case .pageDown: selected += 8
            }
            selected = max(0, min(selected, count - 1))
            return selected == before ? .unchanged : .changed
        }
        // Backspace on an empty text closes, as in vim's command line.
        if key == .backspace, query.text.isEmpty { return .closed }
        switch query.handle(key) {
        case .changed:
            selected = 0
            scroll = 0
            return .changed
        case .rejected, .unchanged, .notHandled: return .unchanged
        }
    }

    /// The panel's rectangle: near the top of `area`, as wide as the longest entry allows.
    public func frame(in area: Rect) -> Rect {
        let widest = entries.map { Self.rowWidth($0, keysWidth: keysWidth) }.max() ?? 20
        let width = min(area.width, max(40, widest + 4))
        // As tall as the matches (it shrinks as you type), as wide as every entry (it does not
        // jump sideways).
        let rows = max(1, min(matches.count, max(1, area.height - 5)))
        let height = min(area.height, rows + 4)
        let x = area.x + max(0, (area.width - width) / 2)
        let y = area.y + (area.height > height + 2 ? 1 : 0)
        return Rect(x: x, y: y, width: width, height: height)
    }

    private var nameWidth: Int { entries.map { DisplayWidth.of($0.name) + 1 }.max() ?? 0 }
    private var keysWidth: Int { entries.map { DisplayWidth.of($0.keys) }.max() ?? 0 }

    private static func rowWidth(_ entry: PaletteEntry, keysWidth: Int) -> Int {
        1 + 16 + 2 + keysWidth + 2 + DisplayWidth.of(entry.help)
    }

    /// Draws the panel: the prompt (`:` and the text), a rule, then the matches (name, keys,
    /// help), the selected one highlighted; "no command matches" when none does. Sets the
    /// terminal cursor in the prompt.
    public func render(into buffer: inout Buffer, area: Rect) {
        let box = frame(in: area)
        guard box.width >= 8, box.height >= 4 else { return }
        buffer.fill(box, with: .blank)
        let inner = Panel(title: tr("terminal.palette.title"), focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 2, text.height >= 2 else { return }
        buffer.put(":", x: text.x, y: text.y, style: Style(.accent, .bold), clip: text)
        query.render(
            into: &buffer, area: Rect(x: text.x + 1, y: text.y, width: text.width - 1, height: 1), focused: true,
            placeholder: tr("terminal.palette.placeholder"))
        let rule = String(repeating: buffer.glyphs.horizontal, count: inner.width)
        buffer.put(rule, x: inner.x, y: text.y + 1, style: Style(.border), clip: inner)
        let listArea = Rect(x: text.x, y: text.y + 2, width: text.width, height: text.height - 2)
        let list = matches
        if list.isEmpty {
            buffer.put(
                buffer.glyphs.truncate(tr("terminal.palette.noMatch"), to: listArea.width), x: listArea.x,
                y: listArea.y,
                style: Style(.muted), clip: listArea)
            return
        }
        let visible = max(1, listArea.height)
        let first = max(0, min(max(scroll, selected - visible + 1), selected, max(0, list.count - visible)))
        let nameColumn = min(max(nameWidth, 8), 18)
        for (offset, entry) in list.dropFirst(first).prefix(visible).enumerated() {
            let y = listArea.y + offset
            let index = first + offset
            let row = Rect(x: listArea.x, y: y, width: listArea.width, height: 1)
            let chosen = index == selected
            if chosen { buffer.fill(row, with: Cell(" ", style: Style(.selection))) }
            let base = chosen ? Style(.selection) : Style(.normal)
            buffer.put(buffer.glyphs.truncate(entry.name, to: nameColumn), x: row.x, y: y, style: base, clip: row)
            let keysX = row.x + nameColumn + 1
            buffer.put(
                buffer.glyphs.truncate(buffer.glyphs(entry.keys), to: max(0, row.maxX - keysX)), x: keysX, y: y,
                style: chosen ? base : Style(.accent), clip: row)
            let helpX = keysX + min(keysWidth, 12) + 2
            if helpX < row.maxX {
                buffer.put(
                    buffer.glyphs.truncate(entry.help, to: row.maxX - helpX), x: helpX, y: y,
                    style: chosen ? base : Style(.muted), clip: row)
            }
        }
        let marker = Style(.borderFocused, .bold)
        if first > 0 { buffer.put(buffer.glyphs.moreAbove, x: box.maxX - 2, y: listArea.y - 1, style: marker) }
        if first + visible < list.count {
            buffer.put(buffer.glyphs.moreBelow, x: box.maxX - 2, y: box.maxY - 1, style: marker)
        }
    }
}
