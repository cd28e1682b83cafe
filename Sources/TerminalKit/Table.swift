/// One column of a ``Table``: its title, how wide it is, and which side its text keeps to.
public struct TableColumn: Hashable, Sendable {
    /// Which side a column's text keeps to; trailing suits numbers.
    public enum Alignment: Hashable, Sendable { case leading, trailing }

    public var title: String
    /// Drawn after the title and kept whole when the title has to be cut ("Name ▲"): where a
    /// sort indicator goes.
    public var titleSuffix: String
    /// A ``Layout`` constraint: `.length(n)` for a fixed width, `.fill(weight)` or `.min(n)` for
    /// a share of what the fixed columns leave.
    public var width: Constraint
    public var alignment: Alignment

    public init(_ title: String, width: Constraint, alignment: Alignment = .leading, titleSuffix: String = "") {
        self.title = title
        self.titleSuffix = titleSuffix
        self.width = width
        self.alignment = alignment
    }

    /// The title and its suffix in `width` columns: the title is cut with `…` first.
    func heading(fitting width: Int, _ glyphs: Glyphs = .unicode) -> String {
        let title = glyphs(title)
        let titleSuffix = glyphs(titleSuffix)
        let suffixWidth = DisplayWidth.of(titleSuffix)
        guard suffixWidth > 0, suffixWidth < width, DisplayWidth.of(title) + suffixWidth > width else {
            return title + titleSuffix
        }
        return glyphs.truncate(title, to: width - suffixWidth) + titleSuffix
    }
}

/// One cell of a ``Table`` row: its text and, optionally, a style of its own.
public struct TableCell: Hashable, Sendable, ExpressibleByStringLiteral {
    public var text: String
    /// Used instead of the row's style (a warning, a muted value); the highlighted row keeps the
    /// selection style in every cell so the selection reads as one bar.
    public var style: Style?

    public init(_ text: String, style: Style? = nil) {
        self.text = text
        self.style = style
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }
}

/// A scrolling table of rows under a header line, with a selected row.
///
/// The table is drawn in an area, usually a ``Panel``'s inner one: column titles on the first
/// row in `.header`, then one line per row. Each row starts with the marker column (`›` on the
/// selected row, then a space); columns follow with ``gap`` cells between them, sized by
/// ``Layout`` from their ``TableColumn/width``. When the area is too narrow, the later columns
/// shrink and then drop out; a cell wider than its column is cut with `…`.
///
/// Rows are not stored: ``render(into:area:cells:)`` asks for the cells of the rows it shows and
/// no others, so a table of 100 000 rows costs what one screenful does.
public struct Table: Hashable, Sendable {
    /// Empty cells between neighbouring columns.
    public static let gap = 2

    public var columns: [TableColumn]
    /// How many rows the table has; only those in view are asked for.
    public var rowCount: Int
    /// The selected row, which shows the marker and is kept in view; nil for none.
    public var selected: Int?
    /// Whether keys go to the table: only then is the selected row filled with `.selection`
    /// (a dialog over the table keeps the marker but drops the bar).
    public var focused: Bool
    /// Shown muted on the first row when there are no rows ("no accounts", "… loading").
    public var emptyText: String
    /// Drawn at the start of the selected row, in bold; one column wide.
    public var marker: String
    /// Draw ▲/▼ in the last column of the line just above and just below the area, where a
    /// ``Panel``'s border runs when the table fills its inner area, while rows are out of view.
    public var scrollMarks: Bool
    /// More rows follow that are not counted yet (an older page not loaded): ▼ shows even when the
    /// last counted row is in view.
    public var moreBelow: Bool

    public init(
        columns: [TableColumn], rowCount: Int, selected: Int? = nil, focused: Bool = true, emptyText: String = "",
        marker: String = "›", scrollMarks: Bool = true, moreBelow: Bool = false
    ) {
        self.columns = columns
        self.rowCount = max(0, rowCount)
        self.selected = selected
        self.focused = focused
        self.emptyText = emptyText
        self.marker = marker
        self.scrollMarks = scrollMarks
        self.moreBelow = moreBelow
    }

    /// The lines under the header, where rows go, of a table drawn in `area`.
    public static func rowsArea(in area: Rect) -> Rect {
        Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
    }

    /// The first row shown when `rows` lines fit: the top of the table until the selection would
    /// fall below the last line, then the window that ends on the selection, never past the end.
    public static func firstShown(selected: Int?, rowCount: Int, rows: Int) -> Int {
        guard rows > 0, let selected else { return 0 }
        return max(0, min(selected - rows + 1, rowCount - rows))
    }

    /// The first row shown when drawn in `area`.
    public func firstShown(in area: Rect) -> Int {
        Self.firstShown(selected: selected, rowCount: rowCount, rows: Self.rowsArea(in: area).height)
    }

    /// Cells taken by the marker column (the marker and a space).
    var markerWidth: Int { DisplayWidth.of(marker) + 1 }

    /// Where each column goes in `area`, on its header line, in order; a column with no room has
    /// width 0.
    public func columnRects(in area: Rect) -> [Rect] {
        let line = Rect(x: area.x + markerWidth, y: area.y, width: area.width - markerWidth, height: 1)
        return Layout(.horizontal, columns.map(\.width), spacing: Self.gap).split(line)
    }

    /// The row at screen line `y` when drawn in `area`, if one is shown there (for mouse clicks).
    public func row(at y: Int, in area: Rect) -> Int? {
        let rows = Self.rowsArea(in: area)
        guard y >= rows.y, y < rows.maxY else { return nil }
        let index = firstShown(in: area) + (y - rows.y)
        return index < rowCount ? index : nil
    }

    /// Draws the header and the rows in view into `area`, over what is there.
    ///
    /// - Parameter cells: the cells of one row, in column order, asked only for the rows shown;
    ///   cells past the last column are not drawn (a screen can drop trailing columns when narrow
    ///   and keep one row builder), missing ones are left blank.
    /// - Returns: the indices of the rows shown.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect, cells: (Int) -> [TableCell]) -> Range<Int> {
        guard !area.isEmpty else { return 0..<0 }
        let places = columnRects(in: area)
        for (column, place) in zip(columns, places) where place.width > 0 {
            let text = Self.aligned(
                column.heading(fitting: place.width, buffer.glyphs), width: place.width, column.alignment, buffer.glyphs
            )
            buffer.put(text, x: place.x, y: area.y, style: Style(.header), maxWidth: place.width, clip: area)
        }
        let rows = Self.rowsArea(in: area)
        guard rowCount > 0 else {
            let room = rows.maxX - (area.x + markerWidth)
            buffer.put(
                buffer.glyphs.truncate(emptyText, to: room), x: area.x + markerWidth, y: rows.y, style: Style(.muted),
                clip: rows)
            return 0..<0
        }
        let first = firstShown(in: area)
        let shown = first..<min(rowCount, first + rows.height)
        let unmarked = String(repeating: " ", count: DisplayWidth.of(marker))
        for index in shown {
            let y = rows.y + (index - first)
            let isSelected = index == selected
            let highlighted = isSelected && focused
            let rowStyle = Style(highlighted ? .selection : .normal)
            if highlighted {
                buffer.fill(Rect(x: rows.x, y: y, width: rows.width, height: 1), with: Cell(" ", style: rowStyle))
            }
            buffer.put(
                isSelected ? buffer.glyphs(marker) : unmarked, x: rows.x, y: y, style: Style(rowStyle.role, .bold),
                clip: rows)
            for (cell, (column, place)) in zip(cells(index), zip(columns, places)) where place.width > 0 {
                let style = highlighted ? rowStyle : cell.style ?? rowStyle
                let text = Self.aligned(cell.text, width: place.width, column.alignment, buffer.glyphs)
                buffer.put(text, x: place.x, y: y, style: style, maxWidth: place.width, clip: rows)
            }
        }
        if scrollMarks {
            let mark = Style(.borderFocused, .bold)
            let glyphs = buffer.glyphs
            if first > 0 { buffer.put(glyphs.moreAbove, x: area.maxX - 1, y: area.y - 1, style: mark) }
            if shown.upperBound < rowCount || moreBelow {
                buffer.put(glyphs.moreBelow, x: area.maxX - 1, y: area.maxY, style: mark)
            }
        }
        return shown
    }

    /// `text` cut to `width` with `…` (`...` in ASCII); trailing text is padded on the left to
    /// end at the edge. Leading text is not padded, so a cell's own style covers its text only.
    static func aligned(
        _ text: String, width: Int, _ alignment: TableColumn.Alignment, _ glyphs: Glyphs = .unicode
    ) -> String {
        let shown = glyphs.truncate(text, to: width)
        guard alignment == .trailing else { return shown }
        return String(repeating: " ", count: max(0, width - DisplayWidth.of(shown))) + shown
    }
}
