import Testing

@testable import TerminalKit

@Suite struct HelpOverlayTests {
    enum Action: Hashable { case quit, help, up, down, pick }

    static let keyMap = KeyMap<Action>([
        Binding([.up, .char("k")], .up, help: "Up"),
        Binding([.down, .char("j")], .down, help: "Down"),
        Binding([.enter], .pick, help: "Open"),
        Binding([.char("q"), .escape], .quit, help: "Back", group: "global"),
        Binding([.char("?")], .help, help: "Help", group: "global"),
    ])

    @Test func rendersSectionsFromAKeyMap() {
        var buffer = Buffer(width: 24, height: 11)
        HelpOverlayState(keyMap: Self.keyMap).render(into: &buffer, area: buffer.area)
        expectLines(
            buffer.lines,
            lines(
                """
                    ┌─ Help ──────┐
                    │ this screen │
                    │ ↑/k    Up   │
                    │ ↓/j    Down │
                    │ Enter  Open │
                    │             │
                    │ global      │
                    │ q/Esc  Back │
                    │ ?      Help │
                    └─────────────┘

                """))
        #expect(buffer.roleLines[1] == "....B.HHHHHHHHHHH.B.....")
        #expect(buffer.roleLines[2] == "....B.aaa.........B.....")
        #expect(buffer.roleLines[5] == "....B.............B.....")
    }

    @Test func scrollsWhenTallerThanTheArea() {
        var help = HelpOverlayState(keyMap: Self.keyMap)
        let area = Rect(x: 0, y: 0, width: 24, height: 5)
        #expect(help.handle(.up, area: area) == .unchanged)
        #expect(help.handle(.down, area: area) == .scrolled)
        #expect(help.scroll == 1)
        #expect(help.handle(.pageDown, area: area) == .scrolled)
        #expect(help.scroll == 4)
        #expect(help.handle(.end, area: area) == .scrolled)
        #expect(help.scroll == 5)
        #expect(help.handle(.down, area: area) == .unchanged)
        var buffer = Buffer(width: 24, height: 5)
        help.render(into: &buffer, area: area)
        expectLines(
            buffer.lines,
            lines(
                """
                    ┌─ Help ─────▲┐
                    │ global      │
                    │ q/Esc  Back │
                    │ ?      Help │
                    └─────────────┘
                """))
        #expect(help.handle(.home, area: area) == .scrolled)
        help.render(into: &buffer, area: area)
        #expect(buffer.lines[0] == "    ┌─ Help ──────┐")
        #expect(buffer.lines[4] == "    └────────────▼┘")
    }

    @Test(arguments: [Key.escape, .char("?"), .char("q")])
    func closes(_ key: Key) {
        var help = HelpOverlayState(keyMap: Self.keyMap)
        #expect(help.handle(key, area: Rect(x: 0, y: 0, width: 80, height: 24)) == .closed)
    }

    @Test func otherKeysAreNotHandled() {
        var help = HelpOverlayState(keyMap: Self.keyMap)
        #expect(help.handle(.char("x"), area: Rect(x: 0, y: 0, width: 80, height: 24)) == .notHandled)
    }
}
