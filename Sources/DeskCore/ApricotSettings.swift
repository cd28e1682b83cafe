import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The APRICOT centralised design (spec/apricot-protocol.md): phone numbers, pseudo-ids,
// contact files and their rules. Pure values; the store, the server and the console share them.

/// The design's settings, each configurable on the server, with the design's defaults.
public struct ApricotSettings: Hashable, Sendable {
    /// Pseudo-ids made per user (NUM_PSEUDO_IDS).
    public var pseudoIDsPerUser: Int = 1000
    /// How often an app changes the beacon it broadcasts, seconds (BEACON_CHANGE_INTERVAL).
    public var beaconChangeSeconds: Int = 300
    /// How often an app scans, seconds (BEACON_DETECT_INTERVAL): one record ≈ this much proximity.
    public var beaconDetectSeconds: Int = 60
    /// Whether apps put a timestamp in each record (CONTACT_TIMESTAMP_OPTION).
    public var contactTimestamps: Bool = true
    /// Days of contact files kept and accepted (CONTACT_HISTORY_MAX).
    public var contactHistoryDays: Int = 30
    /// The close-contact rule: at least this many minutes of proximity on one day.
    public var closeContactMinutes: Int = 15
    /// Added to staff-typed numbers without a country code, e.g. "+39".
    public var defaultCountryCode: String = "+39"

    public init() {}
}
