import CivilCalendar
import DeskAPI
import DeskCore
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The staff API's routes of cases and follow-ups, on the handlers as values: each needs a
/// session, takes only its own methods, reads its request strictly (a bad one is 400 {2000}
/// naming the field or the path's id, before the desk is asked), and never puts a phone number
/// in an error body or a log line.
@Suite("Cases and follow-ups over the staff API")
struct FollowUpHTTPTests {
    static let json = ["Content-Type": "application/json"]
    static let phone = "+393339876543"

    static func url(_ f: ServerFixture, _ path: String) -> URL {
        URL(string: f.internalURL.absoluteString + "/staff/v1" + path)!
    }

    /// Every route of the section, with a body it would take.
    static let routes: [(method: String, path: String, body: String?)] = [
        ("GET", "/cases?status=all", nil),
        ("POST", "/cases", #"{"phone":"\#(phone)","reference":"ASL-1","index_kind":"test_day"}"#),
        ("GET", "/cases/4", nil), ("POST", "/cases/4/close", #"{"reason":"recovered"}"#),
        ("POST", "/cases/4/follow-ups", #"{"phone":"\#(phone)","reason":"household"}"#),
        ("POST", "/queue", #"{"scope":"mine","q":"\#(phone)"}"#),
        ("GET", "/follow-ups/indicators?from=2026-11-22T00:00:00.000Z&to=2026-11-29T00:00:00.000Z", nil),
        ("POST", "/follow-ups/assignments", #"{"ids":[44],"to":"tina"}"#), ("GET", "/follow-ups/44", nil),
        ("POST", "/follow-ups/44/attempts", #"{"outcome":"no_answer"}"#),
        ("POST", "/follow-ups/44/checks", #"{"symptoms":false,"isolating":true}"#),
        ("POST", "/follow-ups/44/phone-copy", nil),
    ]

    /// A tracer's session token (the first admin made along the way).
    static func tracer(_ f: ServerFixture, name: String = "tina", role: String = "tracer") async throws -> String {
        let admin = try await StaffHTTPTests.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        let added = try await f.send(
            "POST", url(f, "/staff"), headers: json.merging(["Authorization": "Bearer \(admin)"]) { $1 },
            body: Data(#"{"name":"\#(name)","role":"\#(role)","password":"pass-pass-1234"}"#.utf8))
        #expect(added.status == 201)
        return try await StaffHTTPTests.token(f, "/sessions", ["name": name, "password": "pass-pass-1234"])
    }

    @Test("every route needs a session: without a bearer token it is 401 {2001}, before its request is read")
    func sessions() async throws {
        let f = try ServerFixture(sockets: false)
        for route in Self.routes {
            for authorization in [nil, "Basic YWRtaW46YWRtaW4=", "Token abc"] {
                var headers = Self.json
                if let authorization { headers["Authorization"] = authorization }
                let reply = try await f.send(
                    route.method, Self.url(f, route.path), headers: headers, body: route.body.map { Data($0.utf8) })
                #expect(reply.status == 401, "\(route.method) \(route.path)")
                #expect(reply.errorCode == 2001, "\(route.method) \(route.path)")
                #expect(reply.header("WWW-Authenticate") == #"Bearer realm="tracedesk-staff""#)
                #expect(!reply.text.contains("3339876543"))
            }
        }
    }

    @Test("a route takes only its methods: 405 {1005} with Allow; a path it does not have is 404 {1004}")
    func methods() async throws {
        let f = try ServerFixture(sockets: false)
        let cases: [(String, String, String)] = [
            ("DELETE", "/cases", "GET, POST"), ("POST", "/cases/4", "GET"), ("GET", "/cases/4/close", "POST"),
            ("GET", "/cases/4/follow-ups", "POST"),
            // The queue is never a GET: a search by number would sit in the URL.
            ("GET", "/queue", "POST"), ("POST", "/follow-ups/indicators", "GET"),
            ("GET", "/follow-ups/assignments", "POST"), ("DELETE", "/follow-ups/44", "GET"),
            ("GET", "/follow-ups/44/attempts", "POST"), ("GET", "/follow-ups/44/checks", "POST"),
            ("GET", "/follow-ups/44/phone-copy", "POST"),
        ]
        for (method, path, allowed) in cases {
            let reply = try await f.send(method, Self.url(f, path))
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.errorCode == 1005, "\(method) \(path)")
            #expect(reply.header("Allow") == allowed, "\(method) \(path)")
        }
        for path in ["/follow-ups", "/case/4", "/queue/mine", "/cases4"] {
            let reply = try await f.send("GET", Self.url(f, path))
            #expect(reply.status == 404, "\(path)")
            #expect(reply.errorCode == 1004, "\(path)")
        }
    }

    @Test(
        "a bad request with a session is 400 {2000} naming what is wrong, never the number sent",
        arguments: [
            ("POST", "/cases", #"{"phone":"+393339876543","reference":"ASL-1"}"#, "index_kind is required"),
            (
                "POST", "/cases",
                #"{"phone":"+393339876543","reference":"ASL-1","index_kind":"test_day","x":"+393339876543"}"#,
                "x is not a field of this request"
            ),
            (
                "POST", "/cases", #"{"phone":3339876543,"reference":"ASL-1","index_kind":"test_day"}"#,
                "phone must be a string, not a number"
            ),
            ("GET", "/cases?status=pending", nil, "status must be one of open, closed, all"),
            ("GET", "/cases?phone=%2B393339876543", nil, "phone is not a parameter of this request"),
            ("GET", "/cases/+393339876543", nil, "the case id in the path must be a whole number, such as 12"),
            ("GET", "/cases/4x", nil, "the case id in the path must be a whole number, such as 12"),
            ("POST", "/cases/x/close", #"{"reason":"recovered"}"#, "the case id in the path must be a whole number"),
            ("POST", "/cases/4/close", #"{"reason":"cured"}"#, "reason must be one of recovered, transferred"),
            ("POST", "/cases/4/follow-ups", #"{"phone":"+393339876543"}"#, "reason is required"),
            ("POST", "/queue", #"{"scope":"all","q":"+393339876543"}"#, "scope must be one of mine, tracer"),
            ("POST", "/queue", #"{"scope":"mine","after":"+393339876543"}"#, "after must be a queue position"),
            (
                "GET", "/follow-ups/indicators?from=yesterday&to=2026-11-29T00:00:00.000Z", nil,
                "from and to must each be given once"
            ),
            ("POST", "/follow-ups/assignments", #"{"ids":["44"],"to":"tina"}"#, "ids[0] must be a whole number"),
            ("GET", "/follow-ups/-", nil, "the follow-up id in the path must be a whole number"),
            ("POST", "/follow-ups/44/attempts", #"{"outcome":"busy"}"#, "outcome must be one of no_answer, voicemail"),
            ("POST", "/follow-ups/44/attempts", "{", "the body is not valid JSON"),
            ("POST", "/follow-ups/44/checks", #"{"symptoms":"no","isolating":true}"#, "symptoms must be true or false"),
            (
                "POST", "/follow-ups/%2B393339876543/phone-copy", nil,
                "the follow-up id in the path must be a whole number"
            ),
        ] as [(String, String, String?, String)])
    func badRequests(method: String, path: String, body: String?, detail: String) async throws {
        let f = try ServerFixture(sockets: false)
        let token = try await Self.tracer(f)
        let reply = try await f.send(
            method, Self.url(f, path), headers: Self.json.merging(["Authorization": "Bearer \(token)"]) { $1 },
            body: body.map { Data($0.utf8) })
        #expect(reply.status == 400)
        #expect(reply.errorCode == 2000)
        #expect(reply.detail?.hasPrefix(detail) == true, "\(reply.detail ?? reply.text)")
        #expect(!reply.text.contains("3339876543"))
        #expect(!f.logLines.all.joined().contains("3339876543"))
    }

    /// The routes LocalDesk answers (the indicators are another helper's; until they land the
    /// temporary default answers them, before any session check).
    static var deskRoutes: [(method: String, path: String, body: String?)] {
        routes.filter { !$0.path.hasPrefix("/follow-ups/indicators") }
    }

    static func headers(_ token: String) -> [String: String] {
        json.merging(["Authorization": "Bearer \(token)"]) { $1 }
    }

    @Test("a session the desk does not know is 401 {2001} with the desk's message, on every route")
    func unknownSession() async throws {
        let f = try ServerFixture(sockets: false)
        let unknown = "tds_" + String(repeating: "A", count: 43)
        for route in Self.deskRoutes {
            let reply = try await f.send(
                route.method, Self.url(f, route.path), headers: Self.headers(unknown),
                body: route.body.map { Data($0.utf8) })
            #expect(reply.status == 401, "\(route.method) \(route.path)")
            #expect(reply.detail == "this session is not known here: sign in again", "\(route.method) \(route.path)")
            #expect(!reply.text.contains(unknown))
        }
    }

    @Test("an operator or an admin is 403 {2003} on every route, in the desk's words; a tracer may not assign")
    func roles() async throws {
        let f = try ServerFixture(sockets: false)
        let operatorToken = try await Self.tracer(f, name: "olga", role: "operator")
        let admin = try await StaffHTTPTests.token(f, "/sessions", ["name": "root", "password": "admin-pass-1234"])
        for (role, token) in [("operator", operatorToken), ("admin", admin)] {
            for route in Self.deskRoutes {
                let reply = try await f.send(
                    route.method, Self.url(f, route.path), headers: Self.headers(token),
                    body: route.body.map { Data($0.utf8) })
                #expect(reply.status == 403, "\(role): \(route.method) \(route.path): \(reply.text)")
                #expect(reply.errorCode == 2003, "\(role): \(route.method) \(route.path)")
                #expect(reply.detail?.hasPrefix("your role (\(role)) cannot") == true, "\(reply.detail ?? "")")
                #expect(!reply.text.contains("3339876543"))
            }
        }
        let added = try await f.send(
            "POST", Self.url(f, "/staff"), headers: Self.headers(admin),
            body: Data(#"{"name":"tina","role":"tracer","password":"pass-pass-1234"}"#.utf8))
        #expect(added.status == 201)
        let tina = try await StaffHTTPTests.token(f, "/sessions", ["name": "tina", "password": "pass-pass-1234"])
        let assign = try await f.send(
            "POST", Self.url(f, "/follow-ups/assignments"), headers: Self.headers(tina),
            body: Data(#"{"ids":[1],"to":"tina"}"#.utf8))
        #expect(assign.status == 403)
        #expect(
            assign.detail == "your role (tracer) cannot assign follow-ups to tracers: that needs the supervisor role")
        let everyone = try await f.send(
            "POST", Self.url(f, "/queue"), headers: Self.headers(tina), body: Data(#"{"scope":"everyone"}"#.utf8))
        #expect(everyone.status == 403)
        #expect(everyone.detail == "a tracer sees only their own queue: ask a supervisor for everyone's")
    }

    /// A patient whose phone heard a close contact for 20 minutes yesterday, straight into the store.
    static func seed(_ store: any Store, now: Date) throws {
        var next: UInt32 = 0x2000
        func register(_ phone: String, _ name: String) throws -> (Int64, [PseudoID]) {
            let login = try store.login(
                phone: PhoneNumber(e164: phone)!, appID: "it.test.apricot", deviceID: "device-\(name)",
                tokenHash: "hash-\(name)", tokenExpiresAt: now.addingTimeInterval(86_400), now: now, count: 2,
                nextSuffix: {
                    next += 1
                    return next
                })
            guard case .signedIn(let user, _, let ids) = login else { throw CocoaError(.fileReadUnknown) }
            return (user, ids)
        }
        let (patient, _) = try register(phone, "patient")
        let (_, contact) = try register("+393339876544", "contact")
        let yesterday = now.utcDay.adding(days: -1)
        let ten = UInt32(yesterday.unixSecondsAtMidnightUTC + 36_000)
        let records = (0..<20).map { ContactRecord(beacon: contact[0].bytes, time: ten + UInt32($0 * 60)) }
        _ = try store.storeContactFile(
            userID: patient, day: yesterday, records: records, receivedAt: now,
            clientClock: Int64(now.timeIntervalSince1970), skewSeconds: 0)
    }

    @Test(
        "a tracer's morning over real HTTP: a case opened (201, then 200 for the same patient), read, its contact called; no number in any log line"
    )
    func morning() async throws {
        let f = try ServerFixture()
        try Self.seed(f.store, now: Date())
        let tina = try Self.headers(await Self.tracer(f))
        func object(_ reply: Reply) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        }
        let body = #"{"phone":"333 987 6543","reference":"ASL-2026-0412","index_kind":"test_day","assign_to_me":true}"#
        let opened = try await f.send("POST", Self.url(f, "/cases"), headers: tina, body: Data(body.utf8))
        #expect(opened.status == 201, "\(opened.text)")
        #expect(opened.header("Cache-Control") == "no-store")
        let opening = try object(opened)
        #expect(opening["existing"] as? Bool == false)
        #expect(opening["follow_ups_created"] as? Int == 1)
        let trace = try #require(opening["case"] as? [String: Any])
        let caseID = try #require(trace["id"] as? Int)
        #expect(trace["phone"] as? String == Self.phone)

        let again = try await f.send("POST", Self.url(f, "/cases"), headers: tina, body: Data(body.utf8))
        #expect(again.status == 200)
        #expect(try object(again)["existing"] as? Bool == true)

        let list = try await f.send("GET", Self.url(f, "/cases?status=open"), headers: tina)
        #expect((try object(list)["cases"] as? [Any])?.count == 1)
        let detail = try await f.send("GET", Self.url(f, "/cases/\(caseID)"), headers: tina)
        let followUps = try #require(try object(detail)["follow_ups"] as? [[String: Any]])
        let followUpID = try #require(followUps.first?["id"] as? Int)
        #expect(followUps.first?["assigned_to"] as? String == "tina")

        let queue = try await f.send(
            "POST", Self.url(f, "/queue"), headers: tina, body: Data(#"{"scope":"mine","q":"9876544"}"#.utf8))
        let rows = try #require(try object(queue)["rows"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? Int } == [followUpID])

        let attempt = try await f.send(
            "POST", Self.url(f, "/follow-ups/\(followUpID)/attempts"), headers: tina,
            body: Data(#"{"outcome":"reached","note":"isolating at home"}"#.utf8))
        #expect(try object(attempt)["state"] as? String == "monitoring")
        let check = try await f.send(
            "POST", Self.url(f, "/follow-ups/\(followUpID)/checks"), headers: tina,
            body: Data(#"{"symptoms":false,"isolating":true}"#.utf8))
        #expect(try object(check)["checked_days"] as? Int == 1)
        let copy = try await f.send("POST", Self.url(f, "/follow-ups/\(followUpID)/phone-copy"), headers: tina)
        #expect(copy.status == 204)
        let read = try await f.send("GET", Self.url(f, "/follow-ups/\(followUpID)"), headers: tina)
        #expect((try object(read)["attempts"] as? [Any])?.count == 1)
        let missing = try await f.send("GET", Self.url(f, "/cases/999"), headers: tina)
        #expect(missing.status == 400)
        #expect(missing.errorCode == 2000)
        let closed = try await f.send(
            "POST", Self.url(f, "/cases/\(caseID)/close"), headers: tina, body: Data(#"{"reason":"recovered"}"#.utf8))
        #expect((try object(closed)["closed"] as? [String: Any])?["reason"] as? String == "recovered")

        // The access log names routes by their templates: no id, no number.
        try await eventually(within: .seconds(30), "the access log has the close") {
            f.accessLines.all.contains { $0.contains("POST /staff/v1/cases/{id}/close 200") }
        }
        let access = f.accessLines.all
        #expect(access.contains { $0.contains("POST /staff/v1/follow-ups/{id}/attempts 200") })
        for line in access + f.logLines.all {
            #expect(!line.contains("987654"), "\(line)")
            #expect(!line.contains("/cases/\(caseID)"), "\(line)")
        }
        for entry in try f.store.auditEntries(after: 0, limit: 1_000) {
            #expect(!entry.detail.contains("987654") && !(entry.target ?? "").contains("987654"))
        }
    }
}
