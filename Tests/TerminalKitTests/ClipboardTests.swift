import TerminalKit
import Testing

/// OSC 52: the sequence's bytes, its base64, the bound and what the test backend records.
@Suite("Clipboard (OSC 52)")
struct ClipboardTests {
    @Test(
        "base64 as RFC 4648's vectors",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ])
    func base64(_ pair: (String, String)) {
        #expect(String(decoding: Clipboard.base64(Array(pair.0.utf8)), as: UTF8.self) == pair.1)
    }

    @Test("the sequence is ESC ] 52 ; c ; base64 BEL, the text's UTF-8 encoded")
    func sequence() {
        let bytes = Clipboard.sequence(for: "+393331234567")
        #expect(bytes == Array("\u{1B}]52;c;KzM5MzMzMTIzNDU2Nw==\u{07}".utf8))
        #expect(bytes.first == 0x1B && bytes.last == 0x07)
        // Non-ASCII text travels as its UTF-8 bytes.
        #expect(Clipboard.sequence(for: "è") == Array("\u{1B}]52;c;w6g=\u{07}".utf8))
    }

    @Test("copied text is bounded at a character and control characters are dropped")
    func bounded() {
        let long = String(repeating: "è", count: Clipboard.maximumBytes)  // 2 bytes each
        let (text, cut) = Clipboard.bounded(long)
        #expect(cut)
        #expect(text.utf8.count == Clipboard.maximumBytes)
        #expect(text.allSatisfy { $0 == "è" })
        #expect(Clipboard.bounded("a\u{1B}]0;x\u{07}b\tc").text == "a]0;xb\tc")
        #expect(Clipboard.bounded("short") == ("short", false))
    }

    @Test("the test backend records the bytes a terminal would get")
    func testBackend() {
        let backend = TestBackend(width: 80, height: 24)
        #expect(backend.copyToClipboard("row 1") == .copied(cut: false))
        #expect(backend.copied == ["row 1"])
        #expect(backend.clipboardWrites == [Clipboard.sequence(for: "row 1")])
    }
}
