/// Word wrapping by display width, for dialog messages, help text and detail panes.
///
/// Widths are terminal columns (``DisplayWidth``), not character counts, so CJK text and
/// emoji wrap where they will actually reach the edge.
public enum TextWrap {
    /// `text` broken into lines of at most `width` columns.
    ///
    /// Explicit newlines start a new line (an empty paragraph gives an empty line). Runs of
    /// spaces between words collapse to one. A word wider than `width` is broken across lines
    /// at a grapheme boundary, so nothing is lost. Returns no lines when `width` < 1.
    ///
    /// With `continuationIndent`, every line after the first is `continuationIndent` columns
    /// narrower and starts with that many spaces (a hanging indent, for marked steps).
    public static func wrap(_ text: String, width: Int, continuationIndent: Int = 0) -> [String] {
        guard width > 0 else { return [] }
        let indent = max(0, min(continuationIndent, width - 1))
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            result.append(contentsOf: wrapParagraph(paragraph, width: width, indent: indent, first: result.isEmpty))
        }
        return result
    }

    /// Lines of `paragraph`: the first `width` wide when `first` (the text's first line),
    /// every other one `width - indent` wide and indented.
    private static func wrapParagraph(_ paragraph: Substring, width: Int, indent: Int, first: Bool) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        func room() -> Int { first && lines.isEmpty ? width : width - indent }
        func finish(_ line: String) { lines.append(first && lines.isEmpty ? line : margin + line) }
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var piece = String(word)
            var pieceWidth = DisplayWidth.of(piece)
            let needed = lineWidth == 0 ? pieceWidth : lineWidth + 1 + pieceWidth
            if needed <= room() {
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += piece
                lineWidth += pieceWidth
                continue
            }
            if lineWidth > 0 {
                finish(line)
                line = ""
                lineWidth = 0
            }
            // Break an over-long word into full-width chunks; the tail starts the next line.
            while pieceWidth > room() {
                let (head, headWidth) = DisplayWidth.prefix(piece, fitting: room())
                guard headWidth > 0 else {
                    // A wide character in a 1-column space: it can never fit, so drop it.
                    piece.removeFirst()
                    pieceWidth = DisplayWidth.of(piece)
                    continue
                }
                finish(String(head))
                piece = String(piece[head.endIndex...])
                pieceWidth -= headWidth
            }
            line = piece
            lineWidth = pieceWidth
        }
        if lineWidth > 0 || lines.isEmpty { finish(line) }
        return lines
    }
}
