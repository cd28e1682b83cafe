import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The monitor through `LocalDesk` over a real SQLite store: who sees which events, the long
/// poll, the watch of a code and the traffic share. (Role checks for every use case are in the
/// service contract suite's role matrix.)
@Suite struct LocalDeskMonitorTests {
    static let code = "9K2RAY8UUQ"
    static let hash = OtpHash(hex: DeskFixture.hashHex)!

    /// A valid code made of `prefix` and its check character.
    static func code(_ prefix: String) throws -> String {
        prefix + String(try #require(OtpRules.checkCharacter(for: prefix)))
    }

    /// Where the feed ends now, as a supervisor sees it.
    static func end(_ fixture: DeskFixture) async throws -> Int64 {
        try await fixture.desk.events(fixture.supervisor, after: 0, limit: 1_000, wait: .zero).cursor
    }

    @Test("an operator's feed holds their codes and their own actions; a supervisor's everything")
    func roles() async throws {
        try await DeskFixture.with { fixture in
            let start = try await Self.end(fixture)
            let theirs = try Self.code("K2J3IWY5U")
            _ = try await fixture.desk.authorize(fixture.rossi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            _ = try await fixture.desk.authorize(fixture.bianchi, code: theirs, symptomsStartedOn: DeskFixture.today)
            let end = try await Self.end(fixture)

            let mine = try await fixture.desk.events(fixture.rossi, after: start, limit: 100, wait: .zero)
            #expect(mine.events.map(\.kind) == ["otp_authorized"])
            #expect(mine.events.first?.codeTag == "b39e07")
            #expect(mine.events.first?.actor == "rossi")
            #expect(mine.events.first?.known == .otpAuthorized)
            #expect(mine.cursor == end, "past bianchi's authorisation, which rossi does not see")

            let all = try await fixture.desk.events(fixture.supervisor, after: start, limit: 100, wait: .zero)
            let theirTag = try Otp(operatorInput: theirs).hash.tag
            #expect(all.events.map(\.codeTag) == ["b39e07", theirTag])
            #expect(all.events.map(\.actor) == ["rossi", "bianchi"])

            // From the beginning: of the staff actions, only rossi's own (the sign-in).
            let history = try await fixture.desk.events(fixture.rossi, after: 0, limit: 100, wait: .zero)
            let actions = history.events.filter { $0.known == .staffAction }
            #expect(actions.map(\.actor) == ["rossi"])
            #expect(actions.map(\.detail) == [#"{"action":"sign_in"}"#])
            let everything = try await fixture.desk.events(fixture.supervisor, after: 0, limit: 1_000, wait: .zero)
            #expect(everything.events.filter { $0.known == .staffAction }.count == 8)
            // A code is named by its tag, never by its hash.
            for event in history.events + everything.events {
                #expect(!"\(event)".contains(DeskFixture.hashHex))
                #expect(event.codeTag.map { $0.count == 6 } ?? true)
            }
        }
    }

    @Test("a waiting feed answers as soon as an event it may see arrives")
    func waitEndsEarly() async throws {
        // The desk's waits on a clock of the test's own: it moves only when the page sleeps.
        let waits = VirtualWaitClock()
        try await DeskFixture.with(waits: waits.clock) { fixture in
            let start = try await Self.end(fixture)
            // The event is written during the page's third pause: certainly while it waits.
            let store = fixture.store
            let hash = try Otp(operatorInput: Self.code).hash
            waits.whileAsleep { sleep in
                guard sleep == 3 else { return }
                _ = try? store.authorize(
                    otpHash: hash, symptomsStartedOn: DeskFixture.today, by: "rossi", now: DeskFixture.start,
                    lifetime: .seconds(150))
            }
            let page = try await fixture.desk.events(fixture.rossi, after: start, limit: 10, wait: .seconds(60))
            // Answered at the look after that pause, not at the end of its minute.
            #expect(page.events.map(\.kind) == ["otp_authorized"])
            #expect(page.cursor == page.events.last?.id)
            #expect(waits.sleeps.count == 3)
            #expect(waits.slept < .seconds(60))
        }
    }

    @Test("a wait that sees nothing it may show answers empty when it runs out, its cursor past the others' events")
    func waitRunsOut() async throws {
        let waits = VirtualWaitClock()
        try await DeskFixture.with(waits: waits.clock) { fixture in
            let start = try await Self.end(fixture)
            _ = try await fixture.desk.authorize(
                fixture.bianchi, code: try Self.code("K2J3IWY5U"), symptomsStartedOn: DeskFixture.today)
            let end = try await Self.end(fixture)

            let now = try await fixture.desk.events(fixture.rossi, after: start, limit: 10, wait: .zero)
            #expect(now == EventPage(events: [], cursor: end))
            #expect(waits.sleeps.isEmpty, "a zero wait only looks")
            let waited = try await fixture.desk.events(fixture.rossi, after: start, limit: 10, wait: .milliseconds(300))
            // It waited all its 300 ms (on the desk's clock), looking between pauses.
            #expect(waits.slept == .milliseconds(300), "\(waits.sleeps)")
            #expect(waited == EventPage(events: [], cursor: end))
            // A wait far over the limit is cut to it, not refused (an event is there: no wait at all).
            let long = try await fixture.desk.events(fixture.supervisor, after: start, limit: 10, wait: .seconds(3_600))
            #expect(long.events.count == 1)
            #expect(waits.slept == .milliseconds(300))
        }
    }

    @Test(
        "a page of no events or more than 1000 is refused, saying what to ask for",
        arguments: [0, 1_001, -5])
    func invalidLimit(limit: Int) async throws {
        try await DeskFixture.with { fixture in
            await #expect(throws: ServiceError.invalid("ask for 1 to 1000 events per page (not \(limit))")) {
                try await fixture.desk.events(fixture.rossi, after: 0, limit: limit, wait: .zero)
            }
        }
    }

    @Test("a negative wait or position is refused")
    func invalidWaitAndPosition() async throws {
        try await DeskFixture.with { fixture in
            await #expect(throws: ServiceError.invalid("a wait cannot be negative: give 0 to 60 seconds")) {
                try await fixture.desk.events(fixture.rossi, after: 0, limit: 10, wait: .seconds(-1))
            }
            await #expect(throws: ServiceError.invalid("an event position is 0 or more: start from 0")) {
                try await fixture.desk.events(fixture.rossi, after: -1, limit: 10, wait: .zero)
            }
            let page = try await fixture.desk.events(fixture.rossi, after: 0, limit: 1_000, wait: .zero)
            #expect(!page.events.isEmpty)
        }
    }

    @Test("the watch of a code is its authoriser's and any supervisor's; another operator is refused as by status")
    func watchRoles() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(fixture.rossi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            let watch = try await fixture.desk.watch(fixture.rossi, .code("9k2-ray8-uuq"))
            #expect(
                watch
                    == CodeWatch(
                        codeTag: "b39e07", authorizedBy: "rossi", authorizedAt: DeskFixture.start,
                        expiresAt: DeskFixture.start + 150, symptomsStartedOn: DeskFixture.today,
                        asOf: try fixture.store.latestEventID()))
            #expect(try await fixture.desk.watch(fixture.supervisor, .code(Self.code)) == watch)

            let refusal = ServiceError.forbidden(
                "this code was authorised by another operator: only they and supervisors can follow it")
            await #expect(throws: refusal) { try await fixture.desk.watch(fixture.bianchi, .code(Self.code)) }
            await #expect(throws: refusal) { try await fixture.desk.status(fixture.bianchi, of: Self.code) }
        }
    }

    @Test("a code never authorised, or mistyped, is refused as invalid, saying what to check")
    func watchUnknownCode() async throws {
        try await DeskFixture.with { fixture in
            await #expect(
                throws: ServiceError.invalid("no authorisation for this code: check the code the citizen reads out")
            ) {
                try await fixture.desk.watch(fixture.rossi, .code(try Self.code("K2J3IWY5U")))
            }
            await #expect(throws: ServiceError.invalid(OtpError.checkCharacterMismatch.message)) {
                try await fixture.desk.watch(fixture.rossi, .code("9K2RAY8UUA"))
            }
        }
    }

    @Test("the watch from a feed event is its code's; an event about no code, or none at all, is refused")
    func watchFromEvent() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(fixture.rossi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            let events = try await fixture.desk.events(fixture.rossi, after: 0, limit: 100, wait: .zero).events
            let authorised = try #require(events.last { $0.known == .otpAuthorized })
            let signIn = try #require(events.first { $0.known == .staffAction })

            let watch = try await fixture.desk.watch(fixture.rossi, .event(authorised.id))
            #expect(watch == (try await fixture.desk.watch(fixture.rossi, .code(Self.code))))
            // A supervisor is told what the event is; an operator gets one answer for every
            // event that is not about their own code (walking ids tells nothing about others).
            await #expect(throws: ServiceError.invalid("event \(signIn.id) is not about a code")) {
                try await fixture.desk.watch(fixture.supervisor, .event(signIn.id))
            }
            await #expect(throws: ServiceError.invalid("there is no event 999999: retention may have deleted it")) {
                try await fixture.desk.watch(fixture.supervisor, .event(999_999))
            }
            let uniform = ServiceError.forbidden("you can watch only events about codes you authorised")
            await #expect(throws: uniform) { try await fixture.desk.watch(fixture.rossi, .event(signIn.id)) }
            await #expect(throws: uniform) { try await fixture.desk.watch(fixture.rossi, .event(999_999)) }
            await #expect(throws: uniform) {
                try await fixture.desk.watch(fixture.bianchi, .event(authorised.id))
            }
        }
    }

    @Test("the watch shows checks, the upload with its dropped keys, refusals and the next publishing run")
    func watchContents() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(fixture.rossi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            let start = DeskFixture.start
            _ = try fixture.store.recordCheck(otpHash: Self.hash, now: start + 5)
            let key = TemporaryExposureKey(keyData: Array(0..<16), rollingStartNumber: 2_993_040, rollingPeriod: 144)
            _ = try fixture.store.consumeForUpload(otpHash: Self.hash, now: start + 10) { record in
                UploadRecord(
                    otpHash: Self.hash, receivedAt: start + 10, symptomsStartedOn: record.symptomsStartedOn,
                    province: Province.named("RM"), clientClock: 1_795_946_000,
                    evaluation: UploadEvaluation(
                        accepted: [
                            AcceptedKey(
                                key: key, transmissionRiskLevel: 8, reportType: .confirmedTest,
                                daysSinceOnsetOfSymptoms: 2)
                        ],
                        dropped: [
                            .init(index: 1, reason: .tooOld), .init(index: 2, reason: .tooOld),
                            .init(index: 3, reason: .future),
                        ], clockSkewSeconds: -90, clockSkewFlagged: false), summariesJSON: "[]", summaryCount: 0)
            }
            // A second upload with the used code is refused.
            _ = try fixture.store.consumeForUpload(otpHash: Self.hash, now: start + 20) { record in
                Issue.record("a used code was consumed again")
                return UploadRecord(
                    otpHash: Self.hash, receivedAt: start, symptomsStartedOn: record.symptomsStartedOn, province: nil,
                    clientClock: 0,
                    evaluation: UploadEvaluation(
                        accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            try fixture.store.recordJobRun(.publishing, ranAt: start, nextRunAt: start + 300)

            let watch = try await fixture.desk.watch(fixture.rossi, .code(Self.code))
            #expect(watch.checks == 1)
            #expect(watch.firstCheckedAt == start + 5)
            #expect(watch.refusedUploads == 1)
            #expect(watch.lastRefusal == "consumed")
            #expect(watch.nextPublishingRun == start + 300)
            #expect(
                watch.upload
                    == WatchedUpload(
                        receivedAt: start + 10, keysAccepted: 1, keysDropped: 3,
                        droppedReasons: ["too_old": 2, "future": 1],
                        province: "RM", clockSkewSeconds: -90, publishedInChunks: [], keysWaiting: 1,
                        embargoEndsAt: Date(timeIntervalSince1970: Double((2_993_040 + 144) * 600 + 7_200))))
            #expect(watch.asOf == (try fixture.store.latestEventID()))
            #expect(!watch.expiredWithoutUpload(at: start + 3_600))
        }
    }

    @Test("traffic counts from the start of the hour the time falls in")
    func traffic() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(fixture.rossi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            _ = try fixture.store.recordCheck(otpHash: Self.hash, now: DeskFixture.start + 60)
            try fixture.store.countDummy(route: "/v1/ingestion/check", now: DeskFixture.start + 60)
            try fixture.store.countDummy(route: "/v1/ingestion/check", now: DeskFixture.start + 61)
            let share = try await fixture.desk.traffic(fixture.rossi, since: DeskFixture.start + 1_800)
            #expect(share == TrafficShare(since: DeskFixture.start, realRequests: 1, dummyRequests: 2))
            #expect(share.dummyShare == 2.0 / 3.0)
            #expect(try await fixture.desk.traffic(fixture.supervisor, since: DeskFixture.start) == share)
        }
    }

    @Test("an operator's wait ends at its deadline while events they may not see keep coming")
    func waitEndsWhileOthersWrite() async throws {
        let waits = VirtualWaitClock()
        try await DeskFixture.with(waits: waits.clock) { fixture in
            let start = try await fixture.desk.events(fixture.rossi, after: 0, limit: 100, wait: .zero).cursor
            _ = try await fixture.desk.authorize(fixture.bianchi, code: Self.code, symptomsStartedOn: DeskFixture.today)
            let hash = try Otp(operatorInput: Self.code).hash
            let store = fixture.store
            // bianchi's code is checked during every pause, 5 s apart (so each check is an event):
            // nothing rossi may see, and more of it throughout the wait. A wait that ended only
            // when the writing stopped would never end.
            waits.whileAsleep { sleep in
                _ = try? store.recordCheck(otpHash: hash, now: DeskFixture.start + Double(5 * sleep))
            }
            let page = try await fixture.desk.events(fixture.rossi, after: start, limit: 100, wait: .seconds(1))
            // Answered while the checks kept coming: the wait ended at its deadline.
            #expect(page.events.isEmpty)
            #expect(page.cursor > start, "the cursor moved past what rossi may not see")
            #expect(waits.slept == .seconds(1), "\(waits.sleeps)")
            #expect(try fixture.events().filter { $0.kind == .otpChecked }.count == waits.sleeps.count)
        }
    }
}
