import CivilCalendar
import DeskCore
import DeskCrypto
import Foundation
import Synchronization
import Testing

@testable import DeskStore

/// Helpers for the APRICOT part of the store contract.
enum Apricot {
    /// "+39333000NNNN": a distinct Italian mobile number per `n`.
    static func phone(_ n: Int) -> PhoneNumber {
        let digits = String(n)
        return PhoneNumber(e164: "+39333" + String(repeating: "0", count: 7 - digits.count) + digits)!
    }

    /// Suffixes 1, 2, 3… (deterministic, no collisions among themselves).
    final class Counter: @unchecked Sendable {
        var next: UInt32
        init(from start: UInt32 = 1) { next = start }
        func take() -> UInt32 {
            defer { next &+= 1 }
            return next
        }
    }

    @discardableResult
    static func register(
        _ store: any Store, _ n: Int, count: Int = 1000, token: String? = nil, at now: Date = Fixture.now,
        suffixes: () -> UInt32
    ) throws -> (userID: Int64, isNew: Bool, pseudoIDs: [PseudoID]) {
        let outcome = try store.login(
            phone: phone(n), appID: "it.test.apricot", deviceID: "device-\(n)",
            tokenHash: token ?? "token-\(n)-\(UUID())",
            tokenExpiresAt: now + 86_400, now: now, count: count, nextSuffix: suffixes)
        guard case .signedIn(let user, let isNew, let ids) = outcome else {
            throw RawSQLiteError(code: -1, message: "expected a sign-in, got \(outcome)")
        }
        return (user, isNew, ids)
    }

    static func record(_ id: PseudoID, _ time: UInt32) -> ContactRecord { ContactRecord(beacon: id.bytes, time: time) }

    static let foreign = ContactRecord(beacon: Array(repeating: 0x42, count: 20), time: 1_795_940_000)

    static func events(_ store: any Store, _ kind: DeskEvent.Kind) throws -> [DeskEvent] {
        try store.events(after: 0, limit: 10_000).filter { $0.kind == kind }
    }
}

extension StoreSpace {
    /// A store whose pseudo-id space holds only `limit` pseudo-ids.
    func open(pseudoIDLimit limit: Int64) throws(StoreError) -> any Store {
        switch kind {
        case .sqlite: return try SQLiteStore(path: spec, busyTimeoutMilliseconds: 5_000, pseudoIDLimit: limit)
        case .postgres:
            return try PostgresStore(
                url: spec, poolSize: 4, connectTimeoutSeconds: 5, waitMilliseconds: 5_000, pseudoIDLimit: limit)
        }
    }
}

@Suite("Store contract: APRICOT registration, pseudo-ids and tokens")
struct ApricotRegistrationStoreTests {
    @Test("a new phone becomes a user with its pseudo-ids; signing in again keeps them", arguments: StoreKind.testable)
    func registerAndReturn(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let counter = Apricot.Counter()
            let first = try Apricot.register(store, 1, suffixes: counter.take)
            #expect(first.isNew)
            #expect(first.pseudoIDs.count == 1000)
            #expect(Set(first.pseudoIDs).count == 1000)
            #expect(first.pseudoIDs == (1...1000).map { PseudoID(suffix: UInt32($0)) })
            #expect(try store.pseudoIDCapacity().used == 1000)
            let again = try Apricot.register(store, 1, at: Fixture.now + 60, suffixes: counter.take)
            #expect(again.userID == first.userID)
            #expect(!again.isNew)
            #expect(again.pseudoIDs == first.pseudoIDs)
            #expect(counter.next == 1001, "a returning user takes no new suffix")
            #expect(try store.pseudoIDCapacity().used == 1000)
            let other = try Apricot.register(store, 2, count: 10, suffixes: counter.take)
            #expect(other.userID != first.userID)
            #expect(try store.pseudoIDCapacity().used == 1010)
            let events = try Apricot.events(store, .apricotRegistered)
            #expect(
                events.map(\.detail) == [
                    #"{"pseudo_ids":1000}"#, #"{"pseudo_ids":1000,"returning":true}"#, #"{"pseudo_ids":10}"#,
                ])
            #expect(events.allSatisfy { $0.actor == nil && !$0.detail.contains("333") })
            let owners = try store.owners(ofSuffixes: [1, 1000, 1001, 1010, 1011, 99_999])
            #expect(owners.count == 4)
            #expect(owners[1]?.userID == first.userID && owners[1]?.phone == Apricot.phone(1))
            #expect(owners[1001]?.userID == other.userID && owners[1010]?.phone == Apricot.phone(2))
            #expect(owners[1011] == nil && owners[99_999] == nil)
        }
    }

    @Test("a suffix another user holds is replaced by a new one", arguments: StoreKind.testable)
    func collisionRetried(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let first = Apricot.Counter(from: 1)
            try Apricot.register(store, 1, count: 100, suffixes: first.take)
            // The second user's generator starts inside the first's range: 50 collide.
            let second = Apricot.Counter(from: 51)
            let user = try Apricot.register(store, 2, count: 100, suffixes: second.take)
            #expect(user.pseudoIDs.map(\.suffix) == Array(101...200).map(UInt32.init))
            #expect(try store.pseudoIDCapacity().used == 200)
        }
    }

    @Test(
        "concurrent registrations on many threads and two store instances never share a pseudo-id",
        arguments: StoreKind.testable)
    func concurrentRegistrations(_ kind: StoreKind) throws {
        try withSpace(kind) { space throws in
            let stores = [try space.open(poolSize: 8), try space.open(poolSize: 8)]
            let threads = 12
            let failures = Mutex<[String]>([])
            let users = Mutex<[Int64: [PseudoID]]>([:])
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                // A small space of suffixes, so registrations keep colliding.
                var generator = SystemRandomNumberGenerator()
                do {
                    let user = try Apricot.register(stores[index % 2], 100 + index, count: 500) {
                        UInt32.random(in: 0..<12_000, using: &generator)
                    }
                    users.withLock { $0[user.userID] = user.pseudoIDs }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            // The same phone from several threads at once: one user.
            let same = Mutex<Set<Int64>>([])
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                var generator = SystemRandomNumberGenerator()
                do {
                    let user = try Apricot.register(stores[index % 2], 7, count: 500) {
                        UInt32.random(in: 0..<12_000, using: &generator)
                    }
                    same.withLock { _ = $0.insert(user.userID) }
                    users.withLock { $0[user.userID] = user.pseudoIDs }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(same.withLock { $0.count } == 1)
            let all = users.withLock { $0 }
            #expect(all.count == threads + 1)
            #expect(all.values.allSatisfy { $0.count == 500 })
            let every = all.values.flatMap { $0 }
            #expect(Set(every).count == every.count, "no pseudo-id belongs to two users")
            #expect(try stores[0].pseudoIDCapacity().used == Int64(every.count))
            #expect(try space.scalar("SELECT count(*) FROM pseudo_ids") == Int64(every.count))
        }
    }

    @Test(
        "registration is refused when the space cannot hold another user; nothing is stored",
        arguments: StoreKind.testable)
    func capacityFull(_ kind: StoreKind) throws {
        try withSpace(kind) { space throws in
            let store = try space.open(pseudoIDLimit: 2_500)
            let counter = Apricot.Counter()
            try Apricot.register(store, 1, suffixes: counter.take)
            try Apricot.register(store, 2, suffixes: counter.take)
            let refused = try store.login(
                phone: Apricot.phone(3), appID: "a", deviceID: "d", tokenHash: "t3", tokenExpiresAt: Fixture.now + 60,
                now: Fixture.now, count: 1000, nextSuffix: counter.take)
            var expected = PseudoIDCapacity(used: 2_000)
            expected.capacity = 2_500
            #expect(refused == .full(expected))
            #expect(try space.scalar("SELECT count(*) FROM apricot_users") == 2)
            #expect(try space.scalar("SELECT count(*) FROM pseudo_ids") == 2_000)
            #expect(try space.scalar("SELECT count(*) FROM apricot_tokens") == 2)
            // A user who has pseudo-ids still signs in; a smaller request still fits.
            #expect(try Apricot.register(store, 1, suffixes: counter.take).isNew == false)
            #expect(try Apricot.register(store, 4, count: 500, suffixes: counter.take).isNew)
            #expect(try store.pseudoIDCapacity().used == 2_500)
        }
    }

    @Test("a token names its user only for its app and device, until it expires", arguments: StoreKind.testable)
    func tokens(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let user = try Apricot.register(store, 1, count: 5, token: "hash-1", suffixes: Apricot.Counter().take)
            let device = "device-1"
            #expect(
                try store.apricotUser(tokenHash: "hash-1", appID: "it.test.apricot", deviceID: device, now: Fixture.now)
                    == user.userID)
            #expect(
                try store.apricotUser(
                    tokenHash: "hash-1", appID: "it.test.apricot", deviceID: "other", now: Fixture.now) == nil)
            #expect(
                try store.apricotUser(tokenHash: "hash-1", appID: "other.app", deviceID: device, now: Fixture.now)
                    == nil)
            #expect(
                try store.apricotUser(tokenHash: "hash-2", appID: "it.test.apricot", deviceID: device, now: Fixture.now)
                    == nil)
            #expect(
                try store.apricotUser(
                    tokenHash: "hash-1", appID: "it.test.apricot", deviceID: device, now: Fixture.now + 86_399.999)
                    == user.userID)
            #expect(
                try store.apricotUser(
                    tokenHash: "hash-1", appID: "it.test.apricot", deviceID: device, now: Fixture.now + 86_400)
                    == nil)
        }
    }
}

@Suite("Store contract: APRICOT SMS codes")
struct ApricotCodeStoreTests {
    static let policy = SmsCodePolicy()

    func issue(_ store: any Store, _ code: String, at seconds: Double, phone: Int = 1) throws -> SmsCodeIssue {
        try store.issueSmsCode(
            phone: Apricot.phone(phone), codeHMAC: code, now: Fixture.now + seconds, policy: Self.policy)
    }

    func verify(_ store: any Store, _ code: String, at seconds: Double, phone: Int = 1) throws -> SmsCodeCheck {
        try store.verifySmsCode(
            phone: Apricot.phone(phone), codeHMAC: code, now: Fixture.now + seconds, policy: Self.policy)
    }

    @Test("one code per 30 s and five per hour; a new code replaces the unused one", arguments: StoreKind.testable)
    func rateLimit(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try issue(store, "c0", at: 0) == .issued)
            #expect(try issue(store, "cx", at: 10) == .tooSoon(retryAfterSeconds: 20))
            #expect(try issue(store, "cx", at: 29.5) == .tooSoon(retryAfterSeconds: 1))
            #expect(try issue(store, "cx", at: 0, phone: 2) == .issued, "another phone is not limited")
            #expect(try issue(store, "c1", at: 30) == .issued)
            #expect(try verify(store, "c0", at: 31) == .wrong, "replaced")
            #expect(try issue(store, "c2", at: 60) == .issued)
            #expect(try issue(store, "c3", at: 90) == .issued)
            #expect(try issue(store, "c4", at: 120) == .issued)
            // Five in the hour: the next one when the first leaves it (3600 − 150 s later).
            #expect(try issue(store, "c5", at: 150) == .tooSoon(retryAfterSeconds: 3_450))
            #expect(try issue(store, "c5", at: 3_599) == .tooSoon(retryAfterSeconds: 1))
            #expect(try issue(store, "c5", at: 3_600) == .issued)
            #expect(try verify(store, "c4", at: 3_601) == .wrong)
            #expect(try verify(store, "c5", at: 3_601) == .verified)
            #expect(try verify(store, "c5", at: 3_602) == .wrong, "a code is used once")
        }
    }

    @Test("five attempts per code, then a new code is needed", arguments: StoreKind.testable)
    func attempts(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try verify(store, "right", at: 0) == .wrong, "no code yet")
            #expect(try issue(store, "right", at: 0) == .issued)
            for attempt in 1...5 { #expect(try verify(store, "wrong", at: Double(attempt)) == .wrong) }
            #expect(try verify(store, "right", at: 6) == .tooManyAttempts)
            #expect(try issue(store, "again", at: 40) == .issued)
            for attempt in 1...4 { #expect(try verify(store, "wrong", at: 40 + Double(attempt)) == .wrong) }
            #expect(try verify(store, "again", at: 45) == .verified, "the fifth attempt still counts")
        }
    }

    @Test("a code expires 5 minutes after it was issued", arguments: StoreKind.testable)
    func expiry(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try issue(store, "a", at: 0) == .issued)
            #expect(try verify(store, "a", at: 300) == .expired)
            #expect(try issue(store, "b", at: 400) == .issued)
            #expect(try verify(store, "b", at: 699.999) == .verified)
        }
    }
}

@Suite("Store contract: APRICOT contact files, outcomes, the SMS outbox, retention")
struct ApricotFileStoreTests {
    /// Patient user 1 (suffixes 1…10), contact user 2 (11…20).
    static func twoUsers(_ store: any Store) throws -> (patient: Int64, contact: Int64) {
        let counter = Apricot.Counter()
        let patient = try Apricot.register(store, 1, count: 10, suffixes: counter.take).userID
        let contact = try Apricot.register(store, 2, count: 10, suffixes: counter.take).userID
        return (patient, contact)
    }

    @Test(
        "a file is stored whole; distinct and unknown beacons are counted; a re-upload replaces it",
        arguments: StoreKind.testable)
    func storeAndReplace(_ kind: StoreKind) throws {
        try withSpace(kind) { space throws in
            let store = try space.open()
            let users = try Self.twoUsers(store)
            let day = CivilDay(iso: "2026-11-28")!
            let records = [
                Apricot.record(PseudoID(suffix: 11), 1_795_860_000),
                Apricot.record(PseudoID(suffix: 11), 1_795_860_060),
                Apricot.record(PseudoID(suffix: 12), 0), Apricot.record(PseudoID(suffix: 5_000), 1_795_860_120),
                Apricot.foreign,
            ]
            let receipt = try store.storeContactFile(
                userID: users.patient, day: day, records: records, receivedAt: Fixture.now, clientClock: 1_795_946_390,
                skewSeconds: 10)
            // Beacons: 11, 12, 5000 (nobody's), the foreign one: 4 distinct, 2 unknown.
            #expect(receipt == ContactFileReceipt(records: 5, distinctBeacons: 4, unknownBeacons: 2, replaced: false))
            let stored = try #require(try store.tracePatient(phone: Apricot.phone(1)))
            #expect(stored.userID == users.patient && stored.phone == Apricot.phone(1))
            #expect(stored.ownSuffixes == Set(1...10))
            #expect(stored.files.count == 1)
            #expect(stored.files[0].bytes == ContactFile.encode(records))
            #expect(stored.files[0].day == day && stored.files[0].skewSeconds == 10)
            #expect(stored.files[0].receivedAt == Fixture.now)
            let again = try store.storeContactFile(
                userID: users.patient, day: day, records: [Apricot.record(PseudoID(suffix: 13), 1_795_860_000)],
                receivedAt: Fixture.now + 60, clientClock: 1_795_946_460, skewSeconds: 0)
            #expect(again == ContactFileReceipt(records: 1, distinctBeacons: 1, unknownBeacons: 0, replaced: true))
            let byID = try #require(try store.tracePatient(userID: users.patient))
            #expect(byID.files.count == 1 && byID.files[0].bytes.count == 24)
            #expect(try space.scalar("SELECT count(*) FROM contact_files") == 1)
            let events = try Apricot.events(store, .contactFileReceived)
            #expect(
                events.map(\.detail) == [
                    #"{"day":"2026-11-28","records":5,"distinct_beacons":4,"unknown_beacons":2,"clock_skew_s":10,"replaced":false}"#,
                    #"{"day":"2026-11-28","records":1,"distinct_beacons":1,"unknown_beacons":0,"clock_skew_s":0,"replaced":true}"#,
                ])
            #expect(try store.tracePatient(phone: Apricot.phone(9)) == nil)
            #expect(try store.tracePatient(userID: 999) == nil)
            let contact = try #require(try store.tracePatient(userID: users.contact))
            #expect(contact.files.isEmpty)
        }
    }

    @Test("an outcome replaces the earlier one and is audited in the same chain", arguments: StoreKind.testable)
    func outcomes(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let users = try Self.twoUsers(store)
            let first = RecordedOutcome(outcome: .noAnswer, note: "rang twice", by: "tina", at: Fixture.now)
            try store.recordContactOutcome(
                patientUserID: users.patient, contactUserID: users.contact, outcome: first, purpose: "case 2026-1")
            #expect(try store.contactOutcomes(patientUserID: users.patient) == [users.contact: first])
            let second = RecordedOutcome(
                outcome: .reachedIsolating, note: "", by: "tina", at: Fixture.now + 120)
            try store.recordContactOutcome(
                patientUserID: users.patient, contactUserID: users.contact, outcome: second, purpose: "case \"2026-1\"")
            #expect(try store.contactOutcomes(patientUserID: users.patient) == [users.contact: second])
            #expect(try store.contactOutcomes(patientUserID: users.contact) == [:])
            let entries = try store.auditEntries(after: 0, limit: 100)
            #expect(AuditChain.check(entries, after: nil) == nil)
            let audited = entries.filter { $0.action == .contactOutcome }
            #expect(audited.map(\.target) == ["user \(users.contact)", "user \(users.contact)"])
            #expect(audited.map(\.actor) == ["tina", "tina"])
            #expect(
                audited.map(\.detail) == [
                    #"{"patient":"user \#(users.patient)","outcome":"no_answer","purpose":"case 2026-1"}"#,
                    #"{"patient":"user \#(users.patient)","outcome":"reached_isolating","purpose":"case \"2026-1\""}"#,
                ])
            #expect(!audited.contains { $0.detail.contains("rang") }, "the note is not audited")
        }
    }

    @Test("the SMS outbox keeps messages newest first with their deliveries", arguments: StoreKind.testable)
    func outbox(_ kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let first = try store.enqueueSms(
                phone: Apricot.phone(1), text: "code 123456", gateway: "outbox", status: .held,
                detail: "kept in the outbox", now: Fixture.now)
            let second = try store.enqueueSms(
                phone: Apricot.phone(2), text: "code 654321", gateway: "http", status: .pending, detail: "",
                now: Fixture.now + 1)
            try store.recordSmsDelivery(id: second, status: .failed, detail: "HTTP 503", now: Fixture.now + 3)
            try store.recordSmsDelivery(id: second, status: .sent, detail: "HTTP 200", now: Fixture.now + 4)
            let messages = try store.smsOutbox(limit: 10)
            #expect(
                messages == [
                    SmsMessage(
                        id: second, phone: Apricot.phone(2), text: "code 654321", gateway: "http", status: .sent,
                        attempts: 2, detail: "HTTP 200", createdAt: Fixture.now + 1, updatedAt: Fixture.now + 4),
                    SmsMessage(
                        id: first, phone: Apricot.phone(1), text: "code 123456", gateway: "outbox", status: .held,
                        attempts: 0, detail: "kept in the outbox", createdAt: Fixture.now, updatedAt: Fixture.now),
                ])
            #expect(try store.smsOutbox(limit: 1).map(\.id) == [second])
        }
    }

    @Test(
        "cleanup deletes contact files past the history, expired codes out of the hour, expired tokens, SMS messages after a day",
        arguments: StoreKind.testable)
    func retention(_ kind: StoreKind) throws {
        try withSpace(kind) { space throws in
            let store = try space.open()
            let users = try Self.twoUsers(store)  // tokens expire at Fixture.now + 1 day
            let today = Fixture.now.utcDay  // 2026-11-29
            for back in [0, 30, 31, 32] {
                _ = try store.storeContactFile(
                    userID: users.patient, day: today.adding(days: -back),
                    records: [Apricot.record(PseudoID(suffix: 11), 1_795_860_000)], receivedAt: Fixture.now,
                    clientClock: 0, skewSeconds: 0)
            }
            let policy = SmsCodePolicy()
            _ = try store.issueSmsCode(
                phone: Apricot.phone(1), codeHMAC: "old", now: Fixture.now - 3_700, policy: policy)
            _ = try store.issueSmsCode(
                phone: Apricot.phone(2), codeHMAC: "recent", now: Fixture.now - 400, policy: policy)
            for (text, age) in [("old", 86_400.0 + 60), ("recent", 3_600.0)] {
                _ = try store.enqueueSms(
                    phone: Apricot.phone(1), text: text, gateway: "outbox", status: .held, detail: "",
                    now: Fixture.now - age)
            }
            var report = try store.cleanup(now: Fixture.now, policy: RetentionPolicy())
            #expect(report.smsMessages == 1, "older than 24 h")
            #expect(try store.smsOutbox(limit: 10).map(\.text) == ["recent"])
            #expect(report.contactFiles == 2)
            #expect(report.smsCodes == 1, "expired 1 h ago and more; the recent one still counts for the hour")
            #expect(report.apricotTokens == 0)
            #expect(report.summary.contains("2 contact files"))
            #expect(report.summary.contains("1 SMS code"))
            let kept = try #require(try store.tracePatient(userID: users.patient)).files.map(\.day)
            #expect(kept == [today.adding(days: -30), today], "the history's 30 days and one of slack")
            report = try store.cleanup(now: Fixture.now + 86_400, policy: RetentionPolicy(contactHistoryDays: 1))
            #expect(report.apricotTokens == 2)
            #expect(
                report.contactFiles == 1, "the next day, a 1-day history still keeps today's file (its day of slack)")
            #expect(report.smsCodes == 1)
            #expect(try space.scalar("SELECT count(*) FROM apricot_tokens") == 0)
            #expect(report.smsMessages == 1)
            #expect(report.summary == "deleted 1 contact file, 1 SMS code, 2 app tokens, 1 SMS message")
        }
    }
}
