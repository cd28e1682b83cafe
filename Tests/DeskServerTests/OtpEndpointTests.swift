import CivilCalendar
import DeskCore
import DeskStore
import Foundation
import Testing

/// `POST /v1/otp` on the internal listener (facts §10 items 1–7, with our error codes): on its
/// handler as values, and the first authorisation over real HTTP.
@Suite("POST /v1/otp over HTTP")
struct OtpEndpointTests {
    static let json = ["Content-Type": "application/json"]

    /// Posts `body` with the fixture's HIS key and `headers` (the content type by default).
    func post(_ fixture: ServerFixture, _ body: String, headers: [String: String] = json) async throws -> Reply {
        try await fixture.send(
            "POST", fixture.internalURL.appendingPathComponent("v1/otp"),
            headers: headers.merging(["Authorization": "Bearer \(fixture.hisKey)"]) { own, _ in own },
            body: Data(body.utf8))
    }

    func body(_ otp: String, _ day: CivilDay = Date().utcDay) -> String {
        #"{"otp":"\#(otp)","symptoms_started_on":"\#(day.iso)"}"#
    }

    @Test("1–2, 4: 204 with no-store and an empty body, stored as the hash; again → 409 {1409}")
    func authorizeThenConflict() async throws {
        let fixture = try ServerFixture()
        let first = try await post(fixture, body("KJ23IWY5UJ"))
        #expect(first.status == 204)
        #expect(first.header("Cache-Control") == "no-store")
        #expect(first.body.isEmpty)
        let stored = try fixture.store.authorization(
            for: OtpHash(hex: "4ec50b1f75ef4ad97521f5b3610cee605595266b7e2c42e6ce72eadff067c108")!)
        #expect(stored?.authorizedBy == "his:test-his")
        let lifetime = stored.map { $0.expiresAt.timeIntervalSince($0.authorizedAt) }
        #expect(lifetime == 150)
        let again = try await post(fixture, body("KJ23IWY5UJ"))
        #expect(again.status == 409)
        #expect(again.errorCode == 1409)
        #expect(again.header("Cache-Control") == nil)
        #expect(try await post(fixture, body("59FU36KR46")).status == 204)
        #expect(
            try fixture.store.authorization(
                for: OtpHash(hex: "8edafc8c445aeb9b531ac14ce5d73671f1d5e97cb2f1dbdc5083c62f18ebb708")!) != nil)
        let events = try fixture.events().filter { $0.kind == .otpAuthorized }
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.actor == "his:test-his" })
    }

    @Test("5: an empty body is 1400; every other invalid body is 1401 and nothing is stored")
    func invalidBodies() async throws {
        let fixture = try ServerFixture(sockets: false)
        let today = Date().utcDay
        #expect(try await post(fixture, "").errorCode == 1400)
        // Only a body with nothing in it is "empty"; an empty object misses its fields.
        #expect(try await post(fixture, "{}").errorCode == 1401)
        let invalid = [
            #"{"invalid":"json"}"#, body("KJ23IWY5UK"), body("kj23iwy5uj"), body("B6UI7HAFXQ"), body("KJ23IWY5U"),
            body("KJ23IWY5UJJ"), body("KJ23IWY5UJ", today.adding(days: 1)),
            body("KJ23IWY5UJ", today.adding(days: -181)),
            #"{"otp":"KJ23IWY5UJ","symptoms_started_on":"2020/01/01"}"#,
            #"{"otp":"KJ23IWY5UJ","symptoms_started_on":"\#(today.iso)T10:00:00Z"}"#,
            #"{"otp":"KJ23IWY5UJ","symptoms_started_on":"\#(today.iso)","extra":1}"#,
            // The hash form of the original service (self-upload) is not part of our contract.
            #"{"otp":"b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94","symptoms_started_on":"\#(today.iso)","id_test_verification":"2d8af3b9-2c0a-4efc-9e15-72454f994e1f"}"#,
            "[]", #"{"otp":12,"symptoms_started_on":"\#(today.iso)"}"#, "{not json", #"{"otp":"KJ23IWY5UJ""#,
            #"{"otp":"KJ23IWY5UJ","otp":"KJ23IWY5UJ","symptoms_started_on":"\#(today.iso)"}"#,
        ]
        for text in invalid {
            let reply = try await post(fixture, text)
            #expect(reply.status == 400, "\(text)")
            #expect(reply.errorCode == 1401, "\(text)")
            #expect(reply.detail?.isEmpty == false)
            // The detail never echoes the code.
            #expect(reply.detail?.contains("KJ23IWY5U") == false)
        }
        #expect(try fixture.events().isEmpty)
        // 180 days ago is the oldest accepted.
        #expect(try await post(fixture, body("KJ23IWY5UJ", today.adding(days: -180))).status == 204)
    }

    @Test("content types: application/json with or without charset; anything else is 1401")
    func contentTypes() async throws {
        let fixture = try ServerFixture(sockets: false)
        #expect(
            try await post(fixture, body("9K2RAY8UUQ"), headers: ["Content-Type": "application/json; charset=UTF-8"])
                .status == 204)
        #expect(try await post(fixture, body("KJ23IWY5UJ"), headers: ["Content-Type": "text/plain"]).errorCode == 1401)
        #expect(
            try await post(fixture, body("KJ23IWY5UJ"), headers: ["Content-Type": "application/json; charset=latin1"])
                .errorCode == 1401)
    }

    @Test("6: every other method is 405 with Allow; /v1/otp is not on the public listener")
    func methods() async throws {
        let fixture = try ServerFixture(sockets: false)
        for method in ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            let reply = try await fixture.send(method, fixture.internalURL.appendingPathComponent("v1/otp"))
            #expect(reply.status == 405, "\(method)")
            #expect(reply.header("Allow") == "POST")
            // A HEAD answer has no body to carry the error code.
            if method != "HEAD" { #expect(reply.errorCode == 1005, "\(method)") }
        }
        let phone = try await fixture.send(
            "POST", fixture.phone.appendingPathComponent("v1/otp"), headers: Self.json,
            body: Data(body("KJ23IWY5UJ").utf8))
        #expect(phone.status == 404)
        #expect(phone.errorCode == 1004)
    }

    @Test("7: a store that stays locked answers 503 with an incident id, never 500 and never the path")
    func storeLocked() async throws {
        let fixture = try ServerFixture(sockets: false, busyTimeoutMs: 50)
        let path = fixture.store.path
        let holder = try SQLiteLockHolder(path: path)
        defer { holder.release() }
        let reply = try await post(fixture, body("KJ23IWY5UJ"))
        #expect(reply.status == 503)
        #expect(reply.errorCode == 1003)
        #expect(reply.detail?.contains("incident") == true)
        #expect(reply.text.contains(path) == false)
        #expect(fixture.logLines.all.contains { $0.contains("incident") && $0.contains("locked") })
    }
}
