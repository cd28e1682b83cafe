import DeskCLI
import DeskCore
import DeskStore
import Foundation

/// `tracedesk bench indicators`: the tracing indicators over a fortnight of cases.
///
/// Seeds an empty store in bulk (``IndicatorSeedPlan``: `--cases` cases over `--days` days and
/// `--follow-ups` follow-ups among them, with attempts and today's checks), then times `--runs`
/// reads of the indicators over the last 14 days (median and p95), after one untimed read.
/// SQLite (a fresh file unless `--store`) and, with `--postgres`, PostgreSQL in the same run.
extension BenchCommand {
    static let indicatorsHelp = """
        Usage: tracedesk bench indicators [--store PATH] [--postgres URL] [--cases 10000]
                                          [--follow-ups 100000] [--days 14] [--runs 20] [--json]
               Seeds an empty store with cases and their follow-ups, then times the tracing
               indicators over the last 14 days (build with -c release). SQLite in a fresh file
               unless --store names an empty one; PostgreSQL too when --postgres names an empty
               database (or schema).
        """

    static func indicators(_ words: [String]) throws(UsageError) -> ExitStatus {
        let command = "bench indicators"
        let arguments = try Arguments(
            words, valueOptions: ["store", "postgres", "cases", "follow-ups", "days", "runs"], flagOptions: ["json"],
            command: command)
        if arguments.has("help") {
            print(indicatorsHelp)
            return .success
        }
        func number(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            try arguments.integer(name, default: fallback, in: range, command: command)
        }
        let cases = try number("cases", 10_000, 1...1_000_000)
        let followUps = try number("follow-ups", 100_000, 1...10_000_000)
        let days = try number("days", 14, 1...StatsQuery.maximumDays - 1)
        let runs = try number("runs", 20, 1...1_000)
        let json = arguments.has("json")
        if let url = arguments.values["postgres"], !PostgresStore.isURL(url) {
            throw UsageError("--postgres takes a postgres:// URL", command: command)
        }
        let plan = IndicatorSeedPlan(cases: cases, followUps: followUps, days: days, now: Date())
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        do {
            var results: [String] = []
            let path: String
            if let given = arguments.values["store"] {
                path = given
            } else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "tracedesk-bench-indicators-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                temporary = folder
                path = folder.appendingPathComponent("bench.sqlite").path
            }
            let sqlite = try SQLiteStore(path: path)
            results.append(
                try indicatorRun(sqlite, name: "SQLite", plan: plan, runs: runs, json: json) {
                    try sqlite.seedIndicatorBenchmark($0)
                })
            if let url = arguments.values["postgres"] {
                let postgres = try PostgresStore(url: url)
                results.append(
                    try indicatorRun(postgres, name: "PostgreSQL", plan: plan, runs: runs, json: json) {
                        try postgres.seedIndicatorBenchmark($0)
                    })
            }
            if json { print("[" + results.joined(separator: ",") + "]") }
            return .success
        } catch let error as StoreError {
            printError("\(command): \(error.message)")
            return .storeUnavailable
        } catch {
            printError("\(command): \(error)")
            return .refused
        }
    }

    private static func indicatorRun(
        _ store: any Store, name: String, plan: IndicatorSeedPlan, runs: Int, json: Bool,
        seed: (IndicatorSeedPlan) throws -> Void
    ) throws -> String {
        let say: (String) -> Void = { line in if !json { print(line) } }
        say("\(name): seeding \(plan.cases) cases, \(plan.followUps) follow-ups over \(plan.days) days…")
        let seedStarted = DispatchTime.now().uptimeNanoseconds
        try seed(plan)
        let seedSeconds = Double(DispatchTime.now().uptimeNanoseconds - seedStarted) / 1e9
        say("  seeded in \(f1(seedSeconds)) s")
        let now = plan.now
        let query = StatsQuery.last(.fortnight, now: now)
        let first = try store.followUpIndicators(query, now: now, settings: .standard)
        var times: [Double] = []
        for _ in 0..<runs {
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try store.followUpIndicators(query, now: now, settings: .standard)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        }
        let median = staffPercentile(times, 0.5)
        let p95 = staffPercentile(times, 0.95)
        say("  indicators over 14 d, \(runs) runs: median \(f1(median)) ms, p95 \(f1(p95)) ms")
        let open = first.tracers.reduce(0) { $0 + $1.assigned }
        say(
            "  \(first.cases) cases, \(open) active follow-ups assigned, lost \(first.lostPercent.map(f1) ?? "-") %, checked every day \(first.checkedEveryDayPercent.map(f1) ?? "-") %"
        )
        return
            #"{"store":"\#(name)","seed_s":\#(f3(seedSeconds)),"cases":\#(first.cases),"active_assigned":\#(open),"median_ms":\#(f3(median)),"p95_ms":\#(f3(p95))}"#
    }
}
