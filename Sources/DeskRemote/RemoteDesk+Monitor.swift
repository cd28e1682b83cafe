import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// The monitor over the staff API: the event feed as a long poll, the traffic share, the watch.
extension RemoteDesk {
    public func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage {
        // The same refusals as the desk's, in its words, before anything is sent.
        if let problem = ServiceChecks.pageProblem(after: after, limit: limit, wait: wait) { throw problem }
        // Whole seconds on the wire, rounded up (a wait asked for is never shortened to none).
        let seconds = min(ServiceChecks.maximumWaitSeconds, Int64((wait.seconds).rounded(.up)))
        let reply = try await call(
            .events, query: StaffWire.eventsQueryItems(after: after, limit: limit, waitSeconds: seconds),
            token: session.token, longPoll: .seconds(seconds))
        let page = try read(reply) { bytes throws(FieldProblem) in try StaffWire.readEventPage(bytes) }
        // A cursor that goes back, or events not after the one asked for, would repeat rows.
        guard page.cursor >= after, page.events.allSatisfy({ $0.id > after && $0.id <= page.cursor }),
            zip(page.events, page.events.dropFirst()).allSatisfy({ $0.id < $1.id })
        else { throw transport.notTraceDesk("its events are not in order after the one asked for") }
        return page
    }

    public func newestEvents(_ session: StaffSession, limit: Int) async throws(ServiceError) -> EventPage {
        if let problem = ServiceChecks.pageProblem(after: 0, limit: limit, wait: .zero) { throw problem }
        let reply = try await call(.events, query: [("newest", String(limit))], token: session.token)
        let page = try read(reply) { bytes throws(FieldProblem) in try StaffWire.readEventPage(bytes) }
        guard page.events.allSatisfy({ $0.id <= page.cursor }),
            zip(page.events, page.events.dropFirst()).allSatisfy({ $0.id < $1.id })
        else { throw transport.notTraceDesk("its newest events are not in order") }
        return page
    }

    public func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare {
        try await send(StaffCodecs.traffic, since, token: session.token)
    }

    public func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch {
        try await send(StaffCodecs.watch, target, token: session.token)
    }
}
