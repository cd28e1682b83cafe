import Synchronization

/// The languages TraceDesk speaks. English is the fallback: every message exists in it.
public enum Language: String, Sendable, CaseIterable, Hashable {
    case en, it

    /// The language for this task and the code it calls synchronously; tests render in both
    /// languages side by side with `Language.$scoped.withValue(.it) { … }`.
    @TaskLocal public static var scoped: Language?

    private static let processWide = Mutex<Language>(.en)

    /// The language messages are looked up in: the task's (``scoped``), else the process's
    /// (``setProcessWide(_:)``, set once at start by the command line), else English.
    public static var current: Language { scoped ?? processWide.withLock { $0 } }

    /// Sets the process's language: once, at start, before any screen or output.
    public static func setProcessWide(_ language: Language) { processWide.withLock { $0 = language } }

    /// The language a locale name asks for: `it_IT.UTF-8`, `it`, `it_CH@euro` → Italian;
    /// `en_GB.UTF-8` → English; `C`, `POSIX`, empty or another language → nil (no preference
    /// this program can meet, so it goes on to the next source).
    public static func ofLocale(_ name: String) -> Language? {
        let base = name.split(whereSeparator: { $0 == "_" || $0 == "." || $0 == "@" || $0 == "-" }).first
        guard let base else { return nil }
        return Language(rawValue: base.lowercased())
    }

    /// The language an HTTP `Accept-Language` header asks for (`it-IT,it;q=0.9,en;q=0.8` →
    /// Italian): of the ranges this program speaks, the one with the highest weight (the first
    /// of equal ones); `q=0`, `*` and languages TraceDesk does not speak count for nothing, and
    /// nil means no preference it can meet. Malformed parts are skipped, never an error: the
    /// header is a client's wish, not a command.
    public static func ofAcceptLanguage(_ header: String) -> Language? {
        var best: (language: Language, weight: Double)?
        for part in header.split(separator: ",").prefix(32) {
            let pieces = part.split(separator: ";")
            guard let range = pieces.first.map(trimmed), range != "*",
                let language = ofLocale(range)
            else { continue }
            var weight = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(trimmed)
                if pair.count == 2, pair[0].lowercased() == "q" { weight = Double(pair[1]) ?? 0 }
            }
            guard weight > 0, weight <= 1 else { continue }
            if best == nil || weight > best!.weight { best = (language, weight) }
        }
        return best?.language
    }

    private static func trimmed(_ text: Substring) -> String {
        String(
            text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }

    /// The mark between a number's whole part and its decimals: "." in English, "," in Italian
    /// ("8,5", "0,28%"). Machine formats (JSON, CSV, logs) keep "." whatever the language.
    public var decimalSeparator: Character { self == .it ? "," : "." }

    /// `text` (digits with "." before the decimals, as `String(format:)` and our formatters make
    /// them) with this language's decimal separator.
    public func decimal(_ text: String) -> String {
        self == .en ? text : String(text.map { $0 == "." ? decimalSeparator : $0 })
    }

    /// Where the language in force came from, for `tracedesk settings` and the docs.
    public enum Source: Sendable, Hashable {
        case option, settingsFile
        /// The locale variable that named it.
        case environment(String)
        case fallback
    }

    /// The language in force: `--lang` (an explicit choice for this run), then the console's
    /// settings file (the person's choice for this program), then the locale (`LC_ALL`, else
    /// `LC_MESSAGES`, else `LANG`: the first that is set, as POSIX reads them; `C` or a language
    /// TraceDesk does not speak ends the search there), then English.
    ///
    /// `option` and `settingsFile` are already checked values ("en" or "it"); an unknown one is the
    /// caller's error to report, and is skipped here.
    public static func resolve(option: String?, settingsFile: String?, environment: [String: String])
        -> (language: Language, source: Source)
    {
        if let option, let language = Language(rawValue: option) { return (language, .option) }
        if let settingsFile, let language = Language(rawValue: settingsFile) { return (language, .settingsFile) }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            if let language = ofLocale(value) { return (language, .environment(name)) }
            return (.en, .fallback)
        }
        return (.en, .fallback)
    }
}
