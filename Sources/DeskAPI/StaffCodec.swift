import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a client sends for one call: the `{name}` of the path, query parameters, a body.
public struct StaffOutgoing: Sendable {
    public var segment: String?
    public var query: [(name: String, value: String)]
    public var body: JSONValue?

    public init(segment: String? = nil, query: [(name: String, value: String)] = [], body: JSONValue? = nil) {
        self.segment = segment
        self.query = query
        self.body = body
    }
}

/// One endpoint of the table (``StaffEndpoint``) with its wire types: the value its request
/// carries (`Request`) and the value its answer carries (`Answer`), with the functions of
/// ``StaffWire`` and ``StaffRequests`` that write and read each. The server (`StaffAPI`) reads
/// `Request` and writes `Answer` through the same value `RemoteDesk` writes `Request` and reads
/// `Answer` through, so the two sides cannot disagree on which type an endpoint sends: a
/// mismatch is a compile error, not a field problem at run time. The list is ``StaffCodecs``.
public struct StaffCodec<Request: Sendable, Answer: Sendable>: Sendable {
    public let name: StaffEndpoint.Name
    /// The status of a success (one of the endpoint's `accept`; a test says so).
    public let status: Int
    let send: @Sendable (Request) -> StaffOutgoing
    let receive: @Sendable (HTTPRequest, _ segment: String) -> Result<Request, APIError>
    /// Nil for an answer with no body (204).
    let write: @Sendable (Answer) -> JSONValue?
    let read: @Sendable ([UInt8]) throws(FieldProblem) -> Answer
    /// The success status of one answer, when it depends on the answer (a case opened: 201,
    /// the patient's open one: 200); nil: always ``status``.
    let statusOf: (@Sendable (Answer) -> Int)?

    public var endpoint: StaffEndpoint { StaffEndpoint[name] }

    /// What the client sends for `request`.
    public func outgoing(_ request: Request) -> StaffOutgoing { send(request) }

    /// The request as the server reads it, `segment` standing for the path's `{name}` ("" when none).
    public func request(_ request: HTTPRequest, segment: String) -> Result<Request, APIError> {
        receive(request, segment)
    }

    /// The status the server answers `answer` with.
    public func status(of answer: Answer) -> Int { statusOf?(answer) ?? status }

    /// The answer's body as the server writes it; nil when the answer has none.
    public func body(_ answer: Answer) -> JSONValue? { write(answer) }

    /// The answer as the client reads it from the body.
    public func answer(_ bytes: [UInt8]) throws(FieldProblem) -> Answer { try read(bytes) }

    init(
        _ name: StaffEndpoint.Name, status: Int, send: @escaping @Sendable (Request) -> StaffOutgoing,
        receive: @escaping @Sendable (HTTPRequest, String) -> Result<Request, APIError>,
        write: @escaping @Sendable (Answer) -> JSONValue?,
        read: @escaping @Sendable ([UInt8]) throws(FieldProblem) -> Answer,
        statusOf: (@Sendable (Answer) -> Int)? = nil
    ) {
        self.name = name
        self.status = status
        self.send = send
        self.receive = receive
        self.write = write
        self.read = read
        self.statusOf = statusOf
    }
}

extension StaffCodec where Request == Void {
    /// An endpoint whose request is the session alone.
    init(
        _ name: StaffEndpoint.Name, status: Int, write: @escaping @Sendable (Answer) -> JSONValue?,
        read: @escaping @Sendable ([UInt8]) throws(FieldProblem) -> Answer
    ) {
        self.init(
            name, status: status, send: { _ in StaffOutgoing() }, receive: { _, _ in .success(()) },
            write: write, read: read)
    }
}

extension StaffCodec where Request == String {
    /// An endpoint whose request is the `{name}` of its path alone.
    init(
        named name: StaffEndpoint.Name, status: Int, write: @escaping @Sendable (Answer) -> JSONValue?,
        read: @escaping @Sendable ([UInt8]) throws(FieldProblem) -> Answer
    ) {
        self.init(
            name, status: status, send: { StaffOutgoing(segment: $0) }, receive: { _, segment in .success(segment) },
            write: write, read: read)
    }
}

/// The typed endpoints: 31 of the table's 38, every one whose call is "a session and a request
/// in, one answer out" (the 12 of cases and follow-ups in StaffCodecs+FollowUp.swift). The other seven keep their own code on both sides, because their
/// answer depends on more than one value: `info` (the version check), `needsFirstAdmin`,
/// `createFirstAdmin` and `signIn` (no session; the sign-in admission), `authorize` (201, 200
/// or a 422 refusal), `status` (read with the code's hash) and `events` (the long poll).
public enum StaffCodecs {
    public static let signOut = StaffCodec<Void, Void>(.signOut, status: 204, write: { nil }, read: { _ in })

    public static let staff = StaffCodec<Void, [StaffAccount]>(
        .staff, status: 200, write: StaffWire.accounts, read: StaffWire.readAccounts)
    public static let addStaff = StaffCodec<StaffRequests.NewStaff, StaffAccount>(
        .addStaff, status: 201,
        send: { StaffOutgoing(body: StaffWire.newStaff(name: $0.name, role: $0.role, password: $0.password)) },
        receive: { request, _ in StaffRequests.newStaff(request) }, write: StaffWire.account,
        read: StaffWire.readAccount)
    public static let disableStaff = StaffCodec<String, StaffAccount>(
        named: .disableStaff, status: 200, write: StaffWire.account, read: StaffWire.readAccount)
    public static let resetPassword = StaffCodec<StaffRequests.NewPassword, StaffAccount>(
        .resetPassword, status: 200,
        send: { StaffOutgoing(segment: $0.name, body: StaffWire.newPassword($0.password)) },
        receive: { request, segment in
            StaffRequests.newPassword(request).map { StaffRequests.NewPassword(name: segment, password: $0) }
        }, write: StaffWire.account, read: StaffWire.readAccount)
    public static let audit = StaffCodec<AuditQuery, [AuditEntry]>(
        .audit, status: 200, send: { StaffOutgoing(query: StaffWire.auditQueryItems($0)) },
        receive: { request, _ in StaffRequests.auditQuery(request) }, write: StaffWire.auditEntries,
        read: StaffWire.readAuditEntries)
    public static let verifyAudit = StaffCodec<[Int64], AuditVerification>(
        .verifyAudit, status: 200, send: { StaffOutgoing(query: StaffWire.verificationQueryItems($0)) },
        receive: { request, _ in StaffRequests.verificationCounts(request) }, write: StaffWire.verification,
        read: StaffWire.readVerification)

    public static let traffic = StaffCodec<Date, TrafficShare>(
        .traffic, status: 200, send: { StaffOutgoing(query: [("since", StaffWire.time($0))]) },
        receive: { request, _ in StaffRequests.trafficSince(request) }, write: StaffWire.traffic,
        read: StaffWire.readTraffic)
    public static let watch = StaffCodec<WatchTarget, CodeWatch>(
        .watch, status: 200, send: { StaffOutgoing(body: StaffWire.watchRequest($0)) },
        receive: { request, _ in StaffRequests.watchTarget(request) }, write: StaffWire.watch,
        read: StaffWire.readWatch)

    public static let traceLookup = StaffCodec<StaffRequests.TraceLookup, TraceLookup>(
        .traceLookup, status: 200,
        send: { StaffOutgoing(body: StaffWire.traceLookupRequest(phone: $0.phone, purpose: $0.purpose)) },
        receive: { request, _ in StaffRequests.traceLookup(request) }, write: StaffWire.traceLookup,
        read: StaffWire.readTraceLookup)
    public static let traceSightings = StaffCodec<StaffRequests.TraceSightings, TraceSightingsPage>(
        .traceSightings, status: 200, send: { StaffOutgoing(body: StaffWire.traceSightingsRequest($0)) },
        receive: { request, _ in StaffRequests.traceSightings(request) },
        write: { StaffWire.sightingsPage($0.sightings, total: $0.total, nextOffset: $0.nextOffset) },
        read: StaffWire.readSightingsPage)
    public static let traceOutcome = StaffCodec<StaffRequests.TraceOutcome, RecordedOutcome>(
        .traceOutcome, status: 200, send: { StaffOutgoing(body: StaffWire.traceOutcomeRequest($0)) },
        receive: { request, _ in StaffRequests.traceOutcome(request) }, write: StaffWire.recordedOutcome,
        read: StaffWire.readRecordedOutcome)
    public static let traceExport = StaffCodec<StaffRequests.TraceExport, Void>(
        .traceExport, status: 204, send: { StaffOutgoing(body: StaffWire.traceExportRequest($0)) },
        receive: { request, _ in StaffRequests.traceExport(request) }, write: { nil }, read: { _ in })
    public static let tracePhoneCopy = StaffCodec<StaffRequests.TracePhoneCopy, Void>(
        .tracePhoneCopy, status: 204, send: { StaffOutgoing(body: StaffWire.tracePhoneCopyRequest($0)) },
        receive: { request, _ in StaffRequests.tracePhoneCopy(request) }, write: { nil }, read: { _ in })
    public static let smsOutbox = StaffCodec<Int, [SmsMessage]>(
        .smsOutbox, status: 200, send: { StaffOutgoing(query: [("limit", String($0))]) },
        receive: { request, _ in StaffRequests.smsOutboxLimit(request) }, write: StaffWire.smsOutbox,
        read: StaffWire.readSmsOutbox)

    public static let statistics = StaffCodec<StatsQuery, StatsReport>(
        .statistics, status: 200, send: { StaffOutgoing(query: StaffWire.statsQueryItems($0)) },
        receive: { request, _ in StaffRequests.statsQuery(request) }, write: StaffWire.statsReport,
        read: StaffWire.readStatsReport)

    public static let hisClients = StaffCodec<Void, [HISClient]>(
        .hisClients, status: 200, write: StaffWire.hisClients, read: StaffWire.readHISClients)
    public static let addHISClient = StaffCodec<StaffRequests.NewHISClient, NewHISClient>(
        .addHISClient, status: 201,
        send: { StaffOutgoing(body: StaffWire.newHISClientRequest(name: $0.name, ratePerMinute: $0.ratePerMinute)) },
        receive: { request, _ in StaffRequests.newHISClient(request) },
        write: { StaffWire.newHISClient($0.client, key: $0.key) }, read: StaffWire.readNewHISClient)
    public static let revokeHISClient = StaffCodec<String, HISClient>(
        named: .revokeHISClient, status: 200, write: StaffWire.hisClient, read: StaffWire.readHISClient)

    /// Every typed endpoint's name and success status (for the tests that hold them to the table).
    public static let all: [(name: StaffEndpoint.Name, status: Int)] =
        [
            (signOut.name, signOut.status), (staff.name, staff.status), (addStaff.name, addStaff.status),
            (disableStaff.name, disableStaff.status), (resetPassword.name, resetPassword.status),
            (audit.name, audit.status), (verifyAudit.name, verifyAudit.status), (traffic.name, traffic.status),
            (watch.name, watch.status), (traceLookup.name, traceLookup.status),
            (traceSightings.name, traceSightings.status), (traceOutcome.name, traceOutcome.status),
            (traceExport.name, traceExport.status), (tracePhoneCopy.name, tracePhoneCopy.status),
            (smsOutbox.name, smsOutbox.status),
            (statistics.name, statistics.status), (hisClients.name, hisClients.status),
            (addHISClient.name, addHISClient.status), (revokeHISClient.name, revokeHISClient.status),
        ] + followUpCodecs
}
