import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore

/// How `POST /v1/otp` knows which hospital system is calling (`his_auth`).
public enum HISAuthMode: String, Hashable, Sendable, CaseIterable {
    /// `Authorization: Bearer <key>` of a client an admin added (`tracedesk his add`).
    case key
    /// A TLS client certificate that verifies against `his_ca_file`; its subject CN names the
    /// client, which must have been added and not revoked.
    case certificate
    /// Nobody is asked: every caller is `his-api`. Only for a closed test network (the server
    /// warns at every start).
    case none
}

/// The door of `POST /v1/otp`: who the caller is (a named, unrevoked HIS client), and whether
/// that client is within its authorisations a minute. Decided before the body is read, so an
/// anonymous caller learns nothing about codes.
///
/// The client is read from the store on every request (one indexed read of the key's hash), so
/// a revocation holds at once on every server sharing the store. The rate limit is per server,
/// in memory: N servers behind a balancer let a client make up to N × its limit.
///
/// Privacy rule: no key, hash or certificate text reaches a log line, a metric or an answer.
public final class HISGate: @unchecked Sendable {
    let mode: HISAuthMode
    let desk: PhoneDesk
    let metrics: Metrics
    let defaultRatePerMinute: Int
    let log: @Sendable (String) -> Void
    /// Times the buckets' refill: the server's clock (monotonic in production; a test's virtual
    /// clock, so that a slow request does not refill a bucket).
    let clock: any Clock
    private let lock = SimpleLock()
    private var buckets: [String: (tokens: Double, at: Double)] = [:]

    public init(
        mode: HISAuthMode, desk: PhoneDesk, metrics: Metrics, defaultRatePerMinute: Int,
        clock: any Clock = SystemClock(), log: @escaping @Sendable (String) -> Void
    ) {
        self.log = log
        self.clock = clock
        self.mode = mode
        self.desk = desk
        self.metrics = metrics
        self.defaultRatePerMinute = defaultRatePerMinute
    }

    /// Who may go on: the actor to record and the client's rate.
    struct Caller: Sendable {
        var name: String
        var actor: String
        var ratePerMinute: Int
    }

    /// What the door decided.
    enum Decision {
        case caller(Caller)
        /// 401, or 503 when the store cannot say.
        case refused(HTTPResponse)
    }

    /// The caller of `request`, or the answer that refuses it.
    func authenticate(_ request: HTTPRequest) -> Decision {
        switch mode {
        case .none:
            return .caller(
                Caller(
                    name: HISClientName.anonymousActor, actor: HISClientName.anonymousActor,
                    ratePerMinute: defaultRatePerMinute))
        case .key:
            guard let key = StaffRequests.bearerToken(request) else {
                return refuse(
                    "missing",
                    "send the HIS client's API key as Authorization: Bearer KEY (an admin makes one with tracedesk his add NAME)"
                )
            }
            guard HISKey.looksValid(key) else {
                return refuse(
                    "unknown", "the API key is not one of this server's HIS clients: check it, or ask an admin for one")
            }
            let stored: StoredHISClient?
            do throws(ServiceError) {
                stored = try desk.hisClient(keyHash: HISKey.hash(key))
            } catch {
                return .refused(Incident.response(for: error, log: log))
            }
            guard let stored, HISKey.matches(key, storedHash: stored.keyHash) else {
                return refuse(
                    "unknown", "the API key is not one of this server's HIS clients: check it, or ask an admin for one")
            }
            return admitted(stored.client)
        case .certificate:
            guard let name = request.clientCertificateName else {
                return refuse(
                    "no_certificate",
                    "connect with a TLS client certificate signed by the HIS certificate authority (his_ca_file) whose subject CN names an HIS client"
                )
            }
            let client: HISClient?
            do throws(ServiceError) {
                client = try desk.hisClient(name: name)
            } catch {
                return .refused(Incident.response(for: error, log: log))
            }
            guard let client else {
                return refuse(
                    "unknown_certificate",
                    "the certificate's subject CN names no HIS client of this server: an admin adds it with tracedesk his add NAME"
                )
            }
            return admitted(client)
        }
    }

    private func admitted(_ client: HISClient) -> Decision {
        if client.isRevoked {
            return refuse(
                "revoked",
                "this HIS client was revoked by an admin: ask for a new client (tracedesk his add) and use its key")
        }
        return .caller(
            Caller(name: client.name, actor: client.actor, ratePerMinute: client.ratePerMinute ?? defaultRatePerMinute))
    }

    private func refuse(_ reason: String, _ detail: String) -> Decision {
        metrics.count(.hisAuthFailuresTotal, #"reason="\#(reason)""#)
        return .refused(.error(.hisNotAuthenticated(detail)))
    }

    /// Takes one authorisation from the caller's bucket (`ratePerMinute` as a burst, refilled
    /// evenly over the minute), or answers 429 with Retry-After. `now` in seconds on the scale
    /// of the gate's clock (``Clock/intervalSeconds()``).
    func admit(_ caller: Caller, now: Double? = nil) -> HTTPResponse? {
        let now = now ?? clock.intervalSeconds()
        let capacity = Double(caller.ratePerMinute)
        let rate = capacity / 60
        let wait = lock.withLock { () -> Int? in
            var bucket = buckets[caller.name] ?? (capacity, now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.at) * rate)
            bucket.at = now
            guard bucket.tokens >= 1 else {
                buckets[caller.name] = bucket
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[caller.name] = bucket
            return nil
        }
        guard let wait else { return nil }
        count(caller, "rate_limited")
        var response = HTTPResponse.error(.hisRateLimited(perMinute: caller.ratePerMinute, retryAfter: wait))
        response.headers.append(("Retry-After", String(wait)))
        return response
    }

    /// Counts an outcome of the caller's (client names follow the staff-name rules, so they are
    /// safe as label values).
    func count(_ caller: Caller, _ result: String) {
        metrics.count(.hisAuthorizationsTotal, #"client="\#(caller.name)",result="\#(result)""#)
    }
}
