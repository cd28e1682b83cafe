import DeskText
import Foundation
import JSONText
import Synchronization

/// The console's own settings file, `$XDG_CONFIG_HOME/tracedesk/console.json`
/// (`~/.config/tracedesk/console.json`), so that a tracer types `tracedesk` and lands on their
/// server's sign-in:
///
/// ```json
/// {"server": "https://desk.asl-roma1.example:8081", "user": "rossi", "theme": "high-contrast",
///  "language": "it", "export_folder": "~/Documents/tracciamento"}
/// ```
///
/// Each value is taken from the first of: the command line's option, its environment variable,
/// the file, the default; ``resolve(options:environment:)`` says which for each (`tracedesk
/// settings` prints it). A file that cannot be read as JSON, or a value of the wrong kind, is
/// reported with its line and ignored (the console starts on the other values), never a crash.
struct ConsoleSettings {
    /// One setting in force: its value (nil: none) and where it came from.
    struct Value: Equatable {
        var value: String?
        var source: String
    }

    /// The keys the file may hold, in the order `tracedesk settings` prints them.
    static let keys = ["server", "user", "theme", "language", "export_folder"]
    static let languages = ["en", "it"]

    var values: [String: Value] = [:]
    /// What is wrong with the file (each with the file's name and a line), in file order.
    var problems: [String] = []
    /// The file read (or looked for).
    var path: String

    subscript(key: String) -> Value { values[key] ?? Value(value: nil, source: "default") }

    /// `$XDG_CONFIG_HOME/tracedesk/console.json`; `~/.config/…` when XDG_CONFIG_HOME is unset or
    /// not absolute (as the XDG rules say).
    static func path(environment: [String: String]) -> String {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return config + "/tracedesk/console.json"
    }

    /// The file's bytes by path, read once a run: main reads it for the language before any
    /// command, and the console and `tracedesk settings` read it again for the other values.
    /// Only the bytes are kept: their problems are worded in the language in force when asked.
    private static let contents = Mutex<[String: (data: Data?, exists: Bool)]>([:])

    private static func bytes(_ path: String) -> (data: Data?, exists: Bool) {
        if let read = contents.withLock({ $0[path] }) { return read }
        let data = FileManager.default.contents(atPath: path)
        let read = (data: data, exists: data != nil || FileManager.default.fileExists(atPath: path))
        contents.withLock { $0[path] = read }
        return read
    }

    /// The values of the file at `path` (absent: none, no problem) and its problems.
    static func readFile(_ path: String) -> (values: [String: (value: String, line: Int)], problems: [String]) {
        let read = bytes(path)
        guard let data = read.data else {
            if read.exists {
                return ([:], [tr("cli.settings.file.unreadable", ["file": path])])
            }
            return ([:], [])
        }
        let bytes = Array(data)
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONReader.parse(utf8: bytes)
        } catch {
            return (
                [:],
                [
                    tr(
                        "cli.settings.file.syntax",
                        ["file": path, "line": String(line(of: error.offset, in: bytes)), "reason": error.reason])
                ]
            )
        }
        guard case .object(let members) = document else {
            return ([:], [tr("cli.settings.file.notObject", ["file": path])])
        }
        var values: [String: (value: String, line: Int)] = [:]
        var problems: [String] = []
        var searchFrom = 0
        for member in members {
            let at = lineOfKey(member.key, in: bytes, from: &searchFrom)
            guard keys.contains(member.key) else {
                let known = keys.joined(separator: ", ")
                problems.append(
                    tr(
                        "cli.settings.file.unknownKey",
                        ["file": path, "line": String(at), "key": member.key, "known": known]))
                continue
            }
            guard case .string(let text) = member.value else {
                problems.append(
                    tr(
                        "cli.settings.file.notString",
                        ["file": path, "line": String(at), "key": member.key, "kind": member.value.kind]))
                continue
            }
            if let problem = check(member.key, text) {
                problems.append(
                    tr(
                        "cli.settings.file.badValue",
                        ["file": path, "line": String(at), "key": member.key, "problem": problem]))
                continue
            }
            values[member.key] = (text, at)
        }
        return (values, problems)
    }

    /// What is wrong with a value, nil when it may be used.
    static func check(_ key: String, _ value: String) -> String? {
        switch key {
        case "language" where !languages.contains(value):
            return tr(
                "cli.settings.value.oneOf",
                ["allowed": languages.joined(separator: ", "), "value": terminalSafe(String(value.prefix(20)))])
        case "server" where !(value.hasPrefix("http://") || value.hasPrefix("https://")):
            return tr("cli.settings.value.url")
        case _ where value.isEmpty:
            return tr("cli.settings.value.empty")
        default:
            return nil
        }
    }

    /// The settings in force: `options` (the command line's, by key) over the environment over
    /// the file over the defaults.
    static func resolve(options: [String: String], environment: [String: String]) -> ConsoleSettings {
        let filePath = Self.path(environment: environment)
        let file = readFile(filePath)
        var settings = ConsoleSettings(values: [:], problems: file.problems, path: filePath)
        let fromEnvironment: [String: String] = ["user": "TRACEDESK_USER", "export_folder": "XDG_DOCUMENTS_DIR"]
        let optionNames: [String: String] = ["server": "--server", "user": "--user", "theme": "--theme"]
        for key in keys {
            if key == "language" {
                settings.values[key] = language(
                    option: options[key], file: file.values[key], path: filePath, environment: environment)
                continue
            }
            if let value = options[key], !value.isEmpty {
                settings.values[key] = Value(value: value, source: optionNames[key] ?? key)
            } else if let name = fromEnvironment[key], let value = environment[name], !value.isEmpty {
                settings.values[key] = Value(value: value, source: name)
            } else if let entry = file.values[key] {
                settings.values[key] = Value(
                    value: entry.value,
                    source: tr("cli.settings.fileLine", ["file": filePath, "line": String(entry.line)]))
            } else {
                settings.values[key] = Value(value: defaults[key], source: "default")
            }
        }
        return settings
    }

    static let defaults: [String: String] = ["theme": "default", "language": "en"]

    /// The language in force (``Language/resolve(option:settingsFile:environment:)``): `--lang`,
    /// then the file, then `LC_ALL`/`LC_MESSAGES`/`LANG`, then English.
    static func language(
        option: String?, file: (value: String, line: Int)?, path: String, environment: [String: String]
    ) -> Value {
        let resolved = Language.resolve(option: option, settingsFile: file?.value, environment: environment)
        switch resolved.source {
        case .option: return Value(value: resolved.language.rawValue, source: "--lang")
        case .settingsFile:
            return Value(
                value: resolved.language.rawValue,
                source: tr("cli.settings.fileLine", ["file": path, "line": String(file?.line ?? 1)]))
        case .environment(let name): return Value(value: resolved.language.rawValue, source: name)
        case .fallback: return Value(value: resolved.language.rawValue, source: "default")
        }
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes.prefix(min(offset, bytes.count)).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The line of `"key"` at or after `from` (which moves past it), so that each member of the
    /// object gets its own line even when a key is repeated; 1 when not found.
    static func lineOfKey(_ key: String, in bytes: [UInt8], from: inout Int) -> Int {
        var quoted = ""
        JSONValue.writeString(key, into: &quoted)
        let needle = Array(quoted.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count, from <= bytes.count - needle.count else { return 1 }
        for start in from...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle)
        {
            from = start + needle.count
            return line(of: start, in: bytes)
        }
        return 1
    }
}
