import DeskContract
import DeskCore
import DeskStore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The monitor over the store: the event feed (long-polled by polling the store's latest
// position), the traffic share, and the watch of one code.
//
// Privacy rule: a code's hash never leaves here; events and watches name a code by its tag.
extension LocalDesk {
    /// How often a waiting page looks for a new event: one indexed query each time.
    static let pollInterval: Duration = .milliseconds(100)

    public func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage {
        let person = try authenticate(session, for: .monitorEvents)
        if let problem = ServiceChecks.pageProblem(after: after, limit: limit, wait: wait) { throw problem }
        let deadline = waits.now() + min(wait, ServiceChecks.maximumWait)
        // An operator sees their own codes, their own actions and published chunks; a supervisor everything.
        let viewer = person.role == .operator ? person.user : nil
        var cursor = after
        while true {
            let page = try storeCall { () throws(StoreError) in
                try store.eventPage(after: cursor, limit: limit, visibleTo: viewer)
            }
            cursor = page.cursor
            if !page.events.isEmpty { return EventPage(events: page.events.map(Self.monitorEvent), cursor: cursor) }
            // Past the deadline (at once for a zero wait): answer with the advanced cursor, even
            // while events this caller may not see keep coming.
            if waits.now() >= deadline { return EventPage(events: [], cursor: cursor) }
            // Nothing for this caller up to the cursor: wait for an event past it, then look
            // again (it may be one this caller may not see, and the wait goes on).
            guard try await waitForEvent(after: cursor, until: deadline) else {
                return EventPage(events: [], cursor: cursor)
            }
        }
    }

    public func newestEvents(_ session: StaffSession, limit: Int) async throws(ServiceError) -> EventPage {
        let person = try authenticate(session, for: .monitorEvents)
        if let problem = ServiceChecks.pageProblem(after: 0, limit: limit, wait: .zero) { throw problem }
        let viewer = person.role == .operator ? person.user : nil
        let page = try storeCall { () throws(StoreError) in try store.eventTail(limit: limit, visibleTo: viewer) }
        return EventPage(events: page.events.map(Self.monitorEvent), cursor: page.cursor)
    }

    public func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare {
        _ = try authenticate(session, for: .monitorEvents)
        return try storeCall { () throws(StoreError) in try store.traffic(since: since) }
    }

    public func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch {
        let person = try authenticate(session, for: .watchCode)
        let hash: OtpHash
        switch target {
        case .code(let text):
            do {
                hash = try Otp(operatorInput: text).hash.stored
            } catch {
                throw .invalid(error.message)
            }
        case .event(let id):
            // An operator gets one answer for every event that is not about their own code, so
            // walking ids tells nothing about the others' work.
            let found = try storeCall({ () throws(StoreError) in try store.code(ofEvent: id) })
            if person.role == .operator, case .code = found {
            } else if person.role == .operator {
                throw .forbidden(Self.notYourEvent)
            }
            switch found {
            case .noSuchEvent: throw .invalid(tr("errors.monitor.noEvent", ["id": String(id)]))
            case .notAboutACode: throw .invalid(tr("errors.monitor.notAboutACode", ["id": String(id)]))
            case .code(let code): hash = code
            }
        }
        let now = clock.now()
        let policy = publishing
        guard
            let stored = try storeCall({ () throws(StoreError) in
                try store.codeWatch(storedKey: hash, now: now, policy: policy)
            })
        else { throw .invalid(Self.noAuthorization) }
        // Operators follow only their own codes, as with `status`.
        if person.role == .operator, stored.authorization.authorizedBy != person.user {
            if case .event = target { throw .forbidden(Self.notYourEvent) }
            throw .forbidden(Self.anotherOperatorsCode)
        }
        let publishingRun = try storeCall { () throws(StoreError) in try store.jobRun(.publishing) }
        return Self.codeWatch(stored, nextPublishingRun: publishingRun?.nextRun)
    }

    static var notYourEvent: String { tr("errors.monitor.notYourEvent") }

    static var noAuthorization: String { tr("errors.monitor.noAuthorization") }

    /// Polls the latest position until one past `cursor` is visible (true) or `deadline`
    /// passes (false). Sleeps suspended, holding no thread.
    private func waitForEvent(
        after cursor: Int64, until deadline: Duration
    ) async throws(ServiceError) -> Bool {
        while true {
            if try storeCall({ () throws(StoreError) in try store.latestEventID() }) > cursor { return true }
            let now = waits.now()
            guard now < deadline else { return false }
            do {
                try await waits.sleep(min(Self.pollInterval, deadline - now))
            } catch {
                // Cancelled: answer with what there is.
                return false
            }
        }
    }

    static func monitorEvent(_ event: StoredEvent) -> MonitorEvent {
        MonitorEvent(
            id: event.position, at: event.at, kind: event.kind, actor: event.actor, codeTag: event.otpHash?.tag,
            detail: event.detail)
    }

    static func codeWatch(_ stored: StoredCodeWatch, nextPublishingRun: Date?) -> CodeWatch {
        let record = stored.authorization
        let upload = stored.upload.map { upload in
            WatchedUpload(
                receivedAt: upload.receivedAt, keysAccepted: upload.keysAccepted, keysDropped: upload.keysDropped,
                droppedReasons: KeyDropCounts(json: upload.droppedReasons)?.byReason ?? [:], province: upload.province,
                clockSkewSeconds: upload.clockSkewSeconds, publishedInChunks: upload.publishedInChunks,
                keysWaiting: upload.keysWaiting, embargoEndsAt: upload.embargoEndsAt)
        }
        var lastRefusal: String?
        if let detail = stored.lastRefusalDetail,
            case .uploadRefused(let refused)? = DeskEvent.Detail(kind: .uploadRefused, json: detail)
        {
            lastRefusal = refused.reason
        }
        return CodeWatch(
            codeTag: record.otpHash.tag, authorizedBy: record.authorizedBy, authorizedAt: record.authorizedAt,
            expiresAt: record.expiresAt, symptomsStartedOn: record.symptomsStartedOn, checks: stored.checks,
            firstCheckedAt: stored.firstCheckedAt, lastCheckedAt: stored.lastCheckedAt,
            refusedUploads: stored.refusedUploads, lastRefusal: lastRefusal, upload: upload,
            nextPublishingRun: nextPublishingRun, asOf: stored.asOf)
    }

}
