import DeskContract
import DeskCrypto
import DeskLocal
import DeskTestSupport
import Foundation
import Testing

@Suite("Apple DeviceCheck two-bit check")
struct DeviceCheckTests {
    static let key = ECPrivateKey.generate()
    static let teamID = "TEAM123456"
    static let keyID = "KEY9876543"
    /// Shaped like a real token: standard base64 with `+`, `/` and padding.
    let token = "AgAAAFj1+xqT9Xy/7k2dGV2aWNlIHRva2VuIGZyb20gRENEZXZpY2U/Ym9keQ=="

    func client(
        _ server: FakeDeviceCheck, waits: ClosedRange<Double> = 0...0, blacklist: Bool = true,
        discardIfUpdatedThisMonth: Bool = true, timeout: Duration = .seconds(10)
    ) -> DeviceCheckClient {
        DeviceCheckClient(
            baseURL: server.baseURL, teamID: Self.teamID, keyID: Self.keyID, privateKey: Self.key, firstWait: waits,
            secondWait: waits, blacklistOnAnomaly: blacklist, discardIfUpdatedThisMonth: discardIfUpdatedThisMonth,
            timeout: timeout)
    }

    /// "YYYY-MM" of `date` in UTC, as DeviceCheck writes `last_update_time`.
    static func month(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        return String(format: "%04d-%02d", parts.year!, parts.month!)
    }

    /// The reason of a non-authorised outcome; also checks that it does not contain the token.
    func reason(_ outcome: DeviceCheckOutcome) -> String? {
        switch outcome {
        case .authorized: return nil
        case .discarded(let reason), .blacklisted(let reason):
            #expect(!reason.contains(token))
            #expect(!reason.contains(String(token.prefix(12))))
            return reason
        }
    }

    struct Body: Decodable {
        let device_token: String
        let transaction_id: String
        let timestamp: Int64
        let bit0: Bool?
        let bit1: Bool?
    }

    struct Claims: Decodable {
        let iss: String
        let iat: Int64
    }

    func body(_ request: FakeDeviceCheck.Recorded) throws -> Body {
        try JSONDecoder().decode(Body.self, from: Data(request.body.utf8))
    }

    /// The bits an update request set.
    func bits(_ request: FakeDeviceCheck.Recorded) throws -> [Bool?] {
        let body = try body(request)
        return [body.bit0, body.bit1]
    }

    // MARK: - Authorised

    @Test func neverSetDeviceIsAuthorizedAfterTheWholeDance() async throws {
        let now = Date()
        try await FakeDeviceCheck.with(#"{"state": null}"#) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: now)
            let end = Date()
            #expect(outcome == .authorized)
            #expect(try server.calls() == ["query", "query", "update", "query", "update"])

            let requests = try server.requests()
            #expect(try bits(requests[2]) == [true, false])
            #expect(try bits(requests[4]) == [false, false])
            var transactions = Set<String>()
            for request in requests {
                #expect(request.method == "POST")
                #expect(request.contentType == "application/json")
                let body = try body(request)
                #expect(body.device_token == token)
                #expect(UUID(uuidString: body.transaction_id) != nil)
                transactions.insert(body.transaction_id)
                // Stamped with `now` plus the time elapsed since the call.
                let nowMs = Int64(now.timeIntervalSince1970 * 1000)
                #expect((nowMs...Int64(end.timeIntervalSince1970 * 1000) + 1).contains(body.timestamp))
                if request.path == "/v1/query_two_bits" {
                    #expect(body.bit0 == nil && body.bit1 == nil)
                    #expect(!request.body.contains("bit0"))
                }
                try checkJWT(request.authorization, from: now, to: end)
            }
            #expect(transactions.count == requests.count)
        }
    }

    /// The JWT: header {alg ES256, kid}, claims {iss, iat}, and a valid ES256 signature.
    func checkJWT(_ authorization: String?, from start: Date, to end: Date) throws {
        let value = try #require(authorization)
        #expect(value.hasPrefix("Bearer "))
        let parts = value.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64.decodeURL(parts[0]))
        let header = try JSONDecoder().decode([String: String].self, from: Data(headerBytes))
        #expect(header == ["alg": "ES256", "kid": Self.keyID])
        let claims = try JSONDecoder().decode(Claims.self, from: Data(try #require(Base64.decodeURL(parts[1]))))
        #expect(claims.iss == Self.teamID)
        #expect((Int64(start.timeIntervalSince1970)...Int64(end.timeIntervalSince1970) + 1).contains(claims.iat))
        let signature = try #require(Base64.decodeURL(parts[2]))
        #expect(signature.count == 64)
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        #expect(Self.key.publicKey.verifyJOSE(signature: signature, message: signingInput))
        #expect(!ECPrivateKey.generate().publicKey.verifyJOSE(signature: signature, message: signingInput))
    }

    @Test func clearBitsLastWrittenInAnEarlierMonthAreAuthorized() async throws {
        let scenario = #"{"state": {"bit0": false, "bit1": false, "last_update_time": "2020-01"}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            // Real (short) random waits, so the sleeping path runs too.
            let outcome = await client(server, waits: 0.05...0.1).authorize(deviceToken: token, now: Date())
            #expect(outcome == .authorized)
            #expect(try server.calls() == ["query", "query", "update", "query", "update"])
            // Each wait shows in the stamps the client sent (`now` plus the time since the call):
            // at least 50 ms between the query before a wait and the request after it (less one
            // for the rounding to milliseconds). Only a lower bound: a slow machine adds to it.
            let stamps = try server.requests().map { try body($0).timestamp }
            #expect(stamps[1] - stamps[0] >= 49, "the first wait: \(stamps)")
            #expect(stamps[3] - stamps[2] >= 49, "the second wait: \(stamps)")
        }
    }

    // MARK: - Discarded or blacklisted by the bits

    @Test func deviceAlreadyUsedThisMonthIsDiscardedWithoutWriting() async throws {
        let now = Date()
        let scenario = #"{"state": {"bit0": false, "bit1": false, "last_update_time": "\#(Self.month(now))"}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: now)
            #expect(reason(outcome) == "the device already authorised a token this month")
            guard case .discarded = outcome else { throw CommandFailure(description: "expected discarded") }
            #expect(try server.calls() == ["query"])
        }
        // Outside release, the monthly limit is off.
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server, discardIfUpdatedThisMonth: false).authorize(deviceToken: token, now: now)
            #expect(outcome == .authorized)
        }
    }

    /// Facts §6.1: set bits at the first read (a blacklisted device, or another check of it
    /// running) discard the token without writing anything.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func bitsAlreadySetAreDiscardedWithoutWriting(bit0: Bool, bit1: Bool) async throws {
        let scenario = #"{"state": {"bit0": \#(bit0), "bit1": \#(bit1), "last_update_time": "2020-01"}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(outcome == .discarded("the device's bits were already set"))
            #expect(try server.calls() == ["query"])
        }
    }

    @Test func anomalyWithBlacklistingOffIsDiscardedWithoutWriting() async throws {
        let scenario = #"""
            {"state": null, "overrides": {"2": {"state": {"bit0": true, "bit1": false, "last_update_time": "2020-01"}}}}
            """#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server, blacklist: false).authorize(deviceToken: token, now: Date())
            #expect(outcome == .discarded("the device's bits changed during the check (blacklisting is off)"))
            #expect(try server.calls() == ["query", "query"])
        }
    }

    @Test func bitsChangedDuringTheFirstWaitAreBlacklisted() async throws {
        // Another check of the same device marked it while this one waited.
        let scenario = #"""
            {"state": null, "overrides": {"2": {"state": {"bit0": true, "bit1": false, "last_update_time": "2020-01"}}}}
            """#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(outcome == .blacklisted("the device's bits changed during the check"))
            #expect(try server.calls() == ["query", "query", "update"])
            #expect(try bits(server.requests()[2]) == [true, true])
        }
    }

    @Test(arguments: ["true, \"bit1\": true", "false, \"bit1\": false", "false, \"bit1\": true"])
    func bitsChangedAfterTheMarkAreBlacklisted(bits state: String) async throws {
        let scenario = #"{"state": null, "overrides": {"4": {"state": {"bit0": \#(state)}}}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(outcome == .blacklisted("the device's bits changed after being marked"))
            #expect(try server.calls() == ["query", "query", "update", "query", "update"])
            #expect(try bits(server.requests()[4]) == [true, true])
        }
    }

    // MARK: - Discarded by DeviceCheck errors

    @Test(arguments: [(1, 400), (1, 401), (1, 500), (2, 503), (3, 500), (4, 429), (5, 400)])
    func httpErrorsFromAppleDiscard(request: Int, status: Int) async throws {
        let scenario = #"{"state": null, "overrides": {"\#(request)": {"status": \#(status), "body": "Trouble"}}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            let endpoint = [3, 5].contains(request) ? "update" : "query"
            #expect(outcome == .discarded("DeviceCheck answered the \(endpoint) with HTTP \(status)"))
            #expect(try server.requests().count == request)
        }
    }

    @Test(arguments: ["<html>Bad Gateway</html>", #"{"bit0": 1, "bit1": 0}"#, "{}", ""])
    func unreadableQueryAnswersDiscard(body: String) async throws {
        let escaped = body.replacingOccurrences(of: "\"", with: "\\\"")
        let scenario = #"{"state": null, "overrides": {"1": {"status": 200, "body": "\#(escaped)"}}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(outcome == .discarded("DeviceCheck answered the query with unreadable bits"))
            #expect(try server.calls() == ["query"])
        }
    }

    @Test func unreadableLastUpdateTimeDiscards() async throws {
        let scenario = #"{"state": {"bit0": false, "bit1": false, "last_update_time": "January"}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(outcome == .discarded("DeviceCheck sent an unreadable date"))
        }
    }

    @Test func slowAnswerTimesOutAndDiscards() async throws {
        // The server would answer after an hour, far past this test's minute of waiting: only
        // the client's own timeout can end the check in time (and stopping the server does not
        // wait for the sleep).
        let scenario = #"{"state": null, "overrides": {"1": {"sleep": 3600}}}"#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let client = client(server, timeout: .milliseconds(500))
            let token = token
            let outcome = Slot<DeviceCheckOutcome>()
            let check = Task { outcome.set(await client.authorize(deviceToken: token, now: Date())) }
            defer { check.cancel() }
            try await eventually(within: .seconds(60), "the check gives up on the silent server") { outcome.isSet }
            #expect(outcome.value == .discarded("DeviceCheck did not answer the query in time"))
        }
    }

    @Test func unreachableDeviceCheckDiscards() async throws {
        let server = try await FakeDeviceCheck.start(scenario: #"{"state": null}"#)
        await server.stop()
        let outcome = await client(server).authorize(deviceToken: token, now: Date())
        #expect(outcome == .discarded("DeviceCheck could not be reached for the query"))
    }

    @Test func failedBlacklistingIsReportedAsDiscarded() async throws {
        let scenario = #"""
            {"state": null, "overrides": {"2": {"state": {"bit0": true, "bit1": false, "last_update_time": "2020-01"}},
             "3": {"status": 500}}}
            """#
        try await FakeDeviceCheck.with(scenario) { server async throws in
            let outcome = await client(server).authorize(deviceToken: token, now: Date())
            #expect(
                outcome
                    == .discarded(
                        "the device's bits changed during the check; blacklisting failed: "
                            + "DeviceCheck answered the update with HTTP 500"))
            _ = reason(outcome)
        }
    }

    /// Waits until the server has recorded `count` requests; fails the test past a minute.
    func waitForCalls(_ server: FakeDeviceCheck, _ count: Int) async throws {
        try await eventually(within: .seconds(60), "\(count) requests at the fake DeviceCheck server") {
            try server.calls().count >= count
        }
    }

    @Test func cancellingBeforeTheMarkDiscards() async throws {
        try await FakeDeviceCheck.with(#"{"state": null}"#) { server async throws in
            let client = client(server, waits: 5...5)
            let token = token
            let task = Task { await client.authorize(deviceToken: token, now: Date()) }
            // Cancelled while the first query is answered or during the first wait.
            try await waitForCalls(server, 1)
            task.cancel()
            #expect(await task.value == .discarded("cancelled before the device was marked"))
            #expect(try server.calls() == ["query"])
        }
    }

    @Test func cancellingAfterTheMarkStillFinishesTheCheck() async throws {
        try await FakeDeviceCheck.with(#"{"state": null}"#) { server async throws in
            let client = DeviceCheckClient(
                baseURL: server.baseURL, teamID: Self.teamID, keyID: Self.keyID, privateKey: Self.key,
                firstWait: 0...0, secondWait: 1...1)
            let token = token
            let task = Task { await client.authorize(deviceToken: token, now: Date()) }
            // Cancelled once the device is marked: leaving it marked would blacklist it next time.
            try await waitForCalls(server, 3)
            task.cancel()
            #expect(await task.value == .authorized)
            #expect(try server.calls() == ["query", "query", "update", "query", "update"])
            #expect(try bits(server.requests()[4]) == [false, false])
        }
    }
}
