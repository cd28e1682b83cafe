import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// HIS clients against every adapter: what add, list, revoke and the key lookup store and
/// audit, and that a revocation is seen at once by another store on the same data (another
/// server of a deployment).
@Suite("Store contract: HIS clients")
struct HISClientStoreTests {
    static let keyA = String(repeating: "a", count: 64)
    static let keyB = String(repeating: "b", count: 64)

    @Test(
        "clients are added with their key's hash and listed by name; a taken name is refused and not audited",
        arguments: StoreKind.testable)
    func addAndList(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let sanMatteo = try store.addHISClient(
                name: "san-matteo", keyHash: Self.keyA, ratePerMinute: nil, by: "boss", now: Fixture.now)
            let niguarda = try store.addHISClient(
                name: "niguarda", keyHash: Self.keyB, ratePerMinute: 30, by: "boss", now: Fixture.now + 60)

            let expectedSanMatteo = HISClient(name: "san-matteo", createdAt: Fixture.now, createdBy: "boss")
            let expectedNiguarda = HISClient(
                name: "niguarda", createdAt: Fixture.now + 60, createdBy: "boss", ratePerMinute: 30)
            #expect(sanMatteo == expectedSanMatteo)
            #expect(niguarda == expectedNiguarda)
            #expect(try store.hisClients() == [expectedNiguarda, expectedSanMatteo])
            #expect(try store.hisClient(name: "niguarda") == expectedNiguarda)
            #expect(try store.hisClient(name: "verdi") == nil)

            let taken = try store.addHISClient(
                name: "san-matteo", keyHash: String(repeating: "c", count: 64), ratePerMinute: nil, by: "boss",
                now: Fixture.now + 120)
            #expect(taken == nil)
            #expect(try store.hisClient(keyHash: Self.keyA)?.client == expectedSanMatteo)

            let audit = try store.auditEntries(after: 0, limit: 10)
            #expect(audit.map(\.action) == [.hisClientAdded, .hisClientAdded])
            #expect(audit.map(\.target) == ["san-matteo", "niguarda"])
            #expect(audit.map(\.actor) == ["boss", "boss"])
            #expect(audit.map(\.detail) == [#"{"rate_per_minute":null}"#, #"{"rate_per_minute":30}"#])
            #expect(!audit.contains { $0.detail.contains(Self.keyA) || $0.detail.contains(Self.keyB) })
        }
    }

    @Test(
        "a client is found by its key's hash with the stored hash; an unknown hash finds nothing",
        arguments: StoreKind.testable)
    func findByKeyHash(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            _ = try store.addHISClient(
                name: "niguarda", keyHash: Self.keyB, ratePerMinute: 5, by: "boss", now: Fixture.now)
            let found = try #require(try store.hisClient(keyHash: Self.keyB))
            #expect(found.client.name == "niguarda")
            #expect(found.client.ratePerMinute == 5)
            #expect(found.keyHash == Self.keyB)
            #expect(try store.hisClient(keyHash: Self.keyA) == nil)
        }
    }

    @Test(
        "a revoked client keeps its row and name, is audited once, and is seen revoked by another store at once",
        arguments: StoreKind.testable)
    func revoke(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let other = try space.open()
            _ = try store.addHISClient(
                name: "niguarda", keyHash: Self.keyB, ratePerMinute: nil, by: "boss", now: Fixture.now)
            #expect(try other.hisClient(keyHash: Self.keyB)?.client.isRevoked == false)

            let revoked = try #require(try store.revokeHISClient(name: "niguarda", by: "boss2", now: Fixture.now + 10))
            #expect(revoked.revokedAt == Fixture.now + 10)
            #expect(revoked.revokedBy == "boss2")
            #expect(try other.hisClient(keyHash: Self.keyB)?.client.isRevoked == true)

            let again = try store.revokeHISClient(name: "niguarda", by: "boss", now: Fixture.now + 20)
            #expect(again == revoked)
            #expect(try store.revokeHISClient(name: "verdi", by: "boss", now: Fixture.now) == nil)
            // The name stays taken: old events keep naming one system.
            #expect(
                try store.addHISClient(
                    name: "niguarda", keyHash: Self.keyA, ratePerMinute: nil, by: "boss", now: Fixture.now + 30)
                    == nil)

            let audit = try store.auditEntries(after: 0, limit: 10)
            #expect(audit.map(\.action) == [.hisClientAdded, .hisClientRevoked])
            #expect(audit.last?.actor == "boss2")
            #expect(audit.last?.target == "niguarda")
        }
    }

    @Test("the store holds only the key's hash", arguments: StoreKind.testable)
    func onlyTheHash(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            _ = try store.addHISClient(
                name: "niguarda", keyHash: Self.keyB, ratePerMinute: nil, by: "boss", now: Fixture.now)
            #expect(try space.scalar("SELECT count(*) FROM his_clients WHERE key_hash = '\(Self.keyB)'") == 1)
            #expect(try space.scalar("SELECT count(*) FROM his_clients") == 1)
        }
    }
}
