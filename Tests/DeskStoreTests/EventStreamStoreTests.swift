import CivilCalendar
import DeskCore
import Foundation
import Synchronization
import Testing

@testable import DeskStore

/// The event stream as the monitor reads it, against every adapter: pages by position and their
/// cursors, what an operator may see, staff actions as events, the watch of a code, traffic and
/// the job runs. PostgreSQL's commit-order guarantee is in ``EventPositionTests``.
@Suite("Store contract: the event stream, the watch, traffic")
struct EventStreamStoreTests {
    /// Every event a page walk returns from `after`, `limit` at a time, and the final cursor.
    static func walk(
        _ store: any Store, after: Int64 = 0, limit: Int, visibleTo viewer: String? = nil
    ) throws -> (events: [StoredEvent], cursor: Int64) {
        var cursor = after
        var events: [StoredEvent] = []
        for _ in 0..<10_000 {
            let page = try store.eventPage(after: cursor, limit: limit, visibleTo: viewer)
            #expect(page.cursor >= cursor, "a cursor never goes back")
            #expect(page.events.count <= limit)
            events += page.events
            if page.cursor == cursor && page.events.isEmpty { break }
            cursor = page.cursor
        }
        return (events, cursor)
    }

    @Test(
        "pages come in position order, at most the limit, and the cursor goes on from the last",
        arguments: StoreKind.testable)
    func paging(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            #expect(try store.eventPage(after: 0, limit: 10, visibleTo: nil) == StoredEventPage(events: [], cursor: 0))
            for n in 1...5 {
                _ = try store.authorize(
                    otpHash: Fixture.hash(n), symptomsStartedOn: Fixture.onset, by: "rossi",
                    now: Fixture.now + Double(n),
                    lifetime: Fixture.lifetime)
                _ = try store.recordCheck(otpHash: Fixture.hash(n), now: Fixture.now + Double(n) + 0.5)
            }
            let all = try store.eventPage(after: 0, limit: 100, visibleTo: nil)
            #expect(all.events.count == 10)
            #expect(all.events.map(\.position) == all.events.map(\.position).sorted())
            #expect(Set(all.events.map(\.position)).count == 10)
            #expect(all.cursor == all.events.last?.position)
            #expect(all.cursor == (try store.latestEventID()))
            #expect(
                all.events.map(\.kind) == Array(repeating: ["otp_authorized", "otp_checked"], count: 5).flatMap { $0 })
            #expect(all.events.first?.otpHash == Fixture.hash(1).stored)
            #expect(all.events.first?.actor == "rossi")
            #expect(all.events[1].detail == #"{"status":"authorized"}"#)
            // The same positions as the plain read.
            #expect(try store.events(after: 0, limit: 100).map(\.id) == all.events.map(\.position))

            let first = try store.eventPage(after: 0, limit: 3, visibleTo: nil)
            #expect(first.events == Array(all.events.prefix(3)))
            #expect(first.cursor == all.events[2].position)
            let second = try store.eventPage(after: first.cursor, limit: 3, visibleTo: nil)
            #expect(second.events == Array(all.events[3..<6]))

            let walked = try Self.walk(store, limit: 4)
            #expect(walked.events == all.events)
            #expect(walked.cursor == all.cursor)

            // Past the end: nothing, and the cursor stays where it was asked, even beyond.
            #expect(
                try store.eventPage(after: all.cursor, limit: 10, visibleTo: nil)
                    == StoredEventPage(events: [], cursor: all.cursor))
            #expect(
                try store.eventPage(after: all.cursor + 50, limit: 10, visibleTo: nil)
                    == StoredEventPage(events: [], cursor: all.cursor + 50))
            // No room: nothing examined, so the cursor does not move.
            #expect(try store.eventPage(after: 0, limit: 0, visibleTo: nil) == StoredEventPage(events: [], cursor: 0))
        }
    }

    @Test(
        "an operator sees their codes, published chunks and their own actions; the cursor moves past the rest",
        arguments: StoreKind.testable)
    func operatorFilter(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            // rossi's code 1 (uploaded with a key published below), bianchi's code 2.
            try ChunkStoreTests.upload(store, code: 1, keys: [ChunkStoreTests.key(1, start: ChunkStoreTests.yesterday)])
            _ = try store.authorize(
                otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            _ = try store.recordCheck(otpHash: Fixture.hash(2), now: Fixture.now + 1)
            _ = try Staff.signIn(store, "bianchi", token: 1, at: Fixture.now + 2)
            _ = try Staff.signIn(store, "rossi", token: 2, at: Fixture.now + 3)
            #expect(try ChunkStoreTests.publishAll(store, ChunkStoreTests.Builder()).count == 1)
            // Past the 5 s in which checks of one code make one event (PhoneWork.checkEventInterval).
            _ = try store.recordCheck(otpHash: Fixture.hash(2), now: Fixture.now + 7)
            let latest = try store.latestEventID()

            let mine = try store.eventPage(after: 0, limit: 100, visibleTo: "rossi")
            #expect(
                mine.events.map(\.kind) == ["otp_authorized", "upload_accepted", "staff_action", "chunk_published"])
            #expect(mine.events.filter { $0.otpHash != nil }.allSatisfy { $0.otpHash == Fixture.hash(1).stored })
            #expect(mine.events[2].actor == "rossi")
            #expect(mine.events[2].detail == #"{"action":"sign_in"}"#)
            // bianchi's check came last: examined, not shown, passed.
            #expect(mine.cursor == latest)
            #expect(try store.eventPage(after: mine.cursor, limit: 100, visibleTo: "rossi").events.isEmpty)

            // One at a time, the same events, and the same end.
            let walked = try Self.walk(store, limit: 1, visibleTo: "rossi")
            #expect(walked.events == mine.events)
            #expect(walked.cursor == latest)

            // From rossi's last event on, only bianchi's check follows: nothing, cursor at the end.
            let tail = try store.eventPage(
                after: try #require(mine.events.last).position, limit: 10, visibleTo: "rossi")
            #expect(tail == StoredEventPage(events: [], cursor: latest))

            let theirs = try store.eventPage(after: 0, limit: 100, visibleTo: "bianchi")
            #expect(
                theirs.events.map(\.kind) == [
                    "otp_authorized", "otp_checked", "staff_action", "chunk_published", "otp_checked",
                ])
            // Everything, for a supervisor: the admin's account changes too.
            let everything = try store.eventPage(after: 0, limit: 100, visibleTo: nil)
            #expect(everything.events.count == 10)
            #expect(everything.events.filter { $0.actor == "admin1" }.count == 2)
        }
    }

    @Test(
        "an operator's page examines a bounded stretch of positions: a long run of others' events is passed in steps",
        arguments: StoreKind.testable)
    func operatorStretch(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            // Many events of another operator, written in bulk (the stretch is 10 000 positions).
            let others = EventWork<SQLiteConnection>.operatorStretch + 500
            try space.execute(
                kind == .sqlite
                    ? """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(others))
                    INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
                    SELECT 0, 'staff_action', NULL, 'bianchi', '{}' FROM n
                    """
                    : """
                    SET search_path = \(space.schema ?? "");
                    INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
                    SELECT 0, 'staff_action', NULL, 'bianchi', '{}' FROM generate_series(1, \(others))
                    """)
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: Fixture.now + 1)
            // PostgreSQL gives at most 10 000 rows their positions per read: read until settled.
            var latest = try store.latestEventID()
            while latest != (try store.latestEventID()) { latest = try store.latestEventID() }
            let first = try store.eventPage(after: 0, limit: 10, visibleTo: "rossi")
            #expect(first.events.map(\.kind) == ["otp_authorized"])
            #expect(first.cursor < latest, "the first stretch ends before the check")
            let walked = try Self.walk(store, after: first.cursor, limit: 10, visibleTo: "rossi")
            #expect(walked.events.map(\.kind) == ["otp_checked"])
            #expect(walked.cursor == latest)
        }
    }

    @Test(
        "staff actions are events with the audit's actor; an unknown name leaves no trace of what was typed",
        arguments: StoreKind.testable)
    func staffActions(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let policy = SignInPolicy(failuresBeforeLock: 2, maximumDelaySeconds: 0)
            try Staff.add(store, "rossi")
            let token = try Staff.signIn(store, "rossi", token: 1, at: Fixture.now)
            try store.endSession(tokenHash: token, now: Fixture.now + 1)
            #expect(
                try store.beginSignIn(name: "hunter2-password", now: Fixture.now + 2, policy: policy) == .unknownAccount
            )
            _ = try Staff.fail(store, "rossi", at: Fixture.now + 3, policy: policy)
            _ = try Staff.fail(store, "rossi", at: Fixture.now + 4, policy: policy)
            _ = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: Fixture.now + 5, reason: .reset)
            _ = try store.disableStaff(name: "rossi", by: "admin1", now: Fixture.now + 6)
            // An authorisation has its own event, not a staff action.
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 7,
                lifetime: Fixture.lifetime)

            let events = try store.eventPage(after: 0, limit: 100, visibleTo: nil).events
            let expected: [(String, String?, String)] = [
                ("staff_action", "admin1", #"{"action":"staff_added","target":"rossi"}"#),
                ("staff_action", "rossi", #"{"action":"sign_in"}"#),
                ("staff_action", "rossi", #"{"action":"sign_out"}"#),
                ("staff_action", nil, #"{"action":"sign_in_failed","unknown_name":true}"#),
                ("staff_action", "rossi", #"{"action":"sign_in_failed"}"#),
                ("staff_action", "rossi", #"{"action":"sign_in_failed"}"#),
                ("staff_action", "rossi", #"{"action":"account_locked","target":"rossi"}"#),
                ("staff_action", "admin1", #"{"action":"password_reset","target":"rossi"}"#),
                ("staff_action", "admin1", #"{"action":"staff_disabled","target":"rossi"}"#),
                ("otp_authorized", "bianchi", #"{"symptoms_started_on":"2026-11-27","expires_at_ms":1795946557000}"#),
            ]
            #expect(events.count == expected.count)
            for (event, (kind, actor, detail)) in zip(events, expected) {
                #expect(event.kind == kind)
                #expect(event.actor == actor)
                #expect(event.detail == detail)
            }
            // The staff actions are the audit log's entries, minus the authorisation, in its order.
            let audit = try store.auditEntries(after: 0, limit: 100)
            #expect(audit.filter { $0.action != .otpAuthorized }.count == 9)
            #expect(events.filter { $0.kind == "staff_action" }.map(\.at) == audit.dropLast().map(\.at))
            #expect(!events.contains { "\($0)".contains("hunter2") })
            #expect(try space.scalar("SELECT count(*) FROM events WHERE detail LIKE '%hunter2%'") == 0)
            #expect(try space.scalar("SELECT count(*) FROM events WHERE actor = '-'") == 0)
        }
    }

    @Test(
        "a code authorised again by another operator: its earlier events are no one's, the new ones theirs",
        arguments: StoreKind.testable)
    func reauthorised(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: Fixture.now + 1)
            // Expired unused; bianchi authorises the same code later.
            let later = Fixture.now + 3_600
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "bianchi", now: later,
                lifetime: Fixture.lifetime)
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: later + 1)

            let theirs = try store.eventPage(after: 0, limit: 100, visibleTo: "bianchi").events
                .filter { $0.otpHash != nil }
            #expect(theirs.map(\.kind) == ["otp_authorized", "otp_checked"])
            #expect(theirs.first?.actor == "bianchi")
            #expect(theirs.allSatisfy { $0.at >= later }, "nothing of rossi's call")
            let tail = try store.eventTail(limit: 100, visibleTo: "bianchi").events.filter { $0.otpHash != nil }
            #expect(tail == theirs)
        }
    }

    @Test(
        "the tail: the newest events oldest first, the latest position as cursor; an operator's are theirs",
        arguments: StoreKind.testable)
    func tail(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            for n in 1...6 {
                _ = try store.authorize(
                    otpHash: Fixture.hash(n), symptomsStartedOn: Fixture.onset, by: n % 2 == 0 ? "rossi" : "bianchi",
                    now: Fixture.now + Double(n), lifetime: Fixture.lifetime)
            }
            let latest = try store.latestEventID()
            let all = try store.eventPage(after: 0, limit: 1_000, visibleTo: nil).events

            let newest = try store.eventTail(limit: 4, visibleTo: nil)
            let rossis = try store.eventTail(limit: 2, visibleTo: "rossi")

            #expect(newest.events == Array(all.suffix(4)))
            #expect(newest.cursor == latest)
            #expect(rossis.events.map(\.otpHash) == [Fixture.hash(4).stored, Fixture.hash(6).stored])
            #expect(rossis.cursor == latest)
            #expect(try store.eventPage(after: newest.cursor, limit: 10, visibleTo: nil).events.isEmpty)
            #expect(try store.eventTail(limit: 0, visibleTo: nil).events.isEmpty)
        }
    }

    @Test("the watch follows a code: authorised, checked, uploaded, published", arguments: StoreKind.testable)
    func watchSteps(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let hash = Fixture.hash(1)
            let policy = PublishingPolicy()
            #expect(try store.codeWatch(otpHash: hash, now: Fixture.now, policy: policy) == nil)

            _ = try store.authorize(
                otpHash: hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let authorized = try #require(try store.codeWatch(otpHash: hash, now: Fixture.now, policy: policy))
            #expect(authorized.authorization.authorizedBy == "rossi")
            #expect(authorized.authorization.expiresAt == Fixture.now + 150)
            #expect(authorized.checks == 0)
            #expect(authorized.firstCheckedAt == nil)
            #expect(authorized.upload == nil)
            #expect(authorized.asOf == (try store.latestEventID()))

            _ = try store.recordCheck(otpHash: hash, now: Fixture.now + 10)
            // Another code's event does not move this code's asOf.
            _ = try store.authorize(
                otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now + 15,
                lifetime: Fixture.lifetime)
            _ = try store.recordCheck(otpHash: hash, now: Fixture.now + 20)
            let checked = try #require(try store.codeWatch(otpHash: hash, now: Fixture.now + 20, policy: policy))
            #expect(checked.checks == 2)
            #expect(checked.firstCheckedAt == Fixture.now + 10)
            #expect(checked.lastCheckedAt == Fixture.now + 20)
            #expect(checked.asOf == (try store.latestEventID()))

            let keys = [
                ChunkStoreTests.key(1, start: ChunkStoreTests.yesterday),
                ChunkStoreTests.key(2, start: ChunkStoreTests.today),
            ]
            let outcome = try store.consumeForUpload(otpHash: hash, now: Fixture.now + 30) { record in
                UploadRecord(
                    otpHash: hash, receivedAt: Fixture.now + 30, symptomsStartedOn: record.symptomsStartedOn,
                    province: Province.named("RM"), clientClock: 1_795_946_000,
                    evaluation: UploadEvaluation(
                        accepted: keys,
                        dropped: [
                            .init(index: 2, reason: .tooOld), .init(index: 3, reason: .tooOld),
                            .init(index: 4, reason: .future),
                        ],
                        clockSkewSeconds: 400, clockSkewFlagged: false), summariesJSON: "[]", summaryCount: 0)
            }
            guard case .stored(let uploadID, _) = outcome else {
                Issue.record("the upload was refused: \(outcome)")
                return
            }
            let uploaded = try #require(try store.codeWatch(otpHash: hash, now: Fixture.now + 30, policy: policy))
            let upload = try #require(uploaded.upload)
            #expect(upload.id == uploadID)
            #expect(upload.receivedAt == Fixture.now + 30)
            #expect(upload.keysAccepted == 2)
            #expect(upload.keysDropped == 3)
            #expect(upload.droppedReasons == #"{"future":1,"too_old":2}"#)
            #expect(upload.province == "RM")
            #expect(upload.clockSkewSeconds == 400)
            #expect(upload.publishedInChunks.isEmpty)
            #expect(upload.keysWaiting == 2)
            // Yesterday's key: ended at midnight, publishable since 02:00.
            #expect(
                upload.embargoEndsAt
                    == Date(timeIntervalSince1970: Double((ChunkStoreTests.yesterday + 144) * 600 + 7_200)))
            #expect(uploaded.asOf == (try store.latestEventID()))

            #expect(try ChunkStoreTests.publishAll(store, ChunkStoreTests.Builder(), now: Fixture.now + 60).count == 1)
            let published = try #require(try store.codeWatch(otpHash: hash, now: Fixture.now + 60, policy: policy))
            #expect(published.upload?.publishedInChunks == [1])
            #expect(published.upload?.keysWaiting == 1)
            // Today's key waits for tomorrow 02:00.
            #expect(
                published.upload?.embargoEndsAt
                    == Date(timeIntervalSince1970: Double((ChunkStoreTests.today + 144) * 600 + 7_200)))
            // The chunk is not about the code: the watch's asOf stays.
            #expect(published.asOf == uploaded.asOf)
            #expect(published.asOf < (try store.latestEventID()))

            // Authorised again (a new case with the same code, once used): the watch starts over.
            _ = try store.authorize(
                otpHash: hash, symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 1_000,
                lifetime: Fixture.lifetime)
            let again = try #require(try store.codeWatch(otpHash: hash, now: Fixture.now + 1_000, policy: policy))
            #expect(again.authorization.authorizedBy == "bianchi")
            #expect(again.checks == 0)
            #expect(again.upload == nil)
        }
    }

    @Test("the watch counts uploads refused after expiry, with the last reason", arguments: StoreKind.testable)
    func watchRefused(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let hash = Fixture.hash(7)
            _ = try store.authorize(
                otpHash: hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            _ = try store.recordCheck(otpHash: hash, now: Fixture.now + 200)
            for offset in [210.0, 220.0] {
                let outcome = try store.consumeForUpload(otpHash: hash, now: Fixture.now + offset) { _ in
                    Issue.record("an expired code was consumed")
                    return UploadRecord(
                        otpHash: hash, receivedAt: Fixture.now, symptomsStartedOn: Fixture.onset, province: nil,
                        clientClock: 0,
                        evaluation: UploadEvaluation(
                            accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                        summariesJSON: "[]", summaryCount: 0)
                }
                #expect(outcome.isRefused)
            }
            let watch = try #require(
                try store.codeWatch(otpHash: hash, now: Fixture.now + 230, policy: PublishingPolicy()))
            #expect(watch.checks == 1)
            #expect(watch.refusedUploads == 2)
            #expect(watch.lastRefusalDetail == #"{"reason":"expired"}"#)
            #expect(watch.upload == nil)
            #expect(watch.asOf == (try store.latestEventID()))
        }
    }

    @Test(
        "an event names its code, or says it is about none, or that there is no such event",
        arguments: StoreKind.testable)
    func codeOfEvent(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            _ = try store.authorize(
                otpHash: Fixture.hash(3), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let events = try store.eventPage(after: 0, limit: 10, visibleTo: nil).events
            #expect(events.count == 2)
            #expect(try store.code(ofEvent: events[0].position) == .notAboutACode)
            #expect(try store.code(ofEvent: events[1].position) == .code(Fixture.hash(3).stored))
            #expect(try store.code(ofEvent: events[1].position + 1) == .noSuchEvent)
            #expect(try store.code(ofEvent: 0) == .noSuchEvent)
        }
    }

    @Test(
        "traffic counts phone requests from the start of the hour, and dummy requests of that hour on",
        arguments: StoreKind.testable)
    func traffic(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            // Fixture.now is 10:00:00; the period asked at 10:40 starts at 10:00.
            let hash = Fixture.hash(1)
            _ = try store.authorize(
                otpHash: hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now - 60,
                lifetime: .seconds(3_600))
            _ = try store.recordCheck(otpHash: hash, now: Fixture.now - 30)
            try store.countDummy(route: "/v1/ingestion/upload", now: Fixture.now - 30)
            _ = try store.recordCheck(otpHash: hash, now: Fixture.now + 60)
            _ = try store.recordCheck(otpHash: Fixture.hash(99), now: Fixture.now + 61)
            _ = try store.consumeForUpload(otpHash: hash, now: Fixture.now + 120) { _ in
                UploadRecord(
                    otpHash: hash, receivedAt: Fixture.now + 120, symptomsStartedOn: Fixture.onset, province: nil,
                    clientClock: 0,
                    evaluation: UploadEvaluation(
                        accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            _ = try store.consumeForUpload(otpHash: hash, now: Fixture.now + 130) { _ in
                Issue.record("a used code was consumed again")
                return UploadRecord(
                    otpHash: hash, receivedAt: Fixture.now, symptomsStartedOn: Fixture.onset, province: nil,
                    clientClock: 0,
                    evaluation: UploadEvaluation(
                        accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            for _ in 0..<3 { try store.countDummy(route: "/v1/ingestion/upload", now: Fixture.now + 200) }
            try store.countDummy(route: "/v1/ingestion/check", now: Fixture.now + 3_700)

            let share = try store.traffic(since: Fixture.now + 2_400)
            // One check, one accepted and one refused upload (the unknown code's check is no event).
            #expect(share == TrafficShare(since: Fixture.now, realRequests: 3, dummyRequests: 4))
            #expect(
                try store.traffic(since: Fixture.now - 1)
                    == TrafficShare(since: Fixture.now - 3_600, realRequests: 4, dummyRequests: 5))
            #expect(
                try store.traffic(since: Fixture.now + 7_200)
                    == TrafficShare(since: Fixture.now + 7_200, realRequests: 0, dummyRequests: 0))
        }
    }

    @Test("a job's run is recorded and read back; the next record replaces it", arguments: StoreKind.testable)
    func jobRuns(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            #expect(try store.jobRun(.publishing) == nil)
            try store.recordJobRun(.publishing, ranAt: Fixture.now, nextRunAt: Fixture.now + 300)
            #expect(try store.jobRun(.publishing) == JobRun(lastRun: Fixture.now, nextRun: Fixture.now + 300))
            #expect(try store.jobRun(.cleanup) == nil)
            // Another server (another store on the same data) runs it next.
            try space.open().recordJobRun(.publishing, ranAt: Fixture.now + 300, nextRunAt: Fixture.now + 600)
            #expect(try store.jobRun(.publishing) == JobRun(lastRun: Fixture.now + 300, nextRun: Fixture.now + 600))
            #expect(try space.scalar("SELECT count(*) FROM job_runs") == 1)
        }
    }

    @Test(
        "retention deletes old events; positions go on from the highest ever given, never reused",
        arguments: StoreKind.testable)
    func retentionKeepsPositions(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            for n in 1...3 {
                _ = try store.authorize(
                    otpHash: Fixture.hash(n), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                    lifetime: Fixture.lifetime)
            }
            let before = try store.latestEventID()
            let report = try store.cleanup(now: Fixture.now + 30 * 86_400, policy: RetentionPolicy())
            #expect(report.events == 3)
            #expect(try store.latestEventID() == 0)
            #expect(try store.eventPage(after: before, limit: 10, visibleTo: nil).events.isEmpty)
            _ = try store.authorize(
                otpHash: Fixture.hash(9), symptomsStartedOn: Fixture.onset, by: "rossi",
                now: Fixture.now + 30 * 86_400, lifetime: Fixture.lifetime)
            let page = try store.eventPage(after: before, limit: 10, visibleTo: nil)
            #expect(page.events.map(\.otpHash) == [Fixture.hash(9).stored])
            #expect(try #require(page.events.first).position > before)
        }
    }

    @Test(
        "writers on two stores and two readers paging meanwhile: each reader gets every event once, in order",
        arguments: StoreKind.testable)
    func concurrentWritersAndReaders(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open(), try space.open(), try space.open()]
            let writers = 4
            let perWriter = 40
            let done = Atomic<Int>(0)
            let seen = concurrently(writers + 2) { index -> [Int64] in
                if index < writers {
                    for n in 0..<perWriter {
                        _ = try? stores[index % 2].authorize(
                            otpHash: Fixture.hash(1 + index * 1_000 + n), symptomsStartedOn: Fixture.onset,
                            by: "rossi", now: Fixture.now, lifetime: Fixture.lifetime)
                    }
                    _ = done.add(1, ordering: .sequentiallyConsistent)
                    return []
                }
                // Two readers on PostgreSQL contend for the sequencer: one that finds it busy
                // reads what has positions, so a reader stops only at an empty page read after
                // every event was written and had its position.
                var cursor: Int64 = 0
                var positions: [Int64] = []
                while true {
                    let settled =
                        done.load(ordering: .sequentiallyConsistent) == writers
                        && (try? space.scalar("SELECT count(*) FROM events WHERE seq IS NULL")) == 0
                    guard let page = try? stores[index - writers + 2].eventPage(after: cursor, limit: 7, visibleTo: nil)
                    else { break }
                    positions += page.events.map(\.position)
                    cursor = page.cursor
                    if settled && page.events.isEmpty { break }
                }
                return positions
            }
            for reader in seen.suffix(2) {
                #expect(reader.count == writers * perWriter)
                #expect(Set(reader).count == reader.count, "no event twice")
                #expect(reader == reader.sorted(), "in position order")
            }
            #expect(seen[writers] == seen[writers + 1], "both readers saw the same stream")
            #expect(try space.scalar("SELECT count(*) FROM events") == Int64(writers * perWriter))
        }
    }

    @Test(
        "migration 5 gives the events already stored their ids as positions; new ones come after",
        arguments: StoreKind.testable)
    func migrationKeepsIDs(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            // A store at schema 4, as the last release left it, with events whose ids have a gap.
            let migrations = Migrations.all(for: kind == .sqlite ? .sqlite : .postgres)
            var setup = kind == .sqlite ? "" : "SET search_path = \(space.schema ?? "");"
            if kind == .sqlite { setup += "PRAGMA application_id = \(Migrations.applicationID);" }
            setup += kind == .sqlite ? SQL.createMigrationsTable : PGSQL.createMigrationsTable
            setup += ";"
            for migration in migrations where migration.version <= 4 {
                setup += migration.sql + ";"
                setup += "INSERT INTO schema_migrations VALUES (\(migration.version), '\(migration.name)', 0);"
            }
            for id in [3, 4, 9] {
                setup +=
                    "INSERT INTO events (id, at_ms, kind, otp_hash, actor, detail) VALUES (\(id), 0, 'chunk_published', NULL, NULL, '{}');"
            }
            try space.execute(setup)

            let store = try space.open()
            #expect(try store.schemaVersion() == Migrations.latestVersion)
            #expect(try store.events(after: 0, limit: 10).map(\.id) == [3, 4, 9])
            #expect(try store.latestEventID() == 9)
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let page = try store.eventPage(after: 9, limit: 10, visibleTo: nil)
            #expect(page.events.map(\.otpHash) == [Fixture.hash(1).stored])
            #expect(try #require(page.events.first).position > 9)
        }
    }
}

extension UploadOutcome {
    var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }
}

/// PostgreSQL takes identity values before commit, so ids are not commit order. These tests
/// hold a transaction open on a raw connection to make the late commit happen for sure.
@Suite(
    "PostgreSQL: event positions follow commit order",
    .enabled(if: StoreKind.postgresURL != nil, "TRACEDESK_TEST_POSTGRES is not set"))
struct EventPositionTests {
    @Test("an event whose transaction commits late is read after the cursor, once: never skipped")
    func lateCommit() throws {
        try withSpace(.postgres) { space in
            let store = try space.open()
            // Transaction A takes its id first and stays open.
            let a = try RawPostgres(space.spec)
            try a.execute(
                "BEGIN; INSERT INTO events (at_ms, kind, otp_hash, actor, detail) VALUES (1, 'chunk_published', NULL, NULL, '{}')"
            )
            let aID = try a.integer("SELECT max(id) FROM events")
            // Transaction B takes a later id and commits.
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let bID = try space.scalar("SELECT max(id) FROM events")
            #expect(aID < bID)

            let first = try store.eventPage(after: 0, limit: 10, visibleTo: nil)
            #expect(first.events.map(\.otpHash) == [Fixture.hash(1).stored])
            // Paged by id, the cursor would now be B's id, above A's: once A commits, a read of
            // `id > cursor` would never return it (the loss this design exists to prevent).
            try a.execute("COMMIT")
            let second = try store.eventPage(after: first.cursor, limit: 10, visibleTo: nil)
            #expect(second.events.map(\.kind) == ["chunk_published"])
            #expect(try #require(second.events.first).position > first.cursor)
            #expect(try store.eventPage(after: second.cursor, limit: 10, visibleTo: nil).events.isEmpty)
            // Nothing twice: the two reads hold both events, each once.
            let positions = (first.events + second.events).map(\.position)
            #expect(Set(positions).count == 2)
            #expect(try space.scalar("SELECT count(*) FROM events WHERE seq IS NULL") == 0)
        }
    }

    @Test("a reader that finds the sequencer busy reads what has positions, without waiting; writers never wait")
    func sequencerBusy() throws {
        try withSpace(.postgres) { space in
            let store = try space.open()
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let positioned = try store.latestEventID()
            #expect(positioned > 0)
            // Another reader holds the sequencer's lock.
            let holder = try RawPostgres(space.spec)
            try holder.execute(
                "BEGIN; SELECT pg_advisory_xact_lock(hashtext('tracedesk:' || current_schema()), \(PGSQL.sequencerLock))"
            )
            // The holder lets go only after the writer and the reader returned: neither may wait.
            let (page, latest) = try withoutWaitingFor("a write and a read beside the held sequencer") {
                try holder.execute("ROLLBACK")
            } _: {
                Result { () throws(StoreError) in
                    _ = try store.authorize(
                        otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                        lifetime: Fixture.lifetime)
                    return (try store.eventPage(after: 0, limit: 10, visibleTo: nil), try store.latestEventID())
                }
            }.get()
            #expect(page.events.map(\.otpHash) == [Fixture.hash(1).stored])
            #expect(page.cursor == positioned)
            #expect(latest == positioned)
            try holder.execute("ROLLBACK")
            let next = try store.eventPage(after: page.cursor, limit: 10, visibleTo: nil)
            #expect(next.events.map(\.otpHash) == [Fixture.hash(2).stored])
        }
    }
}
