import DeskAPI
import DeskServer
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
}
