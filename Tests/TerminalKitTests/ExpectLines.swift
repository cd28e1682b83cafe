import Testing

/// Compares rendered lines with the expected ones and, on mismatch, records one issue that
/// shows a numbered line diff (`-` expected, `+` got), so a failing snapshot is readable.
func expectLines(
    _ got: [String], _ want: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    guard got != want else { return }
    var report = "rendered lines differ (- want, + got):\n"
    for index in 0..<max(got.count, want.count) {
        let g = index < got.count ? got[index] : nil
        let w = index < want.count ? want[index] : nil
        let number = String(index + 1)
        let label = String(repeating: " ", count: max(0, 3 - number.count)) + number
        if g == w {
            report += "  \(label) |\(g ?? "")|\n"
        } else {
            if let w { report += "- \(label) |\(w)|\n" }
            if let g { report += "+ \(label) |\(g)|\n" }
        }
    }
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
}

/// Splits an inline multi-line literal into lines (the literal's trailing spaces are trimmed by
/// ``Buffer/lines`` too, so literals never need them).
func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}
