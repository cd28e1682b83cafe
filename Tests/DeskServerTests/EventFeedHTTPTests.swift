import DeskServer
import DeskTestSupport
import Foundation
import Testing

/// `GET /staff/v1/events`: the query's refusals and a page (on the handler as values); over
/// real HTTP the long poll woken by an event,
/// long polls holding no thread and no place on the staff executor, and a stop that answers
/// them at once.
@Suite("Event feed over HTTP")
struct EventFeedHTTPTests {
    func staff(_ f: ServerFixture, _ path: String) -> URL {
        URL(string: f.internalURL.absoluteString + "/staff/v1" + path)!
    }

    /// A supervisor's token (the first admin adds the supervisor).
    func supervisor(_ f: ServerFixture) async throws -> String {
        let admin = try await StaffHTTPTests.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        let added = try await f.send(
            "POST", staff(f, "/staff"),
            headers: StaffHTTPTests.json.merging(["Authorization": "Bearer \(admin)"]) { $1 },
            body: StaffHTTPTests.body(["name": "sara", "role": "supervisor", "password": "super-pass-1"]))
        #expect(added.status == 201)
        return try await StaffHTTPTests.token(f, "/sessions", ["name": "sara", "password": "super-pass-1"])
    }

    func get(_ f: ServerFixture, _ token: String, _ query: String) async throws -> Reply {
        try await f.send(
            "GET", URL(string: staff(f, "/events").absoluteString + "?" + query)!,
            headers: ["Authorization": "Bearer \(token)"])
    }

    func events(_ f: ServerFixture, _ token: String, _ query: String) async throws -> (Reply, [String: Any]) {
        let reply = try await get(f, token, query)
        return (reply, Self.object(reply))
    }

    /// A witness for "answered before its wait ran out" that times nothing: a long poll with the
    /// same 60 s wait on a server of its own, begun (and counted waiting) before the poll under
    /// test. While it still waits, a wait that began later has not run out either, however slow
    /// the machine. `end` stops its server, which answers it at once.
    struct Control {
        let fixture: ServerFixture
        let poll: Task<Reply, any Error>
        var waiting: Bool { fixture.server.staffAPI.waitingPolls == 1 }

        func end() async throws {
            let server = fixture.server
            try await offPool { server.stop(grace: .seconds(5)) }
            _ = try await poll.value
        }
    }

    func control() async throws -> Control {
        let g = try ServerFixture()
        let token = try await supervisor(g)
        let (_, start) = try await events(g, token, "after=0&limit=1000")
        let cursor = try #require(start["cursor"] as? Int)
        let poll = Task { try await get(g, token, "after=\(cursor)&wait=60") }
        try await eventually(within: .seconds(60), "the control's long poll waiting") {
            g.server.staffAPI.waitingPolls == 1
        }
        return Control(fixture: g, poll: poll)
    }

    static func object(_ reply: Reply) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]) ?? [:]
    }

    @Test(
        "a bad events query is 400 {2000} naming the parameter, never echoing it",
        arguments: [
            ("after=-1", "after must be an event id, a whole number from 0"),
            ("after=x", "after must be an event id, a whole number from 0"),
            ("limit=0", "limit must be a whole number from 1 to 1000"),
            ("limit=1001", "limit must be a whole number from 1 to 1000"),
            ("wait=61", "wait must be whole seconds from 0 to 60"),
            ("wait=1.5", "wait must be whole seconds from 0 to 60"),
            ("wait=1&wait=2", "wait may be given once"),
            ("token=SECRET-VALUE", "token is not a parameter of this request"),
        ])
    func badQuery(query: String, detail: String) async throws {
        let f = try ServerFixture(sockets: false)
        let token = "tds_" + String(repeating: "A", count: 43)

        let (reply, _) = try await events(f, token, query)

        #expect(reply.status == 400)
        #expect(reply.errorCode == 2000)
        #expect(reply.detail?.hasPrefix(detail) == true, "\(reply.detail ?? "")")
        #expect(!reply.text.contains("SECRET-VALUE"))
    }

    @Test("a page: events after the cursor, oldest first, with the tag only; a wait that ends answers an empty page")
    func page() async throws {
        let f = try ServerFixture(sockets: false)
        let token = try await supervisor(f)
        try f.authorize("9K2RAY8UUQ")

        let (first, body) = try await events(f, token, "after=0&limit=1000")
        let list = try #require(body["events"] as? [[String: Any]])
        let cursor = try #require(body["cursor"] as? Int)
        let (quiet, after) = try await events(f, token, "after=\(cursor)&wait=1")

        #expect(first.status == 200)
        #expect(first.header("Cache-Control") == "no-store")
        let authorized = try #require(list.first { $0["kind"] as? String == "otp_authorized" })
        #expect(Set(authorized.keys) == ["id", "at", "kind", "actor", "code_tag", "detail"])
        #expect(authorized["code_tag"] as? String == String(Phone.hash("9K2RAY8UUQ").prefix(6)))
        #expect(!first.text.contains(Phone.hash("9K2RAY8UUQ")), "no code hash on the wire")
        let ids = list.compactMap { $0["id"] as? Int }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(cursor >= ids.last ?? 0)
        #expect(quiet.status == 200)
        #expect((after["events"] as? [Any])?.isEmpty == true)
        #expect(after["cursor"] as? Int == cursor)
    }

    @Test("a long poll is answered by the event that arrives while it waits, not by the end of its wait")
    func longPollWakes() async throws {
        let f = try ServerFixture()
        let token = try await supervisor(f)
        let (_, start) = try await events(f, token, "after=0&limit=1000")
        let cursor = try #require(start["cursor"] as? Int)

        let control = try await control()
        let poll = Task { try await get(f, token, "after=\(cursor)&wait=60") }
        try await eventually(within: .seconds(60), "the long poll waiting on the server") {
            f.server.staffAPI.waitingPolls == 1
        }
        try f.authorize("9K2RAY8UUQ")
        let reply = try await poll.value
        let body = Self.object(reply)

        #expect(reply.status == 200)
        let list = try #require(body["events"] as? [[String: Any]])
        #expect(list.map { $0["kind"] as? String } == ["otp_authorized"])
        // Woken by the event, not by the end of its wait: the control, begun earlier with the
        // same wait, still waits.
        #expect(control.waiting, "answered only when its wait ran out")
        #expect(f.server.staffAPI.waitingPolls == 0)
        try await control.end()
    }

    @Test("more long polls wait at once than the staff executor admits: waiting holds no place and no thread")
    func pollsHoldNothing() async throws {
        // One thread per listener; the staff executor admits threads × 64 = 64 calls at once.
        let f = try ServerFixture(configure: { $0.threads = 1 })
        let token = try await supervisor(f)
        let (_, start) = try await events(f, token, "after=0&limit=1000")
        let cursor = try #require(start["cursor"] as? Int)
        let count = 80
        #expect(count > f.server.staffExecutor.limit)

        // In two halves, each under the executor's limit: a poll's first read takes a place for
        // a moment, so 80 first reads at once could be refused 503 on a loaded machine; what is
        // shown here is that 80 can *wait* at once.
        var polls: [Task<Reply, any Error>] = []
        for half in 1...2 {
            polls += (0..<count / 2).map { _ in Task { try await get(f, token, "after=\(cursor)&wait=30") } }
            try await eventually(within: .seconds(60), "\(half * count / 2) long polls waiting") {
                f.server.staffAPI.waitingPolls >= half * count / 2
            }
        }
        #expect(f.server.staffAPI.waitingPolls == count)
        // The one server thread still answers, and the executor still admits other calls.
        let identify = try await f.send("GET", staff(f, ""))
        #expect(identify.status == 200)
        let (other, _) = try await events(f, token, "after=0&limit=1")
        #expect(other.status == 200)
        try f.authorize("9K2RAY8UUQ")
        var woken = 0
        for poll in polls {
            let reply = try await poll.value
            let body = Self.object(reply)
            if reply.status == 200, (body["events"] as? [[String: Any]])?.count == 1 { woken += 1 }
        }
        #expect(woken == count)
    }

    @Test("a stopping server answers its waiting long polls at once with an empty page at their cursor")
    func stopAnswersPolls() async throws {
        let f = try ServerFixture()
        let token = try await supervisor(f)
        let (_, start) = try await events(f, token, "after=0&limit=1000")
        let cursor = try #require(start["cursor"] as? Int)
        let control = try await control()
        let poll = Task { try await get(f, token, "after=\(cursor)&wait=60") }
        try await eventually(within: .seconds(60), "the long poll waiting on the server") {
            f.server.staffAPI.waitingPolls == 1
        }

        let server = f.server
        try await offPool { server.stop(grace: .seconds(5)) }
        let reply = try await poll.value
        let body = Self.object(reply)

        // The poll would wait a minute: the stop answered it before that (the control, begun
        // earlier with the same wait, still waits), so the stop did not wait for it.
        #expect(control.waiting, "the stop waited for the poll's wait to run out")
        try await control.end()
        #expect(reply.status == 200)
        #expect((body["events"] as? [Any])?.isEmpty == true)
        #expect(body["cursor"] as? Int == cursor)
    }
}
