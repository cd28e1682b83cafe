import DeskAPI
import DeskContract
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// RemoteDesk's calls made from the staff endpoint table (``StaffEndpoint``): its method, path,
/// accepted statuses, whether a lost answer is asked again and the longer timeout of a
/// password hash come from the one table the server routes by, never written here again.
extension RemoteTransport.Call {
    /// The call of `endpoint`, with `{name}` (when its path has one) as `segment`: everything
    /// but unreserved characters percent-encoded, so a name with `/` or `?` in it reaches the
    /// desk whole (and is refused there, by its rules).
    init(
        _ endpoint: StaffEndpoint.Name, segment: String? = nil, query: [(name: String, value: String)] = [],
        body: JSONValue? = nil, token: String? = nil, longPoll: Duration = .zero
    ) {
        let entry = StaffEndpoint[endpoint]
        self.init(
            method: entry.method, path: entry.path(segment: segment.map(RemoteTransport.escape)), query: query,
            body: body, token: token, what: entry.what, idempotent: entry.idempotent, slow: entry.work == .slowKDF,
            accept: Set(entry.accept), longPoll: longPoll)
    }
}

extension RemoteDesk {
    /// Sends the call of `endpoint` (see ``RemoteTransport/Call/init(_:segment:query:body:token:longPoll:)``).
    func call(
        _ endpoint: StaffEndpoint.Name, segment: String? = nil, query: [(name: String, value: String)] = [],
        body: JSONValue? = nil, token: String? = nil, longPoll: Duration = .zero
    ) async throws(ServiceError) -> RemoteTransport.Reply {
        try await transport.perform(
            .init(endpoint, segment: segment, query: query, body: body, token: token, longPoll: longPoll))
    }

    /// Sends `request` to the typed endpoint `codec` and reads its answer with the same value
    /// the server wrote it with (``StaffCodec``).
    func send<Request, Answer>(
        _ codec: StaffCodec<Request, Answer>, _ request: Request, token: String?
    ) async throws(ServiceError) -> Answer {
        let outgoing = codec.outgoing(request)
        let reply = try await call(
            codec.name, segment: outgoing.segment, query: outgoing.query, body: outgoing.body, token: token)
        return try read(reply) { bytes throws(FieldProblem) in try codec.answer(bytes) }
    }
}
