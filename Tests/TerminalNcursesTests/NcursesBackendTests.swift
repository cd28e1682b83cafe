@preconcurrency import CNcursesw
import Foundation
import TerminalKit
import TerminalNcurses
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The real ncurses backend, headless: curses runs on a pipe and `/dev/null` (see ``NcursesHarness``).
///
/// Serialized, and one suite for the whole target: ncurses has one current screen per process.
@Suite(.serialized)
struct NcursesBackendTests {

    // MARK: Drawing

    @Test func drawnBufferReadsBackAsItsLines() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("┌──────────┐", x: 0, y: 0)
        buffer.put("│ Case 42  │", x: 0, y: 1)
        buffer.put("└──────────┘", x: 0, y: 2)
        buffer.put("日本 ✓ done", x: 2, y: 4)
        buffer.put("ASCII text, punctuation: #$%&", x: 0, y: 9)
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        #expect(harness.rows == buffer.lines)
    }

    @Test func wideCharacterTakesTwoColumns() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("日✓x", x: 3, y: 1)
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        #expect(harness.cell(x: 3, y: 1)?.text == "日")
        #expect(harness.cell(x: 5, y: 1)?.text == "✓")
        #expect(harness.cell(x: 6, y: 1)?.text == "x")
        #expect(harness.row(1) == "   日✓x")
    }

    @Test func laterFramesApplyOnlyTheDiff() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        var first = Buffer(width: 40, height: 10)
        first.put("日本語 stays", x: 0, y: 0)
        first.put("abcd", x: 0, y: 1)
        first.put("old text here", x: 5, y: 5)
        harness.backend.draw(first.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        var second = first
        second.put("ab", x: 0, y: 0)  // narrow over wide: 本 loses its left half
        second.put("日本", x: 0, y: 1)  // wide over narrow
        second.put("new", x: 5, y: 5)
        let changes = second.diff(from: first)
        #expect(changes.count < 40 * 10)
        harness.backend.draw(changes, cursor: (x: 2, y: 3))

        #expect(harness.rows == second.lines)
    }

    // MARK: Attributes and colours

    @Test func monochromeThemeUsesAttributesOnly() throws {
        let harness = try NcursesHarness(theme: .monochrome)
        defer { harness.finish() }
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("Title", x: 0, y: 0, style: Style(.title))
        buffer.put("plain", x: 0, y: 1)
        buffer.put("field", x: 0, y: 2, style: Style(.input))
        buffer.put("ok", x: 0, y: 3, style: Style(.ok))
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        let title = try #require(harness.cell(x: 0, y: 0))
        #expect(title.text == "T")
        #expect(title.attributes == nc_a_bold() | nc_a_reverse())
        #expect(title.pair == 0)
        #expect(harness.cell(x: 0, y: 1) == .init(text: "p", attributes: nc_a_normal(), pair: 0))
        #expect(harness.cell(x: 0, y: 2) == .init(text: "f", attributes: nc_a_underline(), pair: 0))
        #expect(harness.cell(x: 1, y: 3) == .init(text: "k", attributes: nc_a_bold(), pair: 0))
    }

    @Test func styleAttributesAddToTheRole() throws {
        let harness = try NcursesHarness(theme: .monochrome)
        defer { harness.finish() }
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("x", x: 0, y: 0, style: Style(.normal, [.underline, .dim]))
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        #expect(harness.cell(x: 0, y: 0)?.attributes == nc_a_underline() | nc_a_dim())
    }

    @Test func colouredThemeGivesRolesColourPairs() throws {
        let theme = try Self.shippedTheme("default")
        let harness = try NcursesHarness(theme: theme)
        defer { harness.finish() }
        #expect(has_colors())
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("✓ saved", x: 0, y: 0, style: Style(.ok))
        buffer.put("Title", x: 0, y: 1, style: Style(.title))
        buffer.put("plain", x: 0, y: 2)
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)

        let ok = try #require(harness.cell(x: 0, y: 0))
        #expect(ok.text == "✓")
        #expect(ok.attributes == nc_a_bold())
        #expect(ok.pair != 0)
        var foreground: Int16 = 0
        var background: Int16 = 0
        #expect(pair_content(ok.pair, &foreground, &background) == OK)
        #expect(foreground == Int16(COLOR_GREEN))
        #expect(background == -1)  // the terminal's own background

        let title = try #require(harness.cell(x: 0, y: 1))
        #expect(title.pair != 0 && title.pair != ok.pair)
        #expect(pair_content(title.pair, &foreground, &background) == OK)
        #expect(foreground == 15)  // bright-white
        #expect(background == Int16(COLOR_BLUE))

        #expect(harness.cell(x: 0, y: 2)?.pair == 0)
    }

    // MARK: Keys

    struct KeyCase: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: String
        var expected: [InputEvent]
        var mouse = false
        var testDescription: String { name }
    }

    /// Byte strings as an xterm (terminfo `xterm-256color`, keypad mode) sends them.
    static let keyCases: [KeyCase] = [
        KeyCase(name: "printable a", bytes: "a", expected: [.key(.char("a"))]),
        KeyCase(name: "space", bytes: " ", expected: [.key(.char(" "))]),
        KeyCase(name: "UTF-8 é", bytes: "é", expected: [.key(.char("é"))]),
        KeyCase(name: "wide 日", bytes: "日", expected: [.key(.char("日"))]),
        KeyCase(name: "several characters", bytes: "ok", expected: [.key(.char("o")), .key(.char("k"))]),
        KeyCase(name: "Enter (CR)", bytes: "\r", expected: [.key(.enter)]),
        KeyCase(name: "Enter (LF)", bytes: "\n", expected: [.key(.enter)]),
        KeyCase(name: "keypad Enter", bytes: "\u{1b}OM", expected: [.key(.enter)]),
        KeyCase(name: "Tab", bytes: "\t", expected: [.key(.tab)]),
        KeyCase(name: "Backspace (DEL)", bytes: "\u{7f}", expected: [.key(.backspace)]),
        KeyCase(name: "Backspace (^H)", bytes: "\u{08}", expected: [.key(.backspace)]),
        KeyCase(name: "lone Esc", bytes: "\u{1b}", expected: [.key(.escape)]),
        KeyCase(name: "Ctrl-C", bytes: "\u{03}", expected: [.key(.ctrl("c"))]),
        KeyCase(name: "Ctrl-A", bytes: "\u{01}", expected: [.key(.ctrl("a"))]),
        KeyCase(name: "Ctrl-Z", bytes: "\u{1a}", expected: [.key(.ctrl("z"))]),
        KeyCase(name: "Up", bytes: "\u{1b}OA", expected: [.key(.up)]),
        KeyCase(name: "Down", bytes: "\u{1b}OB", expected: [.key(.down)]),
        KeyCase(name: "Right", bytes: "\u{1b}OC", expected: [.key(.right)]),
        KeyCase(name: "Left", bytes: "\u{1b}OD", expected: [.key(.left)]),
        KeyCase(name: "Home", bytes: "\u{1b}OH", expected: [.key(.home)]),
        KeyCase(name: "End", bytes: "\u{1b}OF", expected: [.key(.end)]),
        // Outside keypad mode (terminals that ignore smkx): not in terminfo, defined by the backend.
        KeyCase(name: "Up (CSI)", bytes: "\u{1b}[A", expected: [.key(.up)]),
        KeyCase(name: "Down (CSI)", bytes: "\u{1b}[B", expected: [.key(.down)]),
        KeyCase(name: "Right (CSI)", bytes: "\u{1b}[C", expected: [.key(.right)]),
        KeyCase(name: "Left (CSI)", bytes: "\u{1b}[D", expected: [.key(.left)]),
        KeyCase(name: "Home (CSI)", bytes: "\u{1b}[H", expected: [.key(.home)]),
        KeyCase(name: "End (CSI)", bytes: "\u{1b}[F", expected: [.key(.end)]),
        KeyCase(name: "Home (VT)", bytes: "\u{1b}[1~", expected: [.key(.home)]),
        KeyCase(name: "End (VT)", bytes: "\u{1b}[4~", expected: [.key(.end)]),
        KeyCase(name: "PgUp", bytes: "\u{1b}[5~", expected: [.key(.pageUp)]),
        KeyCase(name: "PgDn", bytes: "\u{1b}[6~", expected: [.key(.pageDown)]),
        KeyCase(name: "Insert", bytes: "\u{1b}[2~", expected: [.key(.insert)]),
        KeyCase(name: "Delete", bytes: "\u{1b}[3~", expected: [.key(.delete)]),
        KeyCase(name: "F1", bytes: "\u{1b}OP", expected: [.key(.function(1))]),
        KeyCase(name: "F5", bytes: "\u{1b}[15~", expected: [.key(.function(5))]),
        KeyCase(name: "F10", bytes: "\u{1b}[21~", expected: [.key(.function(10))]),
        KeyCase(name: "F12", bytes: "\u{1b}[24~", expected: [.key(.function(12))]),
        KeyCase(name: "Shift-Tab", bytes: "\u{1b}[Z", expected: [.key(.backTab)]),
        // Alt-x: ncurses has no meta key here, so it is Esc then x (screens see Esc first).
        KeyCase(name: "Esc x in one read", bytes: "\u{1b}x", expected: [.key(.escape), .key(.char("x"))]),
        KeyCase(
            name: "keys in one read", bytes: "x\u{1b}OA日", expected: [.key(.char("x")), .key(.up), .key(.char("日"))]),
        KeyCase(
            name: "SGR mouse press", bytes: "\u{1b}[<0;10;5M", expected: [.mouse(MouseEvent(.press, x: 9, y: 4))],
            mouse: true),
        KeyCase(
            name: "SGR press and release in one read (a click)", bytes: "\u{1b}[<0;10;5M\u{1b}[<0;10;5m",
            expected: [.mouse(MouseEvent(.press, x: 9, y: 4))], mouse: true),
        KeyCase(
            name: "SGR wheel up", bytes: "\u{1b}[<64;3;2M", expected: [.mouse(MouseEvent(.wheelUp, x: 2, y: 1))],
            mouse: true),
        KeyCase(
            name: "SGR wheel down", bytes: "\u{1b}[<65;3;2M", expected: [.mouse(MouseEvent(.wheelDown, x: 2, y: 1))],
            mouse: true),
    ]

    @Test(arguments: keyCases)
    func decodesKey(_ keyCase: KeyCase) throws {
        let harness = try NcursesHarness(mouse: keyCase.mouse)
        defer { harness.finish() }
        harness.type(keyCase.bytes)
        #expect(harness.events() == keyCase.expected)
    }

    @Test func terminfoKeyStringsAreTheOnesTested() throws {
        // The key cases above hard-code xterm's strings; make sure terminfo agrees.
        let harness = try NcursesHarness()
        defer { harness.finish() }
        let expected: [(capability: String, value: String)] = [
            ("kcuu1", "\u{1b}OA"), ("kcud1", "\u{1b}OB"), ("kcuf1", "\u{1b}OC"), ("kcub1", "\u{1b}OD"),
            ("khome", "\u{1b}OH"), ("kend", "\u{1b}OF"), ("kpp", "\u{1b}[5~"), ("knp", "\u{1b}[6~"),
            ("kich1", "\u{1b}[2~"), ("kdch1", "\u{1b}[3~"), ("kf1", "\u{1b}OP"), ("kf10", "\u{1b}[21~"),
            ("kcbt", "\u{1b}[Z"), ("kmous", "\u{1b}[<"),
        ]
        for (capability, value) in expected {
            let found = tigetstr(capability).flatMap { pointer -> String? in
                Int(bitPattern: pointer) <= 0 ? nil : String(cString: pointer)
            }
            #expect(found == value, "terminfo \(capability)")
        }
    }

    @Test func mousePressThenReleaseAreTwoEvents() throws {
        let harness = try NcursesHarness(mouse: true)
        defer { harness.finish() }
        harness.type("\u{1b}[<0;10;5M")
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 500) == .mouse(MouseEvent(.press, x: 9, y: 4)))
        harness.type("\u{1b}[<0;12;5m")
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 500) == .mouse(MouseEvent(.release, x: 11, y: 4)))
    }

    @Test func escapeThenLetterTypedLaterAreTwoKeys() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        harness.type("\u{1b}")
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 500) == .key(.escape))
        harness.type("q")
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 500) == .key(.char("q")))
    }

    @Test func lonelyEscapeArrivesAfterTheShortEscapeDelay() throws {
        // ncurses' own default (1000 ms), as a process that never ran the backend has it.
        _ = set_escdelay(1000)
        let harness = try NcursesHarness()
        defer { harness.finish() }
        // The delay ncurses waits after an Esc for the rest of a sequence, as the running screen
        // has it: the backend's 25 ms, not the default that makes Esc feel stuck. Read from
        // ncurses rather than timed, so a loaded machine cannot tell the two apart wrongly.
        #expect(get_escdelay() == 25, "ncurses' default ESCDELAY is 1000 ms; the backend sets 25")
        harness.type("\u{1b}")
        // A lone Esc is a key of its own once the delay has passed (the wait is only a cap).
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 60_000) == .key(.escape))
    }

    @Test func noInputTimesOutWithNil() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 60) == nil)
        // The wait asked for is the one ncurses was given (not timed: ncurses does the waiting).
        #expect(wgetdelay(nc_stdscr()) == 60)
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 0) == nil)
        #expect(wgetdelay(nc_stdscr()) == 0, "a zero wait only looks")
    }

    @Test func keyTypedDuringALongWaitEndsIt() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        // Typed from another thread, before or while the backend waits: either way the key is
        // the answer, and a wait that ignored input would end only at its cap, with nil.
        nonisolated(unsafe) let typing = harness
        let typist = Thread { typing.type("k") }
        typist.start()
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 60_000) == .key(.char("k")))
    }

    @Test func mouseSequenceWithoutMouseModeIsNotAClick() throws {
        let harness = try NcursesHarness(mouse: false)
        defer { harness.finish() }
        harness.type("\u{1b}[<0;10;5M")
        let events = harness.events()
        #expect(!events.contains { if case .mouse = $0 { return true } else { return false } })
    }

    // MARK: Size and resize

    @Test func startsAtTheGivenSize() throws {
        let harness = try NcursesHarness(size: TerminalSize(width: 72, height: 18))
        defer { harness.finish() }
        #expect(harness.backend.size == TerminalSize(width: 72, height: 18))
        #expect(nc_cols() == 72 && nc_lines() == 18)
        // Setting the starting size queues no resize event.
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 0) == nil)
    }

    @Test func resizeBecomesAnEventAndUpdatesTheSize() throws {
        let harness = try NcursesHarness()
        defer { harness.finish() }
        #expect(harness.backend.size == TerminalSize(width: 40, height: 10))
        resizeterm(30, 100)
        #expect(harness.backend.nextEvent(timeoutMilliseconds: 500) == .resize(TerminalSize(width: 100, height: 30)))
        #expect(harness.backend.size == TerminalSize(width: 100, height: 30))

        // The whole new area can be drawn.
        var buffer = Buffer(width: 100, height: 30)
        buffer.put("bottom right", x: 88, y: 29)
        harness.backend.invalidate()
        harness.backend.draw(buffer.diff(from: Buffer(width: 0, height: 0)), cursor: nil)
        #expect(harness.rows == buffer.lines)
    }

    // MARK: Lifecycle

    @Test func stopTwiceIsHarmless() throws {
        let harness = try NcursesHarness(mouse: true)
        harness.backend.stop()
        harness.backend.stop()
        harness.finish()
        // A new screen can start after the old one was freed.
        let next = try NcursesHarness()
        defer { next.finish() }
        #expect(next.backend.size == TerminalSize(width: 40, height: 10))
    }

    @Test func unknownTerminalTypeGivesNil() throws {
        let sink = open("/dev/null", O_RDWR)
        defer { close(sink) }
        let backend = NcursesBackend(
            options: .init(theme: .monochrome, mouse: false), terminalType: "no-such-terminal-type",
            input: sink, output: sink, size: TerminalSize(width: 10, height: 5))
        #expect(backend == nil)
    }

    @Test func testInitializerLeavesStderrAlone() throws {
        var before = stat()
        #expect(fstat(STDERR_FILENO, &before) == 0)
        let harness = try NcursesHarness()
        defer { harness.finish() }
        var during = stat()
        #expect(fstat(STDERR_FILENO, &during) == 0)
        #expect(before.st_ino == during.st_ino && before.st_dev == during.st_dev)
    }

    // MARK: Support

    static func shippedTheme(_ name: String) throws -> Theme {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("themes/\(name).json")
        let json = try String(contentsOf: file, encoding: .utf8)
        return try Theme.parse(json: json, name: name)
    }
}

@Suite("The locale's character set, when the C library has not the locale named")
struct LocaleFallbackTests {
    @Test(
        "UTF-8 is asked for by the first of LC_ALL, LC_CTYPE, LANG that is set",
        arguments: [
            (["LANG": "it_IT.UTF-8"], true),
            (["LANG": "it_IT.utf8"], true),
            (["LANG": "C"], false),
            ([:], false),
            (["LC_ALL": "C", "LANG": "it_IT.UTF-8"], false),
            (["LC_ALL": "", "LC_CTYPE": "de_DE.UTF-8", "LANG": "C"], true),
            (["LC_CTYPE": "en_US.ISO-8859-1", "LANG": "it_IT.UTF-8"], false),
        ])
    func asksForUTF8(_ environment: [String: String], _ expected: Bool) {
        #expect(NcursesBackend.asksForUTF8(environment) == expected)
    }
}
