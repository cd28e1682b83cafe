import Testing

@testable import DeskConsole

/// The table cursor and the form focus the screens share, on values.
@Suite("Table cursor and form focus")
struct TableCursorTests {
    @Test(
        "a move lands within the table",
        arguments: [
            (3, TableCursor.Move.up, 5, 2), (0, .up, 5, 0), (3, .down, 5, 4), (4, .down, 5, 4),
            (3, .pageUp, 50, 0), (15, .pageUp, 50, 5), (3, .pageDown, 50, 13), (45, .pageDown, 50, 49),
            (3, .top, 5, 0), (1, .bottom, 5, 4), (0, .bottom, 0, 0), (0, .down, 0, 0), (0, .top, 0, 0),
        ])
    func moves(selected: Int, move: TableCursor.Move, count: Int, expected: Int) {
        #expect(TableCursor.position(selected, after: move, count: count) == expected)
    }

    @Test("the wheel's rows are clamped; an empty table keeps its position")
    func wheel() {
        #expect(TableCursor.position(2, by: 3, count: 10) == 5)
        #expect(TableCursor.position(2, by: -30, count: 10) == 0)
        #expect(TableCursor.position(2, by: 30, count: 10) == 9)
        #expect(TableCursor.position(0, by: 1, count: 0) == 0)
    }

    @Test("after a reload the same row stays selected; a gone one gives the first")
    func reselect() {
        let names = ["ana", "bea", "carla"]
        #expect(TableCursor.position(of: "carla", in: names, id: { $0 }) == 2)
        #expect(TableCursor.position(of: "dora", in: names, id: { $0 }) == 0)
        #expect(TableCursor.position(of: String?.none, in: names, id: { $0 }) == 0)
    }

    @Test("Tab and ⇧Tab go round the fields; Enter goes on until the last, then submits")
    func formFocus() {
        let fields = ["name", "role", "password", "again"]
        #expect(FormFocus.step("again", by: 1, in: fields) == "name")
        #expect(FormFocus.step("name", by: -1, in: fields) == "again")
        #expect(FormFocus.step("role", by: 1, in: fields) == "password")
        #expect(FormFocus.step("other", by: 1, in: fields) == "role")
        var focus = "password"
        #expect(!FormFocus.advance(&focus, in: fields))
        #expect(focus == "again")
        #expect(FormFocus.advance(&focus, in: fields))
        #expect(focus == "again")
    }
}
