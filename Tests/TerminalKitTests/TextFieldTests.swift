import Testing

@testable import TerminalKit

@Suite struct TextFieldTests {
    static let otpRule = CharacterRule(
        uppercase: true, ignored: [" ", "-"], allowed: Set("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"))

    /// Applies keys in order and returns the last edit.
    @discardableResult
    static func press(_ keys: [Key], on field: inout TextFieldState) -> TextFieldEdit {
        var last = TextFieldEdit.notHandled
        for key in keys { last = field.handle(key) }
        return last
    }

    static func chars(_ text: String) -> [Key] { text.map { Key.char($0) } }

    static let editingCases: [(String, Int, [Key], String, Int, TextFieldEdit)] = [
        // start text, start cursor, keys, text, cursor, last edit
        ("", 0, chars("abc"), "abc", 3, .changed),
        ("abc", 3, [.backspace], "ab", 2, .changed),
        ("abc", 0, [.backspace], "abc", 0, .unchanged),
        ("abc", 1, [.delete], "ac", 1, .changed),
        ("abc", 3, [.delete], "abc", 3, .unchanged),
        ("abc", 3, [.left, .left, .char("X")], "aXbc", 2, .changed),
        ("abc", 3, [.right], "abc", 3, .unchanged),
        ("abc", 3, [.home, .char("X")], "Xabc", 1, .changed),
        ("abc", 0, [.end], "abc", 3, .changed),
        ("abc", 3, [.ctrl("a")], "abc", 0, .changed),
        ("abc", 0, [.ctrl("e")], "abc", 3, .changed),
        ("hello world", 6, [.ctrl("u")], "world", 0, .changed),
        ("hello world", 5, [.ctrl("k")], "hello", 5, .changed),
        ("hello big  world", 16, [.ctrl("w")], "hello big  ", 11, .changed),
        ("hello big  world", 11, [.ctrl("w")], "hello world", 6, .changed),
        ("中文字", 2, [.backspace], "中字", 1, .changed),
        ("abc", 3, [.enter], "abc", 3, .notHandled),
        ("abc", 3, [.tab], "abc", 3, .notHandled),
        ("abc", 3, [.up], "abc", 3, .notHandled),
        ("abc", 3, [.ctrl("c")], "abc", 3, .notHandled),
    ]

    @Test(arguments: editingCases)
    func editing(_ start: String, _ cursor: Int, _ keys: [Key], _ text: String, _ newCursor: Int, _ edit: TextFieldEdit)
    {
        var field = TextFieldState(start)
        field.cursor = cursor
        #expect(Self.press(keys, on: &field) == edit)
        #expect(field.text == text)
        #expect(field.cursor == newCursor)
    }

    @Test func ruleMapsIgnoresAndRejects() {
        var field = TextFieldState(maxLength: 10, transform: Self.otpRule)
        Self.press(Self.chars("9k2 ray8-uuq"), on: &field)
        #expect(field.text == "9K2RAY8UUQ")
        field.text = "9K"
        #expect(field.cursor == 2)
        #expect(field.handle(.char("!")) == .rejected("!"))
        #expect(field.handle(.char("I")) == .rejected("I"))
        #expect(field.handle(.char("-")) == .unchanged)
        #expect(field.text == "9K")
    }

    @Test func maxLengthStopsTyping() {
        var field = TextFieldState("abc", maxLength: 3)
        #expect(field.handle(.char("d")) == .unchanged)
        #expect(field.text == "abc")
        #expect(TextFieldState("abcdef", maxLength: 4).text == "abcd")
    }

    @Test(arguments: [
        ("9K2RAY8UUQ", 10, "9K2-RAY8-UUQ", 12),
        ("9K2RA", 5, "9K2-RA", 6),
        ("9K2", 3, "9K2", 3),
        ("9K2R", 3, "9K2-R", 4),
        ("9K2R", 2, "9K2-R", 2),
        ("9K2RAY8UUQXY", 12, "9K2-RAY8-UUQXY", 14),
    ])
    func groupedDisplay(_ text: String, _ cursor: Int, _ shown: String, _ column: Int) {
        var field = TextFieldState(text)
        field.cursor = cursor
        let display = field.display(groups: [3, 4, 3])
        #expect(display.text == shown)
        #expect(display.cursorColumn == column)
    }

    @Test func rendersGroupedTextWithCursorWhenFocused() {
        var buffer = Buffer(width: 16, height: 2)
        TextFieldState("9K2RA").render(
            into: &buffer, area: Rect(x: 1, y: 0, width: 14, height: 1), focused: true, groups: [3, 4, 3])
        TextFieldState("abc").render(into: &buffer, area: Rect(x: 1, y: 1, width: 14, height: 1), focused: false)
        expectLines(
            buffer.lines,
            [
                " 9K2-RA",
                " abc",
            ])
        expectLines(
            buffer.roleLines,
            [
                ".IIIIIIIIIIIIII.",
                ".iiiiiiiiiiiiii.",
            ])
        #expect(buffer.cursor?.x == 7)
        #expect(buffer.cursor?.y == 0)
    }

    @Test func unfocusedFieldLeavesTheCursorAlone() {
        var buffer = Buffer(width: 10, height: 1)
        TextFieldState("abc").render(into: &buffer, area: buffer.area, focused: false)
        #expect(buffer.cursor == nil)
    }

    @Test func emptyFieldShowsMutedPlaceholder() {
        var buffer = Buffer(width: 12, height: 1)
        TextFieldState().render(into: &buffer, area: buffer.area, focused: true, placeholder: "XXX-XXXX-XXX")
        expectLines(buffer.lines, ["XXX-XXXX-XXX"])
        expectLines(buffer.roleLines, ["mmmmmmmmmmmm"])
        #expect(buffer.cursor?.x == 0)
    }

    @Test func longTextScrollsToKeepTheCursorVisible() {
        var buffer = Buffer(width: 6, height: 1)
        TextFieldState("abcdefghij").render(into: &buffer, area: buffer.area, focused: true)
        expectLines(buffer.lines, ["fghij"])
        #expect(buffer.cursor?.x == 5)
        var field = TextFieldState("abcdefghij")
        field.cursor = 0
        field.render(into: &buffer, area: buffer.area, focused: true)
        expectLines(buffer.lines, ["abcdef"])
        #expect(buffer.cursor?.x == 0)
    }

    @Test func keyMapListsEveryEditingKeyForHelp() {
        let keys = TextFieldState.keyMap.helpSections.flatMap(\.rows).map(\.keys)
        #expect(keys.contains("Home/^A"))
        #expect(keys.contains("^W"))
        #expect(TextFieldState.keyMap.footerHints.isEmpty)
    }
}
