import DeskAPI
import DeskCore
import JSONText

/// The settings file behind `GET /v1/settings`, compiled into ready-to-send bodies.
///
/// File: `{"entries": [{"platform": "ios"|"android"|"all", "starting_build": n, "settings": {...}}]}`.
/// For a platform and build, each key comes from the entry with the highest
/// `starting_build ≤ build`; a platform's own entry beats an `all` entry with the same
/// `starting_build`. Bodies are computed once per distinct `starting_build`, so a request is
/// a lookup.
public struct AppSettingsTable: Sendable {
    struct Entry {
        var platform: String
        var startingBuild: Int
        var settings: [JSONValue.Member]
    }

    /// Per platform: ascending starting builds and the body from each.
    private var bodies: [String: [(startingBuild: Int, body: [UInt8])]] = [:]

    private init() {}

    /// Parses a settings file; every problem is reported at once.
    public static func parse(_ text: [UInt8]) -> Result<AppSettingsTable, ConfigError> {
        let document: JSONValue
        do {
            document = try JSONReader.parse(utf8: text)
        } catch {
            return .failure(ConfigError(problems: ["not valid JSON at byte \(error.offset): \(error.reason)"]))
        }
        guard case .array(let items)? = document["entries"] else {
            return .failure(ConfigError(problems: [#"the file must be an object with an "entries" list"#]))
        }
        var problems: [String] = []
        var entries: [Entry] = []
        for (i, item) in items.enumerated() {
            guard case .object = item else {
                problems.append("entries[\(i)] must be an object")
                continue
            }
            var entry = Entry(platform: "", startingBuild: 0, settings: [])
            if case .string(let platform)? = item["platform"], ["ios", "android", "all"].contains(platform) {
                entry.platform = platform
            } else {
                problems.append("entries[\(i)].platform must be ios, android or all")
            }
            if case .number(let text)? = item["starting_build"], let n = Fields.parseInteger(text),
                (1...20_000).contains(n)
            {
                entry.startingBuild = Int(n)
            } else {
                problems.append("entries[\(i)].starting_build must be a whole number from 1 to 20000")
            }
            if case .object(let members)? = item["settings"] {
                entry.settings = members
            } else {
                problems.append("entries[\(i)].settings must be an object")
            }
            entries.append(entry)
        }
        if !problems.isEmpty { return .failure(ConfigError(problems: problems)) }
        var table = AppSettingsTable()
        for platform in ["ios", "android"] {
            let mine = entries.filter { $0.platform == platform || $0.platform == "all" }
            let thresholds = Set(mine.map(\.startingBuild)).sorted()
            table.bodies[platform] = thresholds.map { build in
                // Apply in order: lower builds first, and at equal builds "all" before the platform.
                let applicable = mine.filter { $0.startingBuild <= build }.sorted {
                    ($0.startingBuild, $0.platform == "all" ? 0 : 1) < ($1.startingBuild, $1.platform == "all" ? 0 : 1)
                }
                var merged: [JSONValue.Member] = []
                var position: [String: Int] = [:]
                for entry in applicable {
                    for member in entry.settings {
                        if let at = position[member.key] {
                            merged[at] = member
                        } else {
                            position[member.key] = merged.count
                            merged.append(member)
                        }
                    }
                }
                return (build, Array(JSONValue.object(merged).serialized.utf8))
            }
        }
        return .success(table)
    }

    /// The body for a platform and build (`{}` when no entry applies).
    public func body(platform: String, build: Int) -> [UInt8] {
        guard let list = bodies[platform] else { return Array("{}".utf8) }
        var found: [UInt8]?
        for entry in list where entry.startingBuild <= build { found = entry.body }
        return found ?? Array("{}".utf8)
    }
}

/// The settings table of a file that staff may edit while the server runs: re-read when the
/// file changes; a broken edit is logged and the previous table kept.
public final class AppSettingsFile: @unchecked Sendable {
    public let path: String
    private let lock = SimpleLock()
    private var table: AppSettingsTable
    private var stamp: FileStamp?
    private let log: @Sendable (String) -> Void

    /// Loads the file; fails with every problem when it cannot be used.
    public init(path: String, log: @escaping @Sendable (String) -> Void) throws(ConfigError) {
        self.path = path
        self.log = log
        guard let (bytes, stamp) = FileStamp.read(path) else {
            throw ConfigError(problems: ["app settings file \(path) cannot be read: check app_settings_file"])
        }
        switch AppSettingsTable.parse(bytes) {
        case .success(let table):
            self.table = table
            self.stamp = stamp
        case .failure(let error):
            throw ConfigError(problems: error.problems.map { "app settings file \(path): \($0)" })
        }
    }

    public var current: AppSettingsTable { lock.withLock { table } }

    /// Re-reads the file if it changed since the last look.
    public func reloadIfChanged() {
        guard let now = FileStamp.of(path), now != lock.withLock({ stamp }) else { return }
        guard let (bytes, stamp) = FileStamp.read(path) else { return }
        switch AppSettingsTable.parse(bytes) {
        case .success(let table):
            lock.withLock {
                self.table = table
                self.stamp = stamp
            }
            log("app settings reloaded from \(path)")
        case .failure(let error):
            lock.withLock { self.stamp = stamp }
            log(
                "app settings file \(path) was changed but is broken, still serving the previous settings: "
                    + error.problems.joined(separator: "; "))
        }
    }
}
