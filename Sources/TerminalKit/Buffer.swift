/// One terminal cell: a grapheme and its style.
///
/// A wide grapheme occupies two cells: the left one holds it, the right one is a
/// *continuation* (empty `symbol`) that backends skip.
public struct Cell: Hashable, Sendable {
    public var symbol: String
    public var style: Style

    public init(_ symbol: String = " ", style: Style = .normal) {
        self.symbol = symbol
        self.style = style
    }

    public static let blank = Cell()
    public var isContinuation: Bool { symbol.isEmpty }
}

/// A changed cell, as found by ``Buffer/diff(from:)``.
public struct CellChange: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cell: Cell
}

/// A width × height grid of cells: the virtual screen every widget renders into.
///
/// Screens render into a fresh buffer each frame; the program diffs it against the previous
/// frame and hands only the changed cells to the backend. Because the buffer *is* the screen,
/// every screen is testable as text at any size, with no terminal. Value type: not shared.
public struct Buffer: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown after drawing (nil: hidden).
    public var cursor: (x: Int, y: Int)? {
        get { cursorX.map { ($0, cursorY) } }
        set {
            cursorX = newValue?.x
            cursorY = newValue?.y ?? 0
        }
    }
    private var cursorX: Int?
    private var cursorY = 0
    /// The symbols this frame's terminal can draw: widgets take their borders, marks and
    /// ellipsis from it, and ``put(_:x:y:style:maxWidth:clip:)`` writes any other symbol in
    /// its ASCII form when only ASCII can be drawn.
    public var glyphs: Glyphs

    public init(width: Int, height: Int, filling cell: Cell = .blank, glyphs: Glyphs = .unicode) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: cell, count: self.width * self.height)
        self.glyphs = glyphs
    }

    public init(size: TerminalSize, glyphs: Glyphs = .unicode) {
        self.init(width: size.width, height: size.height, glyphs: glyphs)
    }

    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .blank }
            return cells[y * width + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// Writes `text` from (`x`, `y`), clipped to `clip` (default: the whole buffer), and cut to
    /// `maxWidth` columns with an ellipsis (``Glyphs/ellipsis``). A wide character that would cross the edge is drawn as a space,
    /// never split. Control characters are drawn as spaces. With ASCII ``glyphs`` every symbol
    /// is written in its ASCII form (``Glyphs/callAsFunction(_:)``); text measured for layout
    /// should be passed through `glyphs` first, as those forms may be wider.
    ///
    /// - Returns: the number of columns written.
    @discardableResult
    public mutating func put(
        _ text: String, x: Int, y: Int, style: Style = .normal, maxWidth: Int? = nil, clip: Rect? = nil
    ) -> Int {
        let bounds = (clip ?? area).intersection(area)
        guard y >= bounds.y, y < bounds.maxY else { return 0 }
        var text = glyphs(text)
        // Text cut to the room it was given ends in an ellipsis, so a cut never looks whole;
        // the clip rectangle only hides what falls outside it (a panel drawn over another).
        if let maxWidth, maxWidth > 0, DisplayWidth.of(text) > maxWidth { text = glyphs.truncate(text, to: maxWidth) }
        var limit = bounds.maxX
        if let maxWidth { limit = min(limit, x + maxWidth) }
        var column = x
        for character in text {
            if column >= limit { break }
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if column + w > limit || (column < bounds.x && column + w > bounds.x) {
                // Half of this character would be clipped: draw the visible half as spaces.
                for blank in column..<min(column + w, limit) where blank >= bounds.x {
                    setCell(x: blank, y: y, Cell(" ", style: style))
                }
                column += w
                if column >= limit { break }
                continue
            }
            if column >= bounds.x {
                let symbol = Buffer.isControl(character) ? " " : String(character)
                setCell(x: column, y: y, Cell(symbol, style: style))
                if w == 2 { setCell(x: column + 1, y: y, Cell("", style: style)) }
            }
            column += w
        }
        return column - x
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            for column in r.x..<r.maxX { setCell(x: column, y: row, cell) }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the text.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            for column in r.x..<r.maxX { cells[row * width + column].style = style }
        }
    }

    /// Copies another buffer's cells into this one at (`x`, `y`).
    public mutating func blit(_ other: Buffer, x: Int, y: Int) {
        for row in 0..<other.height {
            for column in 0..<other.width { self[x + column, y + row] = other[column, row] }
        }
    }

    /// The text of each row, continuation cells skipped, trailing spaces removed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                let cell = cells[row * width + column]
                if !cell.isContinuation { line += cell.symbol }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole screen as one string, rows joined with newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// One letter per cell naming its role (see ``Role/letter``), for snapshots of meaning.
    public var roleLines: [String] {
        (0..<height).map { row in
            String((0..<width).map { cells[row * width + $0].style.role.letter })
        }
    }

    /// The cells that differ from `previous`; every cell when the sizes differ.
    public func diff(from previous: Buffer) -> [CellChange] {
        var changes: [CellChange] = []
        if previous.width != width || previous.height != height {
            changes.reserveCapacity(cells.count)
            for index in cells.indices where !cells[index].isContinuation {
                changes.append(CellChange(x: index % width, y: index / width, cell: cells[index]))
            }
            return changes
        }
        var index = 0
        let count = cells.count
        while index < count {
            let cell = cells[index]
            if cell != previous.cells[index] {
                if cell.isContinuation {
                    // The wide cell on its left carries it; make sure that one is re-sent.
                    if index > 0, cells[index - 1] == previous.cells[index - 1], index % width != 0 {
                        changes.append(CellChange(x: (index - 1) % width, y: index / width, cell: cells[index - 1]))
                    }
                } else {
                    changes.append(CellChange(x: index % width, y: index / width, cell: cell))
                }
            }
            index += 1
        }
        return changes
    }

    public static func == (lhs: Buffer, rhs: Buffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursorX == rhs.cursorX && lhs.cursorY == rhs.cursorY && lhs.glyphs == rhs.glyphs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
    }

    /// Sets one cell, repairing any wide character it cuts in half.
    ///
    /// A continuation written by ``put`` always follows its wide cell, so only a plain cell
    /// landing on an old continuation orphans the wide cell on its left; any cell landing on
    /// an old wide cell orphans that cell's continuation on the right.
    private mutating func setCell(x: Int, y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        if old.isContinuation, x > 0, !cell.isContinuation {
            cells[index - 1].symbol = " "
        }
        if !old.isContinuation, DisplayWidth.of(old.symbol) == 2, x + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1].symbol = " "
        }
        cells[index] = cell
    }

    /// C0 and C1 control characters and DEL: never sent to the terminal, drawn as spaces.
    private static func isControl(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F }
        return character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
