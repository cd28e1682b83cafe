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
    static var help: String { HelpText.command(CommandTable.command("stats")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "stats"
        let arguments = try Arguments(words, CommandTable.command("stats"), command: command)
        if arguments.has("help") || words.first == "help" {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError(tr("cli.common.unexpected", ["argument": String(extra.prefix(40))]), command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError(tr("cli.common.csvOrJson"), command: command)
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
            printError("stats: " + tr("cli.stats.indicatorsLeftOut", ["reason": reason]))
            return nil
        }
    }

    /// What the command line asked for: a range up to now, or fixed times.
    enum Choice {
        case last(StatsRange, StatsBucket?)
        case between(StatsQuery)

        var title: String? {
            if case .last(let range, _) = self { return tr("cli.stats.rangeLabel.\(range.rawValue)") }
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
                throw UsageError(tr("cli.stats.unknownBucket", ["value": String(text.prefix(20))]), command: command)
            }
            bucket = parsed
        }
        let fromText = arguments.values["from"]
        let toText = arguments.values["to"]
        if let rangeText = arguments.values["range"] {
            guard fromText == nil, toText == nil else {
                throw UsageError(tr("cli.stats.rangeOrFromTo"), command: command)
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
                throw UsageError(tr("cli.stats.toNeedsFrom"), command: command)
            }
            return .last(.day, bucket)
        }
        guard let from = parseTime(fromText) else {
            throw UsageError(
                tr("cli.stats.badFrom", ["value": String(fromText.prefix(40))]),
                command: command)
        }
        var to = Date()
        if let toText {
            guard let parsed = parseTime(toText) else {
                throw UsageError(
                    tr("cli.stats.badTo", ["value": String(toText.prefix(40))]),
                    command: command)
            }
            to = parsed
        }
        if to <= from {
            throw UsageError(tr("cli.stats.emptyRange"), command: command)
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
