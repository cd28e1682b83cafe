import DeskCore
import DeskServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The statistics rollup job: counted in /metrics every run, logged only when it rolled up an
/// hour (with the count and nothing else), and a second run at once has nothing left to do.
@Suite("Statistics rollup job")
struct StatsJobTests {
    /// 2026-11-29 10:20:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_947_600)

    @Test("each run is counted; a run logs only the hours it rolled up; the next has none left")
    func rollUp() async throws {
        let fixture = try ServerFixture(
            sockets: false,
            configure: { $0.statsRollupIntervalSeconds = 60 }, clock: FixedClock(Self.now))
        let first = try #require(fixture.server.jobs.rollUpNow())
        let second = try #require(fixture.server.jobs.rollUpNow())
        #expect(second == 0, "every closed hour was rolled up by the first run")
        // 10:20, 2 minutes' grace: 09:00–10:00 is the last closed hour; 31 days of hours back from 10:00.
        #expect(first == 31 * 24)
        let lines = fixture.logLines.all.filter { $0.contains("statistics") }
        #expect(lines == ["statistics: rolled up 744 closed hours"], "logged once: the second run had none")
        let metrics = try await fixture.send("GET", fixture.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("# TYPE tracedesk_stats_rollup_runs_total counter\n"))
        #expect(metrics.text.contains("tracedesk_stats_rollup_runs_total{result=\"ok\"} 2\n"))
        #expect(metrics.text.contains("tracedesk_stats_hours_rolled_up_total 744\n"))
    }

    @Test("the interval is a setting: 60 to 3600 seconds, 300 by default")
    func setting() {
        #expect(ServerConfig().statsRollupIntervalSeconds == 300)
        let read = ServerConfig.read(file: nil, environment: ["TRACEDESK_STATS_ROLLUP_INTERVAL_SECONDS": "900"])
        #expect(read.0.statsRollupIntervalSeconds == 900 && read.1.isEmpty)
        let tooOften = ServerConfig.read(file: nil, environment: ["TRACEDESK_STATS_ROLLUP_INTERVAL_SECONDS": "5"])
        #expect(tooOften.1.contains { $0.contains("TRACEDESK_STATS_ROLLUP_INTERVAL_SECONDS") })
    }
}
