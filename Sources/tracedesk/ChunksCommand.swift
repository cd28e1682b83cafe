import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskExport
import DeskLocal
import DeskServer
import DeskStore
import Foundation

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
                var line = tr(
                    "cli.chunks.published", ["index": String(chunk.index), "keys": String(chunk.keyCount)])
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
                printError("chunks publish: " + tr("cli.chunks.tooOld", ["count": String(run.backlog.tooOld)]))
            }
            var waiting = tr(
                "cli.chunks.waiting",
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
            print("index  published             window (UTC)                               keys  padding     bytes")
            for chunk in chunks {
                let window = "\(PublishRun.time(chunk.windowStart)) to \(PublishRun.time(chunk.windowEnd))"
                var line = pad(String(chunk.index), 5, right: true) + "  " + pad(iso(chunk.publishedAt), 20)
                line += "  " + pad(window, 41) + "  " + pad(String(chunk.keyCount), 5, right: true)
                line += "  " + pad(String(chunk.paddingCount), 7, right: true)
                line += "  " + pad(String(chunk.zipBytes), 8, right: true)
                if chunk.publishedAt < offeredSince { line += "  (no longer offered)" }
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
                    printError(
                        last == 0
                            ? "chunks show: no chunks published yet"
                            : index > last
                                ? "chunks show: there is no chunk \(index): the newest is \(last)"
                                : "chunks show: chunk \(index) is no longer kept (retention deletes chunks after \(config.retentionDays) days)"
                    )
                    return .refused
                }
                zip = found.zip
                header = "chunk \(index), published \(iso(found.summary.publishedAt)), \(found.summary.keyCount) keys"
                if found.summary.paddingCount > 0 { header += " + \(found.summary.paddingCount) padding" }
                header += ", \(zip.count) bytes"
            } catch {
                printError("chunks show: \(error.message)")
                return .storeUnavailable
            }
        } else if FileManager.default.fileExists(atPath: which) {
            guard let data = FileManager.default.contents(atPath: which) else {
                printError("chunks show: cannot read \(which)")
                return .refused
            }
            zip = Array(data)
            header = "file \(which), \(zip.count) bytes"
        } else {
            printError("chunks show: '\(which)' is neither a chunk index (1, 2, …) nor a file")
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
        print(
            "window      \(PublishRun.time(Int64(clamping: file.startTimestamp))) to \(PublishRun.time(Int64(clamping: file.endTimestamp)))"
        )
        print("region      \(ExportError.shown(file.region))")
        print("batch       \(file.batchNum) of \(file.batchSize)")
        for info in file.signatureInfos {
            var text = "signed by   key id \(ExportError.shown(info.verificationKeyID)), "
            text += "version \(ExportError.shown(info.verificationKeyVersion)), "
            text += "algorithm \(ExportError.shown(info.signatureAlgorithm))"
            if let bundle = info.appBundleID { text += ", app \(ExportError.shown(bundle))" }
            print(text)
        }
        print("export.bin  sha256 \(Hex.encode(inspection.exportBinSHA256))")
        print(
            "keys        \(file.keys.count)" + (file.revisedKeys.isEmpty ? "" : ", revised \(file.revisedKeys.count)"))
        let days = Dictionary(grouping: file.keys) { utcDay(of: $0) }
        for (day, group) in days.sorted(by: { $0.key < $1.key }) {
            let risks = Set(group.compactMap(\.transmissionRiskLevel)).sorted().map(String.init).joined(separator: ",")
            let onsets = Set(group.compactMap(\.daysSinceOnsetOfSymptoms)).sorted().map(String.init)
                .joined(separator: ",")
            print(
                "  \(day.iso): \(group.count) keys (risk \(risks.isEmpty ? "-" : risks), days since onset \(onsets.isEmpty ? "-" : onsets))"
            )
        }
        if keys {
            print("key (base64)              start interval (UTC day)   period  risk  report  onset")
            for key in file.keys {
                var line = pad(Base64.encode(key.keyData), 24) + "  "
                line += pad(
                    "\(key.rollingStartIntervalNumber) (\(utcDay(of: key).iso))", 26)
                line += "  " + pad(String(key.rollingPeriod ?? 144), 6, right: true)
                line += "  " + pad(key.transmissionRiskLevel.map(String.init) ?? "-", 4, right: true)
                line += "  " + pad(key.reportType.map(String.init) ?? "-", 6, right: true)
                line += "  " + pad(key.daysSinceOnsetOfSymptoms.map(String.init) ?? "-", 5, right: true)
                print(line)
            }
        }
        // The signature: against the key named, or the configured signing key.
        var publicKey: ECPublicKey?
        var source = ""
        if let publicKeyPath {
            guard let pem = try? String(contentsOfFile: publicKeyPath, encoding: .utf8) else {
                printError("chunks show: cannot read the public key \(publicKeyPath)")
                return .refused
            }
            do {
                publicKey = try ECPublicKey(pem: pem)
            } catch {
                printError("chunks show: \(publicKeyPath) is not a P-256 public key: \(error.message)")
                return .refused
            }
            source = publicKeyPath
        } else if let path = config.signingKeyPath, let pem = try? String(contentsOfFile: path, encoding: .utf8),
            let key = try? ECPrivateKey(pem: pem)
        {
            publicKey = key.publicKey
            source = "the signing key \(path)"
        }
        guard let publicKey else {
            print("signature   \(inspection.signatures.count) present, not checked (give --public-key FILE)")
            return .success
        }
        if inspection.signatureVerifies(with: publicKey) {
            print("signature   verified with \(source)")
            return .success
        }
        print("signature   DOES NOT VERIFY with \(source)")
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
                "cleanup: \(report.summary) (kept: \(config.retentionDays) days, analytics \(config.analyticsRetentionDays) days, contact files \(config.retentionPolicy.contactHistoryDays) days)"
            )
            return .success
        } catch {
            printError("cleanup: \(error.message)")
            return .storeUnavailable
        }
    }

    static func iso(_ date: Date) -> String { PublishRun.time(Int64(date.timeIntervalSince1970.rounded(.down))) }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
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
