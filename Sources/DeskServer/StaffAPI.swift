import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import DeskText
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
    /// Times the refill of the sign-in budgets: the server's clock (monotonic in production; a
    /// test's virtual clock, so that a slow sign-in does not refill a budget).
    let clock: any Clock
    let metrics: Metrics?

    public init(
        desk: LocalDesk, kdf: DeskExecutor, work: DeskExecutor,
        admission: SignInAdmission = SignInAdmission(placesPerAddress: 0, perAddressPerMinute: 0, perNamePerMinute: 0),
        clock: any Clock = SystemClock(), metrics: Metrics? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.admission = admission
        self.clock = clock
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

    /// Whether `path` is under the staff API (its 404s are worded for it).
    static func owns(_ path: String) -> Bool { path == prefix || path.hasPrefix(prefix + "/") }

    /// The route template of the table (``StaffEndpoint``) the path falls under.
    public func route(for request: HTTPRequest) -> String {
        StaffEndpoint.template(for: request.path) ?? "unmatched"
    }

    /// Answers in the language the client asks for (`Accept-Language`; the console sends its
    /// own), English when it asks for none TraceDesk speaks: the refusals' words (the error
    /// codes and the JSON are the same in every language).
    public func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
        let language = request.headerValues("Accept-Language").lazy.compactMap(Language.ofAcceptLanguage).first ?? .en
        return Language.$scoped.withValue(language) { dispatch(request, route: route) }
    }

    private func dispatch(_ request: HTTPRequest, route: String) -> HandlerResult {
        let known = StaffEndpoint.endpoints(at: route)
        guard !known.isEmpty else {
            return .now(.error(.notFound("no such path in the staff API: see docs/staff-api.yaml")))
        }
        guard let endpoint = known.first(where: { $0.method == request.method }) else {
            let methods = known.map(\.method)
            var response = HTTPResponse.error(.methodNotAllowed(allowed: methods))
            response.headers.append(("Allow", methods.joined(separator: ", ")))
            return .now(response)
        }
        // Hashing a password takes its own executor, two at a time; everything else the store's.
        let on = endpoint.work == .slowKDF ? kdf : work
        let name = StaffEndpoint.segment(of: request.path, in: route) ?? ""
        switch endpoint.name {
        case .info: return .now(ok(200, StaffWire.info()))
        case .needsFirstAdmin: return needsFirstAdmin(on: on)
        case .createFirstAdmin: return createFirstAdmin(request, on: on)
        case .signIn: return signIn(request, on: on)
        case .signOut:
            return serve(StaffCodecs.signOut, request, on: on) { desk, session, _ throws(ServiceError) in
                try await desk.signOut(session)
            }
        case .authorize: return authorize(request, on: on)
        case .status: return status(request, on: on)
        case .staff:
            return serve(StaffCodecs.staff, request, on: on) { desk, session, _ throws(ServiceError) in
                try await desk.staff(session)
            }
        case .addStaff:
            return serve(StaffCodecs.addStaff, request, on: on) { desk, session, body throws(ServiceError) in
                try await desk.addStaff(session, name: body.name, role: body.role, password: body.password)
            }
        case .disableStaff:
            return serve(StaffCodecs.disableStaff, request, name: name, on: on) {
                desk, session, name throws(ServiceError) in
                try await desk.disableStaff(session, name: name)
            }
        case .resetPassword:
            return serve(StaffCodecs.resetPassword, request, name: name, on: on) {
                desk, session, body throws(ServiceError) in
                try await desk.resetPassword(session, name: body.name, password: body.password)
            }
        case .audit:
            return serve(StaffCodecs.audit, request, on: on) { desk, session, query throws(ServiceError) in
                try await desk.audit(session, query: query)
            }
        case .verifyAudit:
            return serve(StaffCodecs.verifyAudit, request, on: on) { desk, session, counts throws(ServiceError) in
                try await desk.verifyAudit(session, hashesAt: counts)
            }
        case .events: return events(request, on: on)
        case .traffic:
            return serve(StaffCodecs.traffic, request, on: on) { desk, session, since throws(ServiceError) in
                try await desk.traffic(session, since: since)
            }
        case .watch:
            return serve(StaffCodecs.watch, request, on: on) { desk, session, target throws(ServiceError) in
                try await desk.watch(session, target)
            }
        case .traceLookup: return traceLookup(request, on: on)
        case .traceSightings: return traceSightings(request, on: on)
        case .traceOutcome: return traceOutcome(request, on: on)
        case .traceExport: return traceExport(request, on: on)
        case .tracePhoneCopy: return tracePhoneCopy(request, on: on)
        case .smsOutbox: return smsOutbox(request, on: on)
        case .cases, .openCase, .caseDetail, .closeCase, .addFollowUp, .followUpQueue, .followUpIndicators,
            .assignFollowUps, .followUpDetail, .followUpAttempt, .followUpCheck, .followUpPhoneCopy:
            return followUps(endpoint.name, request, segment: name, on: on)
        case .statistics: return statistics(request, on: on)
        case .hisClients:
            return serve(StaffCodecs.hisClients, request, on: on) { desk, session, _ throws(ServiceError) in
                try await desk.hisClients(session)
            }
        case .addHISClient:
            return serve(StaffCodecs.addHISClient, request, on: on) { desk, session, body throws(ServiceError) in
                try await desk.addHISClient(session, name: body.name, ratePerMinute: body.ratePerMinute)
            }
        case .revokeHISClient:
            return serve(StaffCodecs.revokeHISClient, request, name: name, on: on) {
                desk, session, name throws(ServiceError) in
                try await desk.revokeHISClient(session, name: name)
            }
        }
    }

    // MARK: Accounts and sessions

    func needsFirstAdmin(on executor: DeskExecutor) -> HandlerResult {
        run(on: executor) { desk throws(ServiceError) in
            ok(200, StaffWire.setup(needsFirstAdmin: try await desk.needsFirstAdmin()))
        }
    }

    func createFirstAdmin(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        let body: StaffRequests.Credentials
        switch StaffRequests.firstAdmin(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): body = value
        }
        // The same places and budgets as a sign-in: a wrong token is refused before any hash,
        // but guessing at it must not crowd out sign-ins either.
        return admitted(request, name: "", on: executor) { desk throws(ServiceError) in
            let session = try await desk.createFirstAdmin(
                name: body.name, password: body.password, setupToken: body.setupToken)
            return (ok(201, StaffWire.session(session)), .succeeded)
        }
    }

    func signIn(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        let body: StaffRequests.Credentials
        switch StaffRequests.credentials(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): body = value
        }
        let source = Self.source(request)
        return admitted(request, name: body.name, on: executor) { desk throws(ServiceError) in
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
        _ request: HTTPRequest, name: String, on executor: DeskExecutor,
        _ call: @escaping @Sendable (LocalDesk) async throws(ServiceError) -> (HTTPResponse, SignInAdmission.Outcome)
    ) -> HandlerResult {
        let admission = self.admission
        let clock = self.clock
        let ticket: SignInAdmission.Ticket
        switch admission.admit(address: Self.source(request), name: name, now: clock.intervalSeconds()) {
        case .failure(let refusal):
            metrics?.count(.staffSignInsRefusedTotal, #"reason="\#(refusal.label)""#)
            var response = HTTPResponse.error(.tooManySignIns(refusal.detail))
            response.headers.append(("Retry-After", String(refusal.retryAfter)))
            return .now(response)
        case .success(let value): ticket = value
        }
        let result = run(on: executor) { desk throws(ServiceError) in
            do throws(ServiceError) {
                let (response, outcome) = try await call(desk)
                admission.finish(ticket, outcome, now: clock.intervalSeconds())
                return response
            } catch {
                admission.finish(ticket, .refusedUnchecked, now: clock.intervalSeconds())
                throw error
            }
        }
        // Not admitted by the executor (full, or stopping): the place is given back now.
        if case .now = result { admission.finish(ticket, .refusedUnchecked, now: clock.intervalSeconds()) }
        return result
    }

    // MARK: Operator

    func authorize(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.authorization) { desk, session, body throws(ServiceError) in
            let result = try await desk.authorize(session, code: body.code, symptomsStartedOn: body.symptomsStartedOn)
            switch result {
            case .authorized: return ok(201, StaffWire.authorization(result))
            case .alreadyAuthorized: return ok(200, StaffWire.authorization(result))
            case .invalid(let refusal):
                return .error(.authorizationRefused(refusal.message), extra: refusal.errorMembers)
            }
        }
    }

    func status(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.statusCode) { desk, session, code throws(ServiceError) in
            ok(200, StaffWire.status(try await desk.status(session, of: code)))
        }
    }

    // MARK: Monitor

    /// A page of events at once when there is one (or no wait was asked for); otherwise the
    /// request waits in ``EventWaits`` with its connection suspended, holding no thread and no
    /// place on the staff executor, until an event arrives or the wait ends.
    func events(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        guard let session = Self.session(request) else { return .now(.error(Self.noToken)) }
        let query: StaffRequests.EventsQuery
        switch StaffRequests.eventsQuery(request) {
        case .failure(let error): return .now(.error(error))
        case .success(let value): query = value
        }
        let waits = self.waits
        if let newest = query.newest {
            return run(on: executor) { desk throws(ServiceError) in
                EventWaits.page(try await desk.newestEvents(session, limit: newest))
            }
        }
        return handOff(on: executor) { desk, answer throws(ServiceError) in
            let page = try await desk.events(session, after: query.after, limit: query.limit, wait: .zero)
            guard page.events.isEmpty, query.waitSeconds > 0 else { return EventWaits.page(page) }
            let waiting = waits.add(
                session: session, after: page.cursor, limit: query.limit, wait: .seconds(query.waitSeconds),
                answer: answer)
            return waiting ? nil : EventWaits.page(page)
        }
    }

    // MARK: Running desk calls

    typealias DeskCall = @Sendable (LocalDesk) async throws(ServiceError) -> HTTPResponse

    /// Suspends the connection and runs `call` on `executor`; its error is answered from the table.
    func run(on executor: DeskExecutor, _ call: @escaping DeskCall) -> HandlerResult {
        handOff(on: executor) { desk, _ throws(ServiceError) in try await call(desk) }
    }

    /// A typed endpoint (``StaffCodec``): its request read, the desk's answer written, both by
    /// the same value RemoteDesk sends and reads with; `name` is the path's `{name}`, if any.
    func serve<Request, Answer>(
        _ codec: StaffCodec<Request, Answer>, _ request: HTTPRequest, name: String = "", on executor: DeskExecutor,
        _ call: @escaping @Sendable (LocalDesk, StaffSession, Request) async throws(ServiceError) -> Answer
    ) -> HandlerResult {
        let read = { (request: HTTPRequest) in codec.request(request, segment: name) }
        return signedIn(request, on: executor, body: read) { desk, session, body throws(ServiceError) in
            let answer = try await call(desk, session, body)
            guard let value = codec.body(answer) else {
                return HTTPResponse(status: codec.status(of: answer), headers: [("Cache-Control", "no-store")])
            }
            return ok(codec.status(of: answer), value)
        }
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
        // The request's language (``handle(_:route:)``), carried into the task that answers it.
        let language = Language.current
        return .suspended { [self] answer in
            Task(executorPreference: executor) {
                // The place on the executor is given back as soon as the call returns, also when
                // the answer waits on: a long poll holds no place.
                defer { executor.release() }
                if executor.isStopping {
                    answer(.error(.unavailable("the server is stopping; retry in a few seconds")))
                    return
                }
                await Language.$scoped.withValue(language) {
                    do throws(ServiceError) {
                        if let response = try await call(desk, answer) { answer(response) }
                    } catch {
                        answer(Self.failure(error, log: self.log))
                    }
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
