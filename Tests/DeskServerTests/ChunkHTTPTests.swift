import DeskContract
import DeskCore
import DeskCrypto
import DeskExport
import DeskLocal
import DeskServer
import DeskStore
import Foundation
import Testing

/// Publishing and downloading TEK chunks end to end: a code authorised over `POST /v1/otp`, an
/// upload of 14 keys, the publishing job, then `/v1/keys/index` and `/v1/keys/{n}` over real HTTP,
/// with the chunk decoded and its signature checked. Retention, an unsigned server and a locked
/// store on the handlers as values.
@Suite("TEK chunks over HTTP")
struct ChunkHTTPTests {
    /// 2026-11-29 10:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_946_400)
    static let todayInterval: Int64 = 2_993_184

    /// 14 daily keys: two older than 14 days, seven before the infectious window (onset − 2 days),
    /// four inside it, and today's (still valid). Key bytes are the day offset.
    static let days: [Int64] = [-16, -15, -12, -11, -10, -9, -8, -7, -6, -5, -4, -2, -1, 0]
    static func key(_ day: Int64, today: Int64 = todayInterval) -> [String: Any] {
        [
            "key_data": Data([UInt8](repeating: UInt8(truncatingIfNeeded: 100 + day), count: 16)).base64EncodedString(),
            "rolling_start_number": today + day * 144, "rolling_period": 144,
        ]
    }

    /// Authorises `otp` (onset 3 days ago) over the internal listener, then uploads `days`' keys.
    static func authoriseAndUpload(_ fixture: ServerFixture, otp: String, days: [Int64], at now: Date) async throws {
        let onset = now.utcDay.adding(days: -3).iso
        let authorised = try await fixture.send(
            "POST", fixture.internalURL.appendingPathComponent("v1/otp"), headers: fixture.hisHeaders,
            body: Data(#"{"otp":"\#(otp)","symptoms_started_on":"\#(onset)"}"#.utf8))
        #expect(authorised.status == 204)
        let upload = try await fixture.send(
            "POST", fixture.phone.appendingPathComponent("v1/ingestion/upload"),
            headers: Phone.headers(token: Phone.hash(otp), clock: Int64(now.timeIntervalSince1970)),
            body: Phone.uploadBody(keys: days.map { key($0, today: Int64(now.timeIntervalSince1970) / 86_400 * 144) }))
        #expect(upload.status == 204)
    }

    static func chunk(_ fixture: ServerFixture, _ n: Int) async throws -> Reply {
        try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/\(n)"))
    }

    @Test("keys are published once past their embargo, with risk labels, in signed chunks phones can fetch")
    func endToEnd() async throws {
        let clock = FixedClock(Self.start)
        let signingKey = ECPrivateKey.generate()
        let fixture = try ServerFixture(clock: clock, signing: ChunkSigning(key: signingKey))
        let noChunks = try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index"))
        #expect(noChunks.status == 404)
        #expect(noChunks.errorCode == 1301)

        try await Self.authoriseAndUpload(fixture, otp: "9K2RAY8UUQ", days: Self.days, at: Self.start)
        let first = try #require(fixture.server.jobs.publishNow())
        #expect(first.published.map(\.index) == [1])
        #expect(first.backlog.embargoed == 1)
        // The run is recorded for the watch of a code: when it ran, and when the timer runs it next.
        let interval = Double(fixture.server.config.publishIntervalSeconds)
        #expect(try fixture.store.jobRun(.publishing) == JobRun(lastRun: Self.start, nextRun: Self.start + interval))

        let index = try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index"))
        #expect(index.status == 200)
        #expect(index.text == #"{"oldest":1,"newest":1}"#)
        #expect(index.header("Cache-Control") == "public, max-age=1800")

        let reply = try await Self.chunk(fixture, 1)
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/zip")
        #expect(reply.header("Cache-Control") == "public, max-age=1296000")
        let inspection = try ChunkInspection(zip: Array(reply.body))
        #expect(inspection.signatureVerifies(with: signingKey.publicKey))
        #expect(!inspection.signatureVerifies(with: ECPrivateKey.generate().publicKey))
        let file = inspection.file
        #expect(file.region == "222")
        #expect(file.batchNum == 1 && file.batchSize == 1)
        #expect(file.signatureInfos.map(\.verificationKeyID) == ["222"])
        #expect(file.signatureInfos.map(\.verificationKeyVersion) == ["v1"])
        #expect(file.signatureInfos.map(\.signatureAlgorithm) == ["1.2.840.10045.4.3.2"])
        // Exactly the keys from onset − 2 days to yesterday; none older, not today's.
        let published = Dictionary(uniqueKeysWithValues: file.keys.map { (Int64($0.rollingStartIntervalNumber), $0) })
        #expect(published.keys.sorted() == [-5, -4, -2, -1].map { Self.todayInterval + $0 * 144 })
        for (start, key) in published {
            let day = (start - Self.todayInterval) / 144
            #expect(key.keyData == [UInt8](repeating: UInt8(truncatingIfNeeded: 100 + day), count: 16))
            #expect(key.transmissionRiskLevel == 8)
            #expect(key.reportType == 1)
            #expect(key.daysSinceOnsetOfSymptoms == Int32(day + 3))
            #expect(key.rollingPeriod == nil)
        }
        #expect(file.keys.map(\.keyData) == file.keys.map(\.keyData).sorted { $0.lexicographicallyPrecedes($1) })
        // The first window starts at the first upload's arrival (here the run's own second).
        #expect(file.startTimestamp == UInt64(Self.start.timeIntervalSince1970) - 1)
        #expect(file.endTimestamp == UInt64(Self.start.timeIntervalSince1970))

        // Today's key: not at 01:59 tomorrow, then at 02:00, in chunk 2 whose window follows chunk 1's.
        clock.set(Date(timeIntervalSince1970: Double((Self.todayInterval + 144) * 600 + 7_200 - 1)))
        #expect(fixture.server.jobs.publishNow()?.published.isEmpty == true)
        clock.advance(seconds: 1)
        let second = try #require(fixture.server.jobs.publishNow())
        #expect(second.published.map(\.index) == [2])
        let file2 = try ChunkInspection(zip: Array(try await Self.chunk(fixture, 2).body)).file
        #expect(file2.keys.map(\.rollingStartIntervalNumber) == [Int32(Self.todayInterval)])
        #expect(file2.keys.first?.daysSinceOnsetOfSymptoms == 3)
        #expect(file2.startTimestamp == file.endTimestamp)
        let index2 = try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index"))
        #expect(index2.text == #"{"oldest":1,"newest":2}"#)

        // The upload knows its chunks; the events say so too.
        let uploads = try fixture.events().filter { $0.kind == .uploadAccepted }
        #expect(uploads.count == 1)
        let chunkEvents = try fixture.events().filter { $0.kind == .chunkPublished }
        #expect(chunkEvents.count == 2)
        #expect(chunkEvents.first?.detail.hasPrefix(#"{"chunk":1,"keys":4,"padding":0,"#) == true)
        #expect(try fixture.store.upload(id: 1)?.publishedInChunks == [1, 2])

        let metrics = try await fixture.send("GET", fixture.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("tracedesk_publishing_enabled 1\n"))
        #expect(metrics.text.contains("tracedesk_chunks_published_total 2\n"))
        #expect(metrics.text.contains("tracedesk_keys_published_total 5\n"))
        #expect(metrics.text.contains("tracedesk_last_chunk_index 2\n"))
    }

    @Test("after retention has deleted every chunk the index says none, and the next chunk's index keeps rising")
    func indexesNeverRestart() async throws {
        let clock = FixedClock(Self.start)
        let fixture = try ServerFixture(
            sockets: false, clock: clock, signing: ChunkSigning(key: ECPrivateKey.generate()))
        try await Self.authoriseAndUpload(fixture, otp: "9K2RAY8UUQ", days: [-2, -1], at: Self.start)
        #expect(fixture.server.jobs.publishNow()?.published.map(\.index) == [1])

        clock.advance(seconds: 15 * 86_400)
        let index = try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index"))
        #expect(index.status == 404)
        #expect(index.errorCode == 1301)
        // Offered no more, even before the cleanup deletes it (and even from the cache).
        #expect(try await Self.chunk(fixture, 1).errorCode == 1300)
        let report = try #require(fixture.server.jobs.cleanUpNow())
        #expect(report.chunks == 1 && report.uploads == 1 && report.keys == 2)
        #expect(try await Self.chunk(fixture, 1).status == 404)

        let later = clock.now()
        try await Self.authoriseAndUpload(fixture, otp: "KJ23IWY5UJ", days: [-2], at: later)
        #expect(fixture.server.jobs.publishNow()?.published.map(\.index) == [2])
        let index2 = try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index"))
        #expect(index2.text == #"{"oldest":2,"newest":2}"#)
        #expect(fixture.logLines.all.contains { $0.hasPrefix("cleanup: ") && $0.contains("1 chunk") })
    }

    @Test("without a signing key the server publishes nothing and says so in every run's log line and in /metrics")
    func unsigned() async throws {
        let fixture = try ServerFixture(sockets: false, clock: FixedClock(Self.start))
        try await Self.authoriseAndUpload(fixture, otp: "9K2RAY8UUQ", days: [-2, -1], at: Self.start)
        let run = try #require(fixture.server.jobs.publishNow())
        #expect(run.unsigned)
        #expect(run.published.isEmpty)
        #expect(run.backlog.ready == 2)
        let lines = fixture.logLines.all.filter { $0.hasPrefix("publishing: ") }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.contains("NOT PUBLISHING: no signing key") })
        let metrics = try await fixture.send("GET", fixture.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("tracedesk_publishing_enabled 0\n"))
        #expect(metrics.text.contains(#"tracedesk_publishing_runs_total{result="unsigned"}"#))
        #expect(metrics.text.contains(#"tracedesk_keys_waiting{state="ready"} 2"#))
        #expect(try await fixture.send("GET", fixture.phone.appendingPathComponent("v1/keys/index")).errorCode == 1301)
    }

    @Test("a store locked by another process: the run fails, says so, is counted, and publishes once the lock is gone")
    func lockedStore() async throws {
        let fixture = try ServerFixture(
            sockets: false,
            busyTimeoutMs: 200, clock: FixedClock(Self.start), signing: ChunkSigning(key: ECPrivateKey.generate()))
        try await Self.authoriseAndUpload(fixture, otp: "9K2RAY8UUQ", days: [-1], at: Self.start)
        let holder = try SQLiteLockHolder(path: fixture.store.path)
        #expect(fixture.server.jobs.publishNow() == nil)
        holder.release()
        #expect(
            fixture.logLines.all.contains {
                $0.hasPrefix("publishing FAILED (tried again in 60 s): ") && $0.contains("locked")
            })
        let metrics = try await fixture.send("GET", fixture.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains(#"tracedesk_publishing_runs_total{result="failed"} 1"#))
        #expect(fixture.server.jobs.publishNow()?.published.map(\.index) == [1])
    }

    @Test("chunk paths: HEAD has the headers and no body; bad indexes are 400, unknown ones 404")
    func paths() async throws {
        let fixture = try ServerFixture(
            clock: FixedClock(Self.start), signing: ChunkSigning(key: ECPrivateKey.generate()))
        try await Self.authoriseAndUpload(fixture, otp: "9K2RAY8UUQ", days: [-1], at: Self.start)
        fixture.server.jobs.publishNow()
        let get = try await Self.chunk(fixture, 1)
        let head = try await fixture.send("HEAD", fixture.phone.appendingPathComponent("v1/keys/1"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
        for bad in ["0", "-1", "01", "1.0", "abc", "2147483648", "%20", "1%00"] {
            let reply = try await fixture.send("GET", URL(string: "\(fixture.phone)/v1/keys/\(bad)")!)
            #expect(reply.status == 400, "\(bad)")
            #expect(reply.errorCode == 1100, "\(bad)")
        }
        #expect(try await Self.chunk(fixture, 2).errorCode == 1300)
        let post = try await fixture.send("POST", fixture.phone.appendingPathComponent("v1/keys/1"))
        #expect(post.status == 405)
    }
}
