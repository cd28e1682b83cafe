import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import Foundation
import Testing

/// The server's audit checkpoints over a real SQLite store and a real file: when they are
/// written, that they verify, and that a file that does not match the chain stops them.
@Suite struct AuditCheckpointJobTests {
    static let key = ECPrivateKey.generate()

    static func job(_ fixture: DeskFixture, every: Int = 5, interval: Int = 3_600, log: LogLines = LogLines())
        -> AuditCheckpointJob
    {
        AuditCheckpointJob(
            store: fixture.store, key: key,
            file: AuditCheckpointFile(path: fixture.directory.appendingPathComponent("audit.checkpoints").path),
            everyEntries: every, intervalSeconds: interval, log: log.append)
    }

    static func addEntries(_ fixture: DeskFixture, _ count: Int) throws {
        for i in 0..<count {
            try fixture.store.appendAudit(
                actor: "admin", action: .traceLookup, target: "user \(i)", detail: "{}", now: fixture.clock.now())
        }
    }

    /// Checks the job's file as `tracedesk audit verify --checkpoints` does.
    static func report(_ fixture: DeskFixture, _ job: AuditCheckpointJob) throws -> AuditCheckpointReport {
        let lines = try job.file.lines(key: key.publicKey, mustExist: true)
        let chain = try LocalDesk.verifyChain(fixture.store, hashesAt: Set(AuditCheckpoint.countsToAsk(lines)))
        return AuditCheckpoint.verify(lines, chain: chain)
    }

    @Test("the first run anchors the chain; then every N entries, or at the interval when any were added")
    func schedule() async throws {
        try await DeskFixture.with { fixture in
            let job = Self.job(fixture, every: 5, interval: 600)
            let start = try LocalDesk.verifyChain(fixture.store).entries

            #expect(job.tick(now: fixture.clock.now()) == .wrote(start))
            #expect(job.tick(now: fixture.clock.now()) == .nothingToDo)
            try Self.addEntries(fixture, 4)
            #expect(job.tick(now: fixture.clock.now()) == .nothingToDo)
            try Self.addEntries(fixture, 1)
            #expect(job.tick(now: fixture.clock.now()) == .wrote(start + 5))
            try Self.addEntries(fixture, 1)
            fixture.clock.advance(seconds: 599)
            #expect(job.tick(now: fixture.clock.now()) == .nothingToDo)
            fixture.clock.advance(seconds: 1)
            #expect(job.tick(now: fixture.clock.now()) == .wrote(start + 6))
            fixture.clock.advance(seconds: 3_600)
            #expect(job.tick(now: fixture.clock.now()) == .nothingToDo, "nothing added: nothing to anchor")

            let report = try Self.report(fixture, job)
            #expect(report.problems == [])
            #expect(report.matched == 3)
            #expect(report.anchoredEntries == start + 6)
            var status = stat()
            #expect(stat(job.file.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        }
    }

    @Test("a new job (a restart) goes on from the file's last checkpoint")
    func restart() async throws {
        try await DeskFixture.with { fixture in
            let first = Self.job(fixture)
            _ = first.tick(now: fixture.clock.now())
            try Self.addEntries(fixture, 2)
            let again = Self.job(fixture)
            #expect(again.tick(now: fixture.clock.now()) == .wrote(try LocalDesk.verifyChain(fixture.store).entries))
            #expect(try Self.report(fixture, again).problems == [])
        }
    }

    @Test(
        "a checkpoint file of another store stops the checkpoints, logged once, nothing appended; checked again later")
    func otherStoresFile() async throws {
        try await DeskFixture.with { fixture in
            let log = LogLines()
            let job = Self.job(fixture, log: log)
            let foreign = AuditCheckpoint.signed(
                entries: 3, headHash: String(repeating: "a", count: 64), firstHash: String(repeating: "b", count: 64),
                at: fixture.clock.now(), key: Self.key)
            try job.file.append(foreign)

            let outcome = job.tick(now: fixture.clock.now())
            _ = job.tick(now: fixture.clock.now())

            guard case .failed(let message) = outcome else {
                Issue.record("expected a failure, got \(outcome)")
                return
            }
            #expect(message.contains("another audit log"))
            #expect(log.lines.count == 1)
            #expect(try job.file.lines(key: Self.key.publicKey, mustExist: true).count == 1, "nothing appended")
            // Fixed by hand (a new file): checked again after the pause, not at every tick.
            try FileManager.default.removeItem(atPath: job.file.path)
            #expect(job.tick(now: fixture.clock.now()) == outcome)
            fixture.clock.advance(seconds: AuditCheckpointJob.recheckSeconds)
            #expect(job.tick(now: fixture.clock.now()) == .wrote(try LocalDesk.verifyChain(fixture.store).entries))
            #expect(log.lines.first?.contains("audit checkpoints STOPPED") == true)
        }
    }

    @Test("a last line cut short by a crash is left behind and the next checkpoint starts a line of its own")
    func cutShortLine() async throws {
        try await DeskFixture.with { fixture in
            let job = Self.job(fixture)
            _ = job.tick(now: fixture.clock.now())
            let handle = try #require(FileHandle(forWritingAtPath: job.file.path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"format":"tracedesk-audit-chec"#.utf8))
            try handle.close()
            try Self.addEntries(fixture, 1)

            let restarted = Self.job(fixture)
            let outcome = restarted.tick(now: fixture.clock.now())

            #expect(outcome == .wrote(try LocalDesk.verifyChain(fixture.store).entries))
            let lines = try restarted.file.lines(key: Self.key.publicKey, mustExist: true)
            #expect(lines.map { $0.signed != nil } == [true, false, true])
        }
    }
}

/// Log lines a job wrote, for tests.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    var append: @Sendable (String) -> Void { { line in self.lock.withLock { self.stored.append(line) } } }
}
