import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import Foundation
import Testing

/// The audit log through both desks: every action leaves its entry, browsing and verifying.
@Suite struct AuditContractTests {
    /// Runs one of every audited action; returns the admin's session and the code authorised.
    static func everyAction(_ f: ContractFixture) async throws -> (admin: StaffSession, code: String) {
        let admin = try await f.admin()  // staff_added, sign_in
        let ana = try await f.person("ana", .operator, by: admin)  // staff_added, sign_in
        let code = Codes.fresh()
        _ = try await f.desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)  // otp_authorized
        try await f.desk.signOut(ana)  // sign_out
        _ = await failure { () async throws(ServiceError) in
            try await f.desk.signIn(name: "ana", password: "bad guess 1")
        }
        _ = await failure { () async throws(ServiceError) in
            try await f.desk.signIn(name: "nobody", password: "bad guess 2")
        }
        _ = try await f.desk.addStaff(admin, name: "bob", role: .tracer, password: ContractFixture.password)
        _ = try await f.desk.disableStaff(admin, name: "bob")  // staff_disabled
        _ = await failure { () async throws(ServiceError) in
            try await f.desk.signIn(name: "bob", password: ContractFixture.password)
        }  // sign_in_refused
        _ = try await f.desk.resetPassword(admin, name: "ana", password: "fresh start 77")  // password_reset
        return (admin, code)
    }

    @Test(
        "every action is in the log, by whom and to whom, and the desk shows the log as stored",
        arguments: DeskKind.allCases)
    func everyActionAudited(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, _) = try await Self.everyAction(f)
            let stored = try f.auditTrail()

            let shown = try await f.desk.audit(admin, query: AuditQuery(limit: 1_000))

            #expect(shown == stored.reversed())
            let actions = Set(stored.map(\.action))
            for action: AuditAction in [
                .staffAdded, .signIn, .otpAuthorized, .signOut, .signInFailed, .staffDisabled, .signInRefused,
                .passwordReset,
            ] {
                #expect(actions.contains(action), "\(kind): \(action) is audited")
            }
            #expect(stored.contains { $0.action == .staffAdded && $0.actor == "root" && $0.target == "ana" })
            #expect(stored.contains { $0.action == .otpAuthorized && $0.actor == "ana" })
            #expect(stored.contains { $0.action == .staffDisabled && $0.actor == "root" && $0.target == "bob" })
            #expect(stored.contains { $0.action == .passwordReset && $0.actor == "root" && $0.target == "ana" })
            #expect(stored.contains { $0.action == .signInFailed && $0.actor == "-" })
            #expect(Array(stored.map(\.id)) == Array(1...Int64(stored.count)))
        }
    }

    @Test("locking an account is audited", arguments: DeskKind.allCases)
    func lockAudited(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, failuresBeforeLock: 3) { f in
            let admin = try await f.admin()
            _ = try await f.desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)
            for guess in ["guess-0001", "guess-0002", "guess-0003"] {
                _ = await failure { () async throws(ServiceError) in
                    try await f.desk.signIn(name: "ana", password: guess)
                }
            }

            let locked = try await f.desk.audit(admin, query: AuditQuery(action: .accountLocked))

            #expect(locked.count == 1)
            #expect(locked.first?.target == "ana")
        }
    }

    @Test("browsing: by person, by action, by time, page by page", arguments: DeskKind.allCases)
    func browse(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, _) = try await Self.everyAction(f)
            let stored = try f.auditTrail()

            let byAna = try await f.desk.audit(admin, query: AuditQuery(actor: "ANA"))
            let signIns = try await f.desk.audit(admin, query: AuditQuery(action: .signIn))
            let firstPage = try await f.desk.audit(admin, query: AuditQuery(limit: 3))
            let secondPage = try await f.desk.audit(admin, query: AuditQuery(beforeID: firstPage.last?.id, limit: 3))
            let none = try await f.desk.audit(
                admin, query: AuditQuery(from: ContractFixture.start + 1, until: ContractFixture.start + 2))
            let all = try await f.desk.audit(
                admin, query: AuditQuery(from: ContractFixture.start, until: ContractFixture.start + 1))

            #expect(byAna == stored.filter { $0.actor == "ana" }.reversed())
            #expect(signIns == stored.filter { $0.action == .signIn }.reversed())
            #expect(firstPage == Array(stored.reversed().prefix(3)))
            #expect(secondPage == Array(stored.reversed().dropFirst(3).prefix(3)))
            #expect(none.isEmpty)
            #expect(all.count == stored.count)
        }
    }

    @Test("verifying: the chain of every entry is whole, its head is the last entry", arguments: DeskKind.allCases)
    func verify(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, _) = try await Self.everyAction(f)
            let stored = try f.auditTrail()

            let verification = try await f.desk.verifyAudit(admin)

            #expect(verification.entries == Int64(stored.count))
            #expect(verification.headID == stored.last?.id)
            #expect(verification.headHash == stored.last?.hash)
            #expect(verification.firstBroken == nil)
            #expect(AuditChain.check(stored, after: nil) == nil)
        }
    }

    @Test(
        "verifying with counts: the chain's hash at each count asked, none past the chain; too many counts refused",
        arguments: DeskKind.allCases)
    func hashesAtCounts(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, _) = try await Self.everyAction(f)
            let stored = try f.auditTrail()
            let asked: [Int64] = [1, 3, Int64(stored.count), Int64(stored.count) + 5]

            let verification = try await f.desk.verifyAudit(admin, hashesAt: asked)
            let tooMany = await failure { () async throws(ServiceError) in
                _ = try await f.desk.verifyAudit(
                    admin, hashesAt: (1...Int64(AuditCheckpoint.maximumCountsAsked + 1)).map { $0 })
            }

            #expect(
                verification.hashesAt == [
                    1: stored[0].hash, 3: stored[2].hash, Int64(stored.count): stored[stored.count - 1].hash,
                ])
            #expect(verification.entries == Int64(stored.count))
            #expect(
                tooMany.map { if case .invalid = $0 { true } else { false } } == true,
                "\(kind): \(String(describing: tooMany))")
        }
    }

    @Test("no audit entry holds a code, a password or a token", arguments: DeskKind.allCases)
    func noSecretsAudited(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, code) = try await Self.everyAction(f)
            let text = try f.auditTrail().map { "\($0.actor) \($0.action) \($0.target ?? "") \($0.detail)" }
                .joined(separator: "\n")

            for secret in [
                code, OtpRules.group(code), Codes.hash(code).hex, admin.token, SessionToken.hash(admin.token),
                ContractFixture.password, ContractFixture.adminPassword, "bad guess 1", "bad guess 2", "fresh start 77",
                "nobody",
            ] {
                #expect(!text.contains(secret), "\(kind): the audit log must not hold \(secret.prefix(4))…")
            }
        }
    }
}
