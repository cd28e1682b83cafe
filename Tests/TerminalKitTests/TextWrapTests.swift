import Testing

@testable import TerminalKit

@Suite struct TextWrapTests {
    @Test(arguments: [
        ("the quick brown fox", 10, ["the quick", "brown fox"]),
        ("the quick brown fox", 19, ["the quick brown fox"]),
        ("a  b   c", 3, ["a b", "c"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
        ("hi abcdefghij", 4, ["hi", "abcd", "efgh", "ij"]),
        ("one\n\ntwo", 10, ["one", "", "two"]),
        ("", 5, [""]),
        ("anything", 0, []),
        ("中文字符", 5, ["中文", "字符"]),
        ("中", 1, [""]),
    ])
    func wraps(_ text: String, _ width: Int, _ want: [String]) {
        #expect(TextWrap.wrap(text, width: width) == want)
    }

    @Test func noLineIsWiderThanWidth() {
        let text = "Confirm upload of 14 keys for 日本語 users ✓ right now, please 🙂🙂🙂🙂"
        for width in 1...20 {
            #expect(TextWrap.wrap(text, width: width).allSatisfy { DisplayWidth.of($0) <= width })
        }
    }

    @Test("a hanging indent: lines after the first are narrower and indented, runs of spaces and newlines included")
    func hangingIndent() {
        #expect(
            TextWrap.wrap("✗   cannot watch this code: forbidden here", width: 16, continuationIndent: 2) == [
                "✗ cannot watch", "  this code:", "  forbidden here",
            ])
        #expect(
            TextWrap.wrap("x: first\nsecond line", width: 13, continuationIndent: 2) == ["x: first", "  second line"])
        #expect(TextWrap.wrap("abcdefghij", width: 6, continuationIndent: 2) == ["abcdef", "  ghij"])
        #expect(TextWrap.wrap("short", width: 10, continuationIndent: 2) == ["short"])
    }
}
