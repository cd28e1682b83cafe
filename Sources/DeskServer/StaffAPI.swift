import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import Dispatch
import Foundation
import JSONText

/// The staff API (docs/staff-api.yaml) as an ``HTTPHandler``, on the internal listener only:
/// consoles and the CLI with `--server URL` reach their ``LocalDesk`` through it.
///
/// Requests are read here (DeskAPI), decided by the desk, answered here: no rule lives in this
/// file. Every desk call runs suspended on an executor of its own, never on a server thread:
/// those that hash a password (sign-in, first admin, new account, reset) on `kdf` (two at a
/// time: each takes ~100 ms and 32 MiB), the rest (store transactions) on `work`.
///
/// Privacy rule: codes and passwords come only in bodies and tokens only in the
/// `Authorization` header, so the access log (method and route template) never sees them; the
/// server log gets only the desk's messages, which hold none of them.
public final class StaffAPI: HTTPHandler, @unchecked Sendable {
    let desk: LocalDesk
    let kdf: DeskExecutor
    let work: DeskExecutor
    let log: @Sendable (String) -> Void
    /// The long polls of `GET /staff/v1/events` that wait for an event.
    let waits: EventWaits

    /// Who may put a sign-in (or a first admin) on `kdf`.
    let admission: SignInAdmission
    let metrics: Metrics?

    public init(
        desk: LocalDesk, kdf: DeskExecutor, work: DeskExecutor,
        admission: SignInAdmission = SignInAdmission(placesPerAddress: 0, perAddressPerMinute: 0, perNamePerMinute: 0),
        metrics: Metrics? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.admission = admission
        self.metrics = metrics
        self.desk = desk
        self.kdf = kdf
        self.work = work
        self.log = log
        waits = EventWaits(desk: desk, executor: work, failure: { Self.failure($0, log: log) })
    }

    /// Answers every waiting long poll now (a stopping server must not wait for them).
    public func stopWaiting() { waits.stop() }

    /// Long polls waiting now.
    public var waitingPolls: Int { waits.count }

    static let prefix = StaffWire.prefix

    struct Route {
        let template: String
        let methods: [String]
    }

    static let routes: [Route] = [
        Route(template: prefix, methods: ["GET"]),
        Route(template: prefix + "/setup", methods: ["GET", "POST"]),
        Route(template: prefix + "/sessions", methods: ["POST"]),
        Route(template: prefix + "/sessions/current", methods: ["DELETE"]),
        Route(template: prefix + "/otp/authorizations", methods: ["POST"]),
        Route(template: prefix + "/otp/status", methods: ["POST"]),
        Route(template: prefix + "/staff", methods: ["GET", "POST"]),
        Route(template: prefix + "/staff/{name}/disable", methods: ["POST"]),
        Route(template: prefix + "/staff/{name}/password", methods: ["POST"]),
        Route(template: prefix + "/audit", methods: ["GET"]),
        Route(template: prefix + "/audit/verification", methods: ["GET"]),
        Route(template: prefix + "/events", methods: ["GET"]),
        Route(template: prefix + "/traffic", methods: ["GET"]),
        Route(template: prefix + "/watch", methods: ["POST"]),
        Route(template: prefix + "/trace/lookup", methods: ["POST"]),
        Route(template: prefix + "/trace/sightings", methods: ["POST"]),
        Route(template: prefix + "/trace/outcome", methods: ["POST"]),
        Route(template: prefix + "/trace/export", methods: ["POST"]),
        Route(template: prefix + "/sms/outbox", methods: ["GET"]),
        Route(template: prefix + "/stats", methods: ["GET"]),
        Route(template: prefix + "/his-clients", methods: ["GET", "POST"]),
        Route(template: prefix + "/his-clients/{name}/revoke", methods: ["POST"]),
    ]

    /// Whether `path` is under the staff API (its 404s are worded for it).
    static func owns(_ path: String) -> Bool { path == prefix || path.hasPrefix(prefix + "/") }

    /// The account name in `/staff/v1/staff/{name}/<action>`: everything between, as sent
    /// (the desk judges it, so a bad name gets the desk's message, after the session check).
    static func accountName(_ path: String, action: String) -> String? {
        let head = prefix + "/staff/"
        let tail = "/" + action
        guard path.hasPrefix(head), path.hasSuffix(tail), path.utf8.count >= head.utf8.count + tail.utf8.count else {
            return nil
        }
        return String(path.dropFirst(head.count).dropLast(tail.count))
    }

    public func route(for request: HTTPRequest) -> String {
        let path = request.path
        if let route = Self.routes.first(where: { $0.template == path }) { return route.template }
        if Self.accountName(path, action: "disable") != nil { return Self.prefix + "/staff/{name}/disable" }
        if Self.accountName(path, action: "password") != nil { return Self.prefix + "/staff/{name}/password" }
        if Self.clientName(path) != nil { return Self.prefix + "/his-clients/{name}/revoke" }
        return "unmatched"
    }

    public func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        guard let known = Self.routes.first(where: { $0.template == route }) else {
            return .now(.error(.notFound("no such path in the staff API: see docs/staff-api.yaml")))
        }
        guard known.methods.contains(request.method) else {
            var response = HTTPResponse.error(.methodNotAllowed(allowed: known.methods))
            response.headers.append(("Allow", known.methods.joined(separator: ", ")))
            return .now(response)
        }
        switch (request.method, route) {
        case ("GET", Self.prefix): return .now(ok(200, StaffWire.info()))
        case ("GET", Self.prefix + "/setup"): return needsFirstAdmin()
        case ("POST", Self.prefix + "/setup"): return createFirstAdmin(request)
        case ("POST", Self.prefix + "/sessions"): return signIn(request)
        case ("DELETE", Self.prefix + "/sessions/current"): return signOut(request)
        case ("POST", Self.prefix + "/otp/authorizations"): return authorize(request)
        case ("POST", Self.prefix + "/otp/status"): return status(request)
        case ("GET", Self.prefix + "/staff"): return staff(request)
        case ("POST", Self.prefix + "/staff"): return addStaff(request)
        case ("POST", Self.prefix + "/staff/{name}/disable"): return disableStaff(request)
        case ("POST", Self.prefix + "/staff/{name}/password"): return resetPassword(request)
        case ("GET", Self.prefix + "/audit"): return audit(request)
        case ("GET", Self.prefix + "/audit/verification"): return verifyAudit(request)
        case ("GET", Self.prefix + "/events"): return events(request)
        case ("GET", Self.prefix + "/traffic"): return traffic(request)
        case ("POST", Self.prefix + "/watch"): return watch(request)
        case ("POST", Self.prefix + "/trace/lookup"): return traceLookup(request)
        case ("POST", Self.prefix + "/trace/sightings"): return traceSightings(request)
        case ("POST", Self.prefix + "/trace/outcome"): return traceOutcome(request)
        case ("POST", Self.prefix + "/trace/export"): return traceExport(request)
        case ("GET", Self.prefix + "/sms/outbox"): return smsOutbox(request)
        case ("GET", Self.prefix + "/stats"): return statistics(request)
        case ("GET", Self.prefix + "/his-clients"): return hisClients(request)
        case ("POST", Self.prefix + "/his-clients"): return addHISClient(request)
        case ("POST", Self.prefix + "/his-clients/{name}/revoke"): return revokeHISClient(request)
        default: return .now(.error(.notFound("no such path in the staff API: see docs/staff-api.yaml")))
        }
    }

    // MARK: Accounts and sessions

    func needsFirstAdmin() -> HandlerResult {
        run(on: work) { desk throws(ServiceError) in
            ok(200, StaffWire.setup(needsFirstAdmin: try await desk.needsFirstAdmin()))
        }
    }

    func createFirstAdmin(_ request: HTTPRequest) -> HandlerResult {
        let body: StaffRequests.Credentials
        switch StaffRequests.firstAdmin(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): body = value
        }
        // The same places and budgets as a sign-in: a wrong token is refused before any hash,
        // but guessing at it must not crowd out sign-ins either.
        return admitted(request, name: "") { desk throws(ServiceError) in
            let session = try await desk.createFirstAdmin(
                name: body.name, password: body.password, setupToken: body.setupToken)
            return (ok(201, StaffWire.session(session)), .succeeded)
        }
    }

    func signIn(_ request: HTTPRequest) -> HandlerResult {
        let body: StaffRequests.Credentials
        switch StaffRequests.credentials(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): body = value
        }
        let source = Self.source(request)
        return admitted(request, name: body.name) { desk throws(ServiceError) in
            let result = await desk.attemptSignIn(name: body.name, password: body.password, from: source)
            switch result.outcome {
            case .success(let session): return (ok(201, StaffWire.session(session)), .succeeded)
            case .failure(let error):
                return (
                    Self.failure(error, log: self.log), result.passwordChecked ? .failedAfterCheck : .refusedUnchecked
                )
            }
        }
    }

    /// The source failures are counted under: the client's address, an IPv6 client by its /64.
    static func source(_ request: HTTPRequest) -> String {
        request.clientAddress.map(CodeRequestLimiter.key) ?? "unknown"
    }

    /// A call that hashes a password, admitted by ``SignInAdmission`` first (429 with
    /// Retry-After when a budget is spent), then run on the KDF executor; its outcome settles
    /// the budgets.
    func admitted(
        _ request: HTTPRequest, name: String,
        _ call: @escaping @Sendable (LocalDesk) async throws(ServiceError) -> (HTTPResponse, SignInAdmission.Outcome)
    ) -> HandlerResult {
        let admission = self.admission
        let ticket: SignInAdmission.Ticket
        switch admission.admit(address: Self.source(request), name: name, now: Self.monotonicSeconds()) {
        case .failure(let refusal):
            metrics?.count("tracedesk_staff_sign_ins_refused_total", #"reason="\#(refusal.label)""#)
            var response = HTTPResponse.error(.tooManySignIns(refusal.detail))
            response.headers.append(("Retry-After", String(refusal.retryAfter)))
            return .now(response)
        case .success(let value): ticket = value
        }
        let result = run(on: kdf) { desk throws(ServiceError) in
            do throws(ServiceError) {
                let (response, outcome) = try await call(desk)
                admission.finish(ticket, outcome, now: Self.monotonicSeconds())
                return response
            } catch {
                admission.finish(ticket, .refusedUnchecked, now: Self.monotonicSeconds())
                throw error
            }
        }
        // Not admitted by the executor (full, or stopping): the place is given back now.
        if case .now = result { admission.finish(ticket, .refusedUnchecked, now: Self.monotonicSeconds()) }
        return result
    }

    static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    func signOut(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work) { desk, session throws(ServiceError) in
            try await desk.signOut(session)
            return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
        }
    }

    // MARK: Operator

    func authorize(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.authorization) { desk, session, body throws(ServiceError) in
            let result = try await desk.authorize(session, code: body.code, symptomsStartedOn: body.symptomsStartedOn)
            switch result {
            case .authorized: return ok(201, StaffWire.authorization(result))
            case .alreadyAuthorized: return ok(200, StaffWire.authorization(result))
            case .invalid(let refusal):
                return .error(.authorizationRefused(refusal.message), extra: refusal.errorMembers)
            }
        }
    }

    func status(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.statusCode) { desk, session, code throws(ServiceError) in
            ok(200, StaffWire.status(try await desk.status(session, of: code)))
        }
    }

    // MARK: Admin

    func staff(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work) { desk, session throws(ServiceError) in
            ok(200, StaffWire.accounts(try await desk.staff(session)))
        }
    }

    func addStaff(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: kdf, body: StaffRequests.newStaff) { desk, session, body throws(ServiceError) in
            ok(
                201,
                StaffWire.account(
                    try await desk.addStaff(session, name: body.name, role: body.role, password: body.password)))
        }
    }

    func disableStaff(_ request: HTTPRequest) -> HandlerResult {
        let name = Self.accountName(request.path, action: "disable") ?? ""
        return signedIn(request, on: work) { desk, session throws(ServiceError) in
            ok(200, StaffWire.account(try await desk.disableStaff(session, name: name)))
        }
    }

    func resetPassword(_ request: HTTPRequest) -> HandlerResult {
        let name = Self.accountName(request.path, action: "password") ?? ""
        return signedIn(request, on: kdf, body: StaffRequests.newPassword) {
            desk, session, password throws(ServiceError) in
            ok(200, StaffWire.account(try await desk.resetPassword(session, name: name, password: password)))
        }
    }

    func audit(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.auditQuery) { desk, session, query throws(ServiceError) in
            ok(200, StaffWire.auditEntries(try await desk.audit(session, query: query)))
        }
    }

    func verifyAudit(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.verificationCounts) {
            desk, session, counts throws(ServiceError) in
            ok(200, StaffWire.verification(try await desk.verifyAudit(session, hashesAt: counts)))
        }
    }

    // MARK: Hospital systems

    func hisClients(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work) { desk, session throws(ServiceError) in
            ok(200, StaffWire.hisClients(try await desk.hisClients(session)))
        }
    }

    func addHISClient(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.newHISClient) { desk, session, body throws(ServiceError) in
            let added = try await desk.addHISClient(session, name: body.name, ratePerMinute: body.ratePerMinute)
            return ok(201, StaffWire.newHISClient(added.client, key: added.key))
        }
    }

    func revokeHISClient(_ request: HTTPRequest) -> HandlerResult {
        let name = Self.clientName(request.path) ?? ""
        return signedIn(request, on: work) { desk, session throws(ServiceError) in
            ok(200, StaffWire.hisClient(try await desk.revokeHISClient(session, name: name)))
        }
    }

    /// The client name in `/staff/v1/his-clients/{name}/revoke`, as sent (the desk judges it).
    static func clientName(_ path: String) -> String? {
        let head = prefix + "/his-clients/"
        let tail = "/revoke"
        guard path.hasPrefix(head), path.hasSuffix(tail), path.utf8.count >= head.utf8.count + tail.utf8.count else {
            return nil
        }
        return String(path.dropFirst(head.count).dropLast(tail.count))
    }

    // MARK: Monitor

    /// A page of events at once when there is one (or no wait was asked for); otherwise the
    /// request waits in ``EventWaits`` with its connection suspended, holding no thread and no
    /// place on the staff executor, until an event arrives or the wait ends.
    func events(_ request: HTTPRequest) -> HandlerResult {
        guard let session = Self.session(request) else { return .now(.error(Self.noToken)) }
        let query: StaffRequests.EventsQuery
        switch StaffRequests.eventsQuery(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): query = value
        }
        let waits = self.waits
        if let newest = query.newest {
            return run(on: work) { desk throws(ServiceError) in
                EventWaits.page(try await desk.newestEvents(session, limit: newest))
            }
        }
        return handOff(on: work) { desk, answer throws(ServiceError) in
            let page = try await desk.events(session, after: query.after, limit: query.limit, wait: .zero)
            guard page.events.isEmpty, query.waitSeconds > 0 else { return EventWaits.page(page) }
            let waiting = waits.add(
                session: session, after: page.cursor, limit: query.limit, wait: .seconds(query.waitSeconds),
                answer: answer)
            return waiting ? nil : EventWaits.page(page)
        }
    }

    func traffic(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.trafficSince) { desk, session, since throws(ServiceError) in
            ok(200, StaffWire.traffic(try await desk.traffic(session, since: since)))
        }
    }

    func watch(_ request: HTTPRequest) -> HandlerResult {
        signedIn(request, on: work, body: StaffRequests.watchTarget) { desk, session, target throws(ServiceError) in
            ok(200, StaffWire.watch(try await desk.watch(session, target)))
        }
    }

    // MARK: Running desk calls

    typealias DeskCall = @Sendable (LocalDesk) async throws(ServiceError) -> HTTPResponse

    /// Suspends the connection and runs `call` on `executor`; its error is answered from the table.
    func run(on executor: DeskExecutor, _ call: @escaping DeskCall) -> HandlerResult {
        handOff(on: executor) { desk, _ throws(ServiceError) in try await call(desk) }
    }

    /// Suspends the connection and runs `call` on `executor`, which returns the response, or nil
    /// after giving `answer` away (a long poll: it must then be called once, later). Admission
    /// first: a full queue (a flood of sign-ins) or a stopping server is answered 503 with
    /// Retry-After now, before the connection is suspended.
    func handOff(
        on executor: DeskExecutor,
        _ call: @escaping @Sendable (LocalDesk, @escaping EventWaits.Answer) async throws(ServiceError) -> HTTPResponse?
    ) -> HandlerResult {
        guard executor.admit() else {
            return .now(
                .error(
                    .unavailable(
                        executor.isStopping
                            ? "the server is stopping; retry in a few seconds"
                            : "too many requests are waiting for this kind of work; retry in a few seconds")))
        }
        let desk = self.desk
        return .suspended { [self] answer in
            Task(executorPreference: executor) {
                // The place on the executor is given back as soon as the call returns, also when
                // the answer waits on: a long poll holds no place.
                defer { executor.release() }
                if executor.isStopping {
                    answer(.error(.unavailable("the server is stopping; retry in a few seconds")))
                    return
                }
                do throws(ServiceError) {
                    if let response = try await call(desk, answer) { answer(response) }
                } catch {
                    answer(Self.failure(error, log: self.log))
                }
            }
        }
    }

    /// A call for the person whose session token the request carries. With no bearer token at
    /// all the answer is 2001 at once; any token is checked by the desk (so every way a session
    /// can be wrong gets the desk's own message).
    func signedIn(
        _ request: HTTPRequest, on executor: DeskExecutor,
        _ call: @escaping @Sendable (LocalDesk, StaffSession) async throws(ServiceError) -> HTTPResponse
    ) -> HandlerResult {
        guard let session = Self.session(request) else { return .now(.error(Self.noToken)) }
        return run(on: executor) { desk throws(ServiceError) in try await call(desk, session) }
    }

    /// As above, with a request body (or query) read first: the session is checked before a
    /// body problem is reported only when there is no token at all.
    func signedIn<Body: Sendable>(
        _ request: HTTPRequest, on executor: DeskExecutor, body read: (HTTPRequest) -> Result<Body, APIError>,
        _ call: @escaping @Sendable (LocalDesk, StaffSession, Body) async throws(ServiceError) -> HTTPResponse
    ) -> HandlerResult {
        guard let session = Self.session(request) else { return .now(.error(Self.noToken)) }
        let body: Body
        switch read(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): body = value
        }
        return run(on: executor) { desk throws(ServiceError) in try await call(desk, session, body) }
    }

    /// The desk checks a session by its token alone; the other fields are what the client was
    /// told at sign-in and play no part here.
    static func session(_ request: HTTPRequest) -> StaffSession? {
        guard let token = StaffRequests.bearerToken(request) else { return nil }
        return StaffSession(
            token: token, user: "", role: .operator, signedInAt: .distantPast, expiresAt: .distantPast, idleSeconds: 0)
    }

    static let noToken = APIError.notSignedIn(
        "not signed in: sign in with POST \(prefix)/sessions and send its token as Authorization: Bearer TOKEN")

    /// An error from the desk, from the one table. Store trouble is logged under an incident id
    /// and answered with the id only (store messages can name files and hosts).
    static func failure(_ error: ServiceError, log: (String) -> Void) -> HTTPResponse {
        switch error {
        case .unavailable(let text):
            let incident = Incident.next()
            log("incident \(incident): staff API: \(text)")
            return .error(.unavailable("storage is busy or unreachable (incident \(incident)); retry in a few seconds"))
        case .failed(let text):
            let incident = Incident.next()
            log("incident \(incident): staff API: \(text)")
            return .error(.unknown(incident: incident))
        default:
            return .error(error.apiError)
        }
    }
}

/// A success: JSON, never cached (sessions and personal data).
func ok(_ status: Int, _ value: JSONValue) -> HTTPResponse {
    .json(status, value.serialized, cacheControl: "no-store")
}

/// The internal listener's handler: the staff API under `/staff/v1`, the Immuni API's internal
/// routes (`/v1/otp`, `/metrics`, `/`) everywhere else.
struct InternalRoutes: HTTPHandler {
    let immuni: ImmuniAPI
    let staff: StaffAPI

    func route(for request: HTTPRequest) -> String {
        StaffAPI.owns(request.path) ? staff.route(for: request) : immuni.route(for: request)
    }

    func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        StaffAPI.owns(request.path) ? staff.handle(request, route: route) : immuni.handle(request, route: route)
    }
}
