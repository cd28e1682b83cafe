import TerminalKit
import Testing

@Suite("Command palette")
struct CommandPaletteTests {
    static let entries = [
        PaletteEntry(name: "export", keys: "e", help: "Export the table as CSV", key: .char("e")),
        PaletteEntry(name: "filter", keys: "/", help: "Filter", key: .char("/")),
        PaletteEntry(name: "authorise", keys: "F2/U", help: "Authorise", key: .function(2)),
        PaletteEntry(name: "monitor", keys: "F3/M", help: "Monitor", key: .function(3)),
        PaletteEntry(name: "signout", keys: "^O/F12", help: "Sign out", key: .ctrl("o")),
        PaletteEntry(name: "quit", aliases: ["q"], keys: "^C", help: "Quit (signs out)", key: .ctrl("c")),
        PaletteEntry(name: "help", keys: "?/F1", help: "Help", key: .char("?")),
        PaletteEntry(name: "redraw", keys: "^L", help: "Redraw the screen", key: .ctrl("l")),
        PaletteEntry(name: "suspend", keys: "^Z", help: "Suspend to the shell", key: .ctrl("z")),
    ]

    static func typed(_ text: String) -> CommandPaletteState {
        var palette = CommandPaletteState(entries: entries)
        for character in text { _ = palette.handle(.char(character)) }
        return palette
    }

    @Test("empty: every entry in order; typing filters by subsequence")
    func filtering() {
        #expect(Self.typed("").matches.map(\.name) == Self.entries.map(\.name))
        #expect(Self.typed("mon").matches.map(\.name) == ["monitor"])
        #expect(Self.typed("xyz").matches.isEmpty)
        #expect(Self.typed("sgt").matches.map(\.name).contains("signout"), "s…g…(ou)t in order")
        #expect(!Self.typed("tuo").matches.map(\.name).contains("signout"), "letters out of order do not match")
    }

    @Test("a prefix beats a match inside; an exact name or alias comes first")
    func ranking() {
        #expect(Self.typed("s").matches.first?.name == "signout" || Self.typed("s").matches.first?.name == "suspend")
        #expect(Self.typed("su").matches.first?.name == "suspend")
        #expect(Self.typed("re").matches.first?.name == "redraw")
        #expect(Self.typed("q").matches.first?.name == "quit", "the alias q")
        #expect(Self.typed("e").matches.first?.name == "export")
        #expect(Self.typed(":monitor").matches.first?.name == "monitor", "a leading colon is ignored")
        // Words of the help count, for less: "csv" finds the export.
        #expect(Self.typed("csv").matches.first?.name == "export")
    }

    @Test("Enter runs the selected entry; arrows and ^N/^P move; Esc closes; Backspace on empty closes")
    func running() {
        var palette = Self.typed("mon")
        #expect(palette.handle(.enter) == .run(Self.entries[3]))
        palette = Self.typed("")
        #expect(palette.handle(.down) == .changed)
        #expect(palette.handle(.ctrl("n")) == .changed)
        #expect(palette.selectedEntry?.name == "authorise")
        #expect(palette.handle(.ctrl("p")) == .changed)
        #expect(palette.handle(.up) == .changed)
        #expect(palette.handle(.up) == .unchanged, "stops at the top")
        #expect(palette.handle(.enter) == .run(Self.entries[0]))
        #expect(Self.typed("mon").selectedEntry?.name == "monitor")
        var typing = Self.typed("mo")
        _ = typing.handle(.down)
        _ = typing.handle(.char("n"))
        #expect(typing.selected == 0, "typing goes back to the best match")
        var closing = Self.typed("mon")
        #expect(closing.handle(.escape) == .closed)
        var empty = Self.typed("")
        #expect(empty.handle(.backspace) == .closed)
        var nothing = Self.typed("xyz")
        #expect(nothing.handle(.enter) == .closed, "Enter with nothing matching runs nothing")
    }

    @Test("drawn as a panel: prompt, rule, rows; no match says so; ASCII under LANG=C")
    func render() {
        for ascii in [false, true] {
            var buffer = Buffer(width: 80, height: 24, glyphs: Glyphs(ascii: ascii))
            Self.typed("mo").render(into: &buffer, area: buffer.area)
            let text = buffer.lines.joined(separator: "\n")
            #expect(text.contains(":mo"))
            #expect(text.contains("monitor"))
            #expect(text.contains("F3/M"))
            #expect(!text.contains("export"))
            #expect(buffer.cursor != nil)
            if ascii { #expect(text.allSatisfy { $0.isASCII }) }
            var none = Buffer(width: 80, height: 24, glyphs: Glyphs(ascii: ascii))
            Self.typed("xyz").render(into: &none, area: none.area)
            #expect(none.lines.joined().contains("no command matches"))
        }
    }
}
