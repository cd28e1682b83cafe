import DeskText
import Foundation

/// The path typed in an export prompt (contact trace, dashboard), checked before anything is
/// written: the trimmed path, or what to type instead.
///
/// Exports are suggested in the user's documents folder (`XDG_DOCUMENTS_DIR`, else
/// `~/Documents` when it exists), else their home folder, never the current folder (often a
/// source checkout); the suggestion is written with `~`, so it stays short enough to read in
/// the prompt, and `~` is expanded only when the file is written (``expanded(_:home:)``).
enum ExportPath {
    /// `example` is a file name to suggest ("trace.csv"); `defaultPath` the whole default path.
    static func checked(_ typed: String, defaultPath: String, example: String) -> Result<String, ExportPathProblem> {
        let path = typed.trimmingCharacters(in: .whitespaces)
        if path.isEmpty { return .failure(.init(message: tr("console.frame.export.typeFile", ["path": defaultPath]))) }
        if path.hasSuffix("/") {
            return .failure(.init(message: tr("console.frame.export.isFolder", ["path": path, "example": example])))
        }
        return .success(path)
    }

    /// The folder exports are suggested in, as shown: `~/Documents`, a documents folder
    /// elsewhere, or `~`; `.` only without a home folder.
    static func defaultFolder(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isFolder: (String) -> Bool = ExportPath.isFolder
    ) -> String {
        guard let home = environment["HOME"], !home.isEmpty else { return "." }
        if let documents = environment["XDG_DOCUMENTS_DIR"], !documents.isEmpty, isFolder(documents) {
            return shown(documents, home: home)
        }
        if isFolder(home + "/Documents") { return "~/Documents" }
        return "~"
    }

    /// `path` with a leading `~` as the home folder (the prompt's short form); as typed otherwise.
    static func expanded(_ path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard let home, !home.isEmpty else { return path }
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// `folder` under `home` written with `~`.
    static func shown(_ folder: String, home: String) -> String {
        let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
        if folder == trimmed { return "~" }
        if folder.hasPrefix(trimmed + "/") { return "~" + folder.dropFirst(trimmed.count) }
        return folder
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}

struct ExportPathProblem: Error {
    let message: String
}
