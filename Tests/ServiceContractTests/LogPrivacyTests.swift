import CivilCalendar
import DeskCore
import DeskCrypto
import DeskService
import Foundation
import Testing

/// What a server writes about staff requests: the access log has method, route template,
/// status and time, the server log the desk's messages; neither ever a token, a password or a
/// code (in any spelling), nor a code's hash.
@Suite struct LogPrivacyTests {
    @Test("after every staff use case, no log line holds a token, a password, a code or its hash")
    func noSecretsInLogs() async throws {
        let f = try ContractFixture(.remote, failuresBeforeLock: 3)
        let (admin, code) = try await AuditContractTests.everyAction(f)
        let ana = try await f.desk.signIn(name: "ana", password: "fresh start 77")
        _ = try await f.desk.status(ana, of: code)
        _ = try await f.desk.authorize(ana, code: "9K2-BAY8-UUQ", symptomsStartedOn: ContractFixture.today)
        _ = try await f.desk.staff(admin)
        _ = try await f.desk.audit(admin, query: AuditQuery(actor: "ana", limit: 5))
        _ = try await f.desk.verifyAudit(admin)
        for guess in ["wrong-guess-1", "wrong-guess-2", "wrong-guess-3"] {
            _ = await failure { () async throws(ServiceError) in try await f.desk.signIn(name: "ana", password: guess) }
        }
        try await f.desk.signOut(admin)

        let access = f.accessLines.all
        let lines = (access + f.logLines.all).joined(separator: "\n")
        let secrets = [
            code, OtpRules.group(code), code.lowercased(), Codes.hash(code).hex, admin.token, ana.token,
            SessionToken.hash(admin.token), SessionToken.hash(ana.token), ContractFixture.password,
            ContractFixture.adminPassword, "fresh start 77", "wrong-guess", "bad guess", "9K2-BAY8-UUQ", "tds_",
        ]
        for secret in secrets {
            #expect(!lines.contains(secret), "a log line holds \(secret.prefix(4))…")
        }
        // The access log did see every route, as templates.
        for expected in [
            "internal POST /staff/v1/setup 201", "internal POST /staff/v1/sessions 201",
            "internal POST /staff/v1/sessions 401", "internal POST /staff/v1/otp/authorizations 201",
            "internal POST /staff/v1/otp/authorizations 422", "internal POST /staff/v1/otp/status 200",
            "internal GET /staff/v1/staff 200", "internal POST /staff/v1/staff 201",
            "internal POST /staff/v1/staff/{name}/disable 200", "internal POST /staff/v1/staff/{name}/password 200",
            "internal GET /staff/v1/audit 200", "internal GET /staff/v1/audit/verification 200",
            "internal DELETE /staff/v1/sessions/current 204",
        ] {
            #expect(access.contains { $0.contains(expected) }, "access log has \(expected)")
        }
        #expect(!access.contains { $0.contains("bob") || $0.contains("ana") }, "names stay out of routes")
    }
}
