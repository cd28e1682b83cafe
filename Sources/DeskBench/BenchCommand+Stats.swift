import DeskCLI
import DeskCore
import DeskStore
import DeskText
import Foundation

/// `tracedesk bench stats`: the supervisor's statistics over a national fortnight.
///
/// Seeds an empty store in bulk (``StatsSeedPlan``: `--uploads` uploads with their keys,
/// authorisations and checks, about `--events` events in all with analytics across provinces,
/// refusals, APRICOT registrations and contact files; a chunk an hour; dummy traffic per 5
/// minutes; 2 000 trace lookups appended to the audit log through the store), spread over
/// `--days` days. Then times the first statistics call (cold: it rolls up every closed hour),
/// and `--runs` warm calls each for 14 days in days, 24 hours in hours and 1 hour in 5 minutes
/// (median and p95). SQLite (a fresh file unless `--store`) and, with `--postgres`, PostgreSQL
/// in the same run.
extension BenchCommand {
    static func stats(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let uploads = try arguments.integer("uploads", command: command)
        let events = try arguments.integer("events", command: command)
        let days = try arguments.integer("days", command: command)
        let runs = try arguments.integer("runs", command: command)
        let json = arguments.has("json")
        if let url = arguments.values["postgres"], !PostgresStore.isURL(url) {
            throw UsageError(tr("cli.bench.usage.postgresURL"), command: command)
        }
        let plan = StatsSeedPlan(uploads: uploads, events: events, days: days, now: Date())

        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        do {
            var results: [StatsBenchResult] = []
            let path: String
            if let given = arguments.values["store"] {
                path = given
            } else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "tracedesk-bench-stats-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                temporary = folder
                path = folder.appendingPathComponent("bench.sqlite").path
            }
            let sqlite = try SQLiteStore(path: path)
            results.append(
                try statsRun(sqlite, name: "SQLite", plan: plan, runs: runs, json: json) {
                    try sqlite.seedStatisticsBenchmark($0)
                })
            if let url = arguments.values["postgres"] {
                let postgres = try PostgresStore(url: url)
                results.append(
                    try statsRun(postgres, name: "PostgreSQL", plan: plan, runs: runs, json: json) {
                        try postgres.seedStatisticsBenchmark($0)
                    })
            }
            if json {
                print("[" + results.map(\.json).joined(separator: ",") + "]")
            } else {
                print("")
                print(tr("cli.bench.stats.tableHeader"))
                for r in results {
                    print(
                        "\(r.name.padding(toLength: 10, withPad: " ", startingAt: 0))  \(f1(r.seedSeconds))  \(f1(r.coldMs))  "
                            + "\(f1(r.warm[0].median))  \(f1(r.warm[0].p95))  \(f1(r.warm[1].median))  \(f1(r.warm[1].p95))  "
                            + "\(f1(r.warm[2].median))  \(f1(r.warm[2].p95))")
                }
                if results.count == 2 {
                    let ratios = (0..<3).map { f1(results[1].warm[$0].median / max(0.001, results[0].warm[$0].median)) }
                    print(
                        tr(
                            "cli.bench.stats.ratios",
                            [
                                "fortnight": String(ratios[0]), "day": String(ratios[1]), "hour": String(ratios[2]),
                                "cold": f1(results[1].coldMs / max(0.001, results[0].coldMs)),
                            ]))
                }
            }
            return .success
        } catch let error as StoreError {
            printError("bench stats: \(error.message)")
            return .storeUnavailable
        } catch {
            printError("bench stats: \(error)")
            return .refused
        }
    }

    struct StatsBenchResult {
        var name: String
        var seedSeconds: Double
        var coldMs: Double
        var rolledHours: Int
        /// 14 d by day, 24 h by hour, 1 h by 5 minutes.
        var warm: [(median: Double, p95: Double)]
        var sample: StatsReport

        var json: String {
            #"{"store":"\#(name)","seed_s":\#(f3(seedSeconds)),"cold_ms":\#(f3(coldMs)),"rolled_hours":\#(rolledHours),"warm_14d_day_median_ms":\#(f3(warm[0].median)),"warm_14d_day_p95_ms":\#(f3(warm[0].p95)),"warm_24h_hour_median_ms":\#(f3(warm[1].median)),"warm_24h_hour_p95_ms":\#(f3(warm[1].p95)),"warm_1h_5m_median_ms":\#(f3(warm[2].median)),"warm_1h_5m_p95_ms":\#(f3(warm[2].p95)),"authorized":\#(sample.authorized.total),"uploads":\#(sample.uploads.total),"real_requests":\#(sample.realRequests.total),"analytics":\#(sample.analyticsReports.total),"lookups":\#(sample.lookups.total)}"#
        }
    }

    private static func statsRun(
        _ store: any Store, name: String, plan: StatsSeedPlan, runs: Int, json: Bool,
        seed: (StatsSeedPlan) throws -> Void
    ) throws -> StatsBenchResult {
        let say: (String) -> Void = { line in if !json { print(line) } }
        say(
            tr(
                "cli.bench.stats.seeding",
                [
                    "name": String(name), "uploads": String(plan.uploads), "events": String(plan.events),
                    "days": trCount("cli.bench.count.days", plan.days),
                ]))
        var started = DispatchTime.now().uptimeNanoseconds
        try seed(plan)
        // Lookups through the store's audit log (its hash chain), spread over the days.
        let lookups = 2_000
        for index in 0..<lookups {
            let at = Date(unixMilliseconds: plan.startMs + plan.spanMs * Int64(index) / Int64(lookups))
            _ = try store.appendAudit(
                actor: "tracer-\(index % 12)", action: .traceLookup, target: "bench", detail: "{}", now: at)
        }
        let seedSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        say(tr("cli.bench.stats.seeded", ["seconds": f1(seedSeconds)]))

        let now = plan.now
        started = DispatchTime.now().uptimeNanoseconds
        let first = try store.statistics(StatsQuery.last(.fortnight, now: now), now: now)
        let coldMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let rolled = try store.rollUpStatistics(now: now)
        say(tr("cli.bench.stats.cold", ["coldMs": f1(coldMs), "rolled": trCount("cli.bench.count.hours", rolled)]))
        var warm: [(median: Double, p95: Double)] = []
        for range in [StatsRange.fortnight, .day, .hour] {
            var times: [Double] = []
            for _ in 0..<runs {
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try store.statistics(StatsQuery.last(range, now: now), now: now)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            }
            warm.append((staffPercentile(times, 0.5), staffPercentile(times, 0.95)))
            say(
                tr(
                    "cli.bench.stats.warm",
                    [
                        "range": String(range.rawValue),
                        "bucket": tr("console.dashboard.bucket.\(range.defaultBucket.rawValue)"),
                        "runs": trCount("cli.bench.count.runs", runs), "median": f1(warm.last!.median),
                        "p95": f1(warm.last!.p95),
                    ]))
        }
        say(
            tr(
                "cli.bench.stats.totals",
                [
                    "authorized": trCount("cli.bench.stats.authorized", Int(first.authorized.total)),
                    "uploads": trCount("cli.bench.count.uploads", Int(first.uploads.total)),
                    "requests": trCount("cli.bench.stats.requests", Int(first.realRequests.total)),
                    "analytics": trCount("cli.bench.stats.analytics", Int(first.analyticsReports.total)),
                    "lookups": trCount("cli.bench.count.lookups", Int(first.lookups.total)),
                ]))
        return StatsBenchResult(
            name: name, seedSeconds: seedSeconds, coldMs: coldMs, rolledHours: rolled, warm: warm, sample: first)
    }

    static func f1(_ value: Double) -> String { String(format: "%.1f", value) }
}
