import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DeskEvent {
    /// The `detail` of an event, typed per kind: written by the store, read by the service and
    /// the console, and its key names (each struct's `Key`) are what the statistics' SQL reads.
    ///
    /// `json` gives exactly the bytes the store has always written (pinned by golden tests), and
    /// ``init(kind:json:)`` reads those and older rows (keys added later are optional). Privacy:
    /// no field holds a code, a key, a phone number or an address.
    public enum Detail: Hashable, Sendable {
        case otpAuthorized(OtpAuthorized)
        case otpChecked(OtpChecked)
        case uploadAccepted(UploadAccepted)
        case uploadRefused(UploadRefused)
        case analyticsReceived(AnalyticsReceived)
        case chunkPublished(ChunkPublished)
        case staffAction(StaffAction)
        case apricotRegistered(ApricotRegistered)
        case contactFileReceived(ContactFileReceived)
        case otpGuessesLimited(OtpGuessesLimited)
        case caseOpened(FollowUpActivity)
        case caseClosed(FollowUpActivity)
        case followUpChanged(FollowUpActivity)

        /// Nil when `json` is not the detail of `kind` (not an object, a required key missing or
        /// of another type): the caller shows it as stored.
        public init?(kind: Kind, json: String) {
            guard let r = DetailReader(json) else { return nil }
            switch kind {
            case .otpAuthorized:
                guard let d = OtpAuthorized(r) else { return nil }
                self = .otpAuthorized(d)
            case .otpChecked:
                guard let d = OtpChecked(r) else { return nil }
                self = .otpChecked(d)
            case .uploadAccepted:
                guard let d = UploadAccepted(r) else { return nil }
                self = .uploadAccepted(d)
            case .uploadRefused:
                guard let d = UploadRefused(r) else { return nil }
                self = .uploadRefused(d)
            case .analyticsReceived:
                guard let d = AnalyticsReceived(r) else { return nil }
                self = .analyticsReceived(d)
            case .chunkPublished:
                guard let d = ChunkPublished(r) else { return nil }
                self = .chunkPublished(d)
            case .staffAction:
                guard let d = StaffAction(r) else { return nil }
                self = .staffAction(d)
            case .apricotRegistered:
                guard let d = ApricotRegistered(r) else { return nil }
                self = .apricotRegistered(d)
            case .contactFileReceived:
                guard let d = ContactFileReceived(r) else { return nil }
                self = .contactFileReceived(d)
            case .otpGuessesLimited:
                guard let d = OtpGuessesLimited(r) else { return nil }
                self = .otpGuessesLimited(d)
            case .caseOpened:
                guard let d = FollowUpActivity(r) else { return nil }
                self = .caseOpened(d)
            case .caseClosed:
                guard let d = FollowUpActivity(r) else { return nil }
                self = .caseClosed(d)
            case .followUpChanged:
                guard let d = FollowUpActivity(r) else { return nil }
                self = .followUpChanged(d)
            }
        }

        /// The kind this detail belongs to.
        public var kind: Kind {
            switch self {
            case .otpAuthorized: return .otpAuthorized
            case .otpChecked: return .otpChecked
            case .uploadAccepted: return .uploadAccepted
            case .uploadRefused: return .uploadRefused
            case .analyticsReceived: return .analyticsReceived
            case .chunkPublished: return .chunkPublished
            case .staffAction: return .staffAction
            case .apricotRegistered: return .apricotRegistered
            case .contactFileReceived: return .contactFileReceived
            case .otpGuessesLimited: return .otpGuessesLimited
            case .caseOpened: return .caseOpened
            case .caseClosed: return .caseClosed
            case .followUpChanged: return .followUpChanged
            }
        }

        /// The stored text.
        public var json: String {
            switch self {
            case .otpAuthorized(let d): return d.json
            case .otpChecked(let d): return d.json
            case .uploadAccepted(let d): return d.json
            case .uploadRefused(let d): return d.json
            case .analyticsReceived(let d): return d.json
            case .chunkPublished(let d): return d.json
            case .staffAction(let d): return d.json
            case .apricotRegistered(let d): return d.json
            case .contactFileReceived(let d): return d.json
            case .otpGuessesLimited(let d): return d.json
            case .caseOpened(let d), .caseClosed(let d), .followUpChanged(let d): return d.json
            }
        }
    }
}

extension DeskEvent.Detail {
    /// An authorisation (also the detail of its `otp_authorized` audit entry).
    public struct OtpAuthorized: Hashable, Sendable {
        public enum Key {
            public static let symptomsStartedOn = "symptoms_started_on"
            public static let expiresAt = "expires_at_ms"
        }
        public var symptomsStartedOn: CivilDay
        /// Whole milliseconds, as stored.
        public var expiresAt: Date

        public init(symptomsStartedOn: CivilDay, expiresAt: Date) {
            self.symptomsStartedOn = symptomsStartedOn
            self.expiresAt = expiresAt
        }

        init?(_ r: DetailReader) {
            guard let day = r.string(Key.symptomsStartedOn).flatMap(CivilDay.init(iso:)),
                let ms = r.int64(Key.expiresAt)
            else { return nil }
            self.init(symptomsStartedOn: day, expiresAt: Date(unixMilliseconds: ms))
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.symptomsStartedOn, symptomsStartedOn.iso)
            w.add(Key.expiresAt, expiresAt.unixMilliseconds)
            return w.json
        }
    }

    /// A check of a code by a phone: the code's status then (``OtpStatus/name``).
    public struct OtpChecked: Hashable, Sendable {
        public enum Key { public static let status = "status" }
        public var status: String

        public init(status: String) { self.status = status }

        init?(_ r: DetailReader) {
            guard let status = r.string(Key.status) else { return nil }
            self.init(status: status)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.status, status)
            return w.json
        }
    }

    /// An upload refused: why (the code's ``OtpStatus/name``: expired, consumed…).
    public struct UploadRefused: Hashable, Sendable {
        public enum Key { public static let reason = "reason" }
        public var reason: String

        public init(reason: String) { self.reason = reason }

        init?(_ r: DetailReader) {
            guard let reason = r.string(Key.reason) else { return nil }
            self.init(reason: reason)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.reason, reason)
            return w.json
        }
    }

    /// An analytics report from a phone: platform, province, whether it was notified.
    public struct AnalyticsReceived: Hashable, Sendable {
        public enum Key {
            public static let platform = "platform"
            public static let province = "province"
            public static let exposureNotification = "exposure_notification"
        }
        public var platform: String
        public var province: String
        public var exposureNotification: Bool

        public init(platform: String, province: String, exposureNotification: Bool) {
            self.platform = platform
            self.province = province
            self.exposureNotification = exposureNotification
        }

        init?(_ r: DetailReader) {
            guard let platform = r.string(Key.platform), let province = r.string(Key.province),
                let notified = r.bool(Key.exposureNotification)
            else { return nil }
            self.init(platform: platform, province: province, exposureNotification: notified)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.platform, platform)
            w.add(Key.province, province)
            w.add(Key.exposureNotification, exposureNotification)
            return w.json
        }
    }

    /// A staff action mirrored from the audit log: the action and, for a change to an account,
    /// the account's name; `unknownName` when someone signed in with a name nobody owns.
    public struct StaffAction: Hashable, Sendable {
        public enum Key {
            public static let action = "action"
            public static let target = "target"
            public static let unknownName = "unknown_name"
        }
        public var action: AuditAction
        public var target: String?
        public var unknownName: Bool

        public init(action: AuditAction, target: String? = nil, unknownName: Bool = false) {
            self.action = action
            self.target = target
            self.unknownName = unknownName
        }

        init?(_ r: DetailReader) {
            guard let action = r.string(Key.action) else { return nil }
            self.init(
                action: AuditAction(rawValue: action), target: r.string(Key.target),
                unknownName: r.bool(Key.unknownName) ?? false)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.action, action.rawValue)
            if unknownName { w.add(Key.unknownName, true) }
            w.addIfPresent(Key.target, target)
            return w.json
        }
    }

    /// An APRICOT app registered (a new user) or signed in again (`returning`).
    public struct ApricotRegistered: Hashable, Sendable {
        public enum Key {
            public static let pseudoIDs = "pseudo_ids"
            /// Written only when true.
            public static let returning = "returning"
        }
        public var pseudoIDs: Int
        public var returning: Bool

        public init(pseudoIDs: Int, returning: Bool) {
            self.pseudoIDs = pseudoIDs
            self.returning = returning
        }

        init?(_ r: DetailReader) {
            guard let ids = r.int(Key.pseudoIDs) else { return nil }
            self.init(pseudoIDs: ids, returning: r.bool(Key.returning) ?? false)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.pseudoIDs, pseudoIDs)
            if returning { w.add(Key.returning, true) }
            return w.json
        }
    }

    /// The phone API answering an address 429 after too many wrong codes: the route and the
    /// wait; never the address.
    public struct OtpGuessesLimited: Hashable, Sendable {
        public enum Key {
            public static let route = "route"
            public static let retryAfter = "retry_after_s"
        }
        public var route: String
        public var retryAfterSeconds: Int

        public init(route: String, retryAfterSeconds: Int) {
            self.route = route
            self.retryAfterSeconds = retryAfterSeconds
        }

        init?(_ r: DetailReader) {
            guard let route = r.string(Key.route), let seconds = r.int(Key.retryAfter) else { return nil }
            self.init(route: route, retryAfterSeconds: seconds)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.route, route)
            w.add(Key.retryAfter, retryAfterSeconds)
            return w.json
        }
    }
}
