import Testing

@testable import TerminalKit

@Suite struct DisplayWidthTests {
    @Test(
        arguments: [
            ("a", 1), (" ", 1), ("~", 1),
            ("中", 2), ("あ", 2), ("한", 2), ("Ａ", 2),
            ("e\u{301}", 1), ("\u{301}", 0), ("\u{200D}", 0),
            ("🙂", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("❤️", 2), ("1\u{FE0F}\u{20E3}", 2), ("🇮🇹", 2),
            ("✓", 1), ("✗", 1), ("…", 1), ("─", 1), ("▲", 1), ("é", 1),
        ] as [(Character, Int)])
    func characterWidth(_ character: Character, _ want: Int) {
        #expect(DisplayWidth.of(character) == want)
    }

    @Test(arguments: [("abc", 3), ("日本語", 6), ("a✓b", 3), ("", 0), ("Café 🙂", 7)])
    func stringWidth(_ text: String, _ want: Int) {
        #expect(DisplayWidth.of(text) == want)
    }

    @Test(arguments: [
        ("hello", 10, "hello"), ("hello", 5, "hello"), ("hello", 4, "hel…"),
        ("日本語", 5, "日本…"), ("日本語", 4, "日…"), ("abc", 1, "…"), ("abc", 0, ""),
    ])
    func truncate(_ text: String, _ columns: Int, _ want: String) {
        #expect(DisplayWidth.truncate(text, to: columns) == want)
    }

    @Test func prefixStopsBeforeAWideCharacterThatWouldOverflow() {
        let (head, width) = DisplayWidth.prefix("a日b", fitting: 2)
        #expect(head == "a")
        #expect(width == 1)
    }
}
