import Foundation

/// The path typed in an export prompt (contact trace, dashboard), checked before anything is
/// written: the trimmed path, or what to type instead.
enum ExportPath {
    /// `example` is a file name to suggest ("trace.csv"); `defaultPath` the whole default path.
    static func checked(_ typed: String, defaultPath: String, example: String) -> Result<String, ExportPathProblem> {
        let path = typed.trimmingCharacters(in: .whitespaces)
        if path.isEmpty { return .failure(.init(message: "type the file to write, e.g. \(defaultPath)")) }
        if path.hasSuffix("/") {
            return .failure(.init(message: "\(path) is a folder: add a file name, e.g. \(example)"))
        }
        return .success(path)
    }
}

struct ExportPathProblem: Error {
    let message: String
}
