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
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            result.append(contentsOf: wrapParagraph(paragraph, width: width))
        }
        return result
    }

    private static func wrapParagraph(_ paragraph: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var piece = String(word)
            var pieceWidth = DisplayWidth.of(piece)
            let needed = lineWidth == 0 ? pieceWidth : lineWidth + 1 + pieceWidth
            if needed <= width {
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += piece
                lineWidth += pieceWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            // Break an over-long word into full-width chunks; the tail starts the next line.
            while pieceWidth > width {
                let (head, headWidth) = DisplayWidth.prefix(piece, fitting: width)
                guard headWidth > 0 else {
                    // A wide character in a 1-column space: it can never fit, so drop it.
                    piece.removeFirst()
                    pieceWidth = DisplayWidth.of(piece)
                    continue
                }
                lines.append(String(head))
                piece = String(piece[head.endIndex...])
                pieceWidth -= headWidth
            }
            line = piece
            lineWidth = pieceWidth
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }
}
