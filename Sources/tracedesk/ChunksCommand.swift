import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskExport
import DeskLocal
import DeskServer
import DeskStore
import Foundation
import TerminalKit

/// `tracedesk keys …`: the P-256 key that signs chunks.
enum KeysCommand {
    static var help: String { HelpText.command(CommandTable.command("keys")) }

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("keys"), command: "keys")
        if arguments.has("help") || words.first == "--help" || words.first == "-h" {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError(
                tr("cli.common.noArguments", ["command": "keys \(words.first ?? "")", "argument": extra]),
                command: "keys")
        }
        switch words.first {
        case "generate":
            guard let out = arguments.values["out"] else {
                throw UsageError(tr("cli.keys.needsOut"), command: "keys")
            }
            return generate(out, audit: arguments.has("audit"))
        case "public":
            guard let path = arguments.values["key"] else {
                throw UsageError(tr("cli.keys.needsKey"), command: "keys")
            }
            guard let key = loadPrivateKey(path) else { return .refused }
            print(key.publicKeyPEM(), terminator: "")
            return .success
        case let other?:
            throw UsageError(tr("cli.keys.unknownVerb", ["verb": other]), command: "keys")
        case nil:
            throw UsageError(tr("cli.keys.sayWhat"), command: "keys")
        }
    }

    static func generate(_ path: String, audit: Bool = false) -> ExitStatus {
        let key = ECPrivateKey.generate()
        let bytes = Array(key.pemPKCS8().utf8)
        // O_EXCL: never overwrite a key (a lost signing key cannot be replaced without Apple and Google).
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd < 0 {
            let reason = errno == EEXIST ? tr("cli.keys.exists") : describeErrno()
            printError("keys generate: " + tr("cli.keys.cannotCreate", ["file": path, "reason": reason]))
            return .refused
        }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else {
            unlink(path)
            printError("keys generate: " + tr("cli.keys.incomplete", ["file": path]))
            return .refused
        }
        if audit {
            printError(
                "keys generate: " + tr("cli.keys.wroteAudit", ["file": path, "id": key.publicKey.keyID])
            )
        } else {
            printError("keys generate: " + tr("cli.keys.wroteSigning", ["file": path]))
        }
        print(key.publicKeyPEM(), terminator: "")
        return .success
    }

    static func loadPrivateKey(_ path: String) -> ECPrivateKey? {
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            printError(tr("cli.keys.cannotRead", ["file": path]))
            return nil
        }
        do {
            return try ECPrivateKey(pem: pem)
        } catch {
            printError(tr("cli.keys.notAKey", ["file": path, "problem": error.message]))
            return nil
        }
    }

    static func describeErrno() -> String { String(cString: strerror(errno)) }
}

/// `tracedesk chunks …` and `tracedesk cleanup`: the publishing and retention jobs on demand.
enum ChunksCommand {
    static var help: String { HelpText.command(CommandTable.command("chunks")) }

    static func run(_ words: [String], cleanup: Bool = false) throws(UsageError) -> ExitStatus {
        let command = cleanup ? "cleanup" : "chunks"
        let rest = cleanup ? words : Array(words.dropFirst())
        let arguments = try Arguments(rest, CommandTable.command(command), command: command)
        if arguments.has("help") || (!cleanup && (words.first == "--help" || words.first == "-h")) {
            print(HelpText.command(CommandTable.command(command)))
            return .success
        }
        let environment = ProcessInfo.processInfo.environment
        let file = arguments.values["config"] ?? environment["TRACEDESK_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        var (config, problems) = ServerConfig.read(file: file, environment: environment)
        if let store = arguments.values["store"] { config.store = store }
        if let key = arguments.values["signing-key"] { config.signingKeyPath = key }
        if !problems.isEmpty {
            printError(command + ": " + tr("cli.chunks.settingsProblems") + "\n  " + problems.joined(separator: "\n  "))
            return .usage
        }
        if cleanup {
            if let extra = arguments.positionals.first {
                throw UsageError(
                    tr("cli.common.noArguments", ["command": "cleanup", "argument": extra]), command: command)
            }
            return runCleanup(config)
        }
        switch words.first {
        case "publish":
            if let extra = arguments.positionals.first {
                throw UsageError(
                    tr("cli.common.noArguments", ["command": "chunks publish", "argument": extra]), command: command)
            }
            return publish(config)
        case "list":
            if let extra = arguments.positionals.first {
                throw UsageError(
                    tr("cli.common.noArguments", ["command": "chunks list", "argument": extra]), command: command)
            }
            return list(config, json: arguments.has("json"))
        case "show":
            guard arguments.positionals.count == 1, let which = arguments.positionals.first else {
                throw UsageError(tr("cli.chunks.showNeedsOne"), command: command)
            }
            return show(
                which, config: config, publicKeyPath: arguments.values["public-key"], keys: arguments.has("keys"))
        case let other?:
            throw UsageError(tr("cli.chunks.unknownVerb", ["verb": other]), command: command)
        case nil:
            throw UsageError(tr("cli.chunks.sayWhat"), command: command)
        }
    }

    static func openStore(_ config: ServerConfig) -> (any Store)? {
        do {
            return try StoreLocation.open(config.store, busyTimeoutMilliseconds: Int32(config.busyTimeoutMs))
        } catch {
            printError(error.message)
            return nil
        }
    }

    static func publish(_ config: ServerConfig) -> ExitStatus {
        guard config.signingKeyPath != nil else {
            printError("chunks publish: " + tr("cli.chunks.needsSigningKey"))
            return .usage
        }
        // With a key path given, the loader returns the key or the reason it cannot be used.
        let signing: ChunkSigning
        switch TraceDeskServer.chunkSigning(config) {
        case .success(let made?): signing = made
        case .success(nil): return .usage
        case .failure(let error):
            printError("chunks publish: " + error.problems.joined(separator: "\n  "))
            return .usage
        }
        guard let store = openStore(config) else { return .storeUnavailable }
        let publisher = ChunkPublisher(store: store, signing: signing, policy: config.publishingPolicy)
        do {
            let run = try publisher.run()
            if run.skipped {
                printError("chunks publish: " + tr("cli.chunks.publishLocked"))
                return .storeUnavailable
            }
            for chunk in run.published {
                var line = trCount(
                    "cli.chunks.published", chunk.keyCount,
                    ["index": String(chunk.index), "keys": String(chunk.keyCount)])
                if chunk.paddingCount > 0 {
                    line += tr("cli.chunks.padding", ["count": String(chunk.paddingCount)])
                }
                line += tr(
                    "cli.chunks.window",
                    ["from": PublishRun.time(chunk.windowStart), "to": PublishRun.time(chunk.windowEnd)])
                line += tr("cli.chunks.bytes", ["count": String(chunk.zipBytes)])
                print(line)
            }
            if run.published.isEmpty { print(tr("cli.chunks.nothingPublished")) }
            if let failure = run.failure {
                printError(
                    "chunks publish: "
                        + tr(
                            "cli.chunks.stopped",
                            ["index": String(run.published.last?.index ?? 0), "problem": failure]))
            }
            if run.backlog.tooOld > 0 {
                printError("chunks publish: " + trCount("cli.chunks.tooOld", run.backlog.tooOld))
            }
            var waiting = trCount(
                "cli.chunks.waiting", run.backlog.ready,
                ["ready": String(run.backlog.ready), "embargoed": String(run.backlog.embargoed)])
            if let next = run.backlog.nextReleaseAt {
                waiting += tr("cli.chunks.nextRelease", ["time": PublishRun.time(next)])
            }
            print(waiting)
            return run.failure == nil ? .success : .storeUnavailable
        } catch {
            printError("chunks publish: \(error.message)")
            return .storeUnavailable
        }
    }

    static func list(_ config: ServerConfig, json: Bool) -> ExitStatus {
        guard let store = openStore(config) else { return .storeUnavailable }
        do {
            let chunks = try store.chunks()
            let offeredSince = Date().addingTimeInterval(-Double(config.publishingPolicy.chunkLifetimeDays) * 86_400)
            if json {
                let rows = chunks.map { chunk in
                    ChunkJSON(
                        index: chunk.index, published_at: iso(chunk.publishedAt), window_start: chunk.windowStart,
                        window_end: chunk.windowEnd, keys: chunk.keyCount, padding: chunk.paddingCount,
                        bytes: chunk.zipBytes, export_bin_sha256: chunk.exportBinSHA256, region: chunk.region,
                        key_id: chunk.keyID, key_version: chunk.keyVersion,
                        offered: chunk.publishedAt >= offeredSince)
                }
                print(jsonLine(rows, fallback: "[]"))
                return .success
            }
            guard !chunks.isEmpty else {
                let last = try store.lastChunkIndex()
                print(last == 0 ? tr("cli.chunks.noneYet") : tr("cli.chunks.noneKept", ["last": String(last)]))
                return .success
            }
            // Each column as wide as the English one, or as its heading in the run's language.
            let labels = ["index", "published", "window", "keys", "padding", "bytes"].map {
                tr("cli.out.chunks.list.column.\($0)")
            }
            let widths = zip([5, 20, 41, 5, 7, 8], labels).map { max($0, DisplayWidth.of($1)) }
            let windows = chunks.map { chunk in
                tr(
                    "cli.out.chunks.window",
                    ["from": PublishRun.time(chunk.windowStart), "to": PublishRun.time(chunk.windowEnd)])
            }
            var widest = widths
            widest[2] = max(widths[2], windows.map(DisplayWidth.of).max() ?? 0)
            print(
                heading(
                    labels, widths: widest, english: [5, 20, 40, 5, 7, 8], right: [3, 4, 5]))
            for (chunk, window) in zip(chunks, windows) {
                var line =
                    pad(String(chunk.index), widths[0], right: true) + "  " + pad(iso(chunk.publishedAt), widths[1])
                line += "  " + pad(window, widths[2]) + "  " + pad(String(chunk.keyCount), widths[3], right: true)
                line += "  " + pad(String(chunk.paddingCount), widths[4], right: true)
                line += "  " + pad(String(chunk.zipBytes), widths[5], right: true)
                if chunk.publishedAt < offeredSince { line += "  " + tr("cli.out.chunks.list.notOffered") }
                print(line)
            }
            return .success
        } catch {
            printError("chunks list: \(error.message)")
            return .storeUnavailable
        }
    }

    static func show(_ which: String, config: ServerConfig, publicKeyPath: String?, keys: Bool) -> ExitStatus {
        let zip: [UInt8]
        var header = ""
        if let index = Int64(which), index >= 1 {
            guard let store = openStore(config) else { return .storeUnavailable }
            do {
                guard let found = try store.chunk(index: index) else {
                    let last = (try? store.lastChunkIndex()) ?? 0
                    let why =
                        last == 0
                        ? tr("cli.out.chunks.show.noneYet")
                        : index > last
                            ? tr("cli.out.chunks.show.beyondNewest", ["index": String(index), "last": String(last)])
                            : tr(
                                "cli.out.chunks.show.notKept",
                                ["index": String(index), "days": String(config.retentionDays)])
                    printError("chunks show: " + why)
                    return .refused
                }
                zip = found.zip
                header = trCount(
                    "cli.out.chunks.show.chunk", found.summary.keyCount,
                    [
                        "index": String(index), "time": iso(found.summary.publishedAt),
                        "keys": String(found.summary.keyCount),
                    ])
                if found.summary.paddingCount > 0 {
                    header += tr("cli.out.chunks.show.padding", ["count": String(found.summary.paddingCount)])
                }
                header += tr("cli.out.chunks.show.bytes", ["count": String(zip.count)])
            } catch {
                printError("chunks show: \(error.message)")
                return .storeUnavailable
            }
        } else if FileManager.default.fileExists(atPath: which) {
            guard let data = FileManager.default.contents(atPath: which) else {
                printError("chunks show: " + tr("cli.out.chunks.show.cannotRead", ["file": which]))
                return .refused
            }
            zip = Array(data)
            header = tr("cli.out.chunks.show.file", ["file": which, "count": String(zip.count)])
        } else {
            printError("chunks show: " + tr("cli.out.chunks.show.neither", ["value": which]))
            return .refused
        }
        let inspection: ChunkInspection
        do {
            inspection = try ChunkInspection(zip: zip)
        } catch {
            printError("chunks show: \(error.message)")
            return .refused
        }
        let file = inspection.file
        print(header)
        // The labels in one column: 12 wide, or the longest label and two spaces.
        let names = ["window", "region", "batch", "signedBy", "keys", "signature"]
        let labels = Dictionary(uniqueKeysWithValues: names.map { ($0, tr("cli.out.chunks.show.label.\($0)")) })
        let column = max(12, (labels.values.map(DisplayWidth.of).max() ?? 0) + 2)
        func label(_ name: String) -> String { pad(labels[name] ?? name, column) }
        print(
            label("window")
                + tr(
                    "cli.out.chunks.window",
                    [
                        "from": PublishRun.time(Int64(clamping: file.startTimestamp)),
                        "to": PublishRun.time(Int64(clamping: file.endTimestamp)),
                    ]))
        print(label("region") + ExportError.shown(file.region))
        print(
            label("batch")
                + tr("cli.out.chunks.show.batch", ["number": String(file.batchNum), "size": String(file.batchSize)]))
        for info in file.signatureInfos {
            var text =
                label("signedBy")
                + tr(
                    "cli.out.chunks.show.signedBy",
                    [
                        "id": ExportError.shown(info.verificationKeyID),
                        "version": ExportError.shown(info.verificationKeyVersion),
                        "algorithm": ExportError.shown(info.signatureAlgorithm),
                    ])
            if let bundle = info.appBundleID {
                text += tr("cli.out.chunks.show.app", ["app": ExportError.shown(bundle)])
            }
            print(text)
        }
        print(pad("export.bin", column) + "sha256 \(Hex.encode(inspection.exportBinSHA256))")
        print(
            label("keys") + String(file.keys.count)
                + (file.revisedKeys.isEmpty
                    ? "" : tr("cli.out.chunks.show.revised", ["count": String(file.revisedKeys.count)])))
        let days = Dictionary(grouping: file.keys) { utcDay(of: $0) }
        for (day, group) in days.sorted(by: { $0.key < $1.key }) {
            let risks = Set(group.compactMap(\.transmissionRiskLevel)).sorted().map(String.init).joined(separator: ",")
            let onsets = Set(group.compactMap(\.daysSinceOnsetOfSymptoms)).sorted().map(String.init)
                .joined(separator: ",")
            print(
                trCount(
                    "cli.out.chunks.show.day", group.count,
                    [
                        "day": day.iso, "count": String(group.count), "risks": risks.isEmpty ? "-" : risks,
                        "onsets": onsets.isEmpty ? "-" : onsets,
                    ]))
        }
        if keys {
            // Each column as wide as the English one, or as its heading in the run's language.
            let headings = ["key", "start", "period", "risk", "report", "onset"].map {
                tr("cli.out.chunks.show.column.\($0)")
            }
            let widths = Swift.zip([24, 26, 6, 4, 6, 5], headings).map { max($0, DisplayWidth.of($1)) }
            print(heading(headings, widths: widths, english: [24, 25, 6, 4, 6, 5], right: [2, 3, 4, 5]))
            for key in file.keys {
                var line = pad(Base64.encode(key.keyData), widths[0]) + "  "
                line += pad(
                    "\(key.rollingStartIntervalNumber) (\(utcDay(of: key).iso))", widths[1])
                line += "  " + pad(String(key.rollingPeriod ?? 144), widths[2], right: true)
                line += "  " + pad(key.transmissionRiskLevel.map(String.init) ?? "-", widths[3], right: true)
                line += "  " + pad(key.reportType.map(String.init) ?? "-", widths[4], right: true)
                line += "  " + pad(key.daysSinceOnsetOfSymptoms.map(String.init) ?? "-", widths[5], right: true)
                print(line)
            }
        }
        // The signature: against the key named, or the configured signing key.
        var publicKey: ECPublicKey?
        var source = ""
        if let publicKeyPath {
            guard let pem = try? String(contentsOfFile: publicKeyPath, encoding: .utf8) else {
                printError("chunks show: " + tr("cli.out.chunks.show.cannotReadKey", ["file": publicKeyPath]))
                return .refused
            }
            do {
                publicKey = try ECPublicKey(pem: pem)
            } catch {
                printError(
                    "chunks show: "
                        + tr("cli.out.chunks.show.notPublicKey", ["file": publicKeyPath, "problem": error.message]))
                return .refused
            }
            source = publicKeyPath
        } else if let path = config.signingKeyPath, let pem = try? String(contentsOfFile: path, encoding: .utf8),
            let key = try? ECPrivateKey(pem: pem)
        {
            publicKey = key.publicKey
            source = tr("cli.out.chunks.show.signingKey", ["file": path])
        }
        guard let publicKey else {
            print(
                label("signature")
                    + trCount("cli.out.chunks.show.unchecked", inspection.signatures.count))
            return .success
        }
        if inspection.signatureVerifies(with: publicKey) {
            print(label("signature") + tr("cli.out.chunks.show.verified", ["source": source]))
            return .success
        }
        print(label("signature") + tr("cli.out.chunks.show.notVerified", ["source": source]))
        return .refused
    }

    static func runCleanup(_ config: ServerConfig) -> ExitStatus {
        guard let store = openStore(config) else { return .storeUnavailable }
        do {
            let report = try RetentionJob(store: store, policy: config.retentionPolicy).run()
            if report.skipped {
                printError("cleanup: " + tr("cli.cleanup.locked"))
                return .storeUnavailable
            }
            print(
                "cleanup: "
                    + tr(
                        "cli.out.cleanup.done",
                        [
                            "summary": report.words, "days": String(config.retentionDays),
                            "analytics": String(config.analyticsRetentionDays),
                            "contacts": String(config.retentionPolicy.contactHistoryDays),
                        ]))
            return .success
        } catch {
            printError("cleanup: \(error.message)")
            return .storeUnavailable
        }
    }

    static func iso(_ date: Date) -> String { PublishRun.time(Int64(date.timeIntervalSince1970.rounded(.down))) }

    /// A table's heading line over columns `widths` wide (`right`: the right-aligned ones), two
    /// spaces apart. English keeps the line it has always printed, laid out `english` (a column or
    /// more short of its cells here and there: people and scripts know it as it is); another
    /// language's headings stand over their columns.
    static func heading(_ labels: [String], widths: [Int], english: [Int], right: Set<Int>) -> String {
        let layout = Language.current == .en ? english : widths
        return labels.indices.map { pad(labels[$0], layout[$0], right: right.contains($0)) }.joined(separator: "  ")
    }

    /// `text` filled with spaces to `width` terminal columns (on the left when `right`).
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
        return right ? fill + text : text + fill
    }
}

/// The UTC day a key started on.
func utcDay(of key: ExportKey) -> CivilDay {
    CivilDay(unixSeconds: Int64(key.rollingStartIntervalNumber) * TemporaryExposureKey.intervalSeconds)
}

struct ChunkJSON: Encodable {
    let index: Int64
    let published_at: String
    let window_start: Int64
    let window_end: Int64
    let keys: Int
    let padding: Int
    let bytes: Int
    let export_bin_sha256: String
    let region: String
    let key_id: String
    let key_version: String
    let offered: Bool
}
