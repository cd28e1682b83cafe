import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One row of the live activity feed, as staff may see it.
///
/// Privacy: no code, no key, no code hash. A code appears only as its 6-hex tag
/// (``OtpHash/tag``), the same tag the console and the audit log show.
public struct MonitorEvent: Hashable, Sendable {
    /// The event's position in the stream: strictly increasing in the order events became
    /// visible (committed), so "everything after N" never misses or repeats one.
    public var id: Int64
    public var at: Date
    /// The stored kind, as text: a newer server may send kinds this console does not know
    /// (``known`` is then nil and the console shows "unknown event").
    public var kind: String
    /// Who did it, for staff actions and authorisations; nil for phones and jobs.
    public var actor: String?
    /// The 6-hex tag of the code the event is about; nil when it is about no code.
    public var codeTag: String?
    /// A small JSON object with non-personal details (counts, reasons, a chunk index).
    public var detail: String

    public init(id: Int64, at: Date, kind: String, actor: String?, codeTag: String?, detail: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.actor = actor
        self.codeTag = codeTag
        self.detail = detail
    }

    /// The kind, when this build knows it.
    public var known: DeskEvent.Kind? { DeskEvent.Kind(rawValue: kind) }
}

/// A page of the feed.
public struct EventPage: Hashable, Sendable {
    /// Oldest first; at most the limit asked for.
    public var events: [MonitorEvent]
    /// The position to ask after next time: past every event examined, including those the
    /// caller may not see (an operator's page skips other operators' codes but moves on).
    /// Never lower than the `after` that was asked.
    public var cursor: Int64

    public init(events: [MonitorEvent], cursor: Int64) {
        self.events = events
        self.cursor = cursor
    }
}

/// What phones sent in a period: real requests (events from phones) and dummy requests
/// (counted per 5 minutes, never stored as events). The monitor shows dummy traffic only as a share.
public struct TrafficShare: Hashable, Sendable {
    /// The start of the period: the start of an hour (dummy requests are counted per 5 minutes;
    /// the share counts whole hours, as when they were counted per hour).
    public var since: Date
    public var realRequests: Int64
    public var dummyRequests: Int64

    public init(since: Date, realRequests: Int64, dummyRequests: Int64) {
        self.since = since
        self.realRequests = realRequests
        self.dummyRequests = dummyRequests
    }

    /// Dummy requests as a share of all (0…1); nil when there were none at all.
    public var dummyShare: Double? {
        // In Double: counts from a server are not trusted not to overflow a sum.
        let real = Double(max(0, realRequests))
        let dummy = Double(max(0, dummyRequests))
        return real + dummy > 0 ? dummy / (real + dummy) : nil
    }
}

/// Which code to watch: one the operator typed, or the code an event is about (the monitor's
/// jump from an upload to its code's watch).
public enum WatchTarget: Hashable, Sendable {
    case code(String)
    case event(Int64)
}

/// Everything the desk knows about one authorised code, for the watch on the authorise screen:
/// authorised → checked by the app → upload received → published.
public struct CodeWatch: Hashable, Sendable {
    public var codeTag: String
    public var authorizedBy: String
    public var authorizedAt: Date
    public var expiresAt: Date
    public var symptomsStartedOn: CivilDay
    /// How many times an app checked the code, and when first and last.
    public var checks: Int
    public var firstCheckedAt: Date?
    public var lastCheckedAt: Date?
    /// Uploads with this code that were refused (after it expired or was used), and the last
    /// reason (the status the app was told, e.g. "expired").
    public var refusedUploads: Int
    public var lastRefusal: String?
    /// The upload the code was used for; nil until one arrives.
    public var upload: WatchedUpload?
    /// When the server's publishing job runs next, as it last recorded; nil when no server has
    /// run it (the console then says so).
    public var nextPublishingRun: Date?
    /// The highest event id this answer reflects (the console refreshes when a later event
    /// about the code, or a published chunk, arrives).
    public var asOf: Int64

    public init(
        codeTag: String, authorizedBy: String, authorizedAt: Date, expiresAt: Date, symptomsStartedOn: CivilDay,
        checks: Int = 0, firstCheckedAt: Date? = nil, lastCheckedAt: Date? = nil, refusedUploads: Int = 0,
        lastRefusal: String? = nil, upload: WatchedUpload? = nil, nextPublishingRun: Date? = nil, asOf: Int64 = 0
    ) {
        self.codeTag = codeTag
        self.authorizedBy = authorizedBy
        self.authorizedAt = authorizedAt
        self.expiresAt = expiresAt
        self.symptomsStartedOn = symptomsStartedOn
        self.checks = checks
        self.firstCheckedAt = firstCheckedAt
        self.lastCheckedAt = lastCheckedAt
        self.refusedUploads = refusedUploads
        self.lastRefusal = lastRefusal
        self.upload = upload
        self.nextPublishingRun = nextPublishingRun
        self.asOf = asOf
    }

    /// Expired before any upload arrived (at `now`): the citizen must create a new code.
    public func expiredWithoutUpload(at now: Date) -> Bool { upload == nil && now >= expiresAt }
}

/// The upload a watched code was used for. Counts and reasons only: never a key.
public struct WatchedUpload: Hashable, Sendable {
    public var receivedAt: Date
    public var keysAccepted: Int
    public var keysDropped: Int
    /// Dropped keys per reason (the upload rules' reason names), e.g. `["too_old": 2]`.
    public var droppedReasons: [String: Int]
    /// The province the app reported (two letters), if any.
    public var province: String?
    /// The server's clock minus the phone's, in seconds, as the upload rules measure it
    /// (positive: the phone is behind).
    public var clockSkewSeconds: Int64
    /// The chunks that carried its keys, in order; empty until published.
    public var publishedInChunks: [Int64]
    /// Accepted keys not yet in any chunk.
    public var keysWaiting: Int
    /// The earliest instant the waiting keys may be published (their embargo ends); nil when
    /// none waits.
    public var embargoEndsAt: Date?

    public init(
        receivedAt: Date, keysAccepted: Int, keysDropped: Int, droppedReasons: [String: Int], province: String?,
        clockSkewSeconds: Int64, publishedInChunks: [Int64] = [], keysWaiting: Int = 0, embargoEndsAt: Date? = nil
    ) {
        self.receivedAt = receivedAt
        self.keysAccepted = keysAccepted
        self.keysDropped = keysDropped
        self.droppedReasons = droppedReasons
        self.province = province
        self.clockSkewSeconds = clockSkewSeconds
        self.publishedInChunks = publishedInChunks
        self.keysWaiting = keysWaiting
        self.embargoEndsAt = embargoEndsAt
    }
}
