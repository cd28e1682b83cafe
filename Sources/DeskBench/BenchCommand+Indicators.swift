import DeskCLI
import DeskCore
import DeskStore
import DeskText
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
    static func indicators(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let cases = try arguments.integer("cases", command: command)
        let followUps = try arguments.integer("follow-ups", command: command)
        let days = try arguments.integer("days", command: command)
        let runs = try arguments.integer("runs", command: command)
        let json = arguments.has("json")
        if let url = arguments.values["postgres"], !PostgresStore.isURL(url) {
            throw UsageError(tr("cli.bench.usage.postgresURL"), command: command)
        }
        var postmaster: Int32?
        if let text = arguments.values["postmaster-pid"] {
            guard let pid = Int32(text), pid > 1 else {
                throw UsageError(tr("cli.bench.usage.postmasterPID"), command: command)
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
        say(
            tr(
                "cli.bench.indicators.seeding",
                [
                    "name": String(name), "cases": trCount("cli.bench.count.cases", plan.cases),
                    "followUps": trCount("cli.bench.count.followUps", plan.followUps),
                    "days": trCount("cli.bench.count.days", plan.days),
                ]))
        let seedStarted = DispatchTime.now().uptimeNanoseconds
        try seed(plan)
        let seedSeconds = Double(DispatchTime.now().uptimeNanoseconds - seedStarted) / 1e9
        say(tr("cli.bench.indicators.seeded", ["seconds": f1(seedSeconds)]))
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
            (IndicatorReading.keptFacts, tr("cli.bench.indicators.kept"), "kept"),
            (.joined, tr("cli.bench.indicators.joined"), "joined"),
        ] {
            guard let m = measured[reading] else { continue }
            let median = staffPercentile(m.times, 0.5)
            let p95 = staffPercentile(m.times, 0.95)
            let line = tr(
                "cli.bench.indicators.timed",
                [
                    "label": label, "runs": trCount("cli.bench.count.runs", runs), "median": f1(median), "p95": f1(p95),
                    "client": f1(m.client),
                ])
            say(line + (server == nil ? "" : tr("cli.bench.indicators.serverCPU", ["server": f1(m.server)])))
            fields.append(
                #""\#(key)":{"median_ms":\#(f3(median)),"p95_ms":\#(f3(p95)),"client_cpu_ms":\#(f3(m.client)),"server_cpu_ms":\#(f3(m.server))}"#
            )
        }
        if let kept = measured[.keptFacts], let joined = measured[.joined] {
            let ratio = staffPercentile(kept.times, 0.5) / max(0.001, staffPercentile(joined.times, 0.5))
            let cpuRatio = (kept.client + kept.server) / max(0.001, joined.client + joined.server)
            say(tr("cli.bench.indicators.ratio", ["ratio": f3(ratio), "cpuRatio": f3(cpuRatio)]))
        }
        let open = first.tracers.reduce(0) { $0 + $1.assigned }
        say(
            tr(
                "cli.bench.indicators.figures",
                [
                    "cases": trCount("cli.bench.count.cases", first.cases),
                    "open": trCount("cli.bench.indicators.activeAssigned", open),
                    "lost": first.lostPercent.map(f1) ?? "-",
                    "checked": first.checkedEveryDayPercent.map(f1) ?? "-",
                ]))
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
