import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
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

    @Test("no phone number, purpose or note reaches the server's logs", arguments: [DeskKind.remote])
    func logPrivacy(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let tina = try await f.person("tina", .tracer, by: admin)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            _ = try f.store.enqueueSms(
                phone: TraceCase.annaPhone, text: "Your code: 123456", gateway: "outbox", status: .held, detail: "",
                now: ContractFixture.start)
            _ = try await f.desk.traceLookup(tina, phone: "+39 333 100 0001", purpose: TraceCase.purpose)
            _ = await failure { () async throws(ServiceError) in
                try await f.desk.traceLookup(tina, phone: "+39 333 999 9999", purpose: TraceCase.purpose)
            }
            _ = await failure { () async throws(ServiceError) in
                try await f.desk.traceLookup(tina, phone: "333-abc-77", purpose: TraceCase.purpose)
            }
            _ = try await f.desk.traceSightings(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, purpose: TraceCase.purpose, offset: 0,
                limit: 5)
            _ = try await f.desk.recordOutcome(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, outcome: .noAnswer, note: "secret note 42",
                purpose: TraceCase.purpose)
            try await f.desk.recordTraceExport(
                tina, patientUserID: ids.patient, purpose: TraceCase.purpose, kind: "contacts_csv", rows: 2)
            _ = try await f.desk.smsOutbox(admin, limit: 5)

            let access = f.accessLines.all
            let lines = (access + f.logLines.all).joined(separator: "\n")
            for secret in [
                "3331000001", "333 100 0001", "3339999999", "999 9999", "3331000002", "3331000003", "abc-77",
                "secret note", "case 2026", "123456",
            ] {
                #expect(!lines.contains(secret), "a log line holds \(secret.prefix(4))…")
            }
            for expected in [
                "internal POST /staff/v1/trace/lookup 200", "internal POST /staff/v1/trace/lookup 400",
                "internal POST /staff/v1/trace/sightings 200", "internal POST /staff/v1/trace/outcome 200",
                "internal POST /staff/v1/trace/export 204", "internal GET /staff/v1/sms/outbox 200",
            ] {
                #expect(access.contains { $0.contains(expected) }, "access log has \(expected)")
            }
        }
    }
}
