import DeskCLI
import DeskCore
import DeskStore
import Foundation

/// `tracedesk bench indicators`: the tracing indicators over a fortnight of cases.
///
/// Seeds an empty store in bulk (``IndicatorSeedPlan``: `--cases` cases over `--days` days and
/// `--follow-ups` follow-ups among them, with attempts and today's checks), then times `--runs`
/// reads of the indicators over the last 14 days (median and p95), after one untimed read:
/// alternately from migration 12's kept facts (what the desk reads) and counted from the pairs
/// as before them, on the same data under the same load, and fails unless both give the same
/// facts. SQLite (a fresh file unless `--store`) and, with `--postgres`, PostgreSQL in the same
/// run.
extension BenchCommand {
    static let indicatorsHelp = """
        Usage: tracedesk bench indicators [--store PATH] [--postgres URL [--postmaster-pid PID]]
                                          [--cases 10000] [--follow-ups 100000] [--days 14]
                                          [--runs 20] [--json]
               Seeds an empty store with cases and their follow-ups, then times the tracing
               indicators over the last 14 days (build with -c release). SQLite in a fresh file
               unless --store names an empty one; PostgreSQL too when --postgres names an empty
               database (or schema). Each run reads twice, in turn: from the facts the store
               keeps (migration 12) and counted from every case-follow-up pair as before them,
               and fails unless both agree. Besides the wall time, the CPU time per call: this
               process's, and with --postmaster-pid (a local server's) its backends' too, read
               from /proc: on a busy machine the wall time is mostly waiting for a core.
        """

    static func indicators(_ words: [String]) throws(UsageError) -> ExitStatus {
        let command = "bench indicators"
        let arguments = try Arguments(
            words, valueOptions: ["store", "postgres", "postmaster-pid", "cases", "follow-ups", "days", "runs"],
            flagOptions: ["json"],
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
        var postmaster: Int32?
        if let text = arguments.values["postmaster-pid"] {
            guard let pid = Int32(text), pid > 1 else {
                throw UsageError("--postmaster-pid takes the PostgreSQL server's process id", command: command)
            }
            postmaster = pid
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
                try indicatorRun(
                    name: "SQLite", plan: plan, runs: runs, json: json, server: nil,
                    seed: { try sqlite.seedIndicatorBenchmark($0) },
                    read: { try sqlite.followUpFacts($0, now: plan.now, settings: .standard, reading: $1) }))
            if let url = arguments.values["postgres"] {
                let postgres = try PostgresStore(url: url)
                results.append(
                    try indicatorRun(
                        name: "PostgreSQL", plan: plan, runs: runs, json: json, server: postmaster,
                        seed: { try postgres.seedIndicatorBenchmark($0) },
                        read: { try postgres.followUpFacts($0, now: plan.now, settings: .standard, reading: $1) }))
            }
            if json { print("[" + results.joined(separator: ",") + "]") }
            return .success
        } catch let error as StoreError {
            printError("\(command): \(error.message)")
            return .storeUnavailable
        } catch let error as BenchFailure {
            printError("\(command): \(error.message)")
            return .refused
        } catch {
            printError("\(command): \(error)")
            return .refused
        }
    }

    private static func indicatorRun(
        name: String, plan: IndicatorSeedPlan, runs: Int, json: Bool, server: Int32?,
        seed: (IndicatorSeedPlan) throws -> Void, read: (StatsQuery, IndicatorReading) throws -> FollowUpFacts
    ) throws -> String {
        let say: (String) -> Void = { line in if !json { print(line) } }
        say("\(name): seeding \(plan.cases) cases, \(plan.followUps) follow-ups over \(plan.days) days…")
        let seedStarted = DispatchTime.now().uptimeNanoseconds
        try seed(plan)
        let seedSeconds = Double(DispatchTime.now().uptimeNanoseconds - seedStarted) / 1e9
        say("  seeded in \(f1(seedSeconds)) s")
        let query = StatsQuery.last(.fortnight, now: plan.now)
        let facts = try read(query, .keptFacts)
        guard try read(query, .joined).sameFigures(as: facts) else {
            throw BenchFailure(message: "\(name): the kept facts and the facts counted from the pairs disagree")
        }
        let first = IndicatorMath.indicators(facts)
        // In turn, so both ways see the same load: kept facts, then counted from the pairs.
        var measured: [IndicatorReading: (times: [Double], client: Double, server: Double)] = [
            .keptFacts: ([], 0, 0), .joined: ([], 0, 0),
        ]
        for _ in 0..<runs {
            for reading in [IndicatorReading.keptFacts, .joined] {
                let cpuBefore = processCPUMilliseconds()
                let serverBefore = server.map(childrenCPUMilliseconds) ?? 0
                let started = DispatchTime.now().uptimeNanoseconds
                let read = try read(query, reading)
                let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                let client = processCPUMilliseconds() - cpuBefore
                let serverCPU = (server.map(childrenCPUMilliseconds) ?? 0) - serverBefore
                _ = IndicatorMath.indicators(read)
                measured[reading]?.times.append(wall)
                measured[reading]?.client += client / Double(runs)
                measured[reading]?.server += serverCPU / Double(runs)
            }
        }
        var fields: [String] = []
        for (reading, label, key) in [
            (IndicatorReading.keptFacts, "kept facts", "kept"), (.joined, "from the pairs (before)", "joined"),
        ] {
            guard let m = measured[reading] else { continue }
            let median = staffPercentile(m.times, 0.5)
            let p95 = staffPercentile(m.times, 0.95)
            say(
                "  \(label), 14 d, \(runs) runs: median \(f1(median)) ms, p95 \(f1(p95)) ms; CPU per call: this process \(f1(m.client)) ms\(server == nil ? "" : ", the server's backends \(f1(m.server)) ms")"
            )
            fields.append(
                #""\#(key)":{"median_ms":\#(f3(median)),"p95_ms":\#(f3(p95)),"client_cpu_ms":\#(f3(m.client)),"server_cpu_ms":\#(f3(m.server))}"#
            )
        }
        if let kept = measured[.keptFacts], let joined = measured[.joined] {
            let ratio = staffPercentile(kept.times, 0.5) / max(0.001, staffPercentile(joined.times, 0.5))
            let cpuRatio = (kept.client + kept.server) / max(0.001, joined.client + joined.server)
            say("  kept / before: wall median × \(f3(ratio)), CPU × \(f3(cpuRatio))")
        }
        let open = first.tracers.reduce(0) { $0 + $1.assigned }
        say(
            "  \(first.cases) cases, \(open) active follow-ups assigned, lost \(first.lostPercent.map(f1) ?? "-") %, checked every day \(first.checkedEveryDayPercent.map(f1) ?? "-") %"
        )
        return
            #"{"store":"\#(name)","seed_s":\#(f3(seedSeconds)),"cases":\#(first.cases),"active_assigned":\#(open),\#(fields.joined(separator: ","))}"#
    }
}

extension FollowUpFacts {
    /// The same facts, whatever order the rows came back in.
    func sameFigures(as other: FollowUpFacts) -> Bool {
        var a = self
        var b = other
        a.contactsPerCase.sort()
        b.contactsPerCase.sort()
        a.millisecondsToFirstReach.sort()
        b.millisecondsToFirstReach.sort()
        return a.contactsPerCase == b.contactsPerCase && a.millisecondsToFirstReach == b.millisecondsToFirstReach
            && Set(a.completed) == Set(b.completed) && a.closeContactsDue == b.closeContactsDue
            && a.closeContactsReachedIn24h == b.closeContactsReachedIn24h && a.ended == b.ended && a.lost == b.lost
            && a.knownContactCases == b.knownContactCases && a.unreachedByDays == b.unreachedByDays
            && a.tracers == b.tracers
    }
}

/// This process's CPU time (user and system), in milliseconds.
private func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1_000 + Double(usage.ru_utime.tv_usec) / 1_000
    let system = Double(usage.ru_stime.tv_sec) * 1_000 + Double(usage.ru_stime.tv_usec) / 1_000
    return user + system
}

/// The CPU time (user and system) of `parent`'s child processes now running, in milliseconds,
/// from /proc (a PostgreSQL server's backends; Linux only, 0 elsewhere).
private func childrenCPUMilliseconds(_ parent: Int32) -> Double {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard ticks > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    var total = 0.0
    for entry in entries where Int32(entry) != nil {
        guard let text = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { continue }
        // After "pid (comm)": state, ppid, … utime is field 14 and stime 15 of the whole line.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, Int32(fields[1]) == parent, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { continue }
        total += (user + system) / ticks * 1_000
    }
    return total
}
