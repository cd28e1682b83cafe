import DeskCLI
import DeskCore
import DeskCrypto
import DeskStore
import DeskText
import Foundation

/// `tracedesk bench write-raw`: the store's limit on the write path (Benchmarks/write-path.sh).
extension BenchCommand {
    static func writeRaw(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        // The table requires --store and allows only authorization or upload for --op.
        guard let path = arguments.values["store"], !path.hasPrefix("postgres") else {
            throw UsageError(tr("cli.bench.write-raw.sqliteOnly"), command: command)
        }
        let op = (arguments.values["op"] ?? arguments.table["op"]?.defaultValue ?? "").lowercased()
        guard let operation = RawWritePath.Operation(rawValue: op) else {
            preconditionFailure("--op '\(op)' is allowed by the table but not a RawWritePath operation")
        }
        let threads = try arguments.integer("threads", command: command)
        let seconds = try arguments.integer("seconds", command: command)
        let count = try arguments.integer("count", command: command)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw UsageError(tr("cli.bench.write-raw.exists", ["path": path]), command: command)
        }
        do {
            // The store makes the file (schema, indexes), and shows which statements it steps.
            let store = try SQLiteStore(path: path)
            if let mismatch = try checkStatements(store) {
                printError(tr("cli.bench.write-raw.mismatch", ["mismatch": String(mismatch)]))
                return .refused
            }
            if arguments.has("check-only") {
                print(tr("cli.bench.write-raw.statementsMatch"))
                return .success
            }
            let result = try RawWritePath.run(
                operation, path: path, threads: threads, shared: arguments.has("shared"), seconds: Double(seconds),
                count: count)
            let shared = arguments.has("shared")
            let seconds = String(format: "%.3f", result.seconds)
            let rate = String(format: "%.1f", result.perSecond)
            if arguments.has("json") {
                // What Benchmarks/write-path.sh reads (the line below is the run's language).
                print(
                    #"{"operation":"\#(operation.rawValue)","threads":\#(threads),"shared":\#(shared),"ops":\#(result.operations),"seconds":\#(seconds),"rate":\#(rate)}"#
                )
            } else {
                print(
                    tr(
                        "cli.bench.write-raw.result",
                        [
                            "operation": operation.rawValue, "threads": String(threads), "shared": shared ? "1" : "0",
                            "ops": String(result.operations), "seconds": seconds, "rate": rate,
                        ]))
            }
            return .success
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
    }

    /// Traces one authorisation and one 14-key upload through the store and compares the SQL
    /// it stepped with ``RawWritePath/statements(_:keys:)``; nil when they are the same.
    static func checkStatements(_ store: SQLiteStore) throws(StoreError) -> String? {
        let now = Date()
        let day = now.utcDay.adding(days: -14)
        let authorized = OtpHash(hex: SHA256.hex("write-raw-\(UInt64.random(in: 0...UInt64.max))"))!
        let (_, authorizeTrace) = try store.tracingStatements { () throws(StoreError) in
            try store.authorize(
                otpHash: authorized, symptomsStartedOn: day, by: "his:bench", now: now, lifetime: .seconds(3600))
        }
        if authorizeTrace != RawWritePath.statements(.authorization) {
            return "authorization: the store stepped \(authorizeTrace)"
        }
        let uploaded = OtpHash(hex: SHA256.hex("write-raw-\(UInt64.random(in: 0...UInt64.max))"))!
        _ = try store.authorize(
            otpHash: uploaded, symptomsStartedOn: day, by: "his:bench", now: now, lifetime: .seconds(3600))
        let today = Int64(now.timeIntervalSince1970) / 86_400 * 144
        let keys = (0..<14).map { k in
            AcceptedKey(
                key: TemporaryExposureKey(
                    keyData: [UInt8](repeating: UInt8(k), count: 16), rollingStartNumber: today - Int64(13 - k) * 144,
                    rollingPeriod: 144),
                transmissionRiskLevel: 6, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: k)
        }
        let (_, uploadTrace) = try store.tracingStatements { () throws(StoreError) in
            try store.consumeForUpload(otpHash: uploaded, now: now) { authorization in
                UploadRecord(
                    otpHash: uploaded, receivedAt: now, symptomsStartedOn: authorization.symptomsStartedOn,
                    province: Province.all.first { $0.code == "RM" }, clientClock: Int64(now.timeIntervalSince1970),
                    evaluation: UploadEvaluation(
                        accepted: keys, dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
        }
        if uploadTrace != RawWritePath.statements(.upload, keys: keys.count) {
            return "upload: the store stepped \(uploadTrace)"
        }
        return nil
    }
}
