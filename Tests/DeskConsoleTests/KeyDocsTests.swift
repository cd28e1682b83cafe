import DeskConsole
import DeskCore
import Foundation
import Testing

/// The guides' key tables are made from the key maps (issue 20, "Docs"): each generated block
/// must be what ``ConsoleApp/conventionsMarkdown()`` or ``ConsoleApp/keysMarkdown(for:)`` make
/// now. On a difference the test prints the expected text. To rewrite every block:
/// `TRACEDESK_WRITE_KEY_DOCS=1 swift test --filter KeyDocs` (the run then fails once, saying so).
@Suite("KeyDocs")
struct KeyDocsTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// Each block: the guide, its id, and the role whose keys it lists (nil: the conventions).
    static let blocks: [(file: String, id: String, role: StaffRole?)] = [
        ("operator-guide.md", "conventions", nil), ("operator-guide.md", "operator", .operator),
        ("tracer-guide.md", "tracer", .tracer), ("supervisor-guide.md", "supervisor", .supervisor),
        ("admin-guide.md", "admin", .admin),
    ]

    static func begin(_ id: String) -> String {
        "<!-- BEGIN generated key table \(id): regenerate with TRACEDESK_WRITE_KEY_DOCS=1 swift test --filter KeyDocs -->"
    }
    static let end = "<!-- END generated key table -->"

    /// One test for all, block after block: two blocks share a file, and a rewrite of one must
    /// not race the other's.
    @Test("every guide's key table is the one the key maps make")
    func matches() throws {
        for block in Self.blocks { try Self.check(block) }
    }

    static func check(_ block: (file: String, id: String, role: StaffRole?)) throws {
        let url = docs.appendingPathComponent(block.file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let want = block.role.map { ConsoleApp.keysMarkdown(for: $0) } ?? ConsoleApp.conventionsMarkdown()
        let begin = begin(block.id)
        guard let start = text.range(of: begin),
            let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else {
            Issue.record("\(block.file) has no block \"\(begin)\" … \"\(end)\"; put one where the table belongs")
            return
        }
        let got = String(text[start.upperBound..<stop.lowerBound]).trimmingCharacters(in: .newlines) + "\n"
        guard got != want else { return }
        if ProcessInfo.processInfo.environment["TRACEDESK_WRITE_KEY_DOCS"] == "1" {
            let rewritten = String(text[..<start.upperBound]) + "\n" + want + String(text[stop.lowerBound...])
            try rewritten.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("rewrote the \(block.id) key table of \(block.file); run the tests again")
            return
        }
        Issue.record(
            Comment(
                rawValue:
                    "\(block.file): the \(block.id) key table differs from the key maps; expected:\n\(want)\n"
                    + "(TRACEDESK_WRITE_KEY_DOCS=1 swift test --filter KeyDocs rewrites it)"))
    }
}
