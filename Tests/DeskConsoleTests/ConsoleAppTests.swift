import DeskConsole
import DeskCore
import Foundation
import TerminalKit
import Testing

@Suite("Console frame")
struct ConsoleAppTests {
    @Test("? opens help listing the keys of the current context; Esc closes it")
    func help() throws {
        var app = Fixture.app()
        _ = Fixture.press(.char("?"), into: &app)
        let help = try #require(app.help)
        let rows = help.sections.flatMap(\.rows).map(\.help)
        #expect(rows.contains("Review"))
        #expect(rows.contains("Yesterday"))
        #expect(rows.contains("Quit"))
        _ = Fixture.press(.escape, into: &app)
        #expect(app.help == nil)
        #expect(app.authorize.code.text.isEmpty, "keys for help never reach the form")
    }

    @Test("mouse: a click on the onset field or the calendar focuses the date; on the code field, the code")
    func mouseFocus() {
        var app = Fixture.app()
        let regions = AuthorizeScreen.regions(in: Rect(x: 0, y: 1, width: 80, height: 22))
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: regions.onsetField.x, y: regions.onsetField.y)))
        #expect(app.authorize.focus == .onset)
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: regions.codeField.x + 1, y: regions.codeField.y)))
        #expect(app.authorize.focus == .code)
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: regions.calendar.x + 3, y: regions.calendar.y + 4)))
        #expect(app.authorize.focus == .onset)
    }

    @Test("resizing below the minimum and back keeps the form")
    func resize() {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = ConsoleApp.update(&app, .resized(TerminalSize(width: 60, height: 20)))
        #expect(app.isTooSmall)
        #expect(Fixture.render(app).text.contains("terminal too small: have 60×20, need 80×24"))
        _ = ConsoleApp.update(&app, .resized(TerminalSize(width: 100, height: 30)))
        #expect(!app.isTooSmall)
        #expect(app.authorize.code.text == "9K2RA")
    }

    @Test("the cursor sits in the focused field while editing and is hidden otherwise")
    func cursor() {
        var app = Fixture.app()
        Fixture.type("9K2R", into: &app)
        let regions = AuthorizeScreen.regions(in: Rect(x: 0, y: 1, width: 80, height: 22))
        let buffer = Fixture.render(app)
        #expect(buffer.cursor?.y == regions.codeField.y)
        #expect(buffer.cursor?.x == regions.codeField.x + 5, "9K2-R: five columns")
        _ = Fixture.press(.char("?"), into: &app)
        #expect(Fixture.render(app).cursor == nil)
    }

    @Test("the title keeps the end of a long store path")
    func titlePath() {
        #expect(ConsoleApp.leftTruncate("/a/very/long/path/tracedesk.sqlite", to: 20) == "…th/tracedesk.sqlite")
        #expect(ConsoleApp.leftTruncate("short", to: 20) == "short")
    }
}
