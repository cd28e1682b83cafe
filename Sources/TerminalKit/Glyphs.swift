/// The symbols a terminal can draw: Unicode box drawing, marks and `…`, or their ASCII forms
/// for a locale without UTF-8 (`LANG=C`), where ncurses cannot draw the Unicode ones and they
/// would vanish (a border gone, a cut number looking whole).
///
/// Decided once at start from the codeset the terminal's locale reports, and carried by the
/// ``Buffer`` a frame is drawn into (``Buffer/glyphs``): the widgets take their borders, marks
/// and ellipsis from it, and ``Buffer/put(_:x:y:style:maxWidth:clip:)`` writes any other
/// symbol in its ASCII form, so nothing reaches an ASCII terminal that it cannot show.
public struct Glyphs: Hashable, Sendable {
    /// True when only ASCII can be drawn.
    public var ascii: Bool

    public init(ascii: Bool) {
        self.ascii = ascii
    }

    /// Every symbol as itself (a UTF-8 locale).
    public static let unicode = Glyphs(ascii: false)
    /// ASCII forms only.
    public static let asciiOnly = Glyphs(ascii: true)

    /// What ends cut text: `…`, or `...`.
    public var ellipsis: String { ascii ? "..." : "…" }
    /// A border's horizontal and vertical rules.
    public var horizontal: String { ascii ? "-" : "─" }
    public var vertical: String { ascii ? "|" : "│" }
    /// Marks in a border while rows are out of view above or below.
    public var moreAbove: String { ascii ? "^" : "▲" }
    public var moreBelow: String { ascii ? "v" : "▼" }
    /// The selected row's or field's marker.
    public var marker: String { ascii ? ">" : "›" }

    /// `text` cut to `columns` with this set's ellipsis (see ``DisplayWidth/truncate(_:to:ellipsis:)``).
    public func truncate(_ text: String, to columns: Int) -> String {
        DisplayWidth.truncate(self(text), to: columns, ellipsis: ellipsis)
    }

    /// ASCII forms, each keeping the symbol's meaning: `≥` is `>=`, `✓` is `ok` (`v` already
    /// stands for ▼, a sort order), box corners are `+`, bars and blocks `#`; Italian's grave accents
    /// are an apostrophe after the vowel, as Italian is typed without them.
    static let forms: [Character: String] = [
        "≥": ">=", "≤": "<=", "–": "-", "—": "-", "−": "-", "▼": "v", "▲": "^", "…": "...", "✓": "ok", "✗": "x",
        "↑": "^", "↓": "v", "→": "->", "←": "<-", "“": "\"", "”": "\"", "‘": "'", "’": "'", "•": "*", "●": "*",
        "›": ">", "‹": "<", "·": "-", "×": "x", "‖": "||", "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+",
        "┘": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "#", "▍": "#", "▎": "#", "▏": "#", "▁": "_", "▂": "_",
        "▃": ".", "▄": "-", "▅": "-", "▆": "=", "▇": "=", "⚠": "!",
        // Italian's accented vowels as Italian writes them without accents (attivita', e').
        "à": "a'", "è": "e'", "ì": "i'", "ò": "o'", "ù": "u'", "È": "E'", "«": "\"", "»": "\"",
    ]

    /// `text` with every symbol in this set's form: unchanged for Unicode; for ASCII each known
    /// symbol in its ASCII form and anything else that is not ASCII as `?` (one per column), so
    /// a name in another script shows that something is there.
    public func callAsFunction(_ text: String) -> String {
        guard ascii, text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var out = ""
        for character in text {
            if character.isASCII {
                out.append(character)
            } else if let form = Self.forms[character] {
                out += form
            } else {
                let width = DisplayWidth.of(character)
                if width > 0 { out += String(repeating: "?", count: width) }
            }
        }
        return out
    }
}
