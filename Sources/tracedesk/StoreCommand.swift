import DeskStore
import Foundation

/// `tracedesk migrate` and `tracedesk store info`: the store's schema and sizes.
enum StoreCommand {
    static var help: String { HelpText.command(CommandTable.command("store")) }

    static func migrate(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, CommandTable.command("migrate"), command: "migrate")
        if arguments.has("help") {
            print(HelpText.command(CommandTable.command("migrate")))
            return .success
        }
        guard arguments.positionals.isEmpty else {
            throw UsageError(tr("cli.migrate.noArguments"), command: "migrate")
        }
        do {
            let store = try StoreLocation.open(arguments.values["store"], poolSize: 1)
            let version = try store.schemaVersion()
            print(tr("cli.migrate.done", ["location": store.location, "version": String(version)]))
            return .success
        } catch {
            printError("migrate: \(error.message)")
            return .storeUnavailable
        }
    }

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, CommandTable.command("store"), command: "store")
        if arguments.has("help") {
            print(help)
            return .success
        }
        switch arguments.positionals.first {
        case "info":
            guard arguments.positionals.count == 1 else {
                throw UsageError(tr("cli.store.noArguments"), command: "store")
            }
            return info(arguments)
        case let other?:
            throw UsageError(tr("cli.store.unknownVerb", ["verb": other]), command: "store")
        case nil:
            throw UsageError(tr("cli.store.sayWhat"), command: "store")
        }
    }

    static func info(_ arguments: Arguments) -> ExitStatus {
        let info: StoreInfo
        do {
            info = try StoreLocation.open(arguments.values["store"], poolSize: 1).info()
        } catch {
            printError("store info: \(error.message)")
            return .storeUnavailable
        }
        if arguments.has("json") {
            let json = StoreInfoJSON(
                adapter: info.adapter, location: info.location, schema_version: info.schemaVersion,
                known_version: info.knownVersion, total_bytes: info.totalBytes,
                tables: info.tables.map { TableJSON(name: $0.name, rows: $0.rows, bytes: $0.bytes) })
            print(jsonLine(json, fallback: "{}"))
            return .success
        }
        // The labels padded to one column (16, or the longest label and two spaces).
        let labels = ["adapter", "location", "schema", "size"].map { tr("cli.store.info.\($0)") }
        let column = max(16, (labels.map(\.count).max() ?? 0) + 2)
        let values = [
            info.adapter, info.location,
            tr(
                "cli.store.info.schemaValue",
                ["version": String(info.schemaVersion), "known": String(info.knownVersion)]),
            bytes(info.totalBytes),
        ]
        for (label, value) in zip(labels, values) { print(pad(label, column) + value) }
        let width = info.tables.map(\.name.count).max() ?? 10
        let showBytes = info.tables.contains { $0.bytes != nil }
        print("")
        print(
            pad(tr("cli.store.info.table"), width) + "  " + left(tr("cli.store.info.rows"), 10)
                + (showBytes ? "  " + left(tr("cli.store.info.tableSize"), 10) : ""))
        for table in info.tables {
            var line = pad(table.name, width) + "  " + left(String(table.rows), 10)
            if showBytes { line += "  " + left(table.bytes.map(bytes) ?? "", 10) }
            print(line)
        }
        return .success
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func left(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// 12.3 MB, 512 kB, 12 B (decimal units; "12,3 MB" in Italian).
    static func bytes(_ count: Int64) -> String {
        let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        for (size, unit) in units where Double(count) >= size {
            return Language.current.decimal(String(format: "%.1f", Double(count) / size)) + " " + unit
        }
        return "\(count) B"
    }
}

/// `store info --json`.
struct StoreInfoJSON: Encodable {
    let adapter: String
    let location: String
    let schema_version: Int
    let known_version: Int
    let total_bytes: Int64
    let tables: [TableJSON]
}

struct TableJSON: Encodable {
    let name: String
    let rows: Int64
    /// null (not left out) where the adapter cannot tell.
    let bytes: Int64?

    enum CodingKeys: String, CodingKey { case name, rows, bytes }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(rows, forKey: .rows)
        try container.encode(bytes, forKey: .bytes)
    }
}
