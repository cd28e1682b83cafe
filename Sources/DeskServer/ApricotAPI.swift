import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import Dispatch
import Foundation
import JSONText

/// The APRICOT phone API (docs/apricot-api.md, spec/apricot-protocol.md) on the public
/// listener, as an ``HTTPHandler``: validation in DeskAPI (``ApricotRequests``), rules in
/// ``ApricotDesk``, answers here. Every answer is produced on the server thread (a sign-in is
/// one store transaction; the SMS gateway never makes it wait).
public final class ApricotAPI: HTTPHandler, @unchecked Sendable {
    let desk: ApricotDesk
    let metrics: Metrics
    let uploads: UploadLimiter
    let codeRequests: CodeRequestLimiter
    /// The numbers codes are sent to (nil: any, as in tests of other things).
    let destinations: SmsDestinations?
    let clock: any Clock
    let log: @Sendable (String) -> Void

    /// `Retry-After` of a 503 for a full SMS queue: the provider is behind, and a phone may ask
    /// again only every 30 s anyway.
    static let gatewayBusyRetryAfter = 30

    /// - Parameters:
    ///   - otpPerMinute: codes this server sends a minute, all phones together (0: no limit).
    ///   - otpPerAddressPerHour: codes one client address may ask for in an hour (0: no limit).
    ///   - clock: times the refill of the code-request buckets: the server's clock (monotonic in
    ///     production; a test's virtual clock, so that a slow request does not refill a bucket).
    public init(
        desk: ApricotDesk, metrics: Metrics, uploadsPerHour: Int, otpPerMinute: Int = 0,
        otpPerAddressPerHour: Int = 0, destinations: SmsDestinations? = nil, clock: any Clock = SystemClock(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.clock = clock
        self.destinations = destinations
        self.desk = desk
        self.metrics = metrics
        self.uploads = UploadLimiter(perHour: uploadsPerHour)
        self.codeRequests = CodeRequestLimiter(perMinute: otpPerMinute, perAddressPerHour: otpPerAddressPerHour)
        self.log = log
        let watch = desk.capacity
        metrics.refreshBeforeRender { metrics in
            guard let capacity = watch.known else { return }
            metrics.set(.apricotPseudoIdsUsed, to: Double(capacity.used))
            metrics.set(.apricotPseudoIdsUsedRatio, to: capacity.fraction)
        }
    }

    /// Every `/apricot/…` answer of a server without a code secret: 503 (1003) without
    /// `Retry-After`, since retrying will not help until an operator configures it (as the 507
    /// of a full pseudo-id space, docs/decisions.md).
    public static let notConfigured: HTTPResponse = {
        var response = HTTPResponse.error(
            .unavailable(
                "APRICOT is not configured on this server: it needs apricot_code_secret_file (docs/apricot-api.md); retrying will not help"
            ))
        response.headers.removeAll { $0.name == "Retry-After" }
        return response
    }()

    /// Whether a path is this API's (the rest of the public listener is the Immuni API's).
    public static func owns(_ path: String) -> Bool { path.hasPrefix("/apricot/") }

    static let routes: [(template: String, methods: [String])] = [
        ("/apricot/v1/settings", ["GET", "HEAD"]),
        ("/apricot/v1/otp", ["POST"]),
        ("/apricot/v1/login", ["POST"]),
        ("/apricot/v1/contacts/{day}", ["POST"]),
    ]

    public func route(for request: HTTPRequest) -> String {
        let path = request.path
        if let route = Self.routes.first(where: { $0.template == path }) { return route.template }
        if path.hasPrefix(ApricotRequests.contactsPrefix),
            !path.dropFirst(ApricotRequests.contactsPrefix.count).contains("/")
        {
            return "/apricot/v1/contacts/{day}"
        }
        return "unmatched"
    }

    public func maxBodyBytes(route: String) -> Int? {
        switch route {
        case "/apricot/v1/contacts/{day}": return ContactFile.maxBytes
        case "/apricot/v1/otp", "/apricot/v1/login": return 16_384
        default: return nil
        }
    }

    public func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        guard let known = Self.routes.first(where: { $0.template == route }) else {
            return .now(.error(.notFound("no such APRICOT path: see docs/apricot-api.md")))
        }
        guard known.methods.contains(request.method) else {
            var response = HTTPResponse.error(.methodNotAllowed(allowed: known.methods))
            response.headers.append(("Allow", known.methods.joined(separator: ", ")))
            return .now(response)
        }
        switch route {
        case "/apricot/v1/settings": return .now(settings())
        case "/apricot/v1/otp": return .now(requestCode(request))
        case "/apricot/v1/login": return .now(login(request))
        default: return .now(contacts(request))
        }
    }

    // MARK: Endpoints

    /// The design's settings the apps use, as JSON.
    func settings() -> HTTPResponse {
        .json(200, Self.settingsJSON(desk.settings), cacheControl: "public, max-age=3600")
    }

    static func settingsJSON(_ settings: ApricotSettings) -> String {
        JSONValue.object([
            .init(key: "num_pseudo_ids", value: .number(String(settings.pseudoIDsPerUser))),
            .init(key: "beacon_change_interval", value: .number(String(settings.beaconChangeSeconds))),
            .init(key: "beacon_detect_interval", value: .number(String(settings.beaconDetectSeconds))),
            .init(key: "contact_timestamp_option", value: .bool(settings.contactTimestamps)),
            .init(key: "contact_history_max", value: .number(String(settings.contactHistoryDays))),
        ]).serialized
    }

    func requestCode(_ request: HTTPRequest) -> HTTPResponse {
        let body: ApricotRequests.CodeRequest
        switch ApricotRequests.codeRequest(request) {
        case .failure(let error):
            metrics.count(.apricotCodesTotal, #"result="invalid""#)
            return .error(error)
        case .success(let value): body = value
        }
        // Before the limits: a refused number takes no one's budget.
        if let destinations, case .refused(let detail) = destinations.verdict(for: body.phone) {
            metrics.count(.apricotCodesTotal, #"result="number_refused""#)
            return .error(.apricotNumberNotServed(detail))
        }
        switch codeRequests.admit(address: request.clientAddress, now: clock.intervalSeconds()) {
        case .admitted: break
        case .serverBusy(let seconds):
            metrics.count(.apricotCodesTotal, #"result="server_limited""#)
            return Self.tooMany(
                .apricotCodeRequestsLimited(fromAddress: false, retryAfter: seconds), retryAfter: seconds)
        case .addressBusy(let seconds):
            metrics.count(.apricotCodesTotal, #"result="address_limited""#)
            return Self.tooMany(
                .apricotCodeRequestsLimited(fromAddress: true, retryAfter: seconds), retryAfter: seconds)
        }
        // A code made now would not be sent: none is made, and the phone may ask again later.
        guard desk.gateway.acceptsMore else { return gatewayBusy() }
        do throws(ServiceError) {
            switch try desk.requestCode(phone: body.phone, appID: body.appID, deviceID: body.deviceID) {
            case .issued:
                metrics.count(.apricotCodesTotal, #"result="sent""#)
                metrics.count(.smsMessagesTotal, #"gateway="\#(desk.gateway.name)""#)
                return .noContent
            case .tooSoon(let seconds):
                metrics.count(.apricotCodesTotal, #"result="too_soon""#)
                return Self.tooMany(.apricotTooSoon(retryAfter: seconds), retryAfter: seconds)
            }
        } catch {
            // The queue filled between the check and the send.
            if case .unavailable(HTTPSmsGateway.queueFull) = error { return gatewayBusy() }
            return unavailable(error)
        }
    }

    func login(_ request: HTTPRequest) -> HTTPResponse {
        let body: ApricotRequests.LoginRequest
        switch ApricotRequests.login(request) {
        case .failure(let error):
            metrics.count(.apricotLoginsTotal, #"result="invalid""#)
            return .error(error)
        case .success(let value): body = value
        }
        do throws(ServiceError) {
            switch try desk.login(otp: body.otp, phone: body.phone, appID: body.appID, deviceID: body.deviceID) {
            case .signedIn(let credentials):
                metrics.count(
                    .apricotLoginsTotal, credentials.isNew ? #"result="new_user""# : #"result="returning""#
                )
                var text = #"{"user_id":\#(credentials.userID),"access_token":""#
                text += credentials.accessToken
                text += #"","expires_at":\#(Int64(credentials.expiresAt.timeIntervalSince1970)),"pseudo_ids":["#
                text.reserveCapacity(text.utf8.count + credentials.pseudoIDs.count * 43 + 2)
                for (index, pseudoID) in credentials.pseudoIDs.enumerated() {
                    if index > 0 { text += "," }
                    text += "\""
                    text += pseudoID.hex
                    text += "\""
                }
                text += "]}"
                return .json(200, text, cacheControl: "no-store")
            case .wrongCode:
                metrics.count(.apricotLoginsTotal, #"result="wrong_code""#)
                return .error(.apricotWrongCode)
            case .expired:
                metrics.count(.apricotLoginsTotal, #"result="expired""#)
                return .error(.apricotExpiredCode)
            case .tooManyAttempts:
                metrics.count(.apricotLoginsTotal, #"result="too_many_attempts""#)
                return .error(.apricotTooManyAttempts)
            case .full:
                metrics.count(.apricotLoginsTotal, #"result="full""#)
                return .error(.apricotRegistrationFull)
            }
        } catch {
            return unavailable(error)
        }
    }

    func contacts(_ request: HTTPRequest) -> HTTPResponse {
        let upload: ApricotRequests.ContactUpload
        switch ApricotRequests.contactUpload(request) {
        case .failure(let error):
            metrics.count(.apricotContactFilesTotal, #"result="invalid""#)
            return .error(error)
        case .success(let value): upload = value
        }
        let key = ApricotDesk.tokenHash(upload.token)
        let now = Date()
        // Checked and counted at once, so concurrent uploads of one token cannot all pass the
        // check; given back when the token turns out not to be valid (or the store fails).
        if let wait = uploads.reserve(key, now: now) {
            metrics.count(.apricotContactFilesTotal, #"result="rate_limited""#)
            return Self.tooMany(
                .apricotUploadsTooFrequent(perHour: uploads.perHour, retryAfter: wait), retryAfter: wait)
        }
        do throws(ServiceError) {
            switch try desk.uploadContacts(
                token: upload.token, appID: upload.appID, deviceID: upload.deviceID, day: upload.day,
                bytes: upload.body, clientClock: upload.clientClock)
            {
            case .stored(let receipt, let skew):
                metrics.count(
                    .apricotContactFilesTotal,
                    receipt.replaced ? #"result="replaced""# : #"result="stored""#)
                metrics.count(.apricotContactRecordsTotal, by: receipt.records)
                let answer = JSONValue.object([
                    .init(key: "records", value: .number(String(receipt.records))),
                    .init(key: "distinct_beacons", value: .number(String(receipt.distinctBeacons))),
                    .init(key: "unknown_beacons", value: .number(String(receipt.unknownBeacons))),
                    .init(key: "skew_seconds", value: .number(String(skew))),
                    .init(key: "replaced", value: .bool(receipt.replaced)),
                ])
                return .json(200, answer.serialized, cacheControl: "no-store")
            case .notSignedIn:
                uploads.release(key, now: now)
                metrics.count(.apricotContactFilesTotal, #"result="not_signed_in""#)
                return .error(.apricotNotSignedIn)
            case .refused(let problem):
                metrics.count(.apricotContactFilesTotal, #"result="refused""#)
                if case .tooLarge = problem { return .error(.payloadTooLarge(limit: ContactFile.maxBytes)) }
                return .error(.apricotContactFileRefused(problem.message))
            }
        } catch {
            uploads.release(key, now: now)
            return unavailable(error)
        }
    }

    // MARK: Helpers

    /// The http gateway's queue is full: 503 with a `Retry-After` longer than a busy store's.
    func gatewayBusy() -> HTTPResponse {
        metrics.count(.apricotCodesTotal, #"result="gateway_busy""#)
        var response = HTTPResponse.error(
            .unavailable(
                "the SMS provider is behind and no code can be sent now: ask again in \(Self.gatewayBusyRetryAfter) s"))
        response.headers.removeAll { $0.name == "Retry-After" }
        response.headers.append(("Retry-After", String(Self.gatewayBusyRetryAfter)))
        return response
    }

    /// A 429 with `Retry-After`.
    static func tooMany(_ error: APIError, retryAfter seconds: Int) -> HTTPResponse {
        var response = HTTPResponse.error(error)
        response.headers.append(("Retry-After", String(max(1, seconds))))
        return response
    }

    /// A busy store: 503 with Retry-After; anything else 500 (``Incident/response(for:log:)``).
    func unavailable(_ error: ServiceError) -> HTTPResponse { Incident.response(for: error, log: log) }
}

/// At most `perHour` contact-file uploads per token in any hour, per server (in memory: a
/// restart or a second server gives more; the limit only keeps one app from flooding). An
/// upload is counted when it is admitted and given back when its token is not valid, so random
/// tokens cannot fill the memory.
///
/// Tokens with no upload in the hour are forgotten when the table has doubled since the last
/// sweep (and holds more than `pruneAbove`): each sweep is paid for by as many uploads as it
/// keeps, never one full sweep per upload.
public final class UploadLimiter: @unchecked Sendable {
    public let perHour: Int
    private let lock = SimpleLock()
    private var recent: [String: [Date]] = [:]
    private var sweepAbove: Int
    private let minimumSweep: Int
    static let window: TimeInterval = 3_600
    /// The table's size below which nothing is swept.
    public static let pruneAbove = 50_000

    public init(perHour: Int, pruneAbove: Int = UploadLimiter.pruneAbove) {
        self.perHour = perHour
        self.sweepAbove = pruneAbove
        self.minimumSweep = pruneAbove
    }

    /// How many tokens are tracked now.
    public var tracked: Int { lock.withLock { recent.count } }

    /// Nil when `key` may upload now, and the upload is counted; otherwise the seconds until it
    /// may, and nothing is counted.
    public func reserve(_ key: String, now: Date) -> Int? {
        lock.withLock { () -> Int? in
            let start = now.addingTimeInterval(-Self.window)
            var times = recent[key, default: []]
            if let firstInWindow = times.firstIndex(where: { $0 > start }) {
                times.removeSubrange(..<firstInWindow)
            } else {
                times.removeAll()
            }
            if times.count >= perHour, let oldest = times.first {
                recent[key] = times
                return max(1, Int(oldest.timeIntervalSince(start).rounded(.up)))
            }
            times.append(now)
            recent[key] = times
            if recent.count > sweepAbove {
                recent = recent.filter { $0.value.last.map { $0 > start } ?? false }
                sweepAbove = max(minimumSweep, recent.count * 2)
            }
            return nil
        }
    }

    /// Gives back the upload `reserve` counted for `key` at `now` (its token was not valid, or
    /// the store failed).
    public func release(_ key: String, now: Date) {
        lock.withLock {
            guard var times = recent[key], let index = times.lastIndex(of: now) else { return }
            times.remove(at: index)
            recent[key] = times.isEmpty ? nil : times
        }
    }
}

/// The public listener: `/apricot/…` to APRICOT, everything else to the Immuni API. Without
/// an APRICOT desk (no code secret), `/apricot/…` answers 503 saying what to configure.
struct PublicRoutes: HTTPHandler {
    let immuni: ImmuniAPI
    let apricot: ApricotAPI?

    func route(for request: HTTPRequest) -> String {
        guard ApricotAPI.owns(request.path) else { return immuni.route(for: request) }
        return apricot?.route(for: request) ?? "unmatched"
    }

    func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        guard ApricotAPI.owns(request.path) else { return immuni.handle(request, route: route) }
        guard let apricot else { return .now(ApricotAPI.notConfigured) }
        return apricot.handle(request, route: route)
    }

    func maxBodyBytes(route: String) -> Int? { apricot?.maxBodyBytes(route: route) }
}
