import DeskConsole
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The dashboard through the whole program over a real `LocalDesk` on a SQLite file: the
/// figures the store counts, the refresh on the desk's clock, the CSV written to disk.
@Suite("Program: the dashboard on a local desk")
struct DashboardProgramTests {
    /// Whether the desk answers statistics (the use case may not be built in this tree yet).
    @Test("a supervisor sees the store's figures, refreshed every 5 s, and exports them as CSV (0600, overwrite asked)")
    func figuresRefreshExport() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let phone = PhoneDesk(store: d.store, clock: d.clock)
            // Ten minutes ago: authorised, checked by the app and used by an upload within its 150 s.
            let first = try d.authorize(Fixture.code, by: "rossi", at: Fixture.now.addingTimeInterval(-600))
            d.clock.set(Fixture.now.addingTimeInterval(-590))
            #expect(try phone.checkOtp(first))
            d.clock.set(Fixture.now.addingTimeInterval(-560))
            _ = try phone.upload(first, clientClock: 0, keys: [], province: nil, summariesJSON: "[]", summaryCount: 0)
            d.clock.set(Fixture.now)
            try d.authorize(Fixture.code("K2J3IWY5U"), by: "rossi", at: d.clock.now().addingTimeInterval(-120))
            try d.authorize(Fixture.code("AEF234HIJ"), by: "bianchi")

            await c.signIn("sara")
            #expect(c.state.page == .dashboard)
            #expect(await c.until { c.state.dashboard.report != nil })
            let report = try #require(c.state.dashboard.report)
            #expect(report.authorized.total == 3)
            #expect(report.checked.total == 1)
            #expect(report.uploaded.total == 1)
            #expect(report.uploads.total == 1)
            #expect(report.operators.map(\.name) == ["rossi", "bianchi"])
            #expect(c.prose.contains("Authorised by operator"))
            #expect(c.prose.contains("33%"), "uploaded 1 of 3")

            // Five seconds on the desk's clock: asked again, with what happened meanwhile.
            try d.authorize(Fixture.code("Q4R5S6U7W"), by: "bianchi", at: d.clock.now().addingTimeInterval(1))
            d.clock.advance(seconds: 5)
            #expect(await c.until { c.state.dashboard.report?.authorized.total == 4 })
            #expect(c.prose.contains("updated 14:02:05 UTC"))

            // The export: written whole, 0600, the CSV of the figures shown; an existing file asked about.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-stats-\(UUID().uuidString).csv"
            ).path
            defer { try? FileManager.default.removeItem(atPath: path) }
            await c.press(.char("e"), .ctrl("u"))
            await c.type(path)
            await c.press(.enter)
            #expect(await c.until { c.state.dashboard.export == nil })
            let shown = try #require(c.state.dashboard.report)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == StatsCSV.encode(shown))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(c.prose.contains("exported the figures to"))
            try "old".write(toFile: path, atomically: true, encoding: .utf8)
            await c.press(.char("e"), .ctrl("u"))
            await c.type(path)
            await c.press(.enter)
            #expect(await c.until { c.state.dashboard.export?.confirm != nil })
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
            await c.press(.char("y"))
            #expect(await c.until { c.state.dashboard.export == nil })
            #expect(try String(contentsOfFile: path, encoding: .utf8) != "old")
        }
    }

    @Test("an export to a folder that does not exist is refused, with what to do")
    func exportRefusesMissingFolder() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            await c.signIn("sara")
            #expect(await c.until { c.state.dashboard.report != nil })
            await c.press(.char("e"), .ctrl("u"))
            await c.type("/nonexistent-folder-\(UUID().uuidString)/stats.csv")
            await c.press(.enter)
            #expect(await c.until { c.state.dashboard.export?.error != nil })
            #expect(c.state.dashboard.export?.error?.contains("does not exist") == true)
        }
    }

    @Test("idle: the lock covers the figures and nothing is asked under it; sign-out leaves no figures behind")
    func lockAndSignOut() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            try d.authorize(Fixture.code, by: "rossi", at: Fixture.now.addingTimeInterval(-60))
            await c.signIn("sara")
            #expect(await c.until { c.state.dashboard.report?.authorized.total == 1 })
            let askedAt = c.state.dashboard.askedAt
            // Ten minutes without a key: locked (the session is ended).
            d.clock.advance(seconds: 600)
            await c.send([])
            #expect(await c.until { c.state.lock != nil })
            #expect(c.screen.contains("TraceDesk · Locked"))
            #expect(!c.prose.contains("authorised"), "the lock covers the figures")
            // Ticks under the lock ask nothing.
            for _ in 0..<3 {
                d.clock.advance(seconds: 30)
                await c.send([])
            }
            await c.idle()
            #expect(c.state.dashboard.askedAt == askedAt)
            #expect(!c.state.dashboard.loading)
            await c.press(.ctrl("o"))
            #expect(await c.until { c.state.page == .signIn })
            #expect(c.state.dashboard.report == nil)
            #expect(c.state.dashboard.error == nil)
            #expect(!c.prose.contains("authorised"))
        }
    }
}
