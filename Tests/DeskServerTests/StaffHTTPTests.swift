import DeskAPI
import DeskCrypto
import DeskServer
import DeskTestSupport
import Foundation
import Testing

/// The staff API: where it is served, what each malformed request gets, the headers of its
/// answers (on the handlers as values), and that password hashing never holds a server thread
/// (over real HTTP).
@Suite("Staff API over HTTP")
struct StaffHTTPTests {
    static let json = ["Content-Type": "application/json"]

    static func body(_ object: [String: Any]) -> Data { try! JSONSerialization.data(withJSONObject: object) }

    func staff(_ f: ServerFixture, _ path: String) -> URL {
        URL(string: f.internalURL.absoluteString + "/staff/v1" + path)!
    }

    @Test("GET /staff/v1 identifies the service on the internal listener; the public listener has no staff API")
    func identifies() async throws {
        let f = try ServerFixture(sockets: false)

        let reply = try await f.send("GET", staff(f, ""))
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        #expect(reply.status == 200)
        #expect(object["service"] as? String == "tracedesk-staff")
        #expect(object["version"] as? Int == 1)
        #expect(reply.header("Cache-Control") == "no-store")
        #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
        for path in ["/staff/v1", "/staff/v1/setup", "/staff/v1/sessions", "/staff/v1/staff"] {
            let phone = try await f.send("GET", URL(string: f.phone.absoluteString + path)!)
            #expect(phone.status == 404, "\(path)")
            #expect(phone.errorCode == 1004, "\(path)")
        }
    }

    @Test("unknown staff paths are 404 {1004}; wrong methods 405 {1005} with Allow")
    func pathsAndMethods() async throws {
        let f = try ServerFixture(sockets: false)
        for path in ["/nope", "/staff/disable", "/staff//", "/sessions/other", "/audit/x", "/otp"] {
            let reply = try await f.send("GET", staff(f, path))
            #expect(reply.status == 404, "\(path)")
            #expect(reply.errorCode == 1004, "\(path)")
            #expect(reply.detail == "no such path in the staff API: see docs/staff-api.yaml")
        }
        let cases: [(String, String, String)] = [
            ("POST", "", "GET"), ("PUT", "/setup", "GET, POST"), ("GET", "/sessions", "POST"),
            ("GET", "/sessions/current", "DELETE"), ("GET", "/otp/authorizations", "POST"),
            ("GET", "/otp/status", "POST"), ("DELETE", "/staff", "GET, POST"), ("GET", "/staff/ana/disable", "POST"),
            ("GET", "/staff/ana/password", "POST"), ("POST", "/audit", "GET"), ("POST", "/audit/verification", "GET"),
            ("POST", "/events", "GET"), ("POST", "/traffic", "GET"), ("GET", "/watch", "POST"),
            // A lookup is never a GET: the number would sit in the URL.
            ("GET", "/trace/lookup", "POST"), ("GET", "/trace/sightings", "POST"), ("GET", "/trace/outcome", "POST"),
            ("GET", "/trace/export", "POST"), ("POST", "/sms/outbox", "GET"),
        ]
        for (method, path, allowed) in cases {
            let reply = try await f.send(method, staff(f, path))
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.errorCode == 1005, "\(method) \(path)")
            #expect(reply.header("Allow") == allowed, "\(method) \(path)")
        }
    }

    @Test("every signed-in route without a bearer token is 401 {2001} with WWW-Authenticate: Bearer")
    func noToken() async throws {
        let f = try ServerFixture(sockets: false)
        let routes: [(String, String)] = [
            ("DELETE", "/sessions/current"), ("POST", "/otp/authorizations"), ("POST", "/otp/status"),
            ("GET", "/staff"), ("POST", "/staff"), ("POST", "/staff/ana/disable"), ("POST", "/staff/ana/password"),
            ("GET", "/audit"), ("GET", "/audit/verification"), ("GET", "/events"), ("GET", "/traffic"),
            ("POST", "/watch"), ("POST", "/trace/lookup"), ("POST", "/trace/sightings"), ("POST", "/trace/outcome"),
            ("POST", "/trace/export"), ("GET", "/sms/outbox"), ("GET", "/stats"),
        ]
        for (method, path) in routes {
            for authorization in [nil, "Basic YWRtaW46YWRtaW4=", "Token abc"] {
                var headers = Self.json
                if let authorization { headers["Authorization"] = authorization }
                let reply = try await f.send(
                    method, staff(f, path), headers: headers, body: method == "POST" ? Data("{}".utf8) : nil)
                #expect(reply.status == 401, "\(method) \(path)")
                #expect(reply.errorCode == 2001, "\(method) \(path)")
                #expect(reply.header("WWW-Authenticate") == #"Bearer realm="tracedesk-staff""#)
                #expect(reply.header("Cache-Control") == nil)
                #expect(
                    reply.detail
                        == "not signed in: sign in with POST /staff/v1/sessions and send its token as Authorization: Bearer TOKEN"
                )
            }
        }
    }

    @Test("a token the desk does not know is 401 {2001} with the desk's message")
    func unknownToken() async throws {
        let f = try ServerFixture(sockets: false)
        let token = "tds_" + String(repeating: "A", count: 43)

        let reply = try await f.send("GET", staff(f, "/staff"), headers: ["Authorization": "Bearer \(token)"])

        #expect(reply.status == 401)
        #expect(reply.errorCode == 2001)
        #expect(reply.detail == "this session is not known here: sign in again")
        #expect(!reply.text.contains(token))
    }

    @Test(
        "malformed bodies are 400 {2000} naming the field, never repeating a value",
        arguments: [
            ("/sessions", "{", "the body is not valid JSON"),
            ("/sessions", "[]", "the body must be a JSON object, not a list"),
            ("/sessions", #"{"name":"ana"}"#, "password is required"),
            ("/sessions", #"{"name":"ana","password":12345}"#, "password must be a string, not a number"),
            ("/sessions", #"{"name":"ana","password":"SECRET-VALUE","pin":"SECRET-VALUE"}"#, "pin is not a field"),
            ("/sessions", #"{"name":"ana","SECRET-VALUE":"x","password":"y"}"#, "(an unexpected field name)"),
            ("/setup", #"{"name":"ana","password":null}"#, "password may not be null"),
            ("/sessions", #"{"name":"ana","password":"a","password":"b"}"#, "password appears more than once"),
        ])
    func malformedBodies(path: String, body: String, detail: String) async throws {
        let f = try ServerFixture(sockets: false)

        let reply = try await f.send("POST", staff(f, path), headers: Self.json, body: Data(body.utf8))

        #expect(reply.status == 400)
        #expect(reply.errorCode == 2000)
        #expect(reply.detail?.contains(detail) == true, "\(reply.detail ?? "")")
        #expect(!reply.text.contains("SECRET-VALUE"))
    }

    @Test("a body that is not declared JSON is 400 {2000}")
    func contentType() async throws {
        let f = try ServerFixture(sockets: false)
        let body = Data(#"{"name":"ana","password":"pass-pass-1"}"#.utf8)

        let none = try await f.send("POST", staff(f, "/sessions"), body: body)
        let text = try await f.send(
            "POST", staff(f, "/sessions"), headers: ["Content-Type": "text/plain"], body: body)

        #expect(none.errorCode == 2000)
        #expect(text.errorCode == 2000)
        #expect(text.detail == "Content-Type must be application/json (optionally ; charset=utf-8)")
    }

    @Test(
        "bad audit queries are 400 {2000} naming the parameter",
        arguments: [
            ("limit=0", "limit must be a whole number from 1 to 1000"),
            ("limit=1001", "limit must be a whole number from 1 to 1000"),
            ("limit=ten", "limit must be a whole number from 1 to 1000"),
            ("before=0", "before must be an entry id, a whole number from 1"),
            ("from=yesterday", "from must be a UTC time written 2026-11-29T10:00:00.000Z"),
            ("until=2026-11-29", "until must be a UTC time written 2026-11-29T10:00:00.000Z"),
            ("action=Sign-In", "action must be an audit action"),
            ("actor=a&actor=b", "actor may be given once"),
            ("token=SECRET-VALUE", "token is not a parameter of this request"),
        ])
    func badAuditQuery(query: String, detail: String) async throws {
        let f = try ServerFixture(sockets: false)
        let token = "tds_" + String(repeating: "A", count: 43)

        let reply = try await f.send(
            "GET", URL(string: staff(f, "/audit").absoluteString + "?" + query)!,
            headers: ["Authorization": "Bearer \(token)"])

        #expect(reply.status == 400)
        #expect(reply.errorCode == 2000)
        #expect(reply.detail?.hasPrefix(detail) == true, "\(reply.detail ?? "")")
        #expect(!reply.text.contains("SECRET-VALUE"))
    }

    @Test(
        "sign-in: 201 with the session; a wrong password is 401 {2002} with WWW-Authenticate; setup once, then 409 {2009}"
    )
    func signInAndSetup() async throws {
        let f = try ServerFixture(sockets: false)
        let credentials = Self.body(["name": "root", "password": "admin-pass-1234"])

        let needs = try await f.send("GET", staff(f, "/setup"))
        let setup = try await f.send("POST", staff(f, "/setup"), headers: Self.json, body: credentials)
        let again = try await f.send("POST", staff(f, "/setup"), headers: Self.json, body: credentials)
        let signIn = try await f.send("POST", staff(f, "/sessions"), headers: Self.json, body: credentials)
        let wrong = try await f.send(
            "POST", staff(f, "/sessions"), headers: Self.json,
            body: Self.body(["name": "root", "password": "not-the-pass"]))

        #expect(needs.status == 200)
        #expect(needs.text == #"{"needs_first_admin":true}"#)
        #expect(setup.status == 201)
        #expect(setup.header("Cache-Control") == "no-store")
        let session = try #require(try JSONSerialization.jsonObject(with: signIn.body) as? [String: Any])
        #expect(signIn.status == 201)
        #expect(
            Set(session.keys) == [
                "token", "user", "role", "signed_in_at", "expires_at", "idle_seconds", "phone_country_code",
            ])
        #expect(session["phone_country_code"] as? String == "+39")
        #expect(session["user"] as? String == "root")
        #expect(session["role"] as? String == "admin")
        #expect(session["idle_seconds"] as? Int == 600)
        #expect((session["token"] as? String)?.hasPrefix("tds_") == true)
        #expect(again.status == 409)
        #expect(again.errorCode == 2009)
        #expect(wrong.status == 401)
        #expect(wrong.errorCode == 2002)
        #expect(wrong.header("WWW-Authenticate") == #"Bearer realm="tracedesk-staff""#)
        #expect(wrong.detail?.hasPrefix("wrong user name or password: check both and try again") == true)
        #expect(!wrong.text.contains("not-the-pass"))
    }

    @Test(
        "refusals follow the client's Accept-Language (Italian when asked for, English otherwise); codes and statuses do not"
    )
    func refusalsInTheClientsLanguage() async throws {
        let f = try ServerFixture(sockets: false)
        let admin = try await Self.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        // Two failed sign-ins only: more from one address meet the admission's wait (429).
        func signIn(_ language: String?) async throws -> (status: Int, code: Int?, detail: String?) {
            var headers = Self.json
            if let language { headers["Accept-Language"] = language }
            let wrong = Self.body(["name": "root", "password": "not-the-pass"])
            let reply = try await f.send("POST", staff(f, "/sessions"), headers: headers, body: wrong)
            return (reply.status, reply.errorCode, reply.detail)
        }
        let italian = try await signIn("it-IT,it;q=0.9,en;q=0.8")
        let none = try await signIn(nil)
        for reply in [italian, none] {
            #expect(reply.status == 401)
            #expect(reply.code == 2002)
        }
        #expect(italian.detail?.hasPrefix("nome utente o password errati: controlla entrambi e riprova") == true)
        #expect(none.detail?.hasPrefix("wrong user name or password: check both and try again") == true)

        // A signed-in refusal (the role's) comes from the desk's task: in the asked-for language too.
        func authorize(_ language: String) async throws -> (status: Int, code: Int?, detail: String?) {
            let reply = try await f.send(
                "POST", staff(f, "/otp/authorizations"),
                headers: Self.json.merging(["Authorization": "Bearer \(admin)", "Accept-Language": language]) { $1 },
                body: Self.body(["code": "9K2-RAY8-UUQ", "symptoms_started_on": Date().utcDayISO]))
            return (reply.status, reply.errorCode, reply.detail)
        }
        let italianRole = "il tuo ruolo (amministratore) non può autorizzare codici: serve il ruolo operatore"
        let englishRole = "your role (admin) cannot authorise codes: that needs the operator role"
        for (language, detail) in [
            ("it", italianRole), ("fr-FR, it;q=0.7, en;q=0.5", italianRole), ("en-GB", englishRole),
            ("fr,de;q=0.9", englishRole), ("it;q=0, en", englishRole), ("*", englishRole),
        ] {
            let reply = try await authorize(language)
            #expect(reply.status == 403)
            #expect(reply.code == 2003)
            #expect(reply.detail == detail, "Accept-Language: \(language)")
        }
    }

    @Test(
        "an operator's authorisation: 201, then 200 already_authorized, a bad code 422 {2022} with its refusal; an admin gets 403 {2003}"
    )
    func authorizations() async throws {
        let f = try ServerFixture(sockets: false)
        let admin = try await Self.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        let added = try await f.send(
            "POST", staff(f, "/staff"), headers: Self.json.merging(["Authorization": "Bearer \(admin)"]) { $1 },
            body: Self.body(["name": "ana", "role": "operator", "password": "pass-pass-1"]))
        #expect(added.status == 201)
        let ana = try await Self.token(f, "/sessions", ["name": "ana", "password": "pass-pass-1"])
        let headers = Self.json.merging(["Authorization": "Bearer \(ana)"]) { $1 }
        let today = Date().utcDayISO
        let good = Self.body(["code": "9k2-ray8-uuq", "symptoms_started_on": today])

        let first = try await f.send("POST", staff(f, "/otp/authorizations"), headers: headers, body: good)
        let second = try await f.send("POST", staff(f, "/otp/authorizations"), headers: headers, body: good)
        let bad = try await f.send(
            "POST", staff(f, "/otp/authorizations"), headers: headers,
            body: Self.body(["code": "9K2-BAY8-UUQ", "symptoms_started_on": today]))
        let byAdmin = try await f.send(
            "POST", staff(f, "/otp/authorizations"),
            headers: Self.json.merging(["Authorization": "Bearer \(admin)"]) { $1 },
            body: good)

        #expect(first.status == 201)
        let record = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
        #expect(record["result"] as? String == "authorized")
        let fields = try #require(record["record"] as? [String: Any])
        #expect(
            Set(fields.keys) == [
                "symptoms_started_on", "authorized_at", "expires_at", "authorized_by", "state", "consumed_at",
            ])
        #expect(!first.text.contains(Phone.hash("9K2RAY8UUQ")), "no code hash on the wire")
        #expect(second.status == 200)
        #expect(second.text.contains(#""result":"already_authorized""#))
        #expect(bad.status == 422)
        #expect(bad.errorCode == 2022)
        #expect(bad.detail == "'B' at position 4 is never in a code: ask the citizen to read it again")
        #expect(bad.text.contains(#""refusal":{"reason":"code_forbidden_character","character":"B","position":4}"#))
        #expect(byAdmin.status == 403)
        #expect(byAdmin.errorCode == 2003)
    }

    @Test("sign-ins wait on the KDF executor with their connections suspended: other requests go on meanwhile")
    func kdfHoldsNoServerThread() async throws {
        // One server thread: if a sign-in held it, nothing else could be answered meanwhile.
        // The admission budgets off: this is about the executor itself, the last resort behind them.
        // The real hashing cost: the suite's one server test on it, and what keeps the sign-ins
        // busy while the ping is answered.
        let f = try ServerFixture(
            configure: {
                $0.threads = 1
                $0.signInPlacesPerAddress = 0
                $0.signInPerAddressPerMinute = 0
                $0.signInPerNamePerMinute = 0
            }, hasher: PasswordHasher())
        _ = try await Self.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        let finished = Counter()

        async let signIns: [Int] = withTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                // A name of its own each, so every one costs a hash: one name's attempts from one
                // address wait, without a hash, after its third failure (issue 18).
                let credentials = Self.body(["name": "nobody\(index)", "password": "wrong-pass-0"])
                group.addTask {
                    let status =
                        (try? await f.send("POST", staff(f, "/sessions"), headers: Self.json, body: credentials)
                            .status) ?? 0
                    finished.add()
                    return status
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        // On its own connection (a raw socket): URLSession would queue it behind the sign-ins
        // on its few connections per host, and measure the client, not the server. Sent from a
        // thread that waits for the sign-ins to be suspended itself (no timer of the busy shared
        // pool between the two), and the count read there as soon as the answer is in.
        let server = f.server
        let port = server.internalPort
        let (ping, finishedAtPing) = try await offPool { () throws -> (Reply, Int) in
            try eventuallyBlocking(within: .seconds(60), "two sign-ins suspended on the KDF executor at once") {
                server.internalPeakSuspended > 1
            }
            let reply = try HTTP.raw(
                port, Array("GET /staff/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            return (reply, finished.value)
        }
        let statuses = await signIns

        #expect(ping.status == 200)
        #expect(statuses.allSatisfy { $0 == 401 })
        // More sign-ins waited at once than the server has threads: waiting held none.
        #expect(f.server.internalPeakSuspended > 1)
        // The ping was answered between them: eight scrypt checks, two at a time, were not all
        // done when it came back (with its one thread held, it would have come back last).
        #expect(finishedAtPing < 8)
        #expect(f.server.kdfExecutor.width == 2)
    }

    @Test(
        "a sign-in flood past the KDF executor's limit is answered 503 with Retry-After at once, not queued; the others still get their answer"
    )
    func signInFloodIsBounded() async throws {
        // The admission budgets off: this is about the executor itself, the last resort behind them.
        // The real hashing cost: what fills the executor while the flood arrives.
        let f = try ServerFixture(
            configure: {
                $0.signInPlacesPerAddress = 0
                $0.signInPerAddressPerMinute = 0
                $0.signInPerNamePerMinute = 0
            }, hasher: PasswordHasher())
        _ = try await Self.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        let limit = f.server.kdfExecutor.limit
        let sent = limit * 3
        let answers: [(status: Int, retryAfter: Bool)] = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<sent {
                // A name of its own each: every one costs a hash (one name would wait after its
                // third failure, without a hash, since issue 18).
                let credentials = Self.body(["name": "nobody\(index)", "password": "wrong-pass-0"])
                group.addTask {
                    guard
                        let reply = try? await f.send(
                            "POST", staff(f, "/sessions"), headers: Self.json, body: credentials)
                    else { return (0, false) }
                    return (reply.status, reply.header("Retry-After") == "5")
                }
            }
            var out: [(Int, Bool)] = []
            for await answer in group { out.append(answer) }
            return out
        }
        let refused = answers.filter { $0.status == 503 }
        let checked = answers.filter { $0.status == 401 }
        #expect(refused.count + checked.count == sent, "every request answered: \(answers.map(\.status))")
        #expect(!refused.isEmpty, "more than \(limit) at once must be refused")
        #expect(refused.allSatisfy { $0.retryAfter })
        #expect(checked.count >= limit)
        // The executor lets go of a call just after its answer is sent: the backlog drains.
        try await eventually(within: .seconds(60), "the sign-in executor's backlog drained") {
            f.server.kdfExecutor.backlog == 0
        }
    }

    /// Signs in (or sets up) and returns the token.
    static func token(_ f: ServerFixture, _ path: String, _ credentials: [String: String]) async throws -> String {
        let reply = try await f.send(
            "POST", URL(string: f.internalURL.absoluteString + "/staff/v1" + path)!, headers: json,
            body: body(credentials))
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        return try #require(object["token"] as? String)
    }
}

extension Date {
    fileprivate var utcDayISO: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: self)
    }
}

/// A count shared by concurrent tasks.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
