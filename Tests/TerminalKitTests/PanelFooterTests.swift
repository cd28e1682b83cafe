import Testing

@testable import TerminalKit

@Suite struct PanelTests {
    @Test func plainPanelWithTitle() {
        var buffer = Buffer(width: 14, height: 4)
        let inner = Panel(title: "Keys", focused: true).render(into: &buffer, area: buffer.area)
        #expect(inner == Rect(x: 1, y: 1, width: 12, height: 2))
        expectLines(
            buffer.lines,
            lines(
                """
                ┌─ Keys ─────┐
                │            │
                │            │
                └────────────┘
                """))
        expectLines(
            buffer.roleLines,
            [
                "BBBBBBBBBBBBBB",
                "B............B",
                "B............B",
                "BBBBBBBBBBBBBB",
            ])
        #expect(buffer[3, 0].style.attributes.contains(.bold))
    }

    @Test func roundedUnfocusedPanelTruncatesItsTitle() {
        var buffer = Buffer(width: 10, height: 3)
        Panel(title: "Upload monitor", borderStyle: .rounded).render(into: &buffer, area: buffer.area)
        expectLines(
            buffer.lines,
            lines(
                """
                ╭─ Uplo… ╮
                │        │
                ╰────────╯
                """))
        #expect(buffer.roleLines[1] == "b........b")
    }

    @Test(arguments: [
        Rect(x: 0, y: 0, width: 1, height: 5), Rect(x: 0, y: 0, width: 5, height: 1),
        Rect(x: 0, y: 0, width: 0, height: 0),
    ])
    func tinyAreasDrawNothing(_ area: Rect) {
        var buffer = Buffer(width: 5, height: 5)
        let inner = Panel(title: "X").render(into: &buffer, area: area)
        #expect(inner.isEmpty)
        #expect(buffer == Buffer(width: 5, height: 5))
    }
}

@Suite struct FooterTests {
    static let hints: [(keys: String, help: String)] = [("q", "Quit"), ("?", "Help"), ("Enter", "Confirm")]

    @Test func hintsWithStatus() {
        var buffer = Buffer(width: 40, height: 1)
        let rects = Footer.render(Self.hints, status: "● online", into: &buffer, area: buffer.area)
        expectLines(buffer.lines, ["q Quit  ? Help  Enter Confirm   ● online"])
        expectLines(buffer.roleLines, ["KkkkkkkkKkkkkkkkKKKKKkkkkkkkkkkkkkkkkkkk"])
        #expect(rects.map(\.x) == [0, 8, 16])
        #expect(rects.map(\.width) == [6, 6, 13])
    }

    @Test(arguments: [
        (29, "", "q Quit  ? Help  Enter Confirm"),
        (28, "", "q Quit  ? Help"),
        (14, "", "q Quit  ? Help"),
        (13, "", "q Quit"),
        (5, "", ""),
        (24, "ok", "q Quit  ? Help        ok"),
        (17, "ok", "q Quit         ok"),
        (8, "offline since 12:00", "offline…"),
    ])
    func narrowWidthsDropWholeHints(_ width: Int, _ status: String, _ want: String) {
        var buffer = Buffer(width: width, height: 1)
        Footer.render(Self.hints, status: status, into: &buffer, area: buffer.area)
        expectLines(buffer.lines, [want])
    }
}
