import Foundation
import TerminalKit
import TerminalNcurses
import Testing

extension NcursesBackendTests {
    /// The real backend writes the OSC 52 sequence to the terminal's output, whole, after what
    /// curses drew (its output flushed first), and draws nothing for it.
    @Test func copyWritesTheOSC52SequenceToTheTerminal() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tracedesk-osc52-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let harness = try NcursesHarness(outputPath: path)
        var buffer = Buffer(width: 40, height: 10)
        buffer.put("drawn first", x: 0, y: 0)
        harness.backend.draw(buffer.diff(from: Buffer(width: 40, height: 10)), cursor: nil)
        #expect(harness.backend.copyToClipboard("+393331234567") == .copied(cut: false))
        #expect(harness.row(0).hasPrefix("drawn first"))
        harness.finish()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let sequence = Clipboard.sequence(for: "+393331234567")
        let start = try #require(
            (0...(bytes.count - sequence.count)).first { Array(bytes[$0..<($0 + sequence.count)]) == sequence })
        // Before it: what curses drew; the sequence is never inside one of curses' own escapes.
        #expect(String(decoding: bytes[..<start], as: UTF8.self).contains("drawn first"))
        // After stop the backend writes nothing more to the clipboard.
        #expect(harness.backend.copyToClipboard("x") == .unavailable)
    }
}
