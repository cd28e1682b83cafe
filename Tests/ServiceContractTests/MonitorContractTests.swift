import CivilCalendar
import DeskContract
import DeskCore
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The monitor's use cases through both desks: the same pages, the same filtering by role, the
/// same watch, the same refusals, and a wait that ends when an event arrives.
@Suite struct MonitorContractTests {
    /// An upload of `code` straight into the store (as a phone's would be), with one key kept
    /// and two dropped.
    static func upload(_ f: ContractFixture, _ code: String) throws {
        let key = AcceptedKey(
            key: TemporaryExposureKey(keyData: Array(0..<16), rollingStartNumber: 2_993_040, rollingPeriod: 144),
            transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 2)
        let evaluation = UploadEvaluation(
            accepted: [key], dropped: [.init(index: 1, reason: .tooOld), .init(index: 2, reason: .tooOld)],
            clockSkewSeconds: -4, clockSkewFlagged: false)
        let outcome = try f.store.consumeForUpload(otpHash: Codes.hash(code), now: f.clock.now()) { record in
            UploadRecord(
                otpHash: record.otpHash, receivedAt: f.clock.now(), symptomsStartedOn: record.symptomsStartedOn,
                province: Province.named("RM"), clientClock: 0, evaluation: evaluation, summariesJSON: "[]",
                summaryCount: 0)
        }
        guard case .stored = outcome else { throw CancellationError() }
    }

    /// Every event from the start, in pages of `limit`.
    static func all(_ desk: any DeskService, _ session: StaffSession, limit: Int = 3) async throws -> [MonitorEvent] {
        var out: [MonitorEvent] = []
        var cursor: Int64 = 0
        while true {
            let page = try await desk.events(session, after: cursor, limit: limit, wait: .zero)
            #expect(page.cursor >= cursor)
            out += page.events
            if page.events.isEmpty { return out }
            cursor = page.cursor
        }
    }

    @Test(
        "a supervisor reads every event once, in order, in pages; an operator only their own codes",
        arguments: DeskKind.allCases)
    func pages(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let bruno = try await f.person("bruno", .operator, by: admin)
            let sara = try await f.person("sara", .supervisor, by: admin)
            let mine = Codes.fresh()
            let theirs = Codes.fresh()
            _ = try await f.desk.authorize(ana, code: mine, symptomsStartedOn: ContractFixture.today)
            _ = try await f.desk.authorize(bruno, code: theirs, symptomsStartedOn: ContractFixture.today)
            _ = try f.store.recordCheck(otpHash: Codes.hash(mine), now: f.clock.now())
            _ = try f.store.recordCheck(otpHash: Codes.hash(theirs), now: f.clock.now())

            let everything = try await Self.all(f.desk, sara)
            let anaSees = try await Self.all(f.desk, ana)

            let ids = everything.map(\.id)
            #expect(ids == ids.sorted() && Set(ids).count == ids.count, "\(kind): in order, once each")
            let mineTag = Codes.hash(mine).tag
            let theirsTag = Codes.hash(theirs).tag
            let codeEvents = everything.filter { $0.codeTag != nil }.map { "\($0.kind) \($0.codeTag!)" }
            #expect(
                codeEvents == [
                    "otp_authorized \(mineTag)", "otp_authorized \(theirsTag)", "otp_checked \(mineTag)",
                    "otp_checked \(theirsTag)",
                ], "\(kind)")
            #expect(
                everything.contains { $0.known == .staffAction && $0.actor == "sara" }, "\(kind): sign-ins are events")
            #expect(!anaSees.contains { $0.codeTag == theirsTag }, "\(kind): another operator's code is not shown")
            #expect(anaSees.filter { $0.codeTag == mineTag }.count == 2, "\(kind)")
            #expect(anaSees.allSatisfy { $0.known == .staffAction ? $0.actor == "ana" : true }, "\(kind)")
            for event in everything {
                #expect(!event.detail.contains(Codes.hash(mine).hex) && !event.detail.contains(mine), "\(kind)")
            }
            // The operator's cursor moves past what they may not see.
            let last = try await f.desk.events(ana, after: anaSees.last?.id ?? 0, limit: 10, wait: .zero)
            #expect(last.events.isEmpty)
            #expect(last.cursor >= everything.last?.id ?? 0, "\(kind)")
        }
    }

    @Test(
        "a wait for events ends when one arrives, and a wait with none ends empty at the cursor",
        arguments: DeskKind.allCases)
    func waits(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let sara = try await f.person("sara", .supervisor, by: admin)
            let bruno = try await f.person("bruno", .operator, by: admin)
            let start = try await f.desk.events(sara, after: 0, limit: 1_000, wait: .zero).cursor

            let quiet = try await f.desk.events(sara, after: start, limit: 10, wait: .seconds(1))
            #expect(quiet.events.isEmpty)
            #expect(quiet.cursor == start)

            let code = Codes.fresh()
            let desk = f.desk
            // A control: bruno's page, begun first with the same 60 s wait, for events he may not
            // see (ana's code is not his). While it still waits, a wait begun after it has not run
            // out either, however slow the machine. On the server "begun first" is seen (its poll
            // counted waiting); LocalDesk shows nothing, so there the control has at least begun.
            let controlBegun = Latch()
            let controlEnded = Latch()
            let control = Task {
                controlBegun.set()
                defer { controlEnded.set() }
                return try await desk.events(bruno, after: start, limit: 10, wait: .seconds(60))
            }
            if let server = f.server {
                try await eventually(within: .seconds(60), "the control's long poll waiting on the server") {
                    server.staffAPI.waitingPolls == 1
                }
            } else {
                try await eventually(within: .seconds(60), "the control begun") { controlBegun.isSet }
            }
            let waiting = Task { try await desk.events(sara, after: start, limit: 10, wait: .seconds(60)) }
            // The event comes while the page waits: on the server, once its poll is counted
            // waiting; LocalDesk looks at the store as it waits, so any moment will do.
            if let server = f.server {
                try await eventually(within: .seconds(60), "the long poll waiting on the server") {
                    server.staffAPI.waitingPolls == 2
                }
            }
            _ = try await desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)
            let page = try await waiting.value
            #expect(
                page.events.contains { $0.known == .otpAuthorized && $0.codeTag == Codes.hash(code).tag }, "\(kind)")
            // Woken by the event, not by the end of its wait: the control, whose wait began
            // earlier and is as long, still waits.
            #expect(!controlEnded.isSet, "\(kind): answered only when its wait ran out")
            // A code of bruno's own ends the control.
            let own = Codes.fresh()
            _ = try await desk.authorize(bruno, code: own, symptomsStartedOn: ContractFixture.today)
            let controlPage = try await control.value
            #expect(controlPage.events.contains { $0.codeTag == Codes.hash(own).tag }, "\(kind)")
            #expect(!controlPage.events.contains { $0.codeTag == Codes.hash(code).tag }, "\(kind)")
        }
    }

    @Test(
        "the watch follows a code: authorised, checked, uploaded; refused for another operator",
        arguments: DeskKind.allCases)
    func watch(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let bruno = try await f.person("bruno", .operator, by: admin)
            let sara = try await f.person("sara", .supervisor, by: admin)
            let code = Codes.fresh()
            _ = try await f.desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)

            let fresh = try await f.desk.watch(ana, .code(code))
            _ = try f.store.recordCheck(otpHash: Codes.hash(code), now: f.clock.now())
            _ = try f.store.recordCheck(otpHash: Codes.hash(code), now: f.clock.now())
            let checked = try await f.desk.watch(ana, .code(code))
            try Self.upload(f, code)
            let uploaded = try await f.desk.watch(sara, .code(code))

            #expect(fresh.codeTag == Codes.hash(code).tag)
            #expect(fresh.authorizedBy == "ana")
            #expect(fresh.symptomsStartedOn == ContractFixture.today)
            #expect(fresh.checks == 0 && fresh.upload == nil, "\(kind)")
            #expect(checked.checks == 2, "\(kind)")
            #expect(checked.asOf > fresh.asOf, "\(kind)")
            let upload = try #require(uploaded.upload, "\(kind)")
            #expect(upload.keysAccepted == 1 && upload.keysDropped == 2, "\(kind)")
            #expect(upload.droppedReasons == ["too_old": 2], "\(kind)")
            #expect(upload.province == "RM" && upload.clockSkewSeconds == -4, "\(kind)")
            #expect(upload.publishedInChunks.isEmpty && upload.keysWaiting == 1, "\(kind)")

            // The jump from an event to its code's watch gives the same.
            let events = try await Self.all(f.desk, sara, limit: 100)
            let uploadEvent = try #require(events.last { $0.known == .uploadAccepted })
            #expect(try await f.desk.watch(sara, .event(uploadEvent.id)) == uploaded, "\(kind)")
            let staffEvent = try #require(events.first { $0.known == .staffAction })
            #expect(
                await failure { () async throws(ServiceError) in try await f.desk.watch(sara, .event(staffEvent.id)) }
                    == .invalid("event \(staffEvent.id) is not about a code"), "\(kind)")
            let refusal = await failure { () async throws(ServiceError) in try await f.desk.watch(bruno, .code(code)) }
            guard case .forbidden = refusal else {
                Issue.record("\(kind): another operator's watch must be forbidden, got \(String(describing: refusal))")
                return
            }
            let unknown = await failure { () async throws(ServiceError) in
                try await f.desk.watch(ana, .code(Codes.fresh()))
            }
            guard case .invalid = unknown else {
                Issue.record("\(kind): an unknown code must be invalid, got \(String(describing: unknown))")
                return
            }
        }
    }

    @Test("the traffic share counts real and dummy requests since the hour began", arguments: DeskKind.allCases)
    func traffic(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let code = Codes.fresh()
            _ = try await f.desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)
            _ = try f.store.recordCheck(otpHash: Codes.hash(code), now: f.clock.now())
            for _ in 0..<3 { try f.store.countDummy(route: "/v1/ingestion/check-otp", now: f.clock.now()) }

            let share = try await f.desk.traffic(ana, since: f.clock.now())

            #expect(share.realRequests == 1, "\(kind)")
            #expect(share.dummyRequests == 3, "\(kind)")
            #expect(share.since <= f.clock.now())
            #expect(share.since.unixMilliseconds % 3_600_000 == 0, "\(kind): the start of the hour")
        }
    }

    @Test("the newest events start a feed: the last page, and the cursor to follow from", arguments: DeskKind.allCases)
    func newest(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let sara = try await f.person("sara", .supervisor, by: admin)
            for _ in 0..<5 {
                _ = try await f.desk.authorize(ana, code: Codes.fresh(), symptomsStartedOn: ContractFixture.today)
            }
            let all = try await Self.all(f.desk, sara, limit: 100)

            let newest = try await f.desk.newestEvents(sara, limit: 3)
            let anas = try await f.desk.newestEvents(ana, limit: 1_000)

            #expect(newest.events == Array(all.suffix(3)), "\(kind)")
            #expect(newest.cursor == all.last?.id, "\(kind)")
            #expect(try await f.desk.events(sara, after: newest.cursor, limit: 10, wait: .zero).events.isEmpty)
            #expect(anas.events.filter { $0.known == .otpAuthorized }.count == 5, "\(kind)")
            #expect(anas.events.allSatisfy { $0.actor == "ana" || $0.known == .chunkPublished }, "\(kind)")
            let refused = await failure { () async throws(ServiceError) in try await f.desk.newestEvents(sara, limit: 0)
            }
            #expect(refused == .invalid("ask for 1 to 1000 events per page (not 0)"), "\(kind)")
        }
    }

    @Test("bad limits and waits are refused with the same words by both desks", arguments: DeskKind.allCases)
    func refusals(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let sara = try await f.person("sara", .supervisor, by: admin)
            for limit in [0, 1_001] {
                let error = await failure { () async throws(ServiceError) in
                    try await f.desk.events(sara, after: 0, limit: limit, wait: .zero)
                }
                #expect(error == .invalid("ask for 1 to 1000 events per page (not \(limit))"), "\(kind) \(limit)")
            }
            let negative = await failure { () async throws(ServiceError) in
                try await f.desk.events(sara, after: 0, limit: 10, wait: .seconds(-1))
            }
            #expect(negative == .invalid("a wait cannot be negative: give 0 to 60 seconds"), "\(kind)")
        }
    }
}
