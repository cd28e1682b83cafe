@preconcurrency import CNcursesw
import TerminalKit
import TerminalNcurses

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A real ``NcursesBackend`` with no terminal: keys come from a pipe the test writes into,
/// output goes to `/dev/null`, and what was drawn is read back from ncurses' virtual screen.
///
/// ncurses has one current screen per process, so every test using this belongs to the one
/// serialized suite, and each test stops its harness before returning.
final class NcursesHarness {
    static let terminalType = "xterm-256color"

    /// Set once per process: `setlocale` is process-wide and not safe while other suites run.
    private static let utf8Locale: Bool = setlocale(LC_ALL, "C.UTF-8") != nil

    let backend: NcursesBackend
    private let keyReader: Int32
    private let keyWriter: Int32
    private let sink: Int32

    /// `outputPath`: where the terminal's output goes (a file the test reads); `/dev/null` if nil.
    init(
        theme: Theme = .monochrome, mouse: Bool = false, size: TerminalSize = TerminalSize(width: 40, height: 10),
        outputPath: String? = nil
    ) throws {
        _ = Self.utf8Locale
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError.system("pipe") }
        let sink = outputPath.map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o600) } ?? open("/dev/null", O_WRONLY)
        guard sink >= 0 else { throw HarnessError.system("open /dev/null") }
        guard
            let backend = NcursesBackend(
                options: .init(theme: theme, mouse: mouse), terminalType: Self.terminalType,
                input: ends[0], output: sink, size: size)
        else {
            close(ends[0])
            close(ends[1])
            close(sink)
            throw HarnessError.noTerminal
        }
        self.backend = backend
        keyReader = ends[0]
        keyWriter = ends[1]
        self.sink = sink
    }

    /// Stops the backend and closes the test's own descriptors (the backend closes its copies).
    func finish() {
        backend.stop()
        close(keyReader)
        close(keyWriter)
        close(sink)
    }

    /// Writes bytes as if typed, in one write: an escape sequence arrives in one piece, as from a terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(keyWriter, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short write to the key pipe")
    }

    /// Every event available now: waits up to `firstWait` ms for the first, briefly for the rest.
    func events(firstWait: Int = 500) -> [InputEvent] {
        var result: [InputEvent] = []
        var wait = firstWait
        while let event = backend.nextEvent(timeoutMilliseconds: wait) {
            result.append(event)
            wait = 100
        }
        return result
    }

    // MARK: Reading the virtual screen

    struct ScreenCell: Equatable {
        var text: String
        /// Attributes without the colour-pair bits.
        var attributes: attr_t
        var pair: Int16
    }

    func cell(x: Int, y: Int) -> ScreenCell? {
        var text = [wchar_t](repeating: 0, count: 6)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        guard nc_read_cell(nc_stdscr(), Int32(y), Int32(x), &text, &attributes, &pair) == OK else { return nil }
        return ScreenCell(text: Self.string(text), attributes: attributes, pair: pair)
    }

    /// Row `y` as ncurses holds it (a wide character once), trailing spaces removed.
    func row(_ y: Int) -> String {
        let width = Int(nc_cols())
        var text = [wchar_t](repeating: 0, count: width + 1)
        _ = nc_read_row(nc_stdscr(), Int32(y), &text, Int32(width))
        var line = Self.string(text)
        while line.last == " " { line.removeLast() }
        return line
    }

    var rows: [String] { (0..<Int(nc_lines())).map(row) }

    private static func string(_ wide: [wchar_t]) -> String {
        var result = String.UnicodeScalarView()
        for value in wide {
            if value == 0 { break }
            if let scalar = Unicode.Scalar(UInt32(bitPattern: value)) { result.append(scalar) }
        }
        return String(result)
    }
}

enum HarnessError: Error {
    case system(String)
    case noTerminal
}
