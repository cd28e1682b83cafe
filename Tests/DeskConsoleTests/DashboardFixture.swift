import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit

/// Statistics reports made by hand, and the supervisor's console showing them.
enum DashboardFixture {
    static let supervisor = Fixture.session("sara", role: .supervisor)

    /// The figures of a busy hour (5-minute buckets up to 14:02); a longer range repeats the
    /// hour's pattern, and the breakdowns (operators, provinces, tracers, reasons, keys per
    /// upload) are scaled to its totals so that they add up as the store's would.
    static func report(_ query: StatsQuery = StatsQuery.last(.hour, now: Fixture.now)) -> StatsReport {
        var report = StatsReport(query: query, generatedAt: Fixture.now)
        let n = query.bucketCount
        func series(_ pattern: [Int64]) -> StatsSeries {
            StatsSeries(values: (0..<n).map { pattern[$0 % pattern.count] })
        }
        /// `parts` (the hour's) scaled to `total`, the rounding's rest on the first.
        func scaled(_ parts: [Int64], to total: Int64) -> [Int64] {
            let whole = parts.reduce(0, +)
            guard whole > 0 else { return parts }
            var out = parts.map { $0 * total / whole }
            out[0] += total - out.reduce(0, +)
            return out
        }
        report.authorized = series([3, 5, 2, 0, 4, 6, 8, 7, 3, 2, 5, 1])
        report.checked = series([2, 4, 2, 0, 3, 5, 6, 5, 2, 1, 4, 0])
        report.uploaded = series([1, 3, 1, 0, 2, 4, 5, 3, 1, 1, 2, 0])
        // Within the code's 150 s.
        report.medianSecondsToUpload = 105
        let authorized = scaled([21, 15, 10, 0], to: report.authorized.total)
        let checked = scaled([17, 11, 6, 0], to: report.checked.total)
        let uploaded = scaled([12, 8, 3, 0], to: report.uploaded.total)
        report.operators = ["rossi", "bianchi", "esposito-de-gregorio", "verdi"].enumerated().map { index, name in
            OperatorStats(
                name: name, authorized: authorized[index], checked: checked[index], uploaded: uploaded[index])
        }
        report.uploads = series([1, 3, 1, 0, 2, 4, 5, 3, 1, 1, 2, 0])
        report.uploadsRefused = [ReasonCount(reason: "expired", count: 3), ReasonCount(reason: "consumed", count: 1)]
        report.keysAccepted = series([12, 40, 13, 0, 27, 55, 70, 41, 14, 13, 28, 0])
        report.keysDropped = series([0, 1, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0])
        let dropped = scaled([2, 2], to: report.keysDropped.total)
        report.keysDroppedByReason = [
            ReasonCount(reason: "rolling_start_in_future", count: dropped[0]),
            ReasonCount(reason: "duplicate", count: dropped[1]),
        ]
        report.keysPerUpload = scaled(
            [6, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 5, 2], to: report.uploads.total)
        report.chunks = series([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
        report.keysPublished = series([0, 0, 0, 0, 0, 0, 180, 0, 0, 0, 0, 0])
        report.paddingPublished = 320
        report.realRequests = series([9, 14, 7, 2, 11, 16, 20, 15, 8, 6, 12, 0])
        report.dummyRequests = series([20, 22, 19, 21, 20, 23, 22, 20, 21, 19, 22, 0])
        report.analyticsReports = series([30, 41, 28, 35, 40, 52, 47, 39, 33, 30, 44, 21])
        // Forlì Cesena: a name outside ASCII.
        let provinces: [(String, Int64, Int64, Int64, Int64)] = [
            ("RM", 160, 140, 150, 9), ("MI", 120, 100, 111, 4), ("RE", 60, 51, 55, 1), ("NA", 45, 30, 40, 0),
            ("QQ", 12, 12, 12, 0), ("FC", 10, 7, 9, 0), ("FI", 9, 9, 9, 1), ("BO", 7, 6, 7, 0), ("PA", 5, 4, 5, 0),
            ("BA", 4, 4, 4, 0), ("AO", 3, 1, 1, 0), ("GE", 3, 2, 3, 0), ("VE", 2, 2, 2, 0),
        ]
        let total = report.analyticsReports.total
        let reports = scaled(provinces.map(\.1), to: total)
        let whole = provinces.map(\.1).reduce(0, +)
        report.provinces = provinces.enumerated().map { index, p in
            ProvinceStats(
                code: p.0, reports: reports[index], bluetoothActive: p.2 * total / whole,
                notificationsAllowed: p.3 * total / whole, exposureNotifications: p.4 * total / whole)
        }
        report.registrations = series([4, 6, 3, 5, 7, 2, 4, 6, 5, 3, 4, 1])
        report.returningSignIns = 7 * Int64(n) / 12
        report.contactFiles = series([0, 1, 0, 2, 0, 1, 0, 0, 3, 0, 1, 0])
        report.lookups = series([0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 0, 0])
        let lookups = scaled([3, 1], to: report.lookups.total)
        report.tracers = [
            TracerStats(name: "tina", lookups: lookups[0]), TracerStats(name: "marco", lookups: lookups[1]),
        ]
        report.pseudoIDs = PseudoIDCapacity(used: 12_000_000)
        return report
    }

    /// Figures too big for a tile's column: 9, 10 and 11 digits, every pseudo-id used.
    static func bigReport(_ query: StatsQuery) -> StatsReport {
        var report = self.report(query)
        func series(_ total: Int64) -> StatsSeries {
            var values = Array(repeating: total / Int64(query.bucketCount), count: query.bucketCount)
            values[0] += total - values.reduce(0, +)
            return StatsSeries(values: values)
        }
        report.authorized = series(123_456_789)
        report.checked = series(123_456_788)
        report.uploaded = series(1)
        report.uploads = series(4_294_967_296)
        report.keysAccepted = series(99_999_999_999)
        report.analyticsReports = series(999_999)
        report.registrations = series(999_600_000)
        report.pseudoIDs = PseudoIDCapacity(used: PseudoID.capacity)
        return report
    }

    /// The supervisor signed in, on the dashboard, with `report` (the busy hour by default)
    /// answering the first ask.
    static func app(
        width: Int = 80, height: Int = 24, ascii: Bool = false, report: ((StatsQuery) -> StatsReport)? = nil
    ) -> ConsoleApp.State {
        var state = ConsoleApp.State(
            size: TerminalSize(width: width, height: height), location: Fixture.location, now: Fixture.now,
            timeZone: Fixture.utc, ascii: ascii)
        _ = ConsoleApp.update(&state, .signedIn(supervisor))
        if let query = state.dashboard.asked {
            let made = report ?? { Self.report($0) }
            _ = ConsoleApp.update(&state, .dashboard(.loaded(made(query), for: query)))
        }
        return state
    }

    /// The last query asked by `commands`, if any.
    static func load(_ commands: [ConsoleApp.Command]) -> StatsQuery? {
        for command in commands.reversed() {
            if case .dashboard(.load(let query)) = command { return query }
        }
        return nil
    }
}
