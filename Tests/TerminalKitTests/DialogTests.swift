import Testing

@testable import TerminalKit

@Suite struct DialogTests {
    static let confirm = DialogState.confirm(
        title: "Authorise upload", message: "Authorise the upload for code 9K2-RAY8-UUQ with onset 2026-11-24?",
        confirm: "Authorise")

    @Test(arguments: [
        ([Key.enter], DialogOutcome.chosen(1)),
        ([.left, .enter], .chosen(0)),
        ([.left], .changed),
        ([.right], .unchanged),
        ([.tab], .changed),
        ([.tab, .tab, .enter], .chosen(1)),
        ([.backTab, .enter], .chosen(0)),
        ([.char("y")], .chosen(0)),
        ([.char("Y")], .chosen(0)),
        ([.char("n")], .chosen(1)),
        ([.escape], .cancelled),
        ([.char("x")], .notHandled),
        ([.ctrl("c")], .notHandled),
    ])
    func keys(_ keys: [Key], _ want: DialogOutcome) {
        var dialog = Self.confirm
        var last = DialogOutcome.notHandled
        for key in keys { last = dialog.handle(key) }
        #expect(last == want)
    }

    @Test func confirmStartsOnTheSafeChoice() {
        #expect(Self.confirm.selected == 1)
    }

    @Test func keyMapOffersShortcutsInHelp() {
        let rows = Self.confirm.keyMap.helpSections.flatMap(\.rows)
        #expect(rows.contains { $0.keys == "y/Y" && $0.help == "Authorise" })
        #expect(Self.confirm.keyMap.footerHints.map(\.keys) == ["Enter", "Esc"])
    }

    @Test func rendersCentredOverTheScreenWithShadow() {
        var buffer = Buffer(width: 40, height: 11, filling: Cell("·"))
        let box = Self.confirm.render(into: &buffer, area: buffer.area)
        #expect(box == Rect(x: 0, y: 1, width: 39, height: 7))
        expectLines(
            buffer.lines,
            lines(
                """
                ········································
                ┌─ Authorise upload ──────────────────┐·
                │                                     │·
                │ Authorise the upload for code       │·
                │ 9K2-RAY8-UUQ with onset 2026-11-24? │·
                │                                     │·
                │        [Authorise]  [Cancel]        │·
                └─────────────────────────────────────┘·
                ········································
                ········································
                ········································
                """))
        expectLines(
            buffer.roleLines,
            lines(
                """
                ........................................
                BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.
                B.....................................Bs
                B.....................................Bs
                B.....................................Bs
                B.....................................Bs
                B.....................SSSSSSSS........Bs
                BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBs
                .sssssssssssssssssssssssssssssssssssssss
                ........................................
                ........................................
                """))
    }

    @Test func tinyScreenKeepsTheButtons() {
        var buffer = Buffer(width: 20, height: 5)
        Self.confirm.render(into: &buffer, area: buffer.area)
        #expect(buffer.lines[2].contains("[Authorise]"))
        var nothing = Buffer(width: 1, height: 1)
        Self.confirm.render(into: &nothing, area: nothing.area)
    }
}
