/// One endpoint of the staff API (docs/staff-api.yaml): what the server routes, what
/// `RemoteDesk` sends, and what a test compares with the YAML, written once in ``table``.
///
/// The server takes its routes, its `Allow` lists and its executors from here; `RemoteDesk`
/// its methods, paths, accepted statuses, retries and timeouts. The JSON itself is written
/// and read by ``StaffWire`` and ``StaffRequests``, named here by the schema the YAML gives it;
/// ``StaffCodec`` binds a row to the types its request and answer carry (``StaffCodecs``).
public struct StaffEndpoint: Hashable, Sendable {
    /// Every use case the staff API carries, one case per method and path.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case info, needsFirstAdmin, createFirstAdmin, signIn, signOut
        case authorize, status
        case staff, addStaff, disableStaff, resetPassword, audit, verifyAudit
        case events, traffic, watch
        case traceLookup, traceSightings, traceOutcome, traceExport, tracePhoneCopy, smsOutbox
        case cases, openCase, caseDetail, closeCase, addFollowUp, followUpQueue, followUpIndicators
        case assignFollowUps, followUpDetail, followUpAttempt, followUpCheck, followUpPhoneCopy
        case statistics
        case hisClients, addHISClient, revokeHISClient
    }

    /// What answering takes on the server, which decides where it runs and how long a client
    /// waits for it.
    public enum Work: String, Hashable, Sendable {
        /// A store read that changes nothing.
        case read
        /// A store write.
        case write
        /// A read that writes an audit entry (the tracer's lookups, the SMS outbox).
        case audited
        /// Hashes a password (~100 ms, 32 MiB): on the KDF executor; the client's longer timeout.
        case slowKDF
        /// May wait for an event, up to ``StaffWire/maximumWaitSeconds``, holding no thread.
        case longPoll
    }

    /// What travels one way: nothing, query parameters, or a JSON document.
    public enum Payload: Hashable, Sendable {
        case none
        /// Query parameters, by name.
        case query([String])
        /// A JSON body of the named schema of the YAML (`#/components/schemas/NAME`); nil for
        /// one the YAML writes inline.
        case json(String?)
    }

    public let name: Name
    public let method: String
    /// Below ``StaffWire/prefix``; a `{…}` stands for one path segment: `{name}` a staff or HIS
    /// client name (percent-encoded), `{id}` a case's or a follow-up's id.
    public let path: String
    public let work: Work
    /// The statuses whose body the client reads; any other is an error of the one table.
    public let accept: [Int]
    /// The error statuses the YAML lists for it (what a person can meet, not every one the
    /// server can give: 404, 405 and 413 are the same on every path).
    public let errors: [Int]
    /// Safe to send again when no answer came: clients retry it. Never true of an
    /// ``Work/audited`` endpoint (a retry would audit one view twice; a test says so).
    public let idempotent: Bool
    /// Needs a session token (`Authorization: Bearer`).
    public let signedIn: Bool
    public let request: Payload
    public let answer: Payload
    /// For a client's messages: "the sign-in", "the staff list".
    public let what: String

    /// The whole path, prefix included, as the server's access log and metrics name it.
    public var template: String { StaffWire.prefix + path }

    /// The path with its `{…}` replaced by `segment` (already percent-encoded).
    public func path(segment: String?) -> String {
        guard let segment, let marker = Self.placeholder(in: path) else { return path }
        return path.replacingCharacters(in: marker, with: segment)
    }

    /// Whether the path has a `{…}` segment (`{name}`, `{id}`).
    public var hasSegment: Bool { Self.placeholder(in: path) != nil }

    /// Where the `{…}` of `template` is, if it has one.
    static func placeholder(in template: String) -> Range<String.Index>? {
        guard let open = template.firstIndex(of: "{"), let close = template[open...].firstIndex(of: "}") else {
            return nil
        }
        return open..<template.index(after: close)
    }

    /// The endpoint called `name` (every name is in the table: a test says so).
    public static subscript(_ name: Name) -> StaffEndpoint {
        table.first { $0.name == name }!
    }
}

extension StaffEndpoint {
    static let rejectedSession = [401, 403, 503, 500]
    static let rejectedInput = [400] + rejectedSession

    /// Every endpoint, in the order of docs/staff-api.yaml (paths with two methods: GET first,
    /// which is the order of their `Allow` header).
    public static let table: [StaffEndpoint] = [
        .init(
            .info, "GET", "", .read, accept: [200], errors: [], idempotent: true, signedIn: false,
            answer: .json("Info"), what: "identify"),
        .init(
            .needsFirstAdmin, "GET", "/setup", .read, accept: [200], errors: [503, 500], idempotent: true,
            signedIn: false, answer: .json("Setup"), what: "setup"),
        .init(
            .createFirstAdmin, "POST", "/setup", .slowKDF, accept: [201], errors: [400, 403, 409, 429, 503, 500],
            idempotent: false, signedIn: false, request: .json("FirstAdmin"), answer: .json("Session"),
            what: "first admin"),
        .init(
            .signIn, "POST", "/sessions", .slowKDF, accept: [201], errors: [400, 401, 429, 503, 500], idempotent: false,
            signedIn: false, request: .json("Credentials"), answer: .json("Session"), what: "sign-in"),
        // Ending a session twice is no error, so a sign-out may be sent again.
        .init(
            .signOut, "DELETE", "/sessions/current", .write, accept: [204], errors: [401, 503, 500], idempotent: true,
            what: "sign-out"),
        // 422 is a refusal by the rules, read as an answer (its body says which rule).
        .init(
            .authorize, "POST", "/otp/authorizations", .write, accept: [200, 201, 422], errors: rejectedInput,
            idempotent: false, request: .json("AuthorizeRequest"), answer: .json("AuthorizeAnswer"),
            what: "authorisation"),
        // A POST only to keep the code out of URLs: it changes nothing.
        .init(
            .status, "POST", "/otp/status", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .json("StatusRequest"), answer: .json("Status"), what: "status"),
        .init(
            .staff, "GET", "/staff", .read, accept: [200], errors: rejectedSession, idempotent: true,
            answer: .json("AccountList"), what: "staff list"),
        .init(
            .addStaff, "POST", "/staff", .slowKDF, accept: [201], errors: [400, 401, 403, 409, 503, 500],
            idempotent: false, request: .json("NewStaff"), answer: .json("Account"), what: "new account"),
        .init(
            .disableStaff, "POST", "/staff/{name}/disable", .write, accept: [200], errors: rejectedInput,
            idempotent: false, answer: .json("Account"), what: "disable"),
        .init(
            .resetPassword, "POST", "/staff/{name}/password", .slowKDF, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("NewPassword"), answer: .json("Account"), what: "password reset"),
        .init(
            .audit, "GET", "/audit", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .query(["actor", "subject", "action", "from", "until", "before", "limit"]),
            answer: .json("AuditEntries"),
            what: "audit log"),
        .init(
            .verifyAudit, "GET", "/audit/verification", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .query(["at"]), answer: .json("Verification"), what: "audit check"),
        .init(
            .events, "GET", "/events", .longPoll, accept: [200], errors: rejectedInput, idempotent: true,
            request: .query(["after", "limit", "wait", "newest"]), answer: .json("EventPage"), what: "events"),
        .init(
            .traffic, "GET", "/traffic", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .query(["since"]), answer: .json("Traffic"), what: "traffic"),
        // A POST so a typed code stays out of URLs and access logs; it changes nothing.
        .init(
            .watch, "POST", "/watch", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .json("WatchRequest"), answer: .json("Watch"), what: "watch"),
        // The tracer's calls are audited, every page of sightings too: never sent twice.
        .init(
            .traceLookup, "POST", "/trace/lookup", .audited, accept: [200], errors: rejectedInput, idempotent: false,
            request: .json("TraceLookupRequest"), answer: .json("TraceLookup"), what: "contact lookup"),
        .init(
            .traceSightings, "POST", "/trace/sightings", .audited, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("TraceSightingsRequest"), answer: .json("TraceSightingsPage"),
            what: "sightings"),
        .init(
            .traceOutcome, "POST", "/trace/outcome", .write, accept: [200], errors: rejectedInput, idempotent: false,
            request: .json("TraceOutcomeRequest"), answer: .json("RecordedOutcome"), what: "outcome"),
        .init(
            .traceExport, "POST", "/trace/export", .write, accept: [204], errors: rejectedInput, idempotent: false,
            request: .json("TraceExportRequest"), what: "export record"),
        // Audited like a view: a retry after a lost answer would record one copy twice.
        .init(
            .tracePhoneCopy, "POST", "/trace/phone-copy", .write, accept: [204], errors: rejectedInput,
            idempotent: false, request: .json("TracePhoneCopyRequest"), what: "phone number copy record"),
        // Audited like the tracer's calls: a retry after a lost answer would audit one view
        // twice, so it is never sent twice (the admin reads again).
        .init(
            .smsOutbox, "GET", "/sms/outbox", .audited, accept: [200], errors: rejectedInput, idempotent: false,
            request: .query(["limit"]), answer: .json("SmsOutbox"), what: "SMS outbox"),
        // Cases and follow-ups (issue 21). Every read of a person is audited, so none of the
        // reads but the indicators (figures) is sent twice; every write is audited too.
        .init(
            .cases, "GET", "/cases", .audited, accept: [200], errors: rejectedInput, idempotent: false,
            request: .query(["status", "opened_by", "limit"]), answer: .json("CaseList"), what: "case list"),
        // 201 with a new case, 200 with the patient's open one (`existing`).
        .init(
            .openCase, "POST", "/cases", .write, accept: [200, 201], errors: rejectedInput, idempotent: false,
            request: .json("OpenCaseRequest"), answer: .json("CaseOpening"), what: "case opening"),
        .init(
            .caseDetail, "GET", "/cases/{id}", .audited, accept: [200], errors: rejectedInput, idempotent: false,
            answer: .json("CaseDetail"), what: "case"),
        .init(
            .closeCase, "POST", "/cases/{id}/close", .write, accept: [200], errors: rejectedInput, idempotent: false,
            request: .json("CloseCaseRequest"), answer: .json("Case"), what: "case closing"),
        .init(
            .addFollowUp, "POST", "/cases/{id}/follow-ups", .write, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("AddFollowUpRequest"), answer: .json("FollowUp"),
            what: "follow-up added by hand"),
        // A POST so that a search by phone number stays out of URLs; it changes nothing but the
        // audit log, which is why it is never sent twice.
        .init(
            .followUpQueue, "POST", "/queue", .audited, accept: [200], errors: rejectedInput, idempotent: false,
            request: .json("QueueRequest"), answer: .json("QueuePage"), what: "queue"),
        .init(
            .followUpIndicators, "GET", "/follow-ups/indicators", .read, accept: [200], errors: rejectedInput,
            idempotent: true, request: .query(["from", "to", "bucket"]), answer: .json("FollowUpIndicators"),
            what: "follow-up indicators"),
        .init(
            .assignFollowUps, "POST", "/follow-ups/assignments", .write, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("AssignmentRequest"), answer: .json("FollowUpList"),
            what: "assignment"),
        .init(
            .followUpDetail, "GET", "/follow-ups/{id}", .audited, accept: [200], errors: rejectedInput,
            idempotent: false, answer: .json("FollowUpDetail"), what: "follow-up"),
        .init(
            .followUpAttempt, "POST", "/follow-ups/{id}/attempts", .write, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("AttemptRequest"), answer: .json("FollowUp"), what: "call attempt"),
        .init(
            .followUpCheck, "POST", "/follow-ups/{id}/checks", .write, accept: [200], errors: rejectedInput,
            idempotent: false, request: .json("CheckRequest"), answer: .json("FollowUp"), what: "daily check"),
        // Audited like a view: a retry after a lost answer would record one copy twice.
        .init(
            .followUpPhoneCopy, "POST", "/follow-ups/{id}/phone-copy", .write, accept: [204], errors: rejectedInput,
            idempotent: false, what: "phone number copy record"),
        .init(
            .statistics, "GET", "/stats", .read, accept: [200], errors: rejectedInput, idempotent: true,
            request: .query(["from", "to", "bucket"]), answer: .json("StatsReport"), what: "statistics"),
        .init(
            .hisClients, "GET", "/his-clients", .read, accept: [200], errors: rejectedSession, idempotent: true,
            answer: .json(nil), what: "HIS client list"),
        // A lost answer may have made a client whose key nobody saw: never sent twice.
        .init(
            .addHISClient, "POST", "/his-clients", .write, accept: [201], errors: [400, 401, 403, 409, 503, 500],
            idempotent: false, request: .json(nil), answer: .json(nil), what: "new HIS client"),
        // Revoking twice changes nothing.
        .init(
            .revokeHISClient, "POST", "/his-clients/{name}/revoke", .write, accept: [200], errors: rejectedInput,
            idempotent: true, answer: .json("HISClient"), what: "HIS client revocation"),
    ]

    init(
        _ name: Name, _ method: String, _ path: String, _ work: Work, accept: [Int], errors: [Int], idempotent: Bool,
        signedIn: Bool = true, request: Payload = .none, answer: Payload = .none, what: String
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.work = work
        self.accept = accept
        self.errors = errors
        self.idempotent = idempotent
        self.signedIn = signedIn
        self.request = request
        self.answer = answer
        self.what = what
    }
}
