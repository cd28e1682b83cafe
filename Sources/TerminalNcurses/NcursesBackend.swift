@preconcurrency import CNcursesw
import TerminalKit

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The real terminal, through ncursesw: the only code that calls ncurses.
///
/// Cells arrive already diffed (``Buffer/diff(from:)``); ncurses then does its own minimal
/// terminal update on `refresh`. Colours come from a ``Theme``: one colour pair per distinct
/// foreground/background, on the terminal's default background unless the theme says otherwise.
///
/// Threading rule: create, use and stop on one thread (ncurses is not thread-safe).
/// Every exit path restores the terminal: ``stop()``, the crash handler (``CrashGuard``), and
/// ncurses' own SIGTERM/SIGINT handlers.
public final class NcursesBackend: TerminalBackend {
    public struct Options: Sendable {
        public var theme: Theme
        public var mouse: Bool
        public init(theme: Theme, mouse: Bool) {
            self.theme = theme
            self.mouse = mouse
        }
    }

    private let options: Options
    /// What this terminal's locale can draw, read once at start from the codeset the C library
    /// reports for it (`nl_langinfo(CODESET)`): Unicode under UTF-8, ASCII forms otherwise
    /// (`LANG=C`, or a UTF-8 locale that is not installed, which setlocale refuses), where
    /// ncurses cannot draw the Unicode symbols and they would vanish.
    public let glyphs: Glyphs
    private var rolePairs: [Role: Int16] = [:]
    private var colorEnabled = false
    private var running = false
    private var currentSize = TerminalSize(width: 0, height: 0)
    /// Set when curses runs on given streams (``init(options:terminalType:input:output:size:)``):
    /// the screen to free and the streams to close in ``stop()``. Nil for the real terminal.
    private var detached:
        (screen: OpaquePointer, input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)?

    /// Starts curses mode on the real terminal: alternate screen, raw keys (Ctrl-C arrives as a
    /// key), keypad, colours from the theme (none when it is monochrome), mouse if asked.
    /// Installs ``CrashGuard`` (stderr goes to a temporary file until ``stop()``).
    public init(options: Options) {
        self.options = options
        Self.setLocaleFromEnvironment()
        glyphs = Self.localeGlyphs()
        set_escdelay(25)
        CrashGuard.install()
        initscr()
        startModes()
    }

    /// Starts curses on given file descriptors instead of the real terminal, with no crash guard
    /// and no change to the locale or to stderr: for tests of this backend without a terminal
    /// (input a pipe the test writes key bytes into, output e.g. `/dev/null`).
    ///
    /// The descriptors stay the caller's: they are duplicated, and only the duplicates are closed
    /// by ``stop()``. The size is set explicitly, because a pipe has no window size; the process
    /// environment (`LINES`, `COLUMNS`) is neither read nor changed. Set a UTF-8 locale
    /// (`setlocale`) before calling, as for any curses program that handles wide characters.
    ///
    /// Returns nil when `terminalType` has no terminfo entry or a descriptor cannot be opened.
    public init?(options: Options, terminalType: String, input: Int32, output: Int32, size: TerminalSize) {
        self.options = options
        glyphs = Self.localeGlyphs()
        let inputCopy = dup(input)
        let outputCopy = dup(output)
        guard inputCopy >= 0, outputCopy >= 0,
            let inputFile = fdopen(inputCopy, "r"), let outputFile = fdopen(outputCopy, "w")
        else {
            if inputCopy >= 0 { close(inputCopy) }
            if outputCopy >= 0 { close(outputCopy) }
            return nil
        }
        // Take the size from terminfo, not from the environment, then set it below.
        use_env(false)
        let screen = newterm(terminalType, outputFile, inputFile)
        use_env(true)
        guard let screen else {
            fclose(inputFile)
            fclose(outputFile)
            return nil
        }
        detached = (screen, inputFile, outputFile)
        // resize_term, unlike resizeterm, queues no KEY_RESIZE: this is the starting size.
        resize_term(Int32(size.height), Int32(size.width))
        set_escdelay(25)
        startModes()
    }

    /// The locale the environment names (`setlocale(LC_ALL, "")`); when the C library refuses
    /// it (a locale that is not installed: `LANG=it_IT.UTF-8` on a machine with only `C.UTF-8`)
    /// but it asks for UTF-8, `C.UTF-8`, which glibc always has: the terminal is UTF-8 either way,
    /// and without it the console would fall back to ASCII. The language of the words is
    /// DeskText's, chosen from the same variables, not the C library's.
    public static func setLocaleFromEnvironment() {
        guard setlocale(LC_ALL, "") == nil else { return }
        var environment: [String: String] = [:]
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        if asksForUTF8(environment) { setlocale(LC_ALL, "C.UTF-8") }
    }

    /// Whether the character set the environment names (`LC_ALL`, else `LC_CTYPE`, else `LANG`:
    /// the first that is set and not empty, as POSIX reads them) is UTF-8.
    public static func asksForUTF8(_ environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = name.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// The symbols the current locale (`LC_CTYPE`, as setlocale chose it) can draw.
    public static func localeGlyphs() -> Glyphs {
        let codeset = String(cString: nl_langinfo(nl_item(CODESET))).lowercased()
        return Glyphs(ascii: codeset != "utf-8" && codeset != "utf8")
    }

    /// The modes both initializers set once curses is running.
    private func startModes() {
        raw()
        noecho()
        nonl()
        keypad(nc_stdscr(), true)
        defineFallbackKeys()
        curs_set(0)
        running = true
        currentSize = TerminalSize(width: Int(nc_cols()), height: Int(nc_lines()))
        if has_colors() && !options.theme.isMonochrome {
            start_color()
            use_default_colors()
            colorEnabled = true
            definePairs()
        }
        if options.mouse {
            mousemask(nc_all_mouse_events(), nil)
            mouseinterval(0)
        }
    }

    deinit { stop() }

    /// Leaves curses mode exactly once, leaving nothing of the console on the terminal; safe to
    /// call again. On given streams it also frees the screen and closes the duplicated
    /// descriptors.
    public func stop() {
        guard running else { return }
        running = false
        if let detached { set_term(detached.screen) }
        if options.mouse { mousemask(0, nil) }
        // Clear the whole terminal first: where there is no alternate screen (a terminfo entry
        // without smcup, tmux's alternate-screen off) or a resize reflowed what was drawn, the
        // panels would otherwise stay in the shell, in pieces, after quitting.
        clear()
        refresh()
        curs_set(1)
        endwin()
        if let detached {
            delscreen(detached.screen)
            fclose(detached.input)
            fclose(detached.output)
            self.detached = nil
        } else {
            CrashGuard.uninstall()
        }
    }

    public var size: TerminalSize { currentSize }

    public func draw(_ changes: [CellChange], cursor: (x: Int, y: Int)?) {
        var wide = [wchar_t](repeating: 0, count: 6)
        for change in changes {
            let appearance = options.theme.appearance(for: change.cell.style)
            let attributes = ncursesAttributes(appearance.attributes)
            let pair = colorEnabled ? (rolePairs[change.cell.style.role] ?? 0) : 0
            var count = 0
            for scalar in change.cell.symbol.unicodeScalars where count < 5 {
                wide[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            if count == 0 {
                wide[0] = 0x20
                count = 1
            }
            wide[count] = 0
            _ = wide.withUnsafeBufferPointer { pointer in
                nc_put_cell(Int32(change.y), Int32(change.x), pointer.baseAddress, attributes, pair)
            }
        }
        if let cursor {
            curs_set(1)
            move(Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        refresh()
    }

    /// Writes the OSC 52 sequence straight to the terminal, after what curses has drawn (its
    /// output flushed first, so the sequence never lands inside an escape of its own). The
    /// terminal, or tmux with `set-clipboard on`, sets the clipboard; one that does not know
    /// OSC 52 ignores it. Nothing of it is drawn, so the screen needs no repaint.
    public func copyToClipboard(_ text: String) -> Clipboard.Outcome {
        guard running else { return .unavailable }
        let (bounded, cut) = Clipboard.bounded(text)
        let bytes = Clipboard.sequence(for: bounded)
        let descriptor: Int32
        if let detached {
            fflush(detached.output)
            descriptor = fileno(detached.output)
        } else {
            fflush(stdout)
            descriptor = STDOUT_FILENO
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return .unavailable }
            offset += written
        }
        return .copied(cut: cut)
    }

    /// Forgets what is on screen: `clearok` makes the next refresh clear the terminal and send
    /// every cell again (Ctrl-L, a resize), not only those ncurses thinks have changed.
    public func invalidate() {
        clearok(nc_stdscr(), true)
        erase()
    }

    /// Ctrl-Z: back to the shell until `fg` (``nc_suspend``), then the size read again. Only on
    /// the real terminal: curses on given streams has no job control to speak of.
    public func suspend() {
        guard running, detached == nil else { return }
        if options.mouse { mousemask(0, nil) }
        nc_suspend()
        if options.mouse {
            mousemask(nc_all_mouse_events(), nil)
            mouseinterval(0)
        }
        currentSize = TerminalSize(width: Int(nc_cols()), height: Int(nc_lines()))
    }

    public func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        var wait = timeoutMilliseconds
        // What decodes to nothing (a dropped sequence, an unknown key) is no event: go on with
        // what is already buffered after it, without waiting again.
        for _ in 0..<64 {
            timeout(Int32(wait))
            var character: wint_t = 0
            let result = get_wch(&character)
            if result == ERR { return nil }
            let event = result == KEY_CODE_YES ? decodeKeyCode(Int32(character)) : decodeCharacter(character)
            if let event { return event }
            wait = 0
        }
        return nil
    }

    // MARK: Decoding

    /// Cursor keys as terminals send them outside keypad ("application") mode, for the
    /// terminals and multiplexers that ignore `smkx`. terminfo only lists the keypad-mode
    /// strings (`ESC O A`), so without these an arrow arrives as Esc, "[", "A": Esc clears the
    /// field or leaves the screen, and the letters are typed. Strings terminfo already defines
    /// (or that would clash with one) are left alone.
    private func defineFallbackKeys() {
        let fallbacks: [(String, Int32)] = [
            ("\u{1b}[A", KEY_UP), ("\u{1b}[B", KEY_DOWN), ("\u{1b}[C", KEY_RIGHT), ("\u{1b}[D", KEY_LEFT),
            ("\u{1b}[H", KEY_HOME), ("\u{1b}[F", KEY_END), ("\u{1b}[1~", KEY_HOME), ("\u{1b}[4~", KEY_END),
        ]
        for (sequence, code) in fallbacks where key_defined(sequence) == 0 {
            define_key(sequence, code)
        }
    }

    private func decodeCharacter(_ value: wint_t) -> InputEvent? {
        switch value {
        case 13, 10: return .key(.enter)
        case 27: return decodeEscape()
        case 9: return .key(.tab)
        case 127, 8: return .key(.backspace)
        case 1...26: return .key(.ctrl(Character(Unicode.Scalar(UInt8(value) + 96))))
        case 0, 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            return .key(.char(Character(scalar)))
        }
    }

    /// Esc on its own, or the start of a sequence that no terminfo key matched (ncurses then
    /// hands it over a character at a time): a mouse report in a format not asked for, a key
    /// this terminal's entry does not list, a terminal's answer. Such a sequence is read to its
    /// end and dropped, never typed (its digits would pick monitor kinds, its letters fill a
    /// field). Esc followed by anything else (Alt and a key) stays Esc, then that key.
    ///
    /// ncurses has already waited ESCDELAY after the Esc, so whatever followed it is buffered
    /// and read at once; nothing is waited for after a lone Esc.
    private func decodeEscape() -> InputEvent? {
        timeout(0)
        var next: wint_t = 0
        let result = get_wch(&next)
        if result == ERR { return .key(.escape) }
        if result == KEY_CODE_YES {
            ungetch(Int32(next))
            return .key(.escape)
        }
        switch next {
        case 0x5B:  // "[": a control sequence (CSI).
            let read = dropSequence { (0x40...0x7E).contains($0) }
            // An X10 mouse report, "ESC [ M" and three bytes of button and position.
            if read.last == 0x4D, read.count == 1 { dropSequence(count: 3) }
        case 0x4F:  // "O": SS3, one final character.
            dropSequence(count: 1)
        case 0x50, 0x5D, 0x5E, 0x5F:  // "P", "]", "^", "_": a string, ended by BEL or by ESC and a backslash.
            if dropSequence(until: { $0 == 0x07 || $0 == 0x1B }).last == 0x1B { dropSequence(count: 1) }
        default:
            unget_wch(wchar_t(bitPattern: UInt32(next)))
            return .key(.escape)
        }
        return nil
    }

    /// Reads and drops the rest of a sequence: `count` characters, or up to and including the
    /// first that `isFinal` accepts; at most 256, each waited for at most 50 ms (the sequence
    /// is normally already buffered). Returns the last character read and how many were.
    @discardableResult
    private func dropSequence(
        count: Int = 256, until isFinal: (wint_t) -> Bool = { _ in false }
    ) -> (last: wint_t?, count: Int) {
        timeout(50)
        var read = 0
        var character: wint_t = 0
        while read < count {
            let result = get_wch(&character)
            if result == ERR { return (nil, read) }
            read += 1
            if result != KEY_CODE_YES, isFinal(character) { break }
        }
        return (character, read)
    }

    /// With the mouse off, ncurses still knows a report by its start (terminfo's `kmous`) and
    /// returns KEY_MOUSE, but leaves the rest unread, to arrive as typed characters (a click's
    /// "0;10;5M"): drop it, three bytes after `ESC [ M`, up to the final letter after `ESC [ <`.
    private func dropUnreadMouseReport() {
        guard !options.mouse else { return }
        let start = tigetstr("kmous").flatMap { Int(bitPattern: $0) <= 0 ? nil : String(cString: $0) }
        if start == "\u{1b}[M" {
            dropSequence(count: 3)
        } else {
            dropSequence { (0x40...0x7E).contains($0) }
        }
    }

    private func decodeKeyCode(_ code: Int32) -> InputEvent? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_DC: return .key(.delete)
        case KEY_IC: return .key(.insert)
        case KEY_BTAB: return .key(.backTab)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_ENTER: return .key(.enter)
        case KEY_RESIZE:
            currentSize = TerminalSize(width: Int(nc_cols()), height: Int(nc_lines()))
            return .resize(currentSize)
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else {
                dropUnreadMouseReport()
                return nil
            }
            let state = event.bstate
            let kind: MouseEvent.Kind
            if state & nc_button1_pressed() != 0 || state & nc_button1_clicked() != 0 {
                kind = .press
            } else if state & nc_button1_released() != 0 {
                kind = .release
            } else if state & nc_button4_pressed() != 0 {
                kind = .wheelUp
            } else if state & nc_button5_pressed() != 0 {
                kind = .wheelDown
            } else {
                return nil
            }
            return .mouse(MouseEvent(kind, x: Int(event.x), y: Int(event.y)))
        default:
            let first = nc_key_f(1)
            if code >= first && code < first + 24 { return .key(.function(Int(code - first + 1))) }
            return nil
        }
    }

    // MARK: Colours

    private func definePairs() {
        var pairs: [RoleAppearance: Int16] = [:]
        var next: Int16 = 1
        for role in Role.allCases {
            let appearance = options.theme.appearance(for: Style(role))
            let key = RoleAppearance(foreground: appearance.foreground, background: appearance.background)
            if key.foreground == .terminalDefault && key.background == .terminalDefault {
                rolePairs[role] = 0
                continue
            }
            if let existing = pairs[key] {
                rolePairs[role] = existing
                continue
            }
            guard Int32(next) < nc_color_pairs() else { break }
            init_pair(next, colorNumber(key.foreground), colorNumber(key.background))
            pairs[key] = next
            rolePairs[role] = next
            next += 1
        }
    }

    private func colorNumber(_ color: ThemeColor) -> Int16 {
        switch color {
        case .terminalDefault: return -1
        case .indexed(let index):
            let available = Int(nc_colors())
            if index < available { return Int16(index) }
            return Int16(index % 8)
        }
    }

    private func ncursesAttributes(_ attributes: TextAttributes) -> attr_t {
        var result = nc_a_normal()
        if attributes.contains(.bold) { result |= nc_a_bold() }
        if attributes.contains(.underline) { result |= nc_a_underline() }
        if attributes.contains(.reverse) { result |= nc_a_reverse() }
        if attributes.contains(.dim) { result |= nc_a_dim() }
        return result
    }
}
