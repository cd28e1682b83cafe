import DeskCore
import DeskStore
import DeskText
import Foundation

/// Where the embedded store lives, and opening it with errors a person can act on.
package enum StoreLocation {
    /// `$XDG_DATA_HOME/tracedesk/tracedesk.sqlite`, falling back to `~/.local/share`.
    package static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/tracedesk/tracedesk.sqlite"
    }

    /// The store named by `--store`, else `TRACEDESK_STORE`, else nil (the default file).
    package static func named(_ argument: String?) -> String? {
        if let argument, !argument.isEmpty { return argument }
        if let environment = ProcessInfo.processInfo.environment["TRACEDESK_STORE"], !environment.isEmpty {
            return environment
        }
        return nil
    }

    /// Opens the store `spec` names: a `postgres://` URL (PostgreSQL), else an SQLite file path;
    /// nil is `TRACEDESK_STORE`, then the default file (whose folder is created on first run).
    package static func open(
        _ spec: String?, busyTimeoutMilliseconds: Int32 = 5_000, poolSize: Int = 8
    ) throws(StoreError) -> any Store {
        let spec = named(spec)
        if let spec, PostgresStore.isURL(spec) {
            return try PostgresStore(
                url: spec, poolSize: poolSize, waitMilliseconds: Int(busyTimeoutMilliseconds))
        }
        return try openFile(spec, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Opens the SQLite store at `path` (or the default, whose folder is created on first run).
    package static func openFile(_ path: String?, busyTimeoutMilliseconds: Int32 = 5_000) throws(StoreError)
        -> SQLiteStore
    {
        let resolved = path ?? defaultPath
        if path == nil {
            let folder = (resolved as NSString).deletingLastPathComponent
            do {
                // 0700: the store's folder is no one else's to list.
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotOpen(path: resolved, reason: tr("messages.store.cannotCreateFolder", ["folder": folder]))
            }
        } else {
            let folder = (resolved as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
                throw .cannotOpen(path: resolved, reason: tr("messages.store.noFolder", ["folder": folder]))
            }
            if FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue {
                throw .cannotOpen(path: resolved, reason: tr("messages.store.isFolder"))
            }
        }
        return try SQLiteStore(path: resolved, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// How long an authorised code stays usable: `TRACEDESK_OTP_TTL_SECONDS`, default 150
    /// (Immuni's lifetime), 10...3600 accepted.
    package static func otpLifetime() throws(UsageError) -> Duration {
        guard let text = ProcessInfo.processInfo.environment["TRACEDESK_OTP_TTL_SECONDS"], !text.isEmpty else {
            return .seconds(150)
        }
        guard let seconds = Int64(text), (10...3600).contains(seconds) else {
            throw UsageError(
                tr("cli.usage.otpTTL", ["value": String(text.prefix(20))]),
                command: "tracedesk")
        }
        return .seconds(seconds)
    }

    /// How long to wait for another process's write lock: `TRACEDESK_BUSY_TIMEOUT_MS`, default
    /// 5000, 100...600000 accepted (the same range as `tracedesk serve`'s `busy_timeout_ms`).
    package static func busyTimeout() throws(UsageError) -> Int32 {
        guard let text = ProcessInfo.processInfo.environment["TRACEDESK_BUSY_TIMEOUT_MS"], !text.isEmpty else {
            return 5_000
        }
        guard let value = Int32(text), (100...600_000).contains(value) else {
            throw UsageError(
                tr("cli.usage.busyTimeout", ["value": String(text.prefix(20))]),
                command: "tracedesk")
        }
        return value
    }

    /// The OS user name: who authorised, until staff accounts exist.
    package static var userName: String {
        let environment = ProcessInfo.processInfo.environment
        if let user = environment["USER"], !user.isEmpty { return user }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "unknown"
    }
}
