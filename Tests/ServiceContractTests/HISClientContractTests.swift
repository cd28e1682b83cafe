import DeskContract
import DeskCore
import DeskCrypto
import DeskStore
import Foundation
import Testing

/// HIS clients through both desks: an admin adds one and gets its key once, lists and revokes
/// them; the store keeps only the key's hash; names follow the staff rules; every change is
/// audited. (Other roles are refused in ``RoleMatrixTests``.)
@Suite struct HISClientContractTests {
    @Test("an admin adds a client and gets a key that only its hash in the store matches", arguments: DeskKind.allCases)
    func add(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let added = try await f.desk.addHISClient(admin, name: " San-Matteo ", ratePerMinute: 12)
            #expect(added.client.name == "san-matteo")
            #expect(added.client.ratePerMinute == 12)
            #expect(added.client.createdBy == "root")
            #expect(added.client.actor == "his:san-matteo")
            #expect(HISKey.looksValid(added.key))
            #expect(!added.description.contains(added.key))

            let stored = try #require(try f.store.hisClient(keyHash: HISKey.hash(added.key)))
            #expect(stored.client == added.client)
            #expect(HISKey.matches(added.key, storedHash: stored.keyHash))
            let other = try await f.desk.addHISClient(admin, name: "niguarda", ratePerMinute: nil)
            #expect(other.key != added.key)
            #expect(try await f.desk.hisClients(admin).map(\.name) == ["niguarda", "san-matteo"])

            let audit = try await f.desk.audit(admin, query: AuditQuery(action: .hisClientAdded))
            #expect(audit.map(\.target) == ["niguarda", "san-matteo"])
            #expect(!audit.contains { $0.detail.contains(added.key) || $0.detail.contains(other.key) })
            // Through a server the key crossed in a response body: never in its log lines.
            let logged = (f.logLines.all + f.accessLines.all).joined(separator: "\n")
            #expect(!logged.contains(added.key) && !logged.contains(other.key))
        }
    }

    @Test("a bad name, a bad rate and a taken name are refused with what to do", arguments: DeskKind.allCases)
    func refusals(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            await #expect(throws: ServiceError.invalid("a client name starts with a letter (a-z)")) {
                _ = try await f.desk.addHISClient(admin, name: "1st", ratePerMinute: nil)
            }
            await #expect(
                throws: ServiceError.invalid("a client name has only letters a-z, digits and . - _ (no spaces)")
            ) {
                _ = try await f.desk.addHISClient(admin, name: "his/../x", ratePerMinute: nil)
            }
            await #expect(
                throws: ServiceError.invalid(
                    "a client's rate limit is 1 to 1000000 authorisations a minute: give another, or none for the server's setting"
                )
            ) {
                _ = try await f.desk.addHISClient(admin, name: "zero", ratePerMinute: 0)
            }
            _ = try await f.desk.addHISClient(admin, name: "niguarda", ratePerMinute: nil)
            await #expect(
                throws: ServiceError.conflict(
                    "the HIS client name niguarda is taken (revoked clients keep their names): choose another")
            ) {
                _ = try await f.desk.addHISClient(admin, name: "niguarda", ratePerMinute: nil)
            }
            await #expect(throws: ServiceError.invalid("there is no HIS client named verdi: see tracedesk his list")) {
                _ = try await f.desk.revokeHISClient(admin, name: "verdi")
            }
            #expect(try await f.desk.hisClients(admin).map(\.name) == ["niguarda"])
        }
    }

    @Test("a revoked client is listed as revoked, audited once, and its name stays taken", arguments: DeskKind.allCases)
    func revoke(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let added = try await f.desk.addHISClient(admin, name: "niguarda", ratePerMinute: nil)
            let revoked = try await f.desk.revokeHISClient(admin, name: "niguarda")
            #expect(revoked.isRevoked)
            #expect(revoked.revokedBy == "root")
            #expect(try await f.desk.revokeHISClient(admin, name: "niguarda") == revoked)
            #expect(try await f.desk.hisClients(admin) == [revoked])
            #expect(try f.store.hisClient(keyHash: HISKey.hash(added.key))?.client.isRevoked == true)
            let audit = try await f.desk.audit(admin, query: AuditQuery(action: .hisClientRevoked))
            #expect(audit.map(\.target) == ["niguarda"])
        }
    }
}
