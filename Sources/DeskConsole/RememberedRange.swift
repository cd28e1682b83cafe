import DeskContract
import DeskCore
import Foundation

/// The dashboard's range, kept between runs in the user's state folder (the XDG base directory
/// rules): `$XDG_STATE_HOME/tracedesk/dashboard-range`, or `~/.local/state/tracedesk/…` when
/// `XDG_STATE_HOME` is unset, empty or not an absolute path (as ``ExportPath`` and the theme
/// loader read their folders). The file holds one word, the range's name (`today`, `1h`, `24h`,
/// `7d`, `14d`), and is written whole, mode 0600, in a folder made 0700.
///
/// A preference, never a reason to stop: a file that is missing, unreadable, too long, not a
/// plain file or not a range's name is ignored (the dashboard opens on the last hour) and is
/// replaced at the next change; a write that fails is dropped.
public enum RememberedRange {
    /// The file's name in the state folder.
    public static let fileName = "dashboard-range"
    /// More than any range's name: a longer file is not one of ours.
    static let maximumBytes = 32

    /// The file, or nil without a home folder (nothing is kept then).
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/tracedesk/" + fileName
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
        return trimmed + "/.local/state/tracedesk/" + fileName
    }

    /// The range kept in `path`; nil for anything else (no file, unreadable, not a range).
    /// Opened without following a link or waiting on a pipe, and read up to a few bytes.
    public static func read(_ path: String) -> StatsRange? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumBytes else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0, count <= maximumBytes else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return StatsRange(rawValue: text)
    }

    /// Keeps `range` in `path`: the folders made 0700 where missing (the state folder's own
    /// rule), the file replaced whole, 0600. Returns what went wrong, nil when kept.
    @discardableResult
    public static func write(_ range: StatsRange, to path: String) -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return "cannot make \(folder): \(error.localizedDescription)"
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array((range.rawValue + "\n").utf8), to: path, overwrite: true)
        } catch {
            return error.message
        }
        return nil
    }
}
