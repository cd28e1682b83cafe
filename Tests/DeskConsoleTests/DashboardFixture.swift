import DeskConsole
import DeskCore
import DeskService
import Foundation
import TerminalKit

/// Statistics reports made by hand, and the supervisor's console showing them.
enum DashboardFixture {
    static let supervisor = Fixture.session("sara", role: .supervisor)

    /// The figures of a busy hour (5-minute buckets up to 14:02).
    static func report(_ query: StatsQuery = StatsQuery.last(.hour, now: Fixture.now)) -> StatsReport {
        var report = StatsReport(query: query, generatedAt: Fixture.now)
        let n = query.bucketCount
        func series(_ pattern: [Int64]) -> StatsSeries {
            StatsSeries(values: (0..<n).map { pattern[$0 % pattern.count] })
        }
        report.authorized = series([3, 5, 2, 0, 4, 6, 8, 7, 3, 2, 5, 1])
        report.checked = series([2, 4, 2, 0, 3, 5, 6, 5, 2, 1, 4, 0])
        report.uploaded = series([1, 3, 1, 0, 2, 4, 5, 3, 1, 1, 2, 0])
        report.medianSecondsToUpload = 754
        report.operators = [
            OperatorStats(name: "rossi", authorized: 21, checked: 17, uploaded: 12),
            OperatorStats(name: "bianchi", authorized: 15, checked: 11, uploaded: 8),
            OperatorStats(name: "esposito-de-gregorio", authorized: 10, checked: 6, uploaded: 3),
            OperatorStats(name: "verdi", authorized: 0, checked: 0, uploaded: 0),
        ]
        report.uploads = series([1, 3, 1, 0, 2, 4, 5, 3, 1, 1, 2, 0])
        report.uploadsRefused = [ReasonCount(reason: "expired", count: 3), ReasonCount(reason: "consumed", count: 1)]
        report.keysAccepted = series([12, 40, 13, 0, 27, 55, 70, 41, 14, 13, 28, 0])
        report.keysDropped = series([0, 1, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0])
        report.keysDroppedByReason = [
            ReasonCount(reason: "rolling_start_in_future", count: 2), ReasonCount(reason: "duplicate", count: 2),
        ]
        report.keysPerUpload = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 6, 5, 2]
        report.chunks = series([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
        report.keysPublished = series([0, 0, 0, 0, 0, 0, 180, 0, 0, 0, 0, 0])
        report.paddingPublished = 320
        report.realRequests = series([9, 14, 7, 2, 11, 16, 20, 15, 8, 6, 12, 3])
        report.dummyRequests = series([20, 22, 19, 21, 20, 23, 22, 20, 21, 19, 22, 4])
        report.analyticsReports = series([30, 41, 28, 35, 40, 52, 47, 39, 33, 30, 44, 6])
        report.provinces = [
            ProvinceStats(
                code: "RM", reports: 160, bluetoothActive: 140, notificationsAllowed: 150, exposureNotifications: 9),
            ProvinceStats(
                code: "MI", reports: 120, bluetoothActive: 100, notificationsAllowed: 111, exposureNotifications: 4),
            ProvinceStats(
                code: "RE", reports: 60, bluetoothActive: 51, notificationsAllowed: 55, exposureNotifications: 1),
            ProvinceStats(
                code: "NA", reports: 45, bluetoothActive: 30, notificationsAllowed: 40, exposureNotifications: 0),
            ProvinceStats(
                code: "QQ", reports: 12, bluetoothActive: 12, notificationsAllowed: 12, exposureNotifications: 0),
            ProvinceStats(
                code: "TO", reports: 10, bluetoothActive: 7, notificationsAllowed: 9, exposureNotifications: 0),
            ProvinceStats(
                code: "FI", reports: 9, bluetoothActive: 9, notificationsAllowed: 9, exposureNotifications: 1),
            ProvinceStats(
                code: "BO", reports: 7, bluetoothActive: 6, notificationsAllowed: 7, exposureNotifications: 0),
            ProvinceStats(
                code: "PA", reports: 5, bluetoothActive: 4, notificationsAllowed: 5, exposureNotifications: 0),
            ProvinceStats(
                code: "BA", reports: 4, bluetoothActive: 4, notificationsAllowed: 4, exposureNotifications: 0),
            ProvinceStats(
                code: "GE", reports: 3, bluetoothActive: 2, notificationsAllowed: 3, exposureNotifications: 0),
            ProvinceStats(
                code: "VE", reports: 2, bluetoothActive: 2, notificationsAllowed: 2, exposureNotifications: 0),
            ProvinceStats(
                code: "AO", reports: 1, bluetoothActive: 1, notificationsAllowed: 1, exposureNotifications: 0),
        ]
        report.registrations = series([4, 6, 3, 5, 7, 2, 4, 6, 5, 3, 4, 1])
        report.returningSignIns = 7
        report.contactFiles = series([0, 1, 0, 2, 0, 1, 0, 0, 3, 0, 1, 0])
        report.lookups = series([0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 0, 0])
        report.tracers = [TracerStats(name: "tina", lookups: 3), TracerStats(name: "marco", lookups: 1)]
        report.pseudoIDs = PseudoIDCapacity(used: 12_000_000)
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
