import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One event of the stream as the store keeps it, for the monitor.
///
/// Privacy rule: `otpHash` is the code as the store keeps it (``OtpHash/stored``, not the
/// bearer token), for the desk to make a code's tag from and to decide who may see the event;
/// it never leaves the desk.
public struct StoredEvent: Hashable, Sendable {
    /// The event's position in the stream: positions only grow in the order events became
    /// visible (committed), so reading "after N" never skips one that commits late.
    public var position: Int64
    public var at: Date
    /// The kind as stored: a newer TraceDesk sharing the store may write kinds this one does not know.
    public var kind: String
    public var otpHash: OtpHash?
    public var actor: String?
    public var detail: String

    public init(position: Int64, at: Date, kind: String, otpHash: OtpHash?, actor: String?, detail: String) {
        self.position = position
        self.at = at
        self.kind = kind
        self.otpHash = otpHash
        self.actor = actor
        self.detail = detail
    }
}

/// A page of the stream and where to go on from.
public struct StoredEventPage: Hashable, Sendable {
    /// Oldest first.
    public var events: [StoredEvent]
    /// Past every event examined, those filtered out included; never below the `after` asked.
    public var cursor: Int64

    public init(events: [StoredEvent], cursor: Int64) {
        self.events = events
        self.cursor = cursor
    }
}

/// What an event is about, for the jump from a monitor row to the watch of its code.
public enum EventCode: Hashable, Sendable {
    /// No event has that position (never, or deleted by retention).
    case noSuchEvent
    /// A chunk, a staff action, analytics: no code.
    case notAboutACode
    /// The code as the store keeps it (``OtpHash/stored``): give it to ``Store/codeWatch(storedKey:now:policy:)``.
    case code(OtpHash)
}

/// Everything the store knows about one authorisation of a code, read in one snapshot: the
/// store half of the watch (``DeskCore/CodeWatch``). Counts and reasons only: never a key.
public struct StoredCodeWatch: Hashable, Sendable {
    public var authorization: OtpAuthorization
    /// Checks since the authorisation (counted on it: the `otp_checked` events are coalesced).
    public var checks: Int
    public var firstCheckedAt: Date?
    public var lastCheckedAt: Date?
    /// `upload_refused` events since the authorisation, and the detail of the last one
    /// (`{"reason":"expired"}`).
    public var refusedUploads: Int
    public var lastRefusalDetail: String?
    /// The upload made with this authorisation; nil until one arrives.
    public var upload: StoredWatchUpload?
    /// The highest position of an event about the code (0 when none has one yet).
    public var asOf: Int64

    public init(
        authorization: OtpAuthorization, checks: Int, firstCheckedAt: Date?, lastCheckedAt: Date?,
        refusedUploads: Int, lastRefusalDetail: String?, upload: StoredWatchUpload?, asOf: Int64
    ) {
        self.authorization = authorization
        self.checks = checks
        self.firstCheckedAt = firstCheckedAt
        self.lastCheckedAt = lastCheckedAt
        self.refusedUploads = refusedUploads
        self.lastRefusalDetail = lastRefusalDetail
        self.upload = upload
        self.asOf = asOf
    }
}

/// The upload of a watched code, with how far its keys have gone.
public struct StoredWatchUpload: Hashable, Sendable {
    public var id: Int64
    public var receivedAt: Date
    public var keysAccepted: Int
    public var keysDropped: Int
    /// The stored ``KeyDropCounts`` text (`{"reason": count}`); read it with ``KeyDropCounts/init(json:)``.
    public var droppedReasons: String
    public var province: String?
    public var clockSkewSeconds: Int64
    /// The chunks that carried its keys, in order.
    public var publishedInChunks: [Int64]
    /// Accepted keys in no chunk yet that may still be published (not past the publishing age limit).
    public var keysWaiting: Int
    /// When the first of them may be published: its end plus the embargo; nil when none waits.
    public var embargoEndsAt: Date?

    public init(
        id: Int64, receivedAt: Date, keysAccepted: Int, keysDropped: Int, droppedReasons: String, province: String?,
        clockSkewSeconds: Int64, publishedInChunks: [Int64], keysWaiting: Int, embargoEndsAt: Date?
    ) {
        self.id = id
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

/// When a scheduled job last ran and when it will run next, as the server that ran it recorded.
public struct JobRun: Hashable, Sendable {
    public var lastRun: Date
    public var nextRun: Date

    public init(lastRun: Date, nextRun: Date) {
        self.lastRun = lastRun
        self.nextRun = nextRun
    }
}
