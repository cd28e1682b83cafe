import Foundation
import TerminalKit
import Testing

/// Compares a rendered buffer with `Snapshots/NAME.txt` (text) and, if asked, `NAME.roles.txt`.
///
/// A missing file, or `RECORD_SNAPSHOTS=1`, records the current rendering and fails the test,
/// so a recording is never mistaken for a pass. A mismatch prints a numbered line diff.
func assertSnapshot(
    _ buffer: Buffer, named name: String, roles: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    compare(buffer.lines, file: folder.appendingPathComponent(name + ".txt"), sourceLocation: sourceLocation)
    if roles {
        compare(
            buffer.roleLines, file: folder.appendingPathComponent(name + ".roles.txt"), sourceLocation: sourceLocation)
    }
}

private func compare(_ lines: [String], file: URL, sourceLocation: SourceLocation) {
    let got = lines.joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    guard !record, let data = FileManager.default.contents(atPath: file.path) else {
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? got.write(to: file, atomically: true, encoding: .utf8)
        Issue.record(
            "recorded snapshot \(file.lastPathComponent); check it and run the tests again",
            sourceLocation: sourceLocation)
        return
    }
    let want = String(decoding: data, as: UTF8.self)
    if want != got {
        let message = "snapshot \(file.lastPathComponent) differs (- want, + got):\n" + lineDiff(want: want, got: got)
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// Lines that differ, numbered, as `-` (expected) and `+` (actual).
func lineDiff(want: String, got: String) -> String {
    let a = want.split(separator: "\n", omittingEmptySubsequences: false)
    let b = got.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for index in 0..<max(a.count, b.count) {
        let left = index < a.count ? String(a[index]) : "<missing>"
        let right = index < b.count ? String(b[index]) : "<missing>"
        if left != right {
            out.append(String(format: "%3d - |%@|", index + 1, left))
            out.append(String(format: "%3d + |%@|", index + 1, right))
        }
    }
    return out.joined(separator: "\n")
}
