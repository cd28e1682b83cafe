import DeskText

/// One line of the help overlay: keys and what they do.
public struct HelpRow: Hashable, Sendable {
    public var keys: String
    public var help: String
    public init(keys: String, help: String) {
        self.keys = keys
        self.help = help
    }
}

/// A group of help rows under a header ("global", "this screen").
public struct HelpSection: Hashable, Sendable {
    public var group: String
    public var rows: [HelpRow]
    public init(group: String, rows: [HelpRow]) {
        self.group = group
        self.rows = rows
    }
}

/// What a key did to a ``HelpOverlayState``.
public enum HelpOverlayEdit: Hashable, Sendable {
    case scrolled, unchanged
    /// Esc, `?` or `q`: the screen should drop the overlay.
    case closed
    case notHandled
}

/// The commands of the help overlay, as listed in its ``HelpOverlayState/keyMap``.
public enum HelpOverlayAction: Hashable, Sendable {
    case lineUp, lineDown, pageUp, pageDown, top, bottom, close
}

/// The `?` overlay: every binding of the current context, grouped, in a centred panel.
///
/// Built from key maps (``init(title:keyMap:)``) so it lists exactly what the keys do.
/// Scrolls when taller than the screen; ``handle(_:area:)`` takes the same area as
/// ``render(into:area:)`` so scrolling stops at the last page, not past it.
public struct HelpOverlayState: Hashable, Sendable {
    public var title: String
    public var sections: [HelpSection]
    /// The first content line shown.
    public var scroll: Int

    public init(title: String = tr("terminal.help.title"), sections: [HelpSection]) {
        self.title = title
        self.sections = sections
        self.scroll = 0
    }

    /// The overlay for a key map's ``KeyMap/helpSections``.
    public init<Action>(title: String = tr("terminal.help.title"), keyMap: KeyMap<Action>) {
        let sections = keyMap.helpSections.map { section in
            HelpSection(group: section.group, rows: section.rows.map { HelpRow(keys: $0.keys, help: $0.help) })
        }
        self.init(title: title, sections: sections)
    }

    public static var keyMap: KeyMap<HelpOverlayAction> {
        KeyMap([
            Binding(
                [.escape, .char("q")], .close, help: tr("terminal.help.close"), group: tr("terminal.group.help"),
                name: "back"),
            Binding(
                [.char("?"), .function(1)], .close, help: tr("terminal.help.close"), group: tr("terminal.group.help"),
                shownInFooter: false, name: "help"),
            Binding(
                [.up, .char("k")], .lineUp, help: tr("terminal.help.scrollUp"), group: tr("terminal.group.help"),
                shownInFooter: false),
            Binding(
                [.down, .char("j")], .lineDown, help: tr("terminal.help.scrollDown"), group: tr("terminal.group.help"),
                shownInFooter: false),
            Binding(
                [.pageUp], .pageUp, help: tr("terminal.pageUp"), group: tr("terminal.group.help"), shownInFooter: false),
            Binding(
                [.pageDown, .char(" ")], .pageDown, help: tr("terminal.pageDown"), group: tr("terminal.group.help"),
                shownInFooter: false),
            Binding(
                [.home, .char("g")], .top, help: tr("terminal.help.top"), group: tr("terminal.group.help"),
                shownInFooter: false),
            Binding(
                [.end, .char("G")], .bottom, help: tr("terminal.help.bottom"), group: tr("terminal.group.help"),
                shownInFooter: false),
        ])
    }

    /// Applies one key; `area` is where the overlay is drawn (the whole screen, usually).
    public mutating func handle(_ key: Key, area: Rect) -> HelpOverlayEdit {
        guard let action = Self.keyMap.action(for: key) else { return .notHandled }
        let page = max(1, frame(in: area).height - 2)
        let last = maxScroll(in: area)
        let before = scroll
        switch action {
        case .close: return .closed
        case .lineUp: scroll -= 1
        case .lineDown: scroll += 1
        case .pageUp: scroll -= page
        case .pageDown: scroll += page
        case .top: scroll = 0
        case .bottom: scroll = last
        }
        scroll = max(0, min(scroll, last))
        return scroll == before ? .unchanged : .scrolled
    }

    /// A content line: a group header, a binding, or the gap between groups.
    enum Line: Hashable {
        case header(String)
        case row(HelpRow)
        case blank
    }

    var contentLines: [Line] {
        var lines: [Line] = []
        for section in sections {
            if !lines.isEmpty { lines.append(.blank) }
            lines.append(.header(section.group))
            lines += section.rows.map(Line.row)
        }
        return lines
    }

    private var keysColumnWidth: Int {
        sections.flatMap(\.rows).map { DisplayWidth.of($0.keys) }.max() ?? 0
    }

    /// The panel's rectangle in `area`: as small as the content allows, centred.
    public func frame(in area: Rect) -> Rect {
        var widest = DisplayWidth.of(title) + 4
        for line in contentLines {
            switch line {
            case .header(let text): widest = max(widest, DisplayWidth.of(text))
            case .row(let row): widest = max(widest, keysColumnWidth + 2 + DisplayWidth.of(row.help))
            case .blank: break
            }
        }
        return area.centered(width: widest + 4, height: contentLines.count + 2)
    }

    private func maxScroll(in area: Rect) -> Int {
        max(0, contentLines.count - max(0, frame(in: area).height - 2))
    }

    /// Clears its panel and draws the visible part of the help, with ▲/▼ in the border when
    /// there is more above or below.
    public func render(into buffer: inout Buffer, area: Rect) {
        let box = frame(in: area)
        guard !box.isEmpty else { return }
        buffer.fill(box, with: .blank)
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 0)
        let lines = contentLines
        let first = max(0, min(scroll, maxScroll(in: area)))
        for (offset, line) in lines.dropFirst(first).prefix(text.height).enumerated() {
            let y = text.y + offset
            switch line {
            case .header(let group):
                buffer.put(
                    buffer.glyphs.truncate(group, to: text.width), x: text.x, y: y, style: Style(.header), clip: text)
            case .row(let row):
                buffer.put(
                    buffer.glyphs.truncate(row.keys, to: text.width), x: text.x, y: y, style: Style(.accent), clip: text
                )
                let helpX = text.x + keysColumnWidth + 2
                buffer.put(buffer.glyphs.truncate(row.help, to: text.maxX - helpX), x: helpX, y: y, clip: text)
            case .blank: break
            }
        }
        let marker = Style(.borderFocused, .bold)
        if box.width >= 3, first > 0 { buffer.put(buffer.glyphs.moreAbove, x: box.maxX - 2, y: box.y, style: marker) }
        if box.width >= 3, first < maxScroll(in: area) {
            buffer.put(buffer.glyphs.moreBelow, x: box.maxX - 2, y: box.maxY - 1, style: marker)
        }
    }
}
