@preconcurrency import CNcursesw
import TerminalKit

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The plainest way to fill a screen with ncurses, as a yardstick for benchmarks: every row
/// written with one `mvaddwstr`, then `refresh`, on a headless screen (output to /dev/null).
public enum NcursesBaseline {
    /// Milliseconds per frame for `frames` full repaints of `width`×`height`, alternating two
    /// frames of text so ncurses has changes to send every time.
    public static func rawRepaint(width: Int, height: Int, frames: Int) -> [Double] {
        let rows: [[[wchar_t]]] = (0..<2).map { variant in
            (0..<height).map { _ in
                let text = String(
                    repeating: variant == 0 ? "TraceDesk │ 9K2-RAY8-UUQ ✓ " : "Authorised 2:07 · rossi ─ ",
                    count: width / 20 + 2)
                return Array(text.unicodeScalars.prefix(width).map { wchar_t(bitPattern: $0.value) }) + [0]
            }
        }
        var times: [Double] = []
        withHeadlessBackend(width: width, height: height) { _ in
            for frame in 0..<frames {
                let start = monotonicNanoseconds()
                for row in 0..<height {
                    _ = rows[frame % 2][row].withUnsafeBufferPointer { mvaddwstr(Int32(row), 0, $0.baseAddress) }
                }
                refresh()
                times.append(Double(monotonicNanoseconds() - start) / 1e6)
            }
        }
        return times
    }

    /// Runs `body` against a headless backend of the given size (output to /dev/null).
    public static func withHeadlessBackend(width: Int, height: Int, _ body: (NcursesBackend) -> Void) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { return }
        let devNull = open("/dev/null", O_WRONLY)
        defer {
            close(pipeFDs[0])
            close(pipeFDs[1])
            close(devNull)
        }
        guard
            let backend = NcursesBackend(
                options: .init(theme: .monochrome, mouse: false), terminalType: "xterm-256color", input: pipeFDs[0],
                output: devNull, size: TerminalSize(width: width, height: height))
        else { return }
        body(backend)
        backend.stop()
    }

    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
