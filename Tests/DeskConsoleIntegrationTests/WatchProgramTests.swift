import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// What operators and supervisors see of the desk's activity, through the whole program over a
/// real `LocalDesk` on a real SQLite file: the phone's steps written by the phone's own use cases
/// (`PhoneDesk`) and a chunk published by the real publisher with a freshly made signing key.
///
/// The clock stands still unless a test moves it, so the watch's 5-second fallback never comes
/// due: each step reaches the watch because the feed brought an event about it.
@Suite("Program: the watch, the monitor and traffic on a local desk", .timeLimit(.minutes(1)))
struct WatchProgramTests {
    /// Daily keys (rolling start numbers) around ``Fixture/now``: 2026-11-28, 11-27 and 11-20.
    static let yesterday: Int64 = 2_993_040
    static let twoDaysAgo: Int64 = yesterday - 144
    static let nineDaysAgo: Int64 = yesterday - 8 * 144

    static func key(_ byte: UInt8, start: Int64) -> TemporaryExposureKey {
        TemporaryExposureKey(
            keyData: [UInt8](repeating: byte, count: 16), rollingStartNumber: start, rollingPeriod: 144)
    }

    @Test("an operator authorises; the app's check, the upload and the chunk each show in the watch as they happen")
    func operatorFollowsTheCall() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let phone = PhoneDesk(store: d.store, clock: d.clock)
            let hash = try Otp(operatorInput: Fixture.code).hash
            await c.signIn("rossi")
            await c.authorize(Fixture.code)
            #expect(await c.until { c.state.authorize.watch != nil })
            #expect(c.screen.contains("✓ Authorised: the app must upload within 2:30"))
            #expect(c.screen.contains("✓ authorised by rossi at 14:02:00 (symptoms from 2026-11-28)"))
            #expect(c.screen.contains("… waiting for the app to check the code"))
            #expect(c.screen.contains("… waiting for the upload"))

            // The app checks the code.
            #expect(try phone.checkOtp(hash))
            #expect(await c.until { c.state.authorize.watch?.checks == 1 })
            #expect(c.screen.contains("✓ the app checked the code (once, at 14:02:00)"))

            // The upload: two keys in the risk window, one from before it (symptoms began yesterday).
            let clientClock = Int64(d.clock.now().timeIntervalSince1970) - 3
            let upload = try phone.upload(
                hash, clientClock: clientClock,
                keys: [
                    Self.key(1, start: Self.yesterday), Self.key(2, start: Self.twoDaysAgo),
                    Self.key(3, start: Self.nineDaysAgo),
                ], province: Province.named("RM"), summariesJSON: "[]", summaryCount: 0)
            guard case .stored = upload else {
                Issue.record("the upload was refused: \(upload)")
                return
            }
            #expect(await c.until { c.state.authorize.watch?.upload != nil })
            #expect(c.screen.contains("✓ Upload received: the citizen's part is done."))
            #expect(
                c.prose.contains(
                    "✓ upload received at 14:02:00: 2 keys accepted, 1 dropped (1 before the risk window), province RM, phone clock 3 s behind"
                ))
            #expect(c.state.authorize.watch?.upload?.keysWaiting == 2)
            #expect(
                c.prose.contains("… no publishing run scheduled: is `tracedesk serve` running, with a signing key?"))

            // The publishing job runs: the chunk's event (every operator sees chunks) asks again.
            let publisher = ChunkPublisher(
                store: d.store, clock: d.clock, signing: ChunkSigning(key: ECPrivateKey.generate()),
                policy: PublishingPolicy())
            let run = try publisher.run()
            #expect(run.published.map(\.keyCount) == [2])
            #expect(await c.until { c.state.authorize.watch?.upload?.publishedInChunks == [1] })
            #expect(c.screen.contains("✓ published in chunk 1"))
            #expect(c.state.authorize.watch?.upload?.keysWaiting == 0)

            // The same pages reached the operator's monitor: the call's steps, newest first.
            let kinds = c.state.monitor.rows.compactMap(\.kind).filter { $0 != .staff }
            #expect(kinds == [.chunk, .upload, .checked, .authorised])
            await c.press(.function(3))
            let padding = run.published.first?.paddingCount ?? 0
            #expect(c.screen.contains("chunk 1: 2 keys" + (padding > 0 ? " + \(padding) padding" : "")))
            #expect(c.screen.contains("2 accepted, 1 dropped (1 before the risk window), province RM"))
        }
    }

    @Test("a supervisor's monitor lists what the store wrote, everyone's, and new events arrive on top")
    func supervisorMonitor() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let phone = PhoneDesk(store: d.store, clock: d.clock)
            let rossis = try d.authorize(Fixture.code, by: "rossi", at: d.clock.now().addingTimeInterval(-60))
            _ = try phone.checkOtp(rossis)
            let bianchis = try d.authorize(Fixture.code("K2J3IWY5U"), by: "bianchi")
            await c.signIn("sara")
            // A supervisor starts on the dashboard: the monitor is F3.
            await c.press(.function(3))
            try await c.expectRows(d.storedIDs)
            #expect(c.screen.contains("Activity, newest first"))
            #expect(c.screen.contains("authorised 2 · checked 1"))
            let tags = Set(c.state.monitor.rows.compactMap(\.event.codeTag))
            #expect(tags == [rossis.tag, bianchis.tag], "every operator's codes")
            #expect(c.screen.contains(rossis.tag) && c.screen.contains(bianchis.tag))
            #expect(c.state.monitor.rows.contains { $0.kind == .authorised && $0.who == "bianchi" })

            // bianchi's code uploads, then a second upload with it is refused (used up): on top, as written.
            _ = try phone.upload(
                bianchis, clientClock: 0, keys: [], province: nil, summariesJSON: "[]", summaryCount: 0)
            _ = try phone.upload(
                bianchis, clientClock: 0, keys: [], province: nil, summariesJSON: "[]", summaryCount: 0)
            try await c.expectRows(d.storedIDs)
            #expect(c.state.monitor.rows.first?.kind == .refused)
            #expect(c.state.monitor.rows.first?.event.codeTag == bianchis.tag)
        }
    }

    @Test("the traffic share counts the phones' real requests and the dummies the store counted, since the hour began")
    func trafficShare() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let phone = PhoneDesk(store: d.store, clock: d.clock)
            let hash = try d.authorize(Fixture.code, by: "rossi")
            _ = try phone.checkOtp(hash)
            // Past the 5 s in which checks of one code make one event (and count as one request).
            d.clock.advance(seconds: 6)
            _ = try phone.checkOtp(hash)
            for _ in 0..<3 { try d.store.countDummy(route: "/v1/ingestion/check", now: d.clock.now()) }
            // The hour before: not in this hour's share.
            try d.store.countDummy(route: "/v1/ingestion/check", now: d.clock.now().addingTimeInterval(-3_600))
            await c.signIn("sara")
            await c.press(.function(3))
            #expect(await c.until { c.screen.contains("dummy traffic 60% of phone requests since 14:00") })
            #expect(c.state.monitor.traffic?.realRequests == 2)
            #expect(c.state.monitor.traffic?.dummyRequests == 3)

            // Five more dummies; the screen asks again after 15 s.
            for _ in 0..<5 { try d.store.countDummy(route: "/v1/ingestion/upload", now: d.clock.now()) }
            d.clock.advance(seconds: MonitorScreen.trafficSeconds)
            #expect(await c.until { c.screen.contains("dummy traffic 80% of phone requests since 14:00") })
        }
    }

    @Test("w on the operator's own code shows its watch; on a code now another operator's, the desk's refusal")
    func watchKey() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            // rossi's two codes: one from five minutes ago (expired, never used), one just now.
            let expired = Fixture.code("K2J3IWY5U")
            let old = try d.authorize(expired, by: "rossi", at: d.clock.now().addingTimeInterval(-300))
            let fresh = try d.authorize(Fixture.code, by: "rossi")
            await c.signIn("rossi")
            await c.press(.function(3))
            #expect(c.state.page == .monitor)
            #expect(await c.until { Set(c.state.monitor.rows.compactMap(\.event.codeTag)) == [old.tag, fresh.tag] })
            // The citizen reads the expired code to bianchi, who authorises it again: it is bianchi's now.
            try d.authorize(expired, by: "bianchi")

            try await select(c, tag: fresh.tag)
            await c.press(.char("w"))
            #expect(c.state.monitor.watch?.codeTag == fresh.tag)
            #expect(c.state.monitor.watchError == nil)
            #expect(c.screen.contains("Watch · code tag \(fresh.tag)"))
            #expect(c.screen.contains("✓ authorised by rossi at 14:02:00 (symptoms from 2026-11-28)"))

            await c.press(.escape)
            try await select(c, tag: old.tag)
            await c.press(.char("w"))
            #expect(c.state.monitor.watch == nil)
            let refusal = "you can watch only events about codes you authorised"
            #expect(c.state.monitor.watchError == refusal)
            #expect(c.prose.contains("✗ cannot watch this code: \(refusal)"))
            #expect(c.state.monitor.watchRefresh.stopped, "a refusal is not asked again")
        }
    }

    @Test("the authorise screen's watch of a code another operator authorised is refused and not asked again")
    func anotherOperatorsCode() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            try d.authorize(Fixture.code, by: "bianchi")
            await c.signIn("rossi")
            await c.authorize(Fixture.code)
            #expect(await c.until { c.state.authorize.watchError != nil })
            #expect(c.screen.contains("! Already authorised: nothing was changed"))
            #expect(c.prose.contains("! cannot follow this code: this code was authorised by another operator"))
            #expect(c.state.authorize.watchRefresh.stopped)
        }
    }

    /// Moves the monitor's selection down to the newest row about `tag`.
    func select(_ c: Console, tag: String) async throws {
        await c.press(.home)
        let shown = c.state.monitor.visible
        let position = try #require(shown.firstIndex { c.state.monitor.rows[$0].event.codeTag == tag })
        for _ in 0..<position { await c.press(.down) }
        #expect(c.state.monitor.selectedRow?.event.codeTag == tag)
    }
}
