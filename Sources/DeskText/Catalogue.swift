import Synchronization

/// The message catalogue: every word the console and the command line show, by key, in each
/// ``Language``.
///
/// Messages are Swift tables compiled into the binary (nothing to install or find at run time),
/// one file per area and language: `English+ConsoleTracing.swift` beside
/// `Italian+ConsoleTracing.swift`, and so on, each
/// a list of `(key, text)` pairs registered in ``entries(_:)``. A text names its arguments as
/// `{name}`; a count's two forms are two keys, `KEY.one` and `KEY.other` (``trCount(_:_:_:)``).
///
/// Keys are dotted: the area, the screen or command, the message (`console.signin.title`,
/// `cli.case.open.summary`). Wire contracts (API error bodies, JSON field names) are not here:
/// they stay as the specs say.
///
/// Tests (DeskTextTests) fail when a key is in one language and not the other, when a key is
/// twice in one, or when a message's placeholders differ between languages. At run time a key
/// missing in a language falls back to English, and one missing everywhere shows "(text
/// missing)" (`common.missing`), never the key; both are counted (``missingLookups``) for the tests to see.
public enum Catalogue {
    /// Every area's table for `language`, in one list (duplicates are the tests' to find).
    public static func entries(_ language: Language) -> [(String, String)] {
        switch language {
        case .en:
            return English.common + English.consoleFrame + English.consoleTracing + English.consoleSupervision
                + English.cli + English.cliOutput + English.benchRun + English.errors
                + English.messages
        case .it:
            return Italian.common + Italian.consoleFrame + Italian.consoleTracing + Italian.consoleSupervision
                + Italian.cli + Italian.cliOutput + Italian.benchRun + Italian.errors
                + Italian.messages
        }
    }

    private static let tables: [Language: [String: String]] = {
        var tables: [Language: [String: String]] = [:]
        for language in Language.allCases {
            // Later entries win over earlier ones here; the tests fail on any duplicate.
            tables[language] = Dictionary(entries(language), uniquingKeysWith: { _, last in last })
        }
        return tables
    }()

    private static let missing = Mutex<Int>(0)

    /// How many lookups found no text in their language (and fell back), since the process began.
    public static var missingLookups: Int { missing.withLock { $0 } }

    /// The raw text of `key` in `language`, falling back to English; nil when no language has it.
    public static func raw(_ key: String, in language: Language) -> String? {
        if let text = tables[language]?[key] { return text }
        missing.withLock { $0 += 1 }
        return tables[.en]?[key]
    }

    /// `key`'s text with `{name}` replaced by `arguments[name]`.
    public static func text(_ key: String, _ arguments: [String: String] = [:], in language: Language) -> String {
        guard let template = raw(key, in: language) else {
            return tables[language]?["common.missing"] ?? tables[.en]?["common.missing"] ?? "?"
        }
        return arguments.isEmpty ? template : fill(template, arguments)
    }

    /// `template` with each `{name}` that `arguments` names replaced; other braces stay.
    public static func fill(_ template: String, _ arguments: [String: String]) -> String {
        var out = ""
        out.reserveCapacity(template.utf8.count)
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = arguments[String(after[..<close])] {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out.append("{")
                rest = after
            }
        }
        out += rest
        return out
    }

    /// The placeholder names of a text (`{name}`), for the tests' cross-language check.
    public static func placeholders(_ template: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                names.insert(String(name))
            }
            rest = after[after.index(after: close)...]
        }
        return names
    }
}

/// `key`'s text in the current language (``Language/current``), arguments filled in.
public func tr(_ key: String, _ arguments: [String: String] = [:]) -> String {
    Catalogue.text(key, arguments, in: Language.current)
}

/// A count's message: `KEY.one` for 1, `KEY.other` otherwise (both languages have these two
/// forms), with `{count}` filled in beside `arguments`.
public func trCount(_ key: String, _ count: Int, _ arguments: [String: String] = [:]) -> String {
    var arguments = arguments
    arguments["count"] = String(count)
    return Catalogue.text(key + (count == 1 ? ".one" : ".other"), arguments, in: Language.current)
}

/// The English and Italian tables, one extension per area and language (English+…, Italian+…).
public enum English {}
public enum Italian {}
