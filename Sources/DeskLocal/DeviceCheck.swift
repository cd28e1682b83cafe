import DeskContract
import DeskCrypto
import DeskHTTPClient
import Foundation

/// How an Apple DeviceCheck authorisation of an analytics token ended. Reasons are short texts
/// for logs and metrics; they never contain the device token, the JWT or the key.
public enum DeviceCheckOutcome: Hashable, Sendable {
    /// The device went through the whole two-bit check: authorise the analytics token.
    case authorized
    /// Not authorised, nothing held against the device (DeviceCheck unreachable or answering an
    /// error, the device already used this month, an anomaly with blacklisting off…).
    case discarded(String)
    /// Not authorised, and both of the device's bits were set to 1 so it can never authorise a
    /// token again.
    case blacklisted(String)
}

/// The Apple DeviceCheck "two-bit dance" Immuni used to authorise iOS analytics tokens, over
/// `POST {baseURL}/v1/query_two_bits` and `POST {baseURL}/v1/update_two_bits`.
///
/// Each request carries a fresh ES256 JWT (header `alg` ES256, `kid` = `keyID`; claims `iss` =
/// `teamID`, `iat`) as `Authorization: Bearer`, and a JSON body with `device_token`, a random
/// `transaction_id` and `timestamp` in milliseconds. Every request times out after `timeout`.
///
/// The flow ``authorize(deviceToken:now:)`` checks:
/// 1. query: if `last_update_time` is this month (UTC) the device already authorised a token
///    this month → discarded (when `discardIfUpdatedThisMonth`); bits not (0, 0) → anomaly;
/// 2. wait `firstWait` seconds, query: bits not (0, 0) → anomaly; else set (1, 0);
/// 3. wait `secondWait` seconds, query: bits not (1, 0) → anomaly; else reset to (0, 0)
///    → authorized.
///
/// An anomaly means another check of the same device ran concurrently or finished before: the
/// device is blacklisted by setting (1, 1) when `blacklistOnAnomaly` (Immuni did so only in its
/// release environment), otherwise the token is discarded. Any HTTP error, timeout or unreadable
/// answer discards the token. A device never seen by DeviceCheck answers the query with status
/// 200 and the plain text `Failed to find bit state`, read as (0, 0).
///
/// Make one client and share it: each holds its own ``HTTPClient`` (connections kept for
/// reuse), released with the last copy. Redirects are not followed: the JWT would go to
/// another host, and DeviceCheck has no reason to send one (a 3xx discards the token).
public struct DeviceCheckClient: Sendable {
    public let baseURL: URL
    public let teamID: String
    public let keyID: String
    public let firstWait: ClosedRange<Double>
    public let secondWait: ClosedRange<Double>
    public let blacklistOnAnomaly: Bool
    public let discardIfUpdatedThisMonth: Bool
    public let timeout: Duration
    private let privateKey: ECPrivateKey
    private let client: HTTPClient

    /// The production and development hosts of the DeviceCheck API.
    public static let productionURL = URL(string: "https://api.devicecheck.apple.com")!
    public static let developmentURL = URL(string: "https://api.development.devicecheck.apple.com")!

    /// A client for `baseURL` (``productionURL`` or ``developmentURL``; a fake in tests), signing
    /// its JWTs with the DeviceCheck key `keyID` of team `teamID`. Checks nothing and sends
    /// nothing until ``authorize(deviceToken:now:)``. The waits are in seconds; the defaults are
    /// Immuni's.
    public init(
        baseURL: URL, teamID: String, keyID: String, privateKey: ECPrivateKey,
        firstWait: ClosedRange<Double> = 7...10, secondWait: ClosedRange<Double> = 0...3,
        blacklistOnAnomaly: Bool = true, discardIfUpdatedThisMonth: Bool = true, timeout: Duration = .seconds(10)
    ) {
        self.baseURL = baseURL
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
        self.firstWait = firstWait
        self.secondWait = secondWait
        self.blacklistOnAnomaly = blacklistOnAnomaly
        self.discardIfUpdatedThisMonth = discardIfUpdatedThisMonth
        self.timeout = timeout
        self.client = HTTPClient()
    }

    /// Runs the two-bit check for `deviceToken` (the base64 token from `DCDevice`), starting at
    /// `now`; later requests are stamped `now` plus the time elapsed since the call. Takes the
    /// two waits plus up to six requests.
    ///
    /// Cancelling the task discards the token, but only until the device is marked: from then on
    /// the check runs to its end (at most `secondWait` and three requests), because a device left
    /// marked would be blacklisted at its next attempt. A query in flight before the mark ends
    /// at once; requests from the mark on run to their end or `timeout`, unaffected.
    public func authorize(deviceToken: String, now: Date) async -> DeviceCheckOutcome {
        let started = ContinuousClock.now
        let instant = { now.addingTimeInterval((ContinuousClock.now - started).seconds) }

        // Step 1: a fresh device has both bits clear and was not updated this month.
        let first: Bits
        switch await query(deviceToken, at: instant(), cancellable: true) {
        case .failure(let failure): return .discarded(failure.reason)
        case .success(let bits): first = bits
        }
        if discardIfUpdatedThisMonth, let updated = first.lastUpdateTime {
            guard let month = YearMonth(updated) else { return .discarded("DeviceCheck sent an unreadable date") }
            if month >= YearMonth(now) { return .discarded("the device already authorised a token this month") }
        }
        // Set bits here mean a blacklisted device, or another check of the same device running now:
        // discard (facts §6.1), so a phone that retried cannot blacklist itself.
        if !first.isClear { return .discarded("the device's bits were already set") }

        // Step 2: still clear after the first wait, then mark it.
        guard await pause(firstWait, cancellable: true) else { return .discarded(Self.cancelled) }
        switch await query(deviceToken, at: instant(), cancellable: true) {
        case .failure(let failure): return .discarded(failure.reason)
        case .success(let bits) where !bits.isClear:
            return await anomaly(deviceToken, "the device's bits changed during the check", instant)
        case .success: break
        }
        if let failure = await update(deviceToken, bit0: true, bit1: false, at: instant()) {
            return .discarded(failure.reason)
        }

        // Step 3: our mark is still there and nobody else's, then clear it again. Not cancellable.
        _ = await pause(secondWait, cancellable: false)
        switch await query(deviceToken, at: instant(), cancellable: false) {
        case .failure(let failure): return .discarded(failure.reason)
        case .success(let bits) where !(bits.bit0 && !bits.bit1):
            return await anomaly(deviceToken, "the device's bits changed after being marked", instant)
        case .success: break
        }
        if let failure = await update(deviceToken, bit0: false, bit1: false, at: instant()) {
            return .discarded(failure.reason)
        }
        return .authorized
    }

    // MARK: - Steps

    /// The reason given when the task was cancelled before the device was marked.
    static let cancelled = "cancelled before the device was marked"

    private func anomaly(_ token: String, _ reason: String, _ instant: () -> Date) async -> DeviceCheckOutcome {
        guard blacklistOnAnomaly else { return .discarded(reason + " (blacklisting is off)") }
        if let failure = await update(token, bit0: true, bit1: true, at: instant()) {
            return .discarded(reason + "; blacklisting failed: " + failure.reason)
        }
        return .blacklisted(reason)
    }

    /// Sleeps a uniformly random number of seconds in `range`. When `cancellable`, returns false
    /// as soon as the task is cancelled; otherwise sleeps the whole time regardless.
    private func pause(_ range: ClosedRange<Double>, cancellable: Bool) async -> Bool {
        let seconds = range.lowerBound == range.upperBound ? range.lowerBound : Double.random(in: range)
        guard seconds > 0 else { return !(cancellable && Task.isCancelled) }
        guard cancellable else {
            // An unstructured task does not inherit this task's cancellation.
            await Task.detached { try? await Task.sleep(for: .seconds(seconds)) }.value
            return true
        }
        do { try await Task.sleep(for: .seconds(seconds)) } catch { return false }
        return !Task.isCancelled
    }

    /// The two bits and the month they were last written ("YYYY-MM"), as the query answers.
    struct Bits: Decodable {
        var bit0: Bool
        var bit1: Bool
        var lastUpdateTime: String?

        enum CodingKeys: String, CodingKey {
            case bit0, bit1
            case lastUpdateTime = "last_update_time"
        }

        var isClear: Bool { !bit0 && !bit1 }
        static let neverSet = Bits(bit0: false, bit1: false, lastUpdateTime: nil)
    }

    /// What went wrong with one request, as a token-free reason.
    struct CallFailure: Error {
        let reason: String
    }

    /// The plain-text answer to a query for a device whose bits were never written.
    static let neverSetAnswer = "Failed to find bit state"

    private func query(_ token: String, at date: Date, cancellable: Bool) async -> Result<Bits, CallFailure> {
        let body: [UInt8]
        let request = Request(token: token, date: date, bit0: nil, bit1: nil)
        switch await post("query_two_bits", request, at: date, cancellable: cancellable) {
        case .failure(let failure): return .failure(failure)
        case .success(let data): body = data
        }
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text == Self.neverSetAnswer { return .success(.neverSet) }
        guard let bits = try? JSONDecoder().decode(Bits.self, from: Data(body)) else {
            return .failure(CallFailure(reason: "DeviceCheck answered the query with unreadable bits"))
        }
        return .success(bits)
    }

    /// Writes the bits; never cancelled, since a write that was sent must be accounted for.
    private func update(_ token: String, bit0: Bool, bit1: Bool, at date: Date) async -> CallFailure? {
        let request = Request(token: token, date: date, bit0: bit0, bit1: bit1)
        switch await post("update_two_bits", request, at: date, cancellable: false) {
        case .failure(let failure): return failure
        case .success: return nil
        }
    }

    /// The JSON body of both endpoints; the bits only for an update.
    struct Request: Encodable {
        var device_token: String
        var transaction_id: String
        var timestamp: Int64
        var bit0: Bool?
        var bit1: Bool?

        init(token: String, date: Date, bit0: Bool?, bit1: Bool?) {
            device_token = token
            transaction_id = UUID().uuidString.lowercased()
            timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            self.bit0 = bit0
            self.bit1 = bit1
        }
    }

    /// The largest answer read: the bits are a few dozen bytes.
    static let maximumAnswerBytes = 64 << 10

    /// One POST within `timeout` (connecting included). When `cancellable`, a task cancelled
    /// meanwhile ends it at once and gets ``cancelled``; otherwise it runs in a task of its own,
    /// which the caller's cancellation does not reach.
    private func post(
        _ endpoint: String, _ body: Request, at date: Date, cancellable: Bool
    ) async -> Result<[UInt8], CallFailure> {
        let url = baseURL.appendingPathComponent("v1").appendingPathComponent(endpoint)
        let request = HTTPClient.Request(
            "POST", url,
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer " + jwt(at: date))],
            body: (try? Self.encoder.encode(body)).map(Array.init) ?? [], connectTimeout: timeout, deadline: timeout,
            maxAnswerBytes: Self.maximumAnswerBytes)
        let name = endpoint == "query_two_bits" ? "query" : "update"
        let client = self.client
        let result: Result<HTTPClient.Response, HTTPClientError>
        if cancellable {
            result = await client.result(request)
        } else {
            result = await Task { await client.result(request) }.value
        }
        if cancellable && Task.isCancelled { return .failure(CallFailure(reason: Self.cancelled)) }
        switch result {
        case .failure(.timedOut):
            return .failure(CallFailure(reason: "DeviceCheck did not answer the \(name) in time"))
        case .failure(.tooLarge):
            return .failure(CallFailure(reason: "DeviceCheck answered the \(name) with more than bits"))
        case .failure(.notHTTP):
            return .failure(CallFailure(reason: "DeviceCheck sent no HTTP status for the \(name)"))
        case .failure:
            return .failure(CallFailure(reason: "DeviceCheck could not be reached for the \(name)"))
        case .success(let response) where response.status != 200:
            return .failure(CallFailure(reason: "DeviceCheck answered the \(name) with HTTP \(response.status)"))
        case .success(let response):
            return .success(response.body)
        }
    }

    // MARK: - JWT

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private struct JWTHeader: Encodable {
        var alg = "ES256"
        var kid: String
    }

    private struct JWTClaims: Encodable {
        var iss: String
        var iat: Int64
    }

    /// A compact ES256 JWS: `base64url(header).base64url(claims).base64url(r || s)`.
    func jwt(at date: Date) -> String {
        // Encoding two structs of strings and integers cannot fail.
        let header = try! Self.encoder.encode(JWTHeader(kid: keyID))
        let claims = try! Self.encoder.encode(
            JWTClaims(iss: teamID, iat: Int64(date.timeIntervalSince1970.rounded(.down))))
        let signingInput = Base64.encodeURL(header) + "." + Base64.encodeURL(claims)
        return signingInput + "." + Base64.encodeURL(privateKey.signJOSE(Array(signingInput.utf8)))
    }
}

/// A calendar month in UTC, ordered.
private struct YearMonth: Comparable {
    let year: Int
    let month: Int

    /// "YYYY-MM", as DeviceCheck writes `last_update_time`.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month)
        else { return nil }
        self.year = year
        self.month = month
    }

    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = calendar.dateComponents([.year, .month], from: date)
        year = components.year!
        month = components.month!
    }

    static func < (lhs: YearMonth, rhs: YearMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}
