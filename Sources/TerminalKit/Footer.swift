/// The bottom line of every screen: key hints on the left, a status text on the right.
///
/// Hints come from the screen's ``KeyMap/footerHints`` so the footer never promises a key
/// the screen does not handle. At narrow widths whole hints are dropped from the end, never
/// cut in half; the status (connection, last refresh, errors) keeps its place on the right.
public enum Footer {
    /// Cells between two hints, and between the hints and the status.
    public static let gap = 2

    /// Draws `hints` (`q Quit  ? Help`) with keys in `.keyLabel` and text in `.keyHint`, and
    /// `status` right-aligned in `statusStyle`, on the first row of `area`.
    ///
    /// - Returns: the rectangle of each hint drawn, in order (fewer than `hints` when some did
    ///   not fit), so a mouse click on a hint can be mapped back to its binding.
    @discardableResult
    public static func render(
        _ hints: [(keys: String, help: String)], status: String = "", statusStyle: Style = Style(.keyHint),
        into buffer: inout Buffer, area: Rect
    ) -> [Rect] {
        guard !area.isEmpty else { return [] }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: Style(.keyHint)))

        var statusWidth = 0
        if !status.isEmpty {
            let shown = buffer.glyphs.truncate(status, to: row.width)
            statusWidth = DisplayWidth.of(shown)
            buffer.put(shown, x: row.maxX - statusWidth, y: row.y, style: statusStyle, clip: row)
        }
        let limit = row.maxX - (statusWidth > 0 ? statusWidth + gap : 0)

        var rects: [Rect] = []
        var x = row.x
        for hint in hints {
            let keys = buffer.glyphs(hint.keys)
            let help = buffer.glyphs(hint.help)
            let keysWidth = DisplayWidth.of(keys)
            let helpWidth = DisplayWidth.of(help)
            let width = keysWidth + (helpWidth > 0 ? 1 + helpWidth : 0)
            guard x + width <= limit else { break }
            buffer.put(keys, x: x, y: row.y, style: Style(.keyLabel), clip: row)
            if helpWidth > 0 {
                buffer.put(help, x: x + keysWidth + 1, y: row.y, style: Style(.keyHint), clip: row)
            }
            rects.append(Rect(x: x, y: row.y, width: width, height: 1))
            x += width + gap
        }
        return rects
    }
}
