import Testing

@testable import TerminalKit

@Suite struct TableTests {
    static let columns = [
        TableColumn("Name", width: .length(6)),
        TableColumn("N", width: .length(3), alignment: .trailing),
        TableColumn("Note", width: .fill()),
    ]

    /// Row `i` of a table: "row<i>", i, and a note that is a warning after the first row.
    static func cells(_ index: Int) -> [TableCell] {
        [TableCell("row\(index)"), TableCell(String(index)), TableCell("n", style: index > 0 ? Style(.warning) : nil)]
    }

    /// The table drawn in a panel `height` lines tall (the table gets `height - 2`).
    static func draw(_ table: Table, width: Int = 22, height: Int) -> Buffer {
        var buffer = Buffer(width: width, height: height)
        let inner = Panel(focused: true).render(into: &buffer, area: buffer.area)
        table.render(into: &buffer, area: inner, cells: cells)
        return buffer
    }

    @Test func headerMarkerAndSelectionFill() {
        let table = Table(columns: Self.columns, rowCount: 3, selected: 1)
        let buffer = Self.draw(table, height: 6)
        expectLines(
            buffer.lines,
            lines(
                """
                ┌────────────────────┐
                │  Name      N  Note │
                │  row0      0  n    │
                │› row1      1  n    │
                │  row2      2  n    │
                └────────────────────┘
                """))
        expectLines(
            buffer.roleLines,
            lines(
                """
                BBBBBBBBBBBBBBBBBBBBBB
                B..HHHH....HHH..HHHH.B
                B....................B
                BSSSSSSSSSSSSSSSSSSSSB
                B...............w....B
                BBBBBBBBBBBBBBBBBBBBBB
                """))
        #expect(buffer[1, 3].style == Style(.selection, .bold))
        #expect(buffer[3, 3].style == Style(.selection))
        #expect(buffer[1, 2].style == Style(.normal, .bold))
    }

    @Test func unfocusedTableKeepsTheMarkerWithoutTheBar() {
        let table = Table(columns: Self.columns, rowCount: 3, selected: 1, focused: false)
        let buffer = Self.draw(table, height: 6)
        #expect(buffer.lines[3] == "│› row1      1  n    │")
        #expect(buffer.roleLines[3] == "B...............w....B")
        #expect(buffer[1, 3].style == Style(.normal, .bold))
    }

    @Test func noSelectionNoMarker() {
        let buffer = Self.draw(Table(columns: Self.columns, rowCount: 2), height: 5)
        #expect(!buffer.text.contains("›"))
        #expect(!buffer.roleLines.joined().contains("S"))
    }

    /// 10 rows, 4 lines for them: the window follows the selection and ▲/▼ say what is hidden.
    @Test(arguments: [
        (0, 0..<4, false, true),
        (3, 0..<4, false, true),
        (4, 1..<5, true, true),
        (6, 3..<7, true, true),
        (9, 6..<10, true, false),
    ])
    func scrollWindowKeepsTheSelectionInView(_ selected: Int, _ want: Range<Int>, _ up: Bool, _ down: Bool) {
        let table = Table(columns: Self.columns, rowCount: 10, selected: selected)
        var buffer = Buffer(width: 22, height: 7)
        let inner = Panel(focused: true).render(into: &buffer, area: buffer.area)
        let shown = table.render(into: &buffer, area: inner, cells: Self.cells)
        #expect(shown == want)
        #expect(table.firstShown(in: inner) == want.lowerBound)
        let rows = buffer.lines[2...5].map { String($0.dropFirst(3).prefix(5)) }
        #expect(rows == want.map { "row\($0)".padding(5) })
        #expect(buffer.lines[selected - want.lowerBound + 2].hasPrefix("│› row\(selected) "))
        #expect(buffer[20, 0].symbol == (up ? "▲" : "─"))
        #expect(buffer[20, 6].symbol == (down ? "▼" : "─"))
    }

    @Test func moreBelowShowsTheDownMarkWhenTheLastRowIsInView() {
        var table = Table(columns: Self.columns, rowCount: 2, selected: 0)
        #expect(Self.draw(table, height: 6).lines[5] == "└────────────────────┘")
        table.moreBelow = true
        #expect(Self.draw(table, height: 6).lines[5] == "└───────────────────▼┘")
        table.scrollMarks = false
        table.rowCount = 10
        #expect(Self.draw(table, height: 6).lines[5] == "└────────────────────┘")
    }

    @Test func emptyTableShowsItsTextMutedUnderTheHeader() {
        let table = Table(columns: Self.columns, rowCount: 0, selected: 0, emptyText: "no accounts", moreBelow: true)
        var asked = 0
        var buffer = Buffer(width: 22, height: 5)
        let inner = Panel(focused: true).render(into: &buffer, area: buffer.area)
        let shown = table.render(into: &buffer, area: inner) { index in
            asked += 1
            return Self.cells(index)
        }
        #expect(shown.isEmpty)
        #expect(asked == 0)
        expectLines(
            buffer.lines,
            lines(
                """
                ┌────────────────────┐
                │  Name      N  Note │
                │  no accounts       │
                │                    │
                └────────────────────┘
                """))
        #expect(buffer.roleLines[2] == "B..mmmmmmmmmmm.......B")
    }

    @Test func longCellsAreCutWithAnEllipsis() {
        let columns = [
            TableColumn("Identifier", width: .length(5)),
            TableColumn("Count", width: .length(4), alignment: .trailing),
        ]
        var buffer = Buffer(width: 15, height: 3)
        Table(columns: columns, rowCount: 2, selected: 0).render(into: &buffer, area: buffer.area) { index in
            index == 0 ? ["abcdefgh", "123456"] : ["abcde", "12"]
        }
        expectLines(
            buffer.lines,
            lines(
                """
                  Iden…  Cou…
                › abcd…  123…
                  abcde    12
                """))
    }

    @Test func wideCharactersAreNeverSplit() {
        let columns = [
            TableColumn("都市", width: .length(5)),
            TableColumn("区", width: .length(4)),
            TableColumn("人", width: .length(3), alignment: .trailing),
        ]
        var buffer = Buffer(width: 20, height: 3)
        Table(columns: columns, rowCount: 2).render(into: &buffer, area: buffer.area) { index in
            index == 0 ? ["東京都", "渋谷区", "人口"] : ["大阪", "北区", "東"]
        }
        expectLines(
            buffer.lines,
            lines(
                """
                  都市   区     人
                  東京…  渋…   人…
                  大阪   北区   東
                """))
        // "東京…" is 5 columns: the wide characters keep both cells; "渋…" leaves the 4th blank.
        #expect(buffer[2, 1].symbol == "東" && buffer[3, 1].isContinuation)
        #expect(buffer[6, 1].symbol == "…")
        #expect(buffer[11, 1].symbol == "…" && buffer[12, 1].symbol == " ")
        #expect(DisplayWidth.of(buffer.lines[1]) == 18)
    }

    @Test func titleSuffixIsKeptWhenTheTitleIsCut() {
        let columns = [
            TableColumn("Created by", width: .length(8), titleSuffix: " ▲"),
            TableColumn("Failed", width: .length(8), alignment: .trailing, titleSuffix: " ▼"),
        ]
        var buffer = Buffer(width: 22, height: 1)
        Table(columns: columns, rowCount: 0).render(into: &buffer, area: buffer.area) { _ in [] }
        #expect(buffer.lines == ["  Creat… ▲  Failed ▼"])
    }

    @Test func flexibleColumnsShareWhatTheFixedOnesLeave() {
        let columns = [
            TableColumn("A", width: .length(4)),
            TableColumn("B", width: .fill(1)),
            TableColumn("C", width: .fill(2)),
        ]
        let table = Table(columns: columns, rowCount: 0)
        // 30 wide: 2 for the marker, 4 for A, 2 + 2 gaps; B and C share 20 as 1:2 (6 and 13, the
        // remainder to B).
        #expect(table.columnRects(in: Rect(x: 0, y: 0, width: 30, height: 5)).map(\.width) == [4, 7, 13])
        #expect(table.columnRects(in: Rect(x: 0, y: 0, width: 30, height: 5)).map(\.x) == [2, 8, 17])
    }

    /// Too narrow for every column: the later ones shrink (cut with `…`), then get no room at all.
    @Test(arguments: [
        (24, ["  Name      N  Note", "› row1      1  n"]),
        (15, ["  Name      N", "› row1      1"]),
        (13, ["  Name    N", "› row1    1"]),
        (12, ["  Name", "› row1"]),
        (9, ["  Na…", "› ro…"]),
        (2, ["", "›"]),
        (1, ["", "›"]),
    ])
    func narrowAreasDropTheLastColumnsFirst(_ width: Int, _ want: [String]) {
        let columns = [
            TableColumn("Name", width: .length(6)),
            TableColumn("N", width: .length(3), alignment: .trailing),
            TableColumn("Note", width: .min(4)),
        ]
        var buffer = Buffer(width: width, height: 2)
        Table(columns: columns, rowCount: 3, selected: 1).render(into: &buffer, area: buffer.area) { index in
            #expect(index == 1)
            return Self.cells(index)
        }
        expectLines(buffer.lines, want)
    }

    @Test func onlyTheRowsInViewAreAsked() {
        let table = Table(columns: Self.columns, rowCount: 100_000, selected: 54_321)
        var asked: [Int] = []
        var buffer = Buffer(width: 30, height: 22)
        let inner = Panel(focused: true).render(into: &buffer, area: buffer.area)
        let shown = table.render(into: &buffer, area: inner) { index in
            asked.append(index)
            return Self.cells(index)
        }
        #expect(asked.count == 19)
        #expect(asked == Array(54_303...54_321))
        #expect(shown == 54_303..<54_322)
        #expect(buffer.lines[20].hasPrefix("│› row54…"))
    }

    @Test func rowAtMapsScreenLinesBackToRows() {
        let table = Table(columns: Self.columns, rowCount: 10, selected: 6)
        let area = Rect(x: 1, y: 1, width: 20, height: 5)
        // Lines 2…5 show rows 3…6; line 1 is the header.
        #expect(table.row(at: 1, in: area) == nil)
        #expect(table.row(at: 2, in: area) == 3)
        #expect(table.row(at: 5, in: area) == 6)
        #expect(table.row(at: 6, in: area) == nil)
        let short = Table(columns: Self.columns, rowCount: 2, selected: 0)
        #expect(short.row(at: 3, in: area) == 1)
        #expect(short.row(at: 4, in: area) == nil)
    }

    @Test(arguments: [Rect(x: 0, y: 0, width: 0, height: 3), Rect(x: 0, y: 0, width: 10, height: 0)])
    func emptyAreasDrawNothingAndAskNothing(_ area: Rect) {
        var buffer = Buffer(width: 10, height: 3)
        let shown = Table(columns: Self.columns, rowCount: 5, selected: 0).render(into: &buffer, area: area) { _ in
            Issue.record("asked for a row")
            return []
        }
        #expect(shown.isEmpty)
        #expect(buffer == Buffer(width: 10, height: 3))
    }

    @Test func headerOnlyAreaShowsTheHeaderAndTheDownMark() {
        var buffer = Buffer(width: 12, height: 3)
        let inner = Panel(focused: true).render(into: &buffer, area: buffer.area)
        let shown = Table(columns: Self.columns, rowCount: 5, selected: 2).render(into: &buffer, area: inner) { _ in
            Issue.record("asked for a row")
            return []
        }
        #expect(shown.isEmpty)
        #expect(buffer.lines == ["┌──────────┐", "│  Name    │", "└─────────▼┘"])
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
