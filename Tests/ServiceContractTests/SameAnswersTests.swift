import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import Foundation
import Testing

/// One long scenario through both desks, every answer and error written down: the two
/// transcripts must be equal, value for value (only the random session tokens differ, and are
/// left out).
@Suite struct SameAnswersTests {
    static func transcript(_ kind: DeskKind, codes: [String]) async throws -> [String] {
        try await ContractFixture.with(kind, failuresBeforeLock: 4) { f in
            var lines: [String] = []
            func note<T>(_ label: String, _ body: () async throws(ServiceError) -> T) async {
                do {
                    let value = try await body()
                    lines.append("\(label): \(value)")
                } catch {
                    lines.append("\(label): error \(error)")
                }
            }
            func session(_ s: StaffSession) -> String {
                "\(s.user) \(s.role) \(s.signedInAt) \(s.expiresAt) \(s.idleSeconds)"
            }
            let desk = f.desk
            await note("needs first admin") { () async throws(ServiceError) in try await desk.needsFirstAdmin() }
            let admin = try await desk.createFirstAdmin(name: "root", password: ContractFixture.adminPassword)
            lines.append("admin: \(session(admin))")
            for (name, role) in [
                ("ana", StaffRole.operator), ("ben", .operator), ("sue", .supervisor), ("tom", .tracer),
            ] {
                await note("add \(name)") { () async throws(ServiceError) in
                    try await desk.addStaff(admin, name: name, role: role, password: ContractFixture.password)
                }
            }
            f.clock.advance(seconds: 5)
            let ana = try await desk.signIn(name: "ana", password: ContractFixture.password)
            let ben = try await desk.signIn(name: "ben", password: ContractFixture.password)
            let sue = try await desk.signIn(name: "sue", password: ContractFixture.password)
            lines.append("ana: \(session(ana))")
            for (i, code) in codes.enumerated() {
                await note("authorize \(i)") { () async throws(ServiceError) in
                    try await desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today.adding(days: -i))
                }
                f.clock.advance(seconds: 1)
            }
            await note("authorize again") { () async throws(ServiceError) in
                try await desk.authorize(ben, code: codes[0], symptomsStartedOn: ContractFixture.today)
            }
            await note("authorize bad") { () async throws(ServiceError) in
                try await desk.authorize(ben, code: "9K2-BAY8-UUQ", symptomsStartedOn: ContractFixture.today)
            }
            for (who, s) in [("ana", ana), ("ben", ben), ("sue", sue), ("root", admin)] {
                await note("status by \(who)") { () async throws(ServiceError) in try await desk.status(s, of: codes[1])
                }
            }
            for guess in ["guess-0001", "guess-0002", "guess-0003", "guess-0004"] {
                await note("ben guesses") { () async throws(ServiceError) in
                    try await desk.signIn(name: "ben", password: guess)
                }
                f.clock.advance(seconds: 60)
            }
            await note("disable tom") { () async throws(ServiceError) in try await desk.disableStaff(admin, name: "tom")
            }
            await note("reset ben") { () async throws(ServiceError) in
                try await desk.resetPassword(admin, name: "ben", password: "fresh start 77")
            }
            await note("ben's old session") { () async throws(ServiceError) in try await desk.status(ben, of: codes[0])
            }
            await note("staff") { () async throws(ServiceError) in try await desk.staff(admin) }
            f.clock.advance(seconds: 200)
            await note("status after expiry") { () async throws(ServiceError) in
                try await desk.status(sue, of: codes[0])
            }
            try await desk.signOut(sue)
            await note("audit") { () async throws(ServiceError) in
                try await desk.audit(admin, query: AuditQuery(limit: 1_000)).map {
                    "\($0.id) \($0.at) \($0.actor) \($0.action) \($0.target ?? "-") \($0.detail)"
                }
            }
            await note("verify") { () async throws(ServiceError) in try await desk.verifyAudit(admin).entries }
            return lines
        }
    }

    @Test("the same scenario gives the same answers and errors through LocalDesk and RemoteDesk")
    func sameAnswers() async throws {
        let codes = (0..<3).map { _ in Codes.fresh() }
        let local = try await Self.transcript(.local, codes: codes)
        let remote = try await Self.transcript(.remote, codes: codes)

        #expect(local.count == remote.count)
        for (l, r) in zip(local, remote) {
            #expect(l == r)
        }
    }
}
