import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import Foundation

/// `tracedesk stats`: the supervisor's statistics without the dashboard. The default output is
/// StatsText's summary; `--json` the staff API's answer (`GET /staff/v1/stats`), `--csv` the
/// dashboard's export (StatsCSV). Every mistake in the range is caught before a password is
/// asked for.
enum StatsCommand {
    static let help = """
        Usage: tracedesk stats --user NAME [--range today|1h|24h|7d|14d]
                               [--bucket 5m|hour|day]
                               [--json | --csv] [--store PATH|URL | --server URL] [--password-stdin]
               tracedesk stats --user NAME --from TIME [--to TIME] [--bucket 5m|hour|day] [...]

          The supervisor's statistics over a time range: codes authorised per operator and
          what became of them (checked, uploaded, median time to upload), uploads and keys
          (accepted, dropped by reason, keys per upload), uploads refused, chunks published,
          real and dummy phone requests, analytics by province, APRICOT registrations,
          contact files, lookups per tracer, pseudo-ids used; then the tracing indicators
          over the cases opened in the range (contacts per case, close contacts reached in
          24 h, time to the first contact reached, checked every day, not reached yet, lost
          to follow-up, known contacts, and per tracer: assigned, due, overdue, done today).
          docs/supervisor-guide.md says what every figure counts.

          --range R      the last 1h, 24h (default), 7d or 14d, the current bucket included;
                         today: since midnight in the local zone (TZ), in hours
          --bucket B     5m, hour or day; default 5m for 1h, hour for today and 24h, day for
                         7d and 14d (today in day buckets is counted in hours)
                         (5-minute buckets cover at most 24 hours)
          --from TIME    instead of --range: from TIME (UTC, 2026-11-29T10:00:00Z,
                         2026-11-29T10:00:00.000Z or a day 2026-11-29 for its midnight), moved
                         down to its bucket's start; at most 31 days
          --to TIME      with --from: up to TIME, not included (default now); without --bucket
                         the bucket is 5m up to 3 hours, hour up to 3 days, day beyond
          --json         the figures as the staff API answers them (series as arrays, one value
                         per bucket; shares not included: divide the counts), and the
                         indicators as the member "tracing"
          --csv          the dashboard's CSV export: section,figure,key,label,bucket_start,value
                         (the indicators in the sections tracing, unreached, tracer_load)

        Needs the supervisor role. Not audited (figures only). Buckets are UTC; the text output
        shows UTC times. The options --user, --password-stdin, --store and --server work as for
        'tracedesk staff'.

        Exit 0 ok (also when the range holds no data: the output says so), 1 refused (a range
        the store or server cannot count: the reason is on stderr), 2 usage error (an unknown
        range or bucket, --range with --from, --from after --to, a range too long), 4 store
        or server unavailable, 6 sign-in failed or not a supervisor.
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "stats"
        let arguments = try Arguments(
            words, valueOptions: Set(["store", "range", "bucket", "from", "to"]).union(PersonOptions.valueOptions),
            flagOptions: Set(["csv", "json"]).union(PersonOptions.flagOptions), command: command)
        if arguments.has("help") || words.first == "help" {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra.prefix(40))'", command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError("give --csv or --json, not both", command: command)
        }
        let choice = try rangeChoice(arguments, command: command)
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let query = choice.query(now: Date())
            let report = try await desk.statistics(session, query: query)
            let indicators = try await tracingIndicators(desk, session, query: query)
            if arguments.has("json") {
                print(StaffWire.statsReport(report, indicators: indicators).serialized)
            } else if arguments.has("csv") {
                FileHandle.standardOutput.write(Data(StatsCSV.encode(report, indicators: indicators).utf8))
            } else {
                for line in StatsText.summary(report, title: choice.title) { say(line) }
                if let indicators {
                    say("")
                    for line in IndicatorText.summary(indicators) { say(line) }
                }
            }
            return .success
        }
    }

    /// The tracing indicators over the same range; nil (with a note on stderr) from a server
    /// that does not give them yet, so the statistics still print.
    static func tracingIndicators(
        _ desk: any DeskService, _ session: StaffSession, query: StatsQuery
    ) async throws(ServiceError) -> FollowUpIndicators? {
        do throws(ServiceError) {
            return try await desk.followUpIndicators(session, query: query)
        } catch .unavailable(let reason) {
            printError("stats: the tracing indicators are left out: \(reason)")
            return nil
        }
    }

    /// What the command line asked for: a range up to now, or fixed times.
    enum Choice {
        case last(StatsRange, StatsBucket?)
        case between(StatsQuery)

        var title: String? {
            if case .last(let range, _) = self { return range.label }
            return nil
        }

        /// The query at `now` (a range ends now; fixed times were checked when read).
        func query(now: Date) -> StatsQuery {
            switch self {
            case .last(let range, let bucket): return .last(range, bucket: bucket, now: now)
            case .between(let query): return query
            }
        }
    }

    static func rangeChoice(_ arguments: Arguments, command: String) throws(UsageError) -> Choice {
        var bucket: StatsBucket?
        if let text = arguments.values["bucket"] {
            guard let parsed = StatsBucket.parse(text) else {
                throw UsageError("unknown bucket '\(text.prefix(20))': use 5m, hour or day", command: command)
            }
            bucket = parsed
        }
        let fromText = arguments.values["from"]
        let toText = arguments.values["to"]
        if let rangeText = arguments.values["range"] {
            guard fromText == nil, toText == nil else {
                throw UsageError(
                    "give --range or --from/--to, not both: --range counts back from now", command: command)
            }
            let range: StatsRange
            switch StatsRange.parse(rangeText) {
            case .success(let parsed): range = parsed
            case .failure(let problem): throw UsageError("--range: \(problem.message)", command: command)
            }
            let query = StatsQuery.last(range, bucket: bucket, now: Date())
            if let problem = ServiceChecks.statsProblem(query) {
                throw UsageError(
                    "--range \(range.rawValue) --bucket \(query.bucket.rawValue): \(problem.message)", command: command)
            }
            return .last(range, bucket)
        }
        guard let fromText else {
            if toText != nil {
                throw UsageError("--to needs --from: give where the range starts", command: command)
            }
            return .last(.day, bucket)
        }
        guard let from = parseTime(fromText) else {
            throw UsageError(
                "--from '\(fromText.prefix(40))' is not a UTC time: write 2026-11-29T10:00:00Z or 2026-11-29",
                command: command)
        }
        var to = Date()
        if let toText {
            guard let parsed = parseTime(toText) else {
                throw UsageError(
                    "--to '\(toText.prefix(40))' is not a UTC time: write 2026-11-30T10:00:00Z or 2026-11-30",
                    command: command)
            }
            to = parsed
        }
        if to <= from {
            throw UsageError(
                "--from must come before --to (or before now without --to): the range is empty", command: command)
        }
        let span = to.unixMilliseconds - from.unixMilliseconds
        let chosen = bucket ?? (span <= 3 * 3_600_000 ? .fiveMinutes : span <= 3 * 86_400_000 ? .hour : .day)
        switch StatsQuery.make(from: from, to: to, bucket: chosen) {
        case .success(let query): return .between(query)
        case .failure(let problem): throw UsageError(problem.message, command: command)
        }
    }

    /// A UTC time as the staff API writes it, with whole seconds (`…T10:00:00Z`), or a day
    /// (its midnight, UTC).
    static func parseTime(_ text: String) -> Date? {
        if let date = StaffWire.parseTime(text) { return date }
        if let day = Fields.isoDate(text) { return Date(unixMilliseconds: day.unixSecondsAtMidnightUTC * 1000) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard text.hasSuffix("Z"), let date = formatter.date(from: text) else { return nil }
        return date
    }
}
