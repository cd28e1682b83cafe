/// A bordered box with an optional title in its top border, for grouping a screen's parts.
///
/// The border uses `.borderFocused` on the focused pane and `.border` elsewhere (monochrome
/// themes make the focused one bold), so the operator always sees where keys go.
public struct Panel: Hashable, Sendable {
    /// The box-drawing set: square corners or rounded ones.
    public enum BorderStyle: Hashable, Sendable {
        case plain, rounded

        /// The corners as `glyphs` draws them: `+` on an ASCII terminal.
        func corners(_ glyphs: Glyphs) -> (topLeft: String, topRight: String, bottomLeft: String, bottomRight: String) {
            if glyphs.ascii { return ("+", "+", "+", "+") }
            switch self {
            case .plain: return ("┌", "┐", "└", "┘")
            case .rounded: return ("╭", "╮", "╰", "╯")
            }
        }
    }

    public var title: String?
    public var focused: Bool
    public var borderStyle: BorderStyle

    public init(title: String? = nil, focused: Bool = false, borderStyle: BorderStyle = .plain) {
        self.title = title
        self.focused = focused
        self.borderStyle = borderStyle
    }

    /// The area inside the border of a panel drawn in `area`.
    public static func inner(_ area: Rect) -> Rect { area.inset(1) }

    /// Draws the border (nothing when `area` is under 2×2) and returns the inner rectangle,
    /// which the caller fills; the inside is not cleared.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Rect {
        guard area.width >= 2, area.height >= 2 else { return Panel.inner(area) }
        let style = Style(focused ? .borderFocused : .border)
        let glyphs = buffer.glyphs
        let corners = borderStyle.corners(glyphs)
        let horizontal = String(repeating: glyphs.horizontal, count: area.width - 2)
        buffer.put(corners.topLeft + horizontal + corners.topRight, x: area.x, y: area.y, style: style)
        buffer.put(corners.bottomLeft + horizontal + corners.bottomRight, x: area.x, y: area.maxY - 1, style: style)
        for row in (area.y + 1)..<(area.maxY - 1) {
            buffer.put(glyphs.vertical, x: area.x, y: row, style: style)
            buffer.put(glyphs.vertical, x: area.maxX - 1, y: row, style: style)
        }
        if let title, !title.isEmpty, area.width >= 6 {
            // "┌─ Title ─┐": corner, one rule cell, then the text between spaces.
            let text = glyphs.truncate(title, to: area.width - 5)
            buffer.put(
                " " + text + " ", x: area.x + 2, y: area.y, style: Style(style.role, .bold), maxWidth: area.width - 3)
        }
        return Panel.inner(area)
    }
}
