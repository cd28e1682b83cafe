import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The supervisor's dashboard: every figure of a ``StatsReport`` for today (since local
/// midnight), over the last hour, 24 hours, 7 or 14 days, as tiles (a total and a sparkline of its buckets) and bar charts (by province,
/// by operator, by tracer, keys dropped by reason, keys per upload).
///
/// It asks for the figures when it comes into view, on `r`, when the range or the bucket
/// changes, and every ``State/refreshSeconds`` while shown (0: never by itself). One ask at a
/// time for refreshes; a change of range asks at once, and the answer to any query but the
/// last one asked is dropped. A failed ask keeps the figures on screen and says what went wrong.
/// `p` shows one province; `e` writes the figures as CSV (``StatsCSV``). The range chosen is
/// kept between runs: a change says ``Command/rememberRange(_:)``, and the program reads the
/// choice back at start (``RememberedRange``).
///
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``
/// and writes the export's file.
public enum DashboardScreen {
    /// Asking which province to show.
    public struct ProvincePrompt: Hashable, Sendable {
        public var code = TextFieldState("", maxLength: 8)
        public var error: String?

        public init() {}
    }

    public struct State: Hashable, Sendable {
        public var range: StatsRange = .hour
        public var bucket: StatsBucket = StatsRange.hour.defaultBucket
        /// The figures on screen (kept when a later ask fails).
        public var report: StatsReport?
        /// The range the figures on screen were asked for (the choice may have moved on since).
        public var shownRange: StatsRange?
        /// The query last asked for; answers for any other are dropped.
        public var asked: StatsQuery?
        /// An ask is running.
        public var loading = false
        /// `r` was pressed while an ask was running: ask once more when it answers.
        public var refreshPending = false
        /// When the last ask started (the desk's clock).
        public var askedAt: Date?
        /// What went wrong with the last ask; nil after a success.
        public var error: String?
        /// Seconds between refreshes while shown; 0: only on `r` and changes.
        public var refreshSeconds: Int
        /// The province shown on its own (`p`); nil: all provinces.
        public var province: String?
        public var provincePrompt: ProvincePrompt?
        public var export: ExportPrompt?
        public var notice: Notice?
        /// The desk's clock at the last tick.
        public var now: Date
        /// The folder an export is suggested in, as shown (``ExportPath/defaultFolder(environment:isFolder:)``).
        public var exportFolder = "~"
        public var timeZone: TimeZone
        /// Sparklines and bars in ASCII.
        public var ascii: Bool
        /// The statistics or the tracing indicators (`t` switches).
        public var page: Page = .figures
        /// The tracing indicators on screen (kept when a later ask fails), the query last asked
        /// for them, and what went wrong with that ask.
        public var indicators: FollowUpIndicators?
        public var indicatorsAsked: StatsQuery?
        public var indicatorsError: String?

        public init(now: Date, timeZone: TimeZone = .current, refreshSeconds: Int = 5, ascii: Bool = false) {
            self.now = now
            self.timeZone = timeZone
            self.refreshSeconds = refreshSeconds
            self.ascii = ascii
        }

        /// Keys go to a text field (the province or the export's file).
        public var isTyping: Bool {
            provincePrompt != nil || (export != nil && export?.confirm == nil)
        }

        public var isModal: Bool { provincePrompt != nil || export != nil }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case ticked(Date)
        case loaded(StatsReport, for: StatsQuery)
        case failed(String, for: StatsQuery)
        /// The export's file exists: ask before overwriting.
        case exportExists(String)
        case exported(path: String)
        case exportFailed(String)
        case indicatorsLoaded(FollowUpIndicators, for: StatsQuery)
        case indicatorsFailed(String, for: StatsQuery)
    }

    public enum Command: Hashable, Sendable {
        case load(StatsQuery)
        /// The tracing indicators over the cases opened in the query's range.
        case loadIndicators(StatsQuery)
        /// Writes `csv` to `path` whole or not at all (mode 0600).
        case export(path: String, csv: String, overwrite: Bool)
        /// The range chosen changed: keep it for the next run.
        case rememberRange(StatsRange)
        case quit
    }

    /// The longest refresh period `--refresh` takes, in seconds.
    public static let maximumRefreshSeconds = 3_600
    public static let defaultRefreshSeconds = 5

    /// The buckets `b` cycles through for a range, its default first.
    public static func buckets(for range: StatsRange) -> [StatsBucket] {
        switch range {
        case .hour: return [.fiveMinutes]
        case .today: return [.hour]
        case .day: return [.hour, .fiveMinutes]
        case .week, .fortnight: return [.day, .hour]
        }
    }

    /// Sets the range chosen (the one kept from the last run) without asking: for a screen
    /// not yet shown, or already showing it.
    public static func choose(_ range: StatsRange, in state: inout State) {
        guard range != state.range else { return }
        state.range = range
        state.bucket = range.defaultBucket
    }

    /// The screen came into view: ask now (unless an ask is running).
    public static func opened(_ state: inout State) -> [Command] {
        state.loading ? [] : ask(&state)
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            if state.provincePrompt != nil { return provinceKey(&state, key) }
            if state.export != nil { return exportKey(&state, key) }
            guard let action = keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        case .ticked(let now):
            state.now = now
            guard state.refreshSeconds > 0, !state.loading else { return [] }
            if let last = state.askedAt, now.timeIntervalSince(last) < Double(state.refreshSeconds) { return [] }
            return ask(&state)
        case .loaded(let report, let query):
            guard query == state.asked else { return [] }
            state.loading = false
            state.report = report
            // The answer is to the last ask, made for the range chosen now.
            state.shownRange = state.range
            state.error = nil
            return askIfPending(&state)
        case .failed(let message, let query):
            guard query == state.asked else { return [] }
            state.loading = false
            state.error = message
            return askIfPending(&state)
        case .exportExists(let path):
            state.export?.fileExists(path)
            return []
        case .exported(let path):
            state.export = nil
            state.notice = .ok(tr("console.dashboard.exported", ["path": path]))
            return []
        case .exportFailed(let message):
            state.export?.failed(message)
            return []
        case .indicatorsLoaded(let indicators, let query):
            guard query == state.indicatorsAsked else { return [] }
            state.indicators = indicators
            state.indicatorsError = nil
            return []
        case .indicatorsFailed(let message, let query):
            guard query == state.indicatorsAsked else { return [] }
            state.indicatorsError = message
            return []
        }
    }

    /// Asks for the figures of the range and bucket shown, up to now.
    static func ask(_ state: inout State) -> [Command] {
        let query = StatsQuery.last(state.range, bucket: state.bucket, now: state.now, timeZone: state.timeZone)
        state.asked = query
        state.askedAt = state.now
        state.loading = true
        state.refreshPending = false
        return [.load(query)] + askIndicators(&state)
    }

    /// The ask `r` left waiting while another ran, once that one has answered.
    private static func askIfPending(_ state: inout State) -> [Command] {
        state.refreshPending ? ask(&state) : []
    }

    /// A range in a sentence: "the last hour", "today".
    static func phrase(_ range: StatsRange) -> String { tr("console.dashboard.range.phrase.\(range.rawValue)") }

    /// A range as a heading: "Last hour", "Today".
    static func rangeTitle(_ range: StatsRange) -> String { tr("console.dashboard.range.title.\(range.rawValue)") }

    /// Within a range, in a sentence: "in the last hour", "today".
    static func inRange(_ range: StatsRange) -> String { tr("console.dashboard.range.in.\(range.rawValue)") }

    /// A bucket's size in a sentence: "5 min", "hour", "day".
    static func bucketLabel(_ bucket: StatsBucket) -> String { tr("console.dashboard.bucket.\(bucket.rawValue)") }

    /// The range a report's query covers (the one on screen may not be the one chosen yet);
    /// nil for today's, whose length changes by the hour (``State/shownRange`` says it).
    public static func range(of query: StatsQuery) -> StatsRange? {
        let size = query.bucket.milliseconds
        return StatsRange.allCases.first {
            $0 != .today && max(2, ($0.milliseconds + size - 1) / size) == Int64(query.bucketCount)
        }
    }

    /// The range and bucket of the figures on screen, or of the choice when there are none yet.
    static func shown(_ state: State) -> (range: StatsRange, bucket: StatsBucket) {
        guard let query = state.report?.query, let range = state.shownRange ?? range(of: query) else {
            return (state.range, state.bucket)
        }
        return (range, query.bucket)
    }

    /// The figures on screen are of another range or bucket than the one chosen (its ask is
    /// running or failed).
    static func showsOtherRange(_ state: State) -> Bool {
        guard state.report != nil else { return false }
        let shown = shown(state)
        return shown.range != state.range || shown.bucket != state.bucket
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        state.notice = nil
        switch action {
        case .range(let range):
            guard range != state.range else { return [] }
            state.range = range
            state.bucket = range.defaultBucket
            return ask(&state) + [.rememberRange(range)]
        case .cycleBucket:
            let choices = buckets(for: state.range)
            guard choices.count > 1 else {
                state.notice = .info(
                    tr(
                        "console.dashboard.oneBucket",
                        ["range": phrase(state.range), "bucket": bucketLabel(state.bucket)]))
                return []
            }
            let index = choices.firstIndex(of: state.bucket) ?? 0
            state.bucket = choices[(index + 1) % choices.count]
            return ask(&state)
        case .refresh:
            // One ask at a time: a held `r` asks once more when the running ask answers.
            guard !state.loading else {
                state.refreshPending = true
                return []
            }
            return ask(&state)
        case .province:
            state.provincePrompt = ProvincePrompt()
        case .allProvinces:
            state.province = nil
        case .export:
            state.export = ExportPrompt(path: defaultExportPath(state))
        case .tracing:
            return switchPage(&state)
        case .quit:
            return [.quit]
        }
        return []
    }

    // MARK: Province

    /// What to show for a typed code: the code (uppercased) or what is wrong with it.
    public static func checkProvince(_ text: String, report: StatsReport?) -> Result<String, StatsInputError> {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        if Province.named(code) != nil || report?.provinces.contains(where: { $0.code == code }) == true {
            return .success(code)
        }
        let shown = code.isEmpty ? tr("console.dashboard.emptyCode") : code
        return .failure(.init(tr("console.dashboard.notProvince", ["code": shown])))
    }

    /// "Rieti (RI)" ("Forli Cesena (FC)" in ASCII), or "QQ (not a province)" for a code the
    /// apps sent that is no province.
    public static func provinceName(_ code: String, ascii: Bool = false) -> String {
        Province.named(code).map { "\(ascii ? $0.asciiName : $0.name) (\(code))" }
            ?? tr("console.dashboard.notAProvince", ["code": code])
    }

    private static func provinceKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var prompt = state.provincePrompt else { return [] }
        switch provinceKeyMap.action(for: key) {
        case .back:
            state.provincePrompt = nil
        case .submit:
            if prompt.code.text.trimmingCharacters(in: .whitespaces).isEmpty {
                state.province = nil
                state.provincePrompt = nil
                return []
            }
            switch checkProvince(prompt.code.text, report: state.report) {
            case .success(let code):
                state.province = code
                state.provincePrompt = nil
            case .failure(let error):
                prompt.error = error.message
                state.provincePrompt = prompt
            }
        case nil:
            if prompt.code.handle(key) == .changed { prompt.error = nil }
            state.provincePrompt = prompt
        }
        return []
    }

    // MARK: Export

    /// `~/Documents/stats-<range>-<day>.csv` (``State/exportFolder``): the range of the figures
    /// on screen, the day (in the console's zone) they were read.
    public static func defaultExportPath(_ state: State) -> String {
        let day = ConsoleText.day(of: state.report?.generatedAt ?? state.now, in: state.timeZone)
        return "\(state.exportFolder)/stats-\(shown(state).range.rawValue)-\(day.iso).csv"
    }

    private static func exportKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var prompt = state.export else { return [] }
        let step = prompt.handle(key, exportKeyMap.action(for: key).map { $0 == .submit ? .submit : .back })
        state.export = prompt
        switch step {
        case .stay: return []
        case .cancel:
            state.export = nil
            return []
        case .write(let overwrite): return startExport(&state, overwrite: overwrite)
        }
    }

    private static func startExport(_ state: inout State, overwrite: Bool) -> [Command] {
        guard var prompt = state.export else { return [] }
        prompt.confirm = nil
        guard let report = state.report else {
            prompt.error = tr("console.dashboard.noFiguresYet")
            state.export = prompt
            return []
        }
        let path = prompt.start(defaultPath: defaultExportPath(state), example: "stats.csv")
        state.export = prompt
        guard let path else { return [] }
        return [.export(path: path, csv: StatsCSV.encode(report, indicators: state.indicators), overwrite: overwrite)]
    }
}
