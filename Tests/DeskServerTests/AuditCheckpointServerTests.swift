import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's audit checkpoint job as `tracedesk serve` wires it: the settings, the log line
/// per checkpoint, and its figures in /metrics.
@Suite("Audit checkpoints in the server")
struct AuditCheckpointServerTests {
    @Test("with a key and a file: a checkpoint at the first run, counted and logged; none while nothing is added")
    func job() async throws {
        let key = ECPrivateKey.generate()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).jsonl")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fixture = try ServerFixture(
            sockets: false,
            configure: {
                $0.auditCheckpointPath = path
                $0.auditCheckpointEveryEntries = 2
            }, auditKey: key)
        // The fixture's own entries (its HIS client's `his_client_added`) come first.
        let entries = Int64(try fixture.store.auditEntries(after: 0, limit: 1_000).count + 3)
        for i in 0..<3 {
            try fixture.store.appendAudit(
                actor: "root", action: .signIn, target: nil, detail: "{\"n\":\(i)}", now: Date())
        }

        let first = fixture.server.jobs.checkpointNow()
        let second = fixture.server.jobs.checkpointNow()

        #expect(first == .wrote(entries))
        #expect(second == .nothingToDo)
        #expect(fixture.logLines.all.contains("audit checkpoint: \(entries) entries anchored in \(path)"))
        let lines = try AuditCheckpointFile(path: path).lines(key: key.publicKey, mustExist: true)
        #expect(lines.count == 1 && lines[0].signed?.entries == entries)
        let metrics = try await fixture.send("GET", fixture.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("tracedesk_audit_checkpoints_total{result=\"written\"} 1\n"))
        #expect(metrics.text.contains("tracedesk_audit_checkpoints_total{result=\"unchanged\"} 1\n"))
        #expect(metrics.text.contains("tracedesk_audit_checkpoint_entries \(entries)\n"))
    }

    @Test("without the settings there is no job; the key and the file go together; a bad key is a problem")
    func settings() throws {
        let fixture = try ServerFixture(sockets: false)
        #expect(fixture.server.jobs.auditCheckpoints == nil)
        #expect(fixture.server.jobs.checkpointNow() == nil)
        var config = ServerConfig()
        #expect(config.auditCheckpointEveryEntries == 1_000 && config.auditCheckpointIntervalSeconds == 3_600)
        config.auditKeyPath = "/nonexistent/audit-key.pem"
        #expect(config.crossCheck().contains { $0.contains("audit_key_path and audit_checkpoint_path") })
        guard case .failure(let error) = TraceDeskServer.auditKey(config) else {
            Issue.record("an unreadable audit key was accepted")
            return
        }
        #expect(
            error.problems == [
                "audit_key_path /nonexistent/audit-key.pem cannot be read: check the path and that this user may read it"
            ])
        let read = ServerConfig.read(
            file: nil, environment: ["TRACEDESK_AUDIT_CHECKPOINT_EVERY_ENTRIES": "0"])
        #expect(read.1.contains { $0.contains("TRACEDESK_AUDIT_CHECKPOINT_EVERY_ENTRIES") })
    }
}
