import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// Issue 18, point 5 (the store is a secret) and 10c (checks of one code coalesced): file
/// modes, the rekeying of stored codes by migration 10 on rows an older version wrote, the
/// outbox texts dropped once their code is dead, and one `otp_checked` event per interval.
@Suite("Store contract: the store's secrets")
struct StoreSecretsTests {
    /// Undoes migration 10's schema (not its rekeying): for tests that go back further.
    static let undoMigration10 = """
        DROP INDEX sms_messages_by_text_expiry;
        ALTER TABLE sms_messages DROP COLUMN text_dropped; ALTER TABLE sms_messages DROP COLUMN text_expires_at_ms;
        ALTER TABLE otp_authorizations DROP COLUMN check_count;
        ALTER TABLE otp_authorizations DROP COLUMN last_checked_at_ms;
        ALTER TABLE otp_authorizations DROP COLUMN check_event_at_ms;
        DELETE FROM schema_migrations WHERE version = 10
        """

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).flatMap { $0 }
    }

    @Test("a new store file, its -wal and -shm are 0600, also when another connection makes them later")
    func fileModes() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            do {
                let store = try SQLiteStore(path: path)
                _ = try store.authorize(
                    otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                    lifetime: Fixture.lifetime)
                for file in [path, path + "-wal", path + "-shm"] {
                    #expect(Self.mode(file) == 0o600, "\(file)")
                }
                #expect(store.filesOthersCanRead().isEmpty)
            }
            // The last connection closed: SQLite removed -wal. Another process (here a plain
            // connection) making -wal and -shm anew gets the main file's mode.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            let raw = try RawSQLite(path: path)
            try raw.execute("INSERT INTO job_runs (job, last_run_ms, next_run_ms) VALUES ('x', 1, 2)")
            #expect(Self.mode(path + "-wal") == 0o600)
            #expect(Self.mode(path + "-shm") == 0o600)
            let store = try SQLiteStore(path: path)
            // A file others can read is named, with its mode, so `serve` can warn.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            #expect(store.filesOthersCanRead().map(\.path).contains(path))
            #expect(store.filesOthersCanRead().first?.mode == 0o644)
        }
    }

    /// A store of `kind` at version 7, as the previous TraceDesk left it.
    static func openAtVersion7(_ space: StoreSpace) throws -> any Store {
        switch space.kind {
        case .sqlite:
            return try SQLiteStore(
                path: space.spec, busyTimeoutMilliseconds: 5_000, pseudoIDLimit: PseudoID.capacity, schemaCeiling: 7)
        case .postgres:
            return try PostgresStore(
                url: space.spec, poolSize: 1, connectTimeoutSeconds: 5, waitMilliseconds: 5_000,
                pseudoIDLimit: PseudoID.capacity, schemaCeiling: 7)
        }
    }

    @Test(
        "migration 10 rekeys the codes version 7 stored: the old code still checks and uploads; the stored value is no token",
        arguments: StoreKind.testable)
    func rekeyMigration(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            #expect(try Self.openAtVersion7(space).schemaVersion() == 7)
            let live = Fixture.hash  // authorised, usable
            let used = Fixture.hash(2)  // consumed, with an upload
            let nowMs = Fixture.now.unixMilliseconds
            // The rows as version 7 wrote them: the bearer token itself in every otp_hash.
            try space.execute(
                """
                INSERT INTO otp_authorizations (otp_hash, symptoms_started_on, authorized_at_ms, expires_at_ms,
                    authorized_by, state, consumed_at_ms, checked_at_ms)
                VALUES ('\(live.hex)', '2026-11-27', \(nowMs), \(nowMs + 3_600_000), 'rossi', 'authorized', NULL, NULL),
                    ('\(used.hex)', '2026-11-27', \(nowMs), \(nowMs + 3_600_000), 'rossi', 'consumed', \(nowMs + 1000), \(nowMs + 500));
                INSERT INTO events (at_ms, kind, otp_hash, actor, detail) VALUES
                    (\(nowMs), 'otp_authorized', '\(live.hex)', 'rossi', '{}'),
                    (\(nowMs + 500), 'otp_checked', '\(used.hex)', NULL, '{"status":"authorized"}'),
                    (\(nowMs + 600), 'otp_checked', '\(used.hex)', NULL, '{"status":"authorized"}');
                INSERT INTO uploads (otp_hash, received_at_ms, symptoms_started_on, province, client_clock_s,
                    clock_skew_s, keys_accepted, keys_dropped, dropped_reasons, summary_count, summaries)
                VALUES ('\(used.hex)', \(nowMs + 1000), '2026-11-27', NULL, 0, 0, 0, 0, '{}', 0, '[]');
                """)
            let store = try space.open()
            #expect(try store.schemaVersion() == Migrations.latestVersion)
            for table in ["otp_authorizations", "events", "uploads"] {
                #expect(
                    try space.scalar("SELECT count(*) FROM \(table) WHERE otp_hash IN ('\(live.hex)', '\(used.hex)')")
                        == 0, "\(table)")
            }
            #expect(
                try space.scalar("SELECT count(*) FROM otp_authorizations WHERE otp_hash = '\(live.stored.hex)'") == 1)
            #expect(try space.scalar("SELECT count(*) FROM events WHERE otp_hash = '\(used.stored.hex)'") == 2)
            #expect(try space.scalar("SELECT count(*) FROM uploads WHERE otp_hash = '\(used.stored.hex)'") == 1)
            // The checks the events held are counted on the authorisation.
            #expect(
                try space.scalar("SELECT check_count FROM otp_authorizations WHERE otp_hash = '\(used.stored.hex)'")
                    == 2)
            // The stored value, used as a bearer token, is unknown; the code's own token works.
            #expect(try store.recordCheck(otpHash: live.stored, now: Fixture.now + 10) == .unknown)
            guard case .authorized = try store.recordCheck(otpHash: live, now: Fixture.now + 10) else {
                Issue.record("the old code no longer checks")
                return
            }
            let outcome = try store.consumeForUpload(otpHash: live, now: Fixture.now + 20) { _ in
                UploadRecord(
                    otpHash: live, receivedAt: Fixture.now + 20, symptomsStartedOn: Fixture.onset, province: nil,
                    clientClock: 0,
                    evaluation: UploadEvaluation(
                        accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            guard case .stored = outcome else {
                Issue.record("the old code no longer uploads: \(outcome)")
                return
            }
            #expect(try space.scalar("SELECT count(*) FROM uploads WHERE otp_hash = '\(live.stored.hex)'") == 1)
            #expect(try space.scalar("SELECT count(*) FROM uploads WHERE otp_hash = '\(live.hex)'") == 0)
        }
    }

    @Test("a stored code keeps its tag and is no bearer token", arguments: [Fixture.hash, Fixture.hash(7)])
    func storedForm(_ token: OtpHash) {
        #expect(token.stored != token)
        #expect(token.stored.tag == token.tag)
        #expect(token.stored.hex.count == 64)
        #expect(token.stored == token.stored, "deterministic")
    }

    @Test(
        "outbox texts are dropped once their code is used, replaced or expired; the rows stay, saying why",
        arguments: StoreKind.testable)
    func outboxTexts(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let policy = SmsCodePolicy()
            func issue(_ phone: Int, _ code: String, at seconds: Double) throws {
                let now = Fixture.now + seconds
                #expect(
                    try store.issueSmsCode(phone: Apricot.phone(phone), codeHMAC: code, now: now, policy: policy)
                        == .issued)
                _ = try store.enqueueSms(
                    phone: Apricot.phone(phone), text: "Your code is \(code)", gateway: "outbox", status: .held,
                    detail: "", now: now, textExpiresAt: now + Double(policy.lifetime.components.seconds))
            }
            try issue(1, "111111", at: 0)  // will be used
            try issue(2, "222222", at: 0)  // will be replaced
            try issue(3, "333333", at: 0)  // will expire
            #expect(try store.smsOutbox(limit: 10).allSatisfy { $0.textDropped == nil && !$0.text.isEmpty })
            #expect(
                try store.verifySmsCode(
                    phone: Apricot.phone(1), codeHMAC: "111111", now: Fixture.now + 5, policy: policy)
                    == .verified)
            try issue(2, "222223", at: 40)
            let outbox = try store.smsOutbox(limit: 10)
            #expect(outbox.count == 4)
            #expect(outbox.filter { $0.phone == Apricot.phone(1) }.map(\.textDropped) == [.used])
            #expect(outbox.filter { $0.phone == Apricot.phone(2) }.map(\.textDropped) == [nil, .replaced])
            #expect(outbox.filter { $0.phone == Apricot.phone(3) }.map(\.textDropped) == [nil])
            #expect(outbox.filter { $0.textDropped != nil }.allSatisfy { $0.text.isEmpty })
            // Past phone 3's code's lifetime, the next write (here another phone's code) drops it.
            try issue(4, "444444", at: Double(policy.lifetime.components.seconds) + 1)
            let byText = Dictionary(try store.smsOutbox(limit: 10).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            #expect(byText.values.filter { $0.phone == Apricot.phone(3) }.map(\.textDropped) == [.expired])
            #expect(byText.values.filter { $0.phone == Apricot.phone(4) }.map(\.textDropped) == [nil])
            // The cleanup job drops what has expired meanwhile too.
            _ = try store.cleanup(
                now: Fixture.now + 2 * Double(policy.lifetime.components.seconds) + 2, policy: RetentionPolicy())
            #expect(try store.smsOutbox(limit: 10).allSatisfy { $0.textDropped != nil && $0.text.isEmpty })
        }
    }

    @Test(
        "checks of one code are all counted, but make at most one otp_checked event every 5 s",
        arguments: StoreKind.testable)
    func coalescedChecks(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let other = try space.open()
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: .seconds(3600))
            // 8 threads, 2 stores (two servers), 25 checks each in the same second.
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for n in 0..<25 {
                    _ = try? (thread % 2 == 0 ? store : other).recordCheck(
                        otpHash: Fixture.hash, now: Fixture.now + 1 + Double(n) / 100)
                }
            }
            let events = { () throws -> Int64 in
                try space.scalar("SELECT count(*) FROM events WHERE kind = 'otp_checked'")
            }
            #expect(try events() == 1)
            let policy = PublishingPolicy()
            let watch = try #require(try store.codeWatch(otpHash: Fixture.hash, now: Fixture.now + 2, policy: policy))
            #expect(watch.checks == 200)
            #expect(watch.firstCheckedAt == Fixture.now + 1)
            // Past the interval, the next check writes one more.
            _ = try store.recordCheck(otpHash: Fixture.hash, now: Fixture.now + 7)
            _ = try store.recordCheck(otpHash: Fixture.hash, now: Fixture.now + 8)
            #expect(try events() == 2)
            let later = try #require(try store.codeWatch(otpHash: Fixture.hash, now: Fixture.now + 9, policy: policy))
            #expect(later.checks == 202)
            #expect(later.lastCheckedAt == Fixture.now + 8)
            // Authorised again: counted afresh.
            _ = try store.consumeForUpload(otpHash: Fixture.hash, now: Fixture.now + 10) { _ in
                UploadRecord(
                    otpHash: Fixture.hash, receivedAt: Fixture.now + 10, symptomsStartedOn: Fixture.onset,
                    province: nil, clientClock: 0,
                    evaluation: UploadEvaluation(
                        accepted: [], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now + 11,
                lifetime: .seconds(3600))
            let fresh = try #require(try store.codeWatch(otpHash: Fixture.hash, now: Fixture.now + 12, policy: policy))
            #expect(fresh.checks == 0)
            _ = try store.recordCheck(otpHash: Fixture.hash, now: Fixture.now + 12)
            #expect(try events() == 3, "the first check of a new authorisation always has its event")
        }
    }
}
