import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import Foundation
import JSONText
import Testing

/// The staff API's JSON: every value written by the server reads back equal in the client, the
/// time format, the readers' strictness, and the error table.
@Suite struct StaffWireTests {
    static let at = Date(unixMilliseconds: 1_795_946_400_123)
    static let hash = OtpHash(hex: String(repeating: "ab", count: 32))!

    static func bytes(_ value: JSONValue) -> [UInt8] { Array(value.serialized.utf8) }

    @Test(
        "times are UTC with milliseconds, and read back to the same instant",
        arguments: [
            (Int64(1_795_946_400_123), "2026-11-29T10:00:00.123Z"), (0, "1970-01-01T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"), (951_782_399_999, "2000-02-28T23:59:59.999Z"),
            (951_868_800_000, "2000-03-01T00:00:00.000Z"),
        ])
    func times(milliseconds: Int64, text: String) {
        let date = Date(unixMilliseconds: milliseconds)

        #expect(StaffWire.time(date) == text)
        #expect(StaffWire.parseTime(text) == date)
    }

    @Test(
        "other time forms are refused",
        arguments: [
            "2026-11-29", "2026-11-29T10:00:00Z", "2026-11-29 10:00:00.000Z", "2026-11-29T10:00:00.000+01:00",
            "2026-11-29T24:00:00.000Z", "2026-02-30T10:00:00.000Z", "2026-11-29T10:60:00.000Z", "",
            "2026-11-29T1a:00:00.000Z",
        ])
    func badTimes(text: String) {
        #expect(StaffWire.parseTime(text) == nil)
    }

    @Test("a session reads back equal")
    func session() throws {
        let session = StaffSession(
            token: "tds_" + String(repeating: "x", count: 43), user: "ana", role: .supervisor, signedInAt: Self.at,
            expiresAt: Self.at + 43_200, idleSeconds: 600)

        #expect(try StaffWire.readSession(Self.bytes(StaffWire.session(session))) == session)
    }

    @Test("accounts read back equal, with and without a last sign-in")
    func accounts() throws {
        let accounts = [
            StaffAccount(
                name: "ana", role: .operator, createdAt: Self.at, createdBy: "root", passwordChangedAt: Self.at),
            StaffAccount(
                name: "bob", role: .admin, disabled: true, locked: true, failedSignIns: 8, createdAt: Self.at,
                createdBy: "setup", passwordChangedAt: Self.at + 5, lastSignInAt: Self.at + 60),
        ]

        #expect(try StaffWire.readAccounts(Self.bytes(StaffWire.accounts(accounts))) == accounts)
        #expect(try StaffWire.readAccount(Self.bytes(StaffWire.account(accounts[1]))) == accounts[1])
        #expect(try StaffWire.readAccounts(Self.bytes(StaffWire.accounts([]))) == [])
    }

    @Test("authorisations and statuses read back equal; the hash is the client's, never on the wire")
    func records() throws {
        let record = OtpAuthorization(
            otpHash: Self.hash, symptomsStartedOn: CivilDay(iso: "2026-11-27")!, authorizedAt: Self.at,
            expiresAt: Self.at + 150, authorizedBy: "ana")
        var consumed = record
        consumed.state = .consumed
        consumed.consumedAt = Self.at + 100

        for answer in [AuthorizeResult.authorized(record), .alreadyAuthorized(consumed)] {
            let written = StaffWire.authorization(answer)
            #expect(!written.serialized.contains(Self.hash.hex))
            #expect(try StaffWire.readAuthorization(Self.bytes(written), otpHash: Self.hash) == answer)
        }
        for status in [OtpStatus.unknown, .authorized(record), .expired(record), .consumed(consumed)] {
            let written = StaffWire.status(status)
            #expect(!written.serialized.contains(Self.hash.hex))
            #expect(try StaffWire.readStatus(Self.bytes(written), otpHash: { Self.hash }) == status)
        }
    }

    @Test(
        "every refusal reads back equal, from the answer and from a 422 error body",
        arguments: [
            AuthorizeRefusal.code(.empty), .code(.forbiddenCharacter("B", position: 4)),
            .code(.forbiddenCharacter("é", position: 10)), .code(.tooShort(count: 9)), .code(.tooLong(count: 11)),
            .code(.checkCharacterMismatch),
            .symptomOnset(.inFuture(CivilDay(iso: "2026-11-30")!, today: CivilDay(iso: "2026-11-29")!)),
            .symptomOnset(.tooOld(CivilDay(iso: "2026-01-01")!, daysAgo: 332)), .symptomOnset(.notADate("31/11")),
        ])
    func refusals(refusal: AuthorizeRefusal) throws {
        let answer = StaffWire.authorization(.invalid(refusal))
        let error = APIError.authorizationRefused(refusal.message)
        let body = try JSONReader.parse(error.body(extra: refusal.errorMembers))

        #expect(try StaffWire.readAuthorization(Self.bytes(answer), otpHash: Self.hash) == .invalid(refusal))
        #expect(try StaffWire.readRefusal(body) == refusal)
        #expect(StaffWire.readError(Array(error.body(extra: refusal.errorMembers).utf8))?.code == 2022)
    }

    @Test("audit entries and verifications read back equal, details byte for byte")
    func audit() throws {
        let entries = [
            AuditEntry(
                id: 2, at: Self.at + 1, actor: "root", action: .staffAdded, target: "ana",
                detail: #"{"role":"operator","note":"naïve \"quoted\" \\ line\nbreak"}"#,
                previousHash: String(repeating: "1", count: 64), hash: String(repeating: "2", count: 64)),
            AuditEntry(
                id: 1, at: Self.at, actor: "-", action: AuditAction(rawValue: "from_a_newer_version"), target: nil,
                detail: "{}", previousHash: String(repeating: "0", count: 64), hash: String(repeating: "1", count: 64)),
        ]
        let whole = AuditVerification(
            entries: 2, headHash: entries[0].hash, headID: 2, firstBroken: nil,
            hashesAt: [1: entries[1].hash, 2: entries[0].hash])
        let broken = AuditVerification(
            entries: 1, headHash: entries[1].hash, headID: 1, firstBroken: AuditBreak(id: 2, reason: "edited"))

        #expect(try StaffWire.readAuditEntries(Self.bytes(StaffWire.auditEntries(entries))) == entries)
        #expect(try StaffWire.readVerification(Self.bytes(StaffWire.verification(whole))) == whole)
        #expect(try StaffWire.readVerification(Self.bytes(StaffWire.verification(broken))) == broken)
    }

    @Test("readers refuse answers of another shape, naming what is wrong")
    func strictReaders() {
        func problem(_ body: () throws(FieldProblem) -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                return error.text
            }
        }
        #expect(
            problem { () throws(FieldProblem) in _ = try StaffWire.readSetup(Array("<html>".utf8)) }
                == "the answer is not JSON")
        #expect(
            problem { () throws(FieldProblem) in _ = try StaffWire.readSetup(Array("{}".utf8)) }
                == "needs_first_admin is required")
        #expect(
            problem { () throws(FieldProblem) in
                _ = try StaffWire.readSetup(Array(#"{"needs_first_admin":"yes"}"#.utf8))
            }
                == "needs_first_admin must be true or false")
        #expect(
            problem { () throws(FieldProblem) in
                _ = try StaffWire.readSession(
                    Array(
                        #"{"token":"t","user":"u","role":"root","signed_in_at":"x","expires_at":"x","idle_seconds":1}"#
                            .utf8))
            }?.hasPrefix("role is not a role this version knows") == true)
        #expect(
            problem { () throws(FieldProblem) in
                _ = try StaffWire.readAccounts(Array(#"{"staff":[{"name":"x"}]}"#.utf8))
            } != nil)
        #expect(StaffWire.readError(Array(#"{"error":"nope"}"#.utf8)) == nil)
        #expect(StaffWire.readError(Array("not json".utf8)) == nil)
    }

    @Test("a request body read by the server is what the client wrote")
    func requests() throws {
        func request(_ value: JSONValue, query: [(String, String)] = []) -> HTTPRequest {
            HTTPRequest(
                method: "POST", path: "/", headers: [("Content-Type", "application/json; charset=utf-8")],
                query: query.map { (name: $0.0, value: $0.1) }, body: Array(value.serialized.utf8))
        }
        let credentials = try StaffRequests.credentials(
            request(StaffWire.credentials(name: "ana", password: "p\"w\\d ü"))
        ).get()
        let added = try StaffRequests.newStaff(
            request(StaffWire.newStaff(name: "bob", role: .tracer, password: "pass-pass-1"))
        ).get()
        let authorization = try StaffRequests.authorization(
            request(StaffWire.authorize(code: "9k2-ray8-uuq", symptomsStartedOn: CivilDay(iso: "2026-11-29")!))
        ).get()
        let query = AuditQuery(
            actor: "ana", subject: "user 7", action: .signIn, from: Self.at, until: Self.at + 60, beforeID: 42,
            limit: 7)
        let read = try StaffRequests.auditQuery(
            request(.null, query: StaffWire.auditQueryItems(query).map { ($0.name, $0.value) })
        ).get()

        #expect(credentials.name == "ana" && credentials.password == "p\"w\\d ü")
        #expect(added.name == "bob" && added.role == .tracer && added.password == "pass-pass-1")
        #expect(authorization.code == "9k2-ray8-uuq" && authorization.symptomsStartedOn == CivilDay(iso: "2026-11-29"))
        #expect(read == query)
    }

    @Test("the error table: codes unique, the staff rows with their statuses and messages")
    func errorTable() {
        let codes = APIError.table.map(\.code)
        #expect(Set(codes).count == codes.count)
        let staff = Dictionary(
            uniqueKeysWithValues: APIError.table.filter { (2000..<3000).contains($0.code) }.map {
                ($0.code, ($0.status, $0.message))
            })
        #expect(staff[2000]! == (400, "Invalid request."))
        #expect(staff[2001]! == (401, "Not signed in."))
        #expect(staff[2002]! == (401, "Sign-in failed."))
        #expect(staff[2003]! == (403, "Forbidden."))
        #expect(staff[2009]! == (409, "Conflict."))
        #expect(staff[2022]! == (422, "Authorisation refused."))
        #expect(staff[2029]! == (429, "Too many sign-ins."))
        #expect(staff.count == 7)
    }

    @Test("401s of the staff API name the Bearer scheme; the phone API's 1101 stays as the contract has it")
    func authenticateHeader() {
        let bearer = #"Bearer realm="tracedesk-staff""#
        func header(_ error: APIError, _ name: String) -> String? {
            HTTPResponse.error(error).headers.first { $0.name == name }?.value
        }
        #expect(header(.notSignedIn("x"), "WWW-Authenticate") == bearer)
        #expect(header(.signInFailed("x"), "WWW-Authenticate") == bearer)
        #expect(header(.unauthorizedOtp, "WWW-Authenticate") == nil)
        #expect(header(.forbidden("x"), "WWW-Authenticate") == nil)
        #expect(header(.unavailable("x"), "Retry-After") == "5")
    }
}
