import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskText
import Foundation
import JSONText

/// The staff use cases over the staff API of a `tracedesk serve` (docs/staff-api.yaml): the
/// console and the CLI with `--server URL`.
///
/// No rule is decided here: the server's ``LocalDesk`` decides, and every answer and error
/// comes back as the same values a local desk gives (one contract suite runs against both).
/// What is decided here is only how the network fails: an unreachable server is `.unavailable`
/// naming the URL, a program that is not a TraceDesk staff API is `.failed` saying so, a TLS
/// problem says which. Reads are retried with backoff; writes, sign-ins and audited reads never
/// are (a write whose answer was lost may have happened; a view would be audited twice).
///
/// Threading rule: a value type over one shared transport; callable from any task.
/// Privacy rule: the code, the password and the token travel only in request bodies and the
/// `Authorization` header (never in a URL), and no message here repeats them.
public struct RemoteDesk: DeskService {
    /// Timeouts and retries.
    public struct Options: Sendable {
        /// Limit on connecting, and whole-call limit for calls the server answers at once.
        public var connectTimeout: Duration
        /// Whole-call limit for calls that wait for the password KDF on the server (sign-in,
        /// first admin, new account, reset).
        public var requestTimeout: Duration
        /// Tries of a read, the first included.
        public var attempts: Int
        /// Wait before the second try; doubled each time, at most `maximumBackoff`.
        public var firstBackoff: Duration
        public var maximumBackoff: Duration

        public init(
            connectTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(15), attempts: Int = 4,
            firstBackoff: Duration = .milliseconds(500), maximumBackoff: Duration = .seconds(4)
        ) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.attempts = max(1, attempts)
            self.firstBackoff = firstBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    /// The server's base URL (`http://127.0.0.1:8081`); the staff API is under `/staff/v1`.
    public let url: URL
    public let clock: any Clock
    let transport: RemoteTransport

    /// Checks nothing and sends nothing until a use case is called. `url` must be http or https
    /// with a host (``Self/parse(_:)`` says what is wrong with one a person typed).
    public init(url: URL, clock: any Clock = SystemClock(), options: Options = Options()) {
        self.url = url
        self.clock = clock
        transport = RemoteTransport(base: url, options: options)
    }

    /// A URL as a person typed it (`--server`), or what is wrong with it.
    public static func parse(_ text: String) -> Result<URL, ServiceError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(.invalid(tr("errors.remote.url.notURL", ["text": text])))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(
                .invalid(tr("errors.remote.url.scheme")))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(.invalid(tr("errors.remote.url.host")))
        }
        if url.user != nil || url.password != nil {
            return .failure(.invalid(tr("errors.remote.url.user")))
        }
        if url.query != nil || url.fragment != nil {
            return .failure(.invalid(tr("errors.remote.url.query")))
        }
        return .success(url)
    }

    /// The URL as given, without a trailing slash.
    public var location: String { transport.location }

    public func now() -> Date { clock.now() }

    public var connectionProblem: String? { transport.problem }

    /// `GET /staff/v1`: whether `url` is a TraceDesk staff API this version can talk to.
    public func identify() async throws(ServiceError) {
        let reply = try await call(.info)
        let info = try read(reply) { bytes throws(FieldProblem) in try StaffWire.readInfo(bytes) }
        guard info.service == StaffWire.service else {
            throw transport.notTraceDesk("it calls itself \(Fields.safeName(info.service))")
        }
        guard info.version == Int64(StaffWire.version) else {
            throw .failed(
                tr(
                    "errors.remote.version",
                    ["location": location, "server": String(info.version), "console": String(StaffWire.version)]))
        }
    }

    // MARK: Accounts and sessions

    public func needsFirstAdmin() async throws(ServiceError) -> Bool {
        let reply = try await call(.needsFirstAdmin)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readSetup(bytes) }
    }

    /// A server's first admin needs the setup token `tracedesk serve` printed.
    public var firstAdminNeedsSetupToken: Bool { true }

    public func createFirstAdmin(name: String, password: String, setupToken: String?) async throws(ServiceError)
        -> StaffSession
    {
        let reply = try await call(
            .createFirstAdmin, body: StaffWire.firstAdmin(name: name, password: password, setupToken: setupToken))
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readSession(bytes) }
    }

    public func signIn(name: String, password: String) async throws(ServiceError) -> StaffSession {
        let reply = try await call(.signIn, body: StaffWire.credentials(name: name, password: password))
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readSession(bytes) }
    }

    public func signOut(_ session: StaffSession) async throws(ServiceError) {
        try await send(StaffCodecs.signOut, (), token: session.token)
    }

    // MARK: Operator

    public func authorize(
        _ session: StaffSession, code: String, symptomsStartedOn: CivilDay
    ) async throws(ServiceError) -> AuthorizeResult {
        let reply = try await call(
            .authorize, body: StaffWire.authorize(code: code, symptomsStartedOn: symptomsStartedOn),
            token: session.token)
        if reply.status == 422 {
            guard let error = StaffWire.readError(reply.body), error.code == 2022 else {
                throw transport.notTraceDesk("it answered the authorisation with HTTP 422 but no refusal")
            }
            let refusal = try read(reply) { _ throws(FieldProblem) in try StaffWire.readRefusal(error.document) }
            return .invalid(refusal)
        }
        // The wire carries no code hash: the record is given the hash of the code sent.
        guard let hash = try? Otp(operatorInput: code).hash else {
            throw transport.notTraceDesk("it authorised a code that is not valid")
        }
        let answer = try read(reply) { bytes throws(FieldProblem) in
            try StaffWire.readAuthorization(bytes, otpHash: hash)
        }
        switch (reply.status, answer) {
        case (201, .authorized), (200, .alreadyAuthorized): return answer
        default: throw transport.notTraceDesk("its HTTP status \(reply.status) does not match its answer")
        }
    }

    public func status(_ session: StaffSession, of code: String) async throws(ServiceError) -> OtpStatus {
        let reply = try await call(.status, body: StaffWire.statusRequest(code: code), token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in
            try StaffWire.readStatus(bytes, otpHash: { try? Otp(operatorInput: code).hash })
        }
    }

    // MARK: Admin

    public func staff(_ session: StaffSession) async throws(ServiceError) -> [StaffAccount] {
        try await send(StaffCodecs.staff, (), token: session.token)
    }

    public func addStaff(
        _ session: StaffSession, name: String, role: StaffRole, password: String
    ) async throws(ServiceError) -> StaffAccount {
        try await send(
            StaffCodecs.addStaff, .init(name: name, role: role, password: password), token: session.token)
    }

    public func disableStaff(_ session: StaffSession, name: String) async throws(ServiceError) -> StaffAccount {
        try await send(StaffCodecs.disableStaff, name, token: session.token)
    }

    public func resetPassword(
        _ session: StaffSession, name: String, password: String
    ) async throws(ServiceError) -> StaffAccount {
        try await send(StaffCodecs.resetPassword, .init(name: name, password: password), token: session.token)
    }

    public func audit(_ session: StaffSession, query: AuditQuery) async throws(ServiceError) -> [AuditEntry] {
        try await send(StaffCodecs.audit, query, token: session.token)
    }

    public func verifyAudit(_ session: StaffSession, hashesAt counts: [Int64]) async throws(ServiceError)
        -> AuditVerification
    {
        try await send(StaffCodecs.verifyAudit, counts, token: session.token)
    }

    // MARK: Helpers

    /// The body read by `reader`; a body of another shape means another program answered.
    func read<T>(_ reply: RemoteTransport.Reply, _ reader: ([UInt8]) throws(FieldProblem) -> T) throws(ServiceError)
        -> T
    {
        do {
            return try reader(reply.body)
        } catch {
            throw transport.notTraceDesk("its answer is not the staff API's JSON: \(error.text)")
        }
    }

}
