import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import Dispatch
import Foundation
import JSONText

/// Which listener a handler serves: phones never reach `/v1/otp` or `/metrics`.
public enum Listener: String, Sendable {
    case phone = "public"
    case `internal` = "internal"
    /// `--his-listen`: `POST /v1/otp` alone, for hospital systems on a network of their own.
    case his = "his"
}

/// The Immuni API (spec/immuni-api.yaml under `/v1`, rules in spec/immuni-rules.md) as an
/// ``HTTPHandler``: validation in DeskAPI, rules in PhoneDesk, answers here.
public final class ImmuniAPI: HTTPHandler, @unchecked Sendable {
    /// Verifies an iOS device token with Apple's DeviceCheck (`.authorized`: grant the token).
    public typealias DeviceCheck = @Sendable (_ deviceToken: String) async -> DeviceCheckOutcome
    /// Verifies an Android SafetyNet attestation against the nonce of the record.
    public typealias AttestationCheck =
        @Sendable (_ attestation: String, _ nonce: String) -> Result<
            Void, AttestationFailure
        >
    /// The nonce an Android attestation must carry for a record and salt.
    public typealias NonceMaker = @Sendable (_ info: OperationalInfo, _ salt: String) -> String

    public struct Delay: Sendable {
        public var meanMilliseconds: Double
        public var sdMilliseconds: Double
        public init(meanMilliseconds: Double, sdMilliseconds: Double) {
            self.meanMilliseconds = meanMilliseconds
            self.sdMilliseconds = sdMilliseconds
        }
    }

    let listener: Listener
    let desk: PhoneDesk
    let metrics: Metrics
    let appSettings: AppSettingsFile?
    let delay: Delay
    let dummyErrorPercent: Int
    let deviceCheck: DeviceCheck?
    let attestationCheck: AttestationCheck?
    let nonce: NonceMaker?
    let chunkFiles: ChunkFiles?
    let log: @Sendable (String) -> Void
    /// Who may authorise codes (`POST /v1/otp`); nil on the phone listener.
    let his: HISGate?
    /// Whether `POST /v1/otp` is served here: not on the internal listener once the HIS has a
    /// listener of its own (`his_listen`).
    let servesOtp: Bool
    /// Wrong codes per client address on check-otp and upload (nil: no limit, as in tests of
    /// other things).
    let guesses: OtpGuessLimiter?
    /// Called once each time an address fills its guess bucket (the monitor's warning event).
    let guessesLimited: (@Sendable (_ route: String, _ retryAfter: Int) -> Void)?
    private let notConfiguredWarning: RateLimitedLog
    private let guessWarning: RateLimitedLog
    /// Device checks running now, by token hash, and how many may run at once: each takes 7–10 s
    /// and up to five calls to Apple, and two checks of one device would see each other's marks.
    private let checksLock = SimpleLock()
    private var checksRunning: Set<String> = []
    static let maximumConcurrentDeviceChecks = 64
    /// Attestation checks (certificate chain, signature, then a store write) run two at a time.
    private let verifications: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        queue.name = "tracedesk.attestations"
        return queue
    }()

    public init(
        listener: Listener, desk: PhoneDesk, metrics: Metrics, appSettings: AppSettingsFile?, delay: Delay,
        dummyErrorPercent: Int = 1, deviceCheck: DeviceCheck? = nil, attestationCheck: AttestationCheck? = nil,
        nonce: NonceMaker? = nil, chunkFiles: ChunkFiles? = nil, his: HISGate? = nil, servesOtp: Bool = true,
        guesses: OtpGuessLimiter? = nil,
        guessesLimited: (@Sendable (_ route: String, _ retryAfter: Int) -> Void)? = nil,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.his = his
        self.servesOtp = servesOtp
        self.chunkFiles = chunkFiles
        self.guesses = guesses
        self.guessesLimited = guessesLimited
        self.listener = listener
        self.desk = desk
        self.metrics = metrics
        self.appSettings = appSettings
        self.delay = delay
        self.dummyErrorPercent = dummyErrorPercent
        self.deviceCheck = deviceCheck
        self.attestationCheck = attestationCheck
        self.nonce = nonce
        self.log = log
        notConfiguredWarning = RateLimitedLog(interval: 60, clock: desk.clock)
        guessWarning = RateLimitedLog(interval: 60, clock: desk.clock)
    }

    struct Route {
        let template: String
        let methods: [String]
        let listeners: Set<Listener>
    }

    static let routes: [Route] = [
        Route(template: "/", methods: ["GET", "HEAD"], listeners: [.phone, .internal, .his]),
        Route(template: "/metrics", methods: ["GET", "HEAD"], listeners: [.internal]),
        Route(template: "/v1/otp", methods: ["POST"], listeners: [.internal, .his]),
        Route(template: "/v1/settings", methods: ["GET", "HEAD"], listeners: [.phone]),
        Route(template: "/v1/ingestion/check-otp", methods: ["POST"], listeners: [.phone]),
        Route(template: "/v1/ingestion/upload", methods: ["POST"], listeners: [.phone]),
        Route(template: "/v1/keys/index", methods: ["GET", "HEAD"], listeners: [.phone]),
        Route(template: "/v1/keys/{n}", methods: ["GET", "HEAD"], listeners: [.phone]),
        Route(template: "/v1/analytics/apple/token", methods: ["POST"], listeners: [.phone]),
        Route(template: "/v1/analytics/apple/operational-info", methods: ["POST"], listeners: [.phone]),
        Route(template: "/v1/analytics/google/operational-info", methods: ["POST"], listeners: [.phone]),
    ]

    public func route(for request: HTTPRequest) -> String {
        let path = request.path
        if let route = Self.routes.first(where: { $0.template == path && $0.listeners.contains(listener) }) {
            return route.template
        }
        if listener == .phone, path.hasPrefix("/v1/keys/"), !path.dropFirst(9).contains("/") {
            return "/v1/keys/{n}"
        }
        return "unmatched"
    }

    public func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        guard let known = Self.routes.first(where: { $0.template == route }) else {
            return .now(.error(.notFound("no such path on the \(listener.rawValue) listener: see docs/api.md")))
        }
        if route == "/v1/otp", !servesOtp {
            return .now(
                .error(
                    .notFound(
                        "POST /v1/otp is served on this server's HIS listener (his_listen), not on the \(listener.rawValue) listener"
                    )))
        }
        guard known.methods.contains(request.method) else {
            var response = HTTPResponse.error(.methodNotAllowed(allowed: known.methods))
            response.headers.append(("Allow", known.methods.joined(separator: ", ")))
            return .now(response)
        }
        switch route {
        case "/": return .now(HTTPResponse(status: 200, headers: [("Cache-Control", "no-store")]))
        case "/metrics":
            return .now(
                HTTPResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store"),
                    ],
                    body: Array(metrics.render().utf8)))
        case "/v1/otp": return .now(authorizeOtp(request))
        case "/v1/settings": return .now(settings(request))
        case "/v1/ingestion/check-otp": return checkOtp(request)
        case "/v1/ingestion/upload": return upload(request)
        case "/v1/keys/index": return .now(chunkIndex())
        case "/v1/keys/{n}": return .now(chunk(request))
        case "/v1/analytics/apple/token": return .now(appleToken(request))
        case "/v1/analytics/apple/operational-info": return appleOperationalInfo(request)
        case "/v1/analytics/google/operational-info": return googleOperationalInfo(request)
        default: return .now(.error(.notFound("no such path")))
        }
    }

    // MARK: Endpoints

    /// The caller first (401 without a valid credential, 429 past its rate), then the body.
    func authorizeOtp(_ request: HTTPRequest) -> HTTPResponse {
        guard let his else { return .error(.notFound("no such path on the \(listener.rawValue) listener")) }
        let caller: HISGate.Caller
        switch his.authenticate(request) {
        case .refused(let refusal): return refusal
        case .caller(let value): caller = value
        }
        if let refusal = his.admit(caller) { return refusal }
        switch ImmuniRequests.otpAuthorization(request, today: desk.today()) {
        case .failure(let error):
            metrics.count(.otpAuthorizationsTotal, #"result="invalid""#)
            his.count(caller, "invalid")
            return .error(error)
        case .success(let body):
            do {
                switch try desk.authorize(otp: body.otp, symptomsStartedOn: body.symptomsStartedOn, actor: caller.actor)
                {
                case .authorized:
                    metrics.count(.otpAuthorizationsTotal, #"result="authorized""#)
                    his.count(caller, "authorized")
                    return .noContent
                case .alreadyAuthorized:
                    metrics.count(.otpAuthorizationsTotal, #"result="already_authorized""#)
                    his.count(caller, "already_authorized")
                    return .error(.alreadyAuthorized)
                }
            } catch {
                return unavailable(error)
            }
        }
    }

    func settings(_ request: HTTPRequest) -> HTTPResponse {
        switch ImmuniRequests.settings(request) {
        case .failure(let error): return .error(error)
        case .success(let query):
            let body =
                appSettings?.current.body(platform: query.platform.rawValue, build: query.build) ?? Array("{}".utf8)
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "public, max-age=3600"),
                ], body: body)
        }
    }

    func checkOtp(_ request: HTTPRequest) -> HandlerResult {
        let parsed: ImmuniRequests.CheckOtpRequest
        switch ImmuniRequests.checkOtp(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): parsed = value
        }
        let route = "/v1/ingestion/check-otp"
        if parsed.dummy {
            return .after(nextDelay()) { [self] in dummyAnswer(route: route, errorPercent: dummyErrorPercent) }
        }
        metrics.count(.phoneRequestsTotal, #"route="\#(route)",traffic="real""#)
        let address = request.clientAddress
        // The delay is kept for every answer, the 429 too: timing tells nothing.
        return .after(nextDelay()) { [self] in
            if let refused = guessLimited(address, route: route) { return refused }
            guard let hash = parsed.bearer.otpHash else {
                metrics.count(.checksTotal, #"result="unauthorized""#)
                return wrongCode(address, route: route)
            }
            do throws(ServiceError) {
                let usable = try desk.checkOtp(hash)
                metrics.count(.checksTotal, usable ? #"result="authorized""# : #"result="unauthorized""#)
                return usable ? .noContent : wrongCode(address, route: route)
            } catch {
                return unavailable(error)
            }
        }
    }

    func upload(_ request: HTTPRequest) -> HandlerResult {
        let parsed: ImmuniRequests.UploadRequest
        switch ImmuniRequests.upload(request, today: desk.today()) {
        case .failure(let error):
            metrics.count(.uploadsTotal, #"result="invalid""#)
            return .now(.error(error))
        case .success(let value): parsed = value
        }
        let route = "/v1/ingestion/upload"
        if parsed.dummy {
            return .after(nextDelay()) { [self] in dummyAnswer(route: route, errorPercent: 0) }
        }
        metrics.count(.phoneRequestsTotal, #"route="\#(route)",traffic="real""#)
        let address = request.clientAddress
        // The same delay as a dummy upload: an observer cannot tell real uploads by their timing.
        return .after(nextDelay()) { [self] in
            if let refused = guessLimited(address, route: route) { return refused }
            return storeUpload(parsed, address: address)
        }
    }

    /// The 429 of the guess limit for `address`, or nil when it may be answered.
    func guessLimited(_ address: String?, route: String) -> HTTPResponse? {
        guard let guesses, case .refused(let seconds) = guesses.decision(address: address) else { return nil }
        metrics.count(.otpGuessesLimitedTotal, #"route="\#(route)""#)
        var response = HTTPResponse.error(.otpGuessesLimited(retryAfter: seconds))
        response.headers.append(("Retry-After", String(seconds)))
        return response
    }

    /// The 401 of a wrong code, counted against `address`; the first failure that fills the
    /// address's bucket is logged (at most once a minute an address) and shown in the monitor.
    func wrongCode(_ address: String?, route: String) -> HTTPResponse {
        metrics.count(.otpGuessFailuresTotal, #"route="\#(route)""#)
        if let guesses, guesses.recordFailure(address: address), let address {
            let key = CodeRequestLimiter.key(address)
            let seconds: Int
            if case .refused(let wait) = guesses.decision(address: address) { seconds = wait } else { seconds = 1 }
            guessWarning.log(
                key, log,
                "WARNING: client address \(key) sent \(guesses.policy.failures) wrong codes within \(Int(guesses.policy.windowSeconds)) s (\(route)): answering it 429 (otp_guess_limit)"
            )
            guessesLimited?(route, seconds)
        }
        return .error(.unauthorizedOtp)
    }

    func storeUpload(_ parsed: ImmuniRequests.UploadRequest, address: String? = nil) -> HTTPResponse {
        let route = "/v1/ingestion/upload"
        guard let hash = parsed.bearer.otpHash else {
            metrics.count(.uploadsTotal, #"result="refused""#)
            return wrongCode(address, route: route)
        }
        do throws(ServiceError) {
            switch try desk.upload(
                hash, clientClock: parsed.clientClock, keys: parsed.keys, province: parsed.province,
                summariesJSON: parsed.exposureDetectionSummaries.serialized, summaryCount: parsed.summaryCount)
            {
            case .stored(_, let record):
                metrics.count(.uploadsTotal, #"result="stored""#)
                metrics.count(.keysAcceptedTotal, by: record.evaluation.accepted.count)
                for (reason, count) in record.evaluation.droppedCounts {
                    metrics.count(.keysDroppedTotal, #"reason="\#(reason.rawValue)""#, by: count)
                }
                return .noContent
            case .refused:
                metrics.count(.uploadsTotal, #"result="refused""#)
                return wrongCode(address, route: route)
            }
        } catch {
            return unavailable(error)
        }
    }

    func chunk(_ request: HTTPRequest) -> HTTPResponse {
        let text = String(request.path.dropFirst("/v1/keys/".count))
        guard let index = Fields.parseInteger(text), (1...Fields.int32Max).contains(index), String(index) == text else {
            return .error(.missingParameters("the chunk index must be a whole number from 1 to 2147483647"))
        }
        do {
            guard let zip = try chunkFiles?.zip(index) else { return .error(.chunkNotFound) }
            return HTTPResponse(
                status: 200,
                headers: [("Content-Type", "application/zip"), ("Cache-Control", "public, max-age=1296000")],
                body: zip)
        } catch {
            return unavailable(error)
        }
    }

    /// `{oldest, newest}` over the chunks on offer (spec/immuni-rules.md).
    func chunkIndex() -> HTTPResponse {
        do {
            guard let range = try chunkFiles?.index() else { return .error(.noChunks) }
            let index = JSONValue.object([
                .init(key: "oldest", value: .number(String(range.lowerBound))),
                .init(key: "newest", value: .number(String(range.upperBound))),
            ])
            return .json(200, index.serialized, cacheControl: "public, max-age=1800")
        } catch {
            return unavailable(error)
        }
    }

    func appleToken(_ request: HTTPRequest) -> HTTPResponse {
        let parsed: ImmuniRequests.AppleTokenRequest
        switch ImmuniRequests.appleToken(request) {
        case .failure(let error): return .error(error)
        case .success(let value): parsed = value
        }
        do {
            if try desk.analyticsTokenAuthorized(parsed.analyticsToken) {
                metrics.count(.analyticsTotal, #"kind="apple_token",result="authorized""#)
                return HTTPResponse(status: 201)
            }
        } catch {
            return unavailable(error)
        }
        guard let deviceCheck else {
            metrics.count(.analyticsTotal, #"kind="apple_token",result="refused_not_configured""#)
            notConfiguredWarning.log(
                "apple-token", log,
                "WARNING: an iOS analytics token was refused because Apple DeviceCheck is not configured (apple_device_check_url…): no iOS analytics are accepted"
            )
            return HTTPResponse(status: 202)
        }
        let tokenHash = PhoneDesk.tokenHash(parsed.analyticsToken)
        let started = checksLock.withLock { () -> Bool in
            guard checksRunning.count < Self.maximumConcurrentDeviceChecks, !checksRunning.contains(tokenHash) else {
                return false
            }
            checksRunning.insert(tokenHash)
            return true
        }
        guard started else {
            // Already being checked, or too many checks at once: still "in progress"; the app asks again.
            metrics.count(.analyticsTotal, #"kind="apple_token",result="check_not_started""#)
            return HTTPResponse(status: 202)
        }
        metrics.count(.analyticsTotal, #"kind="apple_token",result="checking""#)
        let desk = self.desk
        let metrics = self.metrics
        let log = self.log
        Task.detached { [self] in
            defer { checksLock.withLock { _ = checksRunning.remove(tokenHash) } }
            switch await deviceCheck(parsed.deviceToken) {
            case .authorized:
                do throws(ServiceError) {
                    try desk.grantAnalyticsToken(parsed.analyticsToken)
                    metrics.count(.analyticsTotal, #"kind="apple_token",result="granted""#)
                } catch {
                    log("analytics token could not be granted: \(error.message)")
                }
            case .discarded:
                metrics.count(.analyticsTotal, #"kind="apple_token",result="device_check_discarded""#)
            case .blacklisted:
                metrics.count(.analyticsTotal, #"kind="apple_token",result="device_check_blacklisted""#)
            }
        }
        return HTTPResponse(status: 202)
    }

    func appleOperationalInfo(_ request: HTTPRequest) -> HandlerResult {
        let parsed: ImmuniRequests.AppleOperationalInfoRequest
        switch ImmuniRequests.appleOperationalInfo(request, today: desk.today()) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): parsed = value
        }
        let route = "/v1/analytics/apple/operational-info"
        if parsed.dummy {
            return .after(nextDelay()) { [self] in dummyAnswer(route: route, errorPercent: 0) }
        }
        metrics.count(.phoneRequestsTotal, #"route="\#(route)",traffic="real""#)
        return .after(nextDelay()) { [self] in
            do throws(ServiceError) {
                let stored = try desk.recordAppleOperationalInfo(parsed.info, token: parsed.analyticsToken)
                metrics.count(
                    .analyticsTotal,
                    #"kind="apple_operational_info",result="\#(stored ? "stored" : "no_allowance")""#)
            } catch {
                return unavailable(error)
            }
            return .noContent
        }
    }

    func googleOperationalInfo(_ request: HTTPRequest) -> HandlerResult {
        let parsed: ImmuniRequests.GoogleOperationalInfoRequest
        switch ImmuniRequests.googleOperationalInfo(request, today: desk.today()) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): parsed = value
        }
        let route = "/v1/analytics/google/operational-info"
        if parsed.dummy {
            return .after(nextDelay()) { [self] in dummyAnswer(route: route, errorPercent: 0) }
        }
        metrics.count(.phoneRequestsTotal, #"route="\#(route)",traffic="real""#)
        guard let attestationCheck, let nonce else {
            metrics.count(
                .analyticsTotal, #"kind="google_operational_info",result="discarded_not_configured""#)
            notConfiguredWarning.log(
                "google", log,
                "WARNING: an Android operational-info record was discarded because no attestation root is configured (google_attestation_root_file): no Android analytics are accepted"
            )
            return .after(nextDelay()) { .noContent }
        }
        let desk = self.desk
        let metrics = self.metrics
        let log = self.log
        if desk.attestationSaltUsed(parsed.salt) {
            metrics.count(.analyticsTotal, #"kind="google_operational_info",result="salt_reused""#)
            return .after(nextDelay()) { .noContent }
        }
        // Verified off the request path, like Immuni's queue: the answer is 204 either way, after
        // the same delay as a dummy's.
        verifications.addOperation {
            if case .failure(let failure) = attestationCheck(parsed.signedAttestation, nonce(parsed.info, parsed.salt))
            {
                // The case name only: OpenSSL's chain text would make endless label values.
                let reason = String(describing: failure).prefix { $0 != "(" }
                metrics.count(
                    .analyticsTotal,
                    #"kind="google_operational_info",result="attestation_failed",reason="\#(reason)""#)
                return
            }
            do throws(ServiceError) {
                let stored = try desk.recordGoogleOperationalInfo(parsed.info, salt: parsed.salt)
                metrics.count(
                    .analyticsTotal,
                    #"kind="google_operational_info",result="\#(stored ? "stored" : "salt_reused")""#)
            } catch {
                log("operational info could not be stored: \(error.message)")
            }
        }
        return .after(nextDelay()) { .noContent }
    }

    // MARK: Helpers

    /// A dummy request, after its delay: counted, answered like a real one, never recorded.
    func dummyAnswer(route: String, errorPercent: Int) -> HTTPResponse {
        metrics.count(.phoneRequestsTotal, #"route="\#(route)",traffic="dummy""#)
        desk.countDummy(route: route)
        if errorPercent > 0, Int.random(in: 0..<100) < errorPercent { return .error(.unauthorizedOtp) }
        return .noContent
    }

    /// A draw of the artificial delay: normal(mean, sd), never negative.
    func nextDelay() -> Duration {
        guard delay.meanMilliseconds > 0 || delay.sdMilliseconds > 0 else { return .zero }
        // Box–Muller.
        let u1 = Double.random(in: Double.ulpOfOne..<1)
        let u2 = Double.random(in: 0..<1)
        let z = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
        let ms = max(0, delay.meanMilliseconds + delay.sdMilliseconds * z)
        return .microseconds(Int64(ms * 1000))
    }

    /// A store that is busy or unreachable is temporary (503 with Retry-After); anything else is
    /// a fault of ours (500).
    /// Either way the log has the reason under an incident id and the client only the id.
    func unavailable(_ error: ServiceError) -> HTTPResponse { Incident.response(for: error, log: log) }
}

/// Short ids that tie an error answer to its log line.
enum Incident {
    static func next() -> String {
        String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    /// The answer to a use case that failed, for the phone APIs (Immuni and APRICOT): a store
    /// that is busy or unreachable is temporary (503 with Retry-After); anything else is a fault
    /// of ours (500). Either way the log has the reason under an incident id and the client only
    /// the id (a store message never holds a phone number, a code or a token).
    static func response(for error: ServiceError, log: (String) -> Void) -> HTTPResponse {
        let incident = next()
        log("incident \(incident): \(error.message)")
        if case .unavailable = error {
            return .error(.unavailable("storage is busy or unreachable (incident \(incident)); retry in a few seconds"))
        }
        return .error(.unknown(incident: incident))
    }
}

/// Logs a message at most once per interval per key (a misconfiguration must be loud, not a flood).
final class RateLimitedLog: @unchecked Sendable {
    private let lock = SimpleLock()
    private var last: [String: Double] = [:]
    private let interval: TimeInterval
    private let clock: any Clock

    /// `clock`: the server's (monotonic in production; a test's own moves only when the test
    /// says, so "once a minute" does not depend on how fast the test runs).
    init(interval: TimeInterval, clock: any Clock) {
        self.interval = interval
        self.clock = clock
    }

    func log(_ key: String, _ sink: @Sendable (String) -> Void, _ message: String) {
        let now = clock.intervalSeconds()
        let due = lock.withLock { () -> Bool in
            if let previous = last[key], now - previous < interval { return false }
            last[key] = now
            return true
        }
        if due { sink(message) }
    }
}
