import Foundation
import TerminalKit

/// Finds `NAME.json` among the theme folders and parses it.
enum ThemeLoader {
    struct Failure: Error {
        let message: String
    }

    /// Folders searched, in order: `$TRACEDESK_THEMES`, `$XDG_CONFIG_HOME/tracedesk/themes`
    /// (or `~/.config/tracedesk/themes`), the installed `share/tracedesk/themes` (the Debian
    /// package's /usr/share/tracedesk/themes), and the source tree's `themes/` above a `.build`
    /// binary (``InstallPaths``).
    static var folders: [String] {
        let environment = ProcessInfo.processInfo.environment
        var result: [String] = []
        if let custom = environment["TRACEDESK_THEMES"], !custom.isEmpty { result.append(custom) }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        result.append(config + "/tracedesk/themes")
        return result + InstallPaths.candidates(installed: "themes", name: "themes")
    }

    static func load(_ name: String) throws(Failure) -> Theme {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw Failure(message: "theme names are letters, digits, '-' and '_': got '\(name)'")
        }
        if name == "monochrome" { return .monochrome }
        let folders = self.folders
        for folder in folders {
            let path = folder + "/" + name + ".json"
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            do {
                return try Theme.parse(json: String(decoding: data, as: UTF8.self), name: name)
            } catch {
                throw Failure(
                    message: tr("theme.fileProblems", ["path": path]) + "\n  "
                        + error.problems.map(\.description).joined(separator: "\n  "))
            }
        }
        let available = Set(
            folders.flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
                    .map { String($0.dropLast(5)) }
            }
        ).sorted()
        throw Failure(
            message: available.isEmpty
                ? tr("theme.notFound", ["name": name])
                : tr("theme.notFoundAvailable", ["name": name, "names": available.joined(separator: ", ")]))
    }
}
