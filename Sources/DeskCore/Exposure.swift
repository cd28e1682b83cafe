import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A temporary exposure key as a phone uploads it (GAEN): 16 random bytes, valid from
/// `rollingStartNumber` (10-minute intervals since the epoch) for `rollingPeriod` intervals.
public struct TemporaryExposureKey: Hashable, Sendable {
    public var keyData: [UInt8]
    public var rollingStartNumber: Int64
    public var rollingPeriod: Int64

    public init(keyData: [UInt8], rollingStartNumber: Int64, rollingPeriod: Int64) {
        self.keyData = keyData
        self.rollingStartNumber = rollingStartNumber
        self.rollingPeriod = rollingPeriod
    }

    /// Seconds in one rolling interval.
    public static let intervalSeconds: Int64 = 600
    /// Intervals in one day (the longest valid rolling period).
    public static let intervalsPerDay: Int64 = 144

    /// The UTC day the key started on.
    public var day: CivilDay { CivilDay(unixSeconds: rollingStartNumber * Self.intervalSeconds) }
    /// Unix seconds at which the key stops being used.
    public var expiresAtSeconds: Int64 { (rollingStartNumber + rollingPeriod) * Self.intervalSeconds }
}

/// Why one uploaded key was not kept. Raw values appear in events, metrics and the API docs.
public enum KeyDropReason: String, Hashable, Sendable, CaseIterable, Comparable {
    case keyLength = "key_length"
    case rollingPeriod = "rolling_period"
    case duplicateKeyData = "duplicate_key_data"
    case duplicateInterval = "duplicate_interval"
    case misaligned = "misaligned"
    case future = "future"
    case tooOld = "too_old"
    case beforeRiskWindow = "before_risk_window"

    /// The reason's name in the catalogue's keys (`console.dashboard.dropped.tooOld`…).
    public var catalogueName: String {
        switch self {
        case .keyLength: return "keyLength"
        case .rollingPeriod: return "rollingPeriod"
        case .duplicateKeyData: return "duplicateKeyData"
        case .duplicateInterval: return "duplicateInterval"
        case .misaligned: return "misaligned"
        case .future: return "future"
        case .tooOld: return "tooOld"
        case .beforeRiskWindow: return "beforeRiskWindow"
        }
    }

    public static func < (lhs: KeyDropReason, rhs: KeyDropReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// GAEN report types (the values of the export format).
public enum ReportType: Int, Hashable, Sendable, CaseIterable {
    case unknown = 0
    case confirmedTest = 1
    case confirmedClinicalDiagnosis = 2
    case selfReport = 3
    case recursive = 4
    case revoked = 5

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .confirmedTest: return "confirmed_test"
        case .confirmedClinicalDiagnosis: return "confirmed_clinical_diagnosis"
        case .selfReport: return "self_report"
        case .recursive: return "recursive"
        case .revoked: return "revoked"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

/// How published keys are labelled, and which keys count as infectious.
public struct RiskProfile: Hashable, Sendable {
    /// Transmission risk level on every published key (Immuni: 8).
    public var transmissionRiskLevel: Int
    public var reportType: ReportType
    /// Keys from days before `symptoms − daysBeforeSymptoms` are not published (Immuni: 2).
    public var daysBeforeSymptoms: Int
    /// Keys that stopped being used longer ago than this are dropped (GAEN: 14).
    public var maximumKeyAgeDays: Int
    /// |client clock − server clock| beyond this is flagged to staff.
    public var clockSkewFlagSeconds: Int64

    public init(
        transmissionRiskLevel: Int = 8, reportType: ReportType = .confirmedTest, daysBeforeSymptoms: Int = 2,
        maximumKeyAgeDays: Int = 14, clockSkewFlagSeconds: Int64 = 86_400
    ) {
        self.transmissionRiskLevel = transmissionRiskLevel
        self.reportType = reportType
        self.daysBeforeSymptoms = daysBeforeSymptoms
        self.maximumKeyAgeDays = maximumKeyAgeDays
        self.clockSkewFlagSeconds = clockSkewFlagSeconds
    }

    public static let immuni = RiskProfile()
}

/// A key kept for publishing, with the labels the risk profile gave it.
public struct AcceptedKey: Hashable, Sendable {
    public var key: TemporaryExposureKey
    public var transmissionRiskLevel: Int
    public var reportType: ReportType
    /// Key day − symptom-onset day, clamped to −14…14.
    public var daysSinceOnsetOfSymptoms: Int

    public init(
        key: TemporaryExposureKey, transmissionRiskLevel: Int, reportType: ReportType, daysSinceOnsetOfSymptoms: Int
    ) {
        self.key = key
        self.transmissionRiskLevel = transmissionRiskLevel
        self.reportType = reportType
        self.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms
    }
}

/// What the key rules made of one upload.
public struct UploadEvaluation: Hashable, Sendable {
    public var accepted: [AcceptedKey]
    /// The keys not kept: index in the uploaded list (0-based) and the first rule failed.
    public var dropped: [DroppedKey]
    /// Server time − client time, in seconds.
    public var clockSkewSeconds: Int64
    public var clockSkewFlagged: Bool

    public struct DroppedKey: Hashable, Sendable {
        public var index: Int
        public var reason: KeyDropReason
        public init(index: Int, reason: KeyDropReason) {
            self.index = index
            self.reason = reason
        }
    }

    /// Count of dropped keys per reason, in the reasons' order.
    public var droppedCounts: [(reason: KeyDropReason, count: Int)] {
        var counts: [KeyDropReason: Int] = [:]
        for drop in dropped { counts[drop.reason, default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    public init(accepted: [AcceptedKey], dropped: [DroppedKey], clockSkewSeconds: Int64, clockSkewFlagged: Bool) {
        self.accepted = accepted
        self.dropped = dropped
        self.clockSkewSeconds = clockSkewSeconds
        self.clockSkewFlagged = clockSkewFlagged
    }
}

/// The per-key rules of an upload (spec/immuni-rules.md, "Key checks after the schema"): each
/// failing key is dropped with a reason, the rest are kept. Key data and start numbers are
/// never rewritten.
public enum UploadRules {
    /// - Parameters:
    ///   - serverNow: the server's clock.
    ///   - clientClock: the phone's clock (unix seconds, `Immuni-Client-Clock`).
    ///   - symptomsStartedOn: from the authorisation.
    public static func evaluate(
        keys: [TemporaryExposureKey], serverNow: Date, clientClock: Int64, symptomsStartedOn: CivilDay,
        profile: RiskProfile = .immuni
    ) -> UploadEvaluation {
        let serverSeconds = Int64(serverNow.timeIntervalSince1970.rounded(.down))
        let skew = serverSeconds - clientClock
        let clientInterval = clientClock >= 0 ? clientClock / TemporaryExposureKey.intervalSeconds : -1
        let oldestAllowedEnd = serverSeconds - Int64(profile.maximumKeyAgeDays) * 86_400
        let firstRiskyDay = symptomsStartedOn.adding(days: -profile.daysBeforeSymptoms)

        var reasons = [KeyDropReason?](repeating: nil, count: keys.count)
        // At most 14 keys: comparing with the earlier ones beats hashing arrays.
        for (i, key) in keys.enumerated() {
            let earlier = keys[..<i].indices.filter { reasons[$0] == nil }
            if key.keyData.count != 16 {
                reasons[i] = .keyLength
            } else if !(1...TemporaryExposureKey.intervalsPerDay).contains(key.rollingPeriod) {
                reasons[i] = .rollingPeriod
            } else if earlier.contains(where: { keys[$0].keyData == key.keyData }) {
                reasons[i] = .duplicateKeyData
            } else if earlier.contains(where: {
                keys[$0].rollingStartNumber == key.rollingStartNumber && keys[$0].rollingPeriod == key.rollingPeriod
            }) {
                reasons[i] = .duplicateInterval
            }
        }
        // Keys must be whole days apart. The reference is the start-of-day offset most keys share
        // (the earliest key's on a tie), so one bad key cannot drag the good ones down with it.
        let survivors = keys.indices.filter { reasons[$0] == nil }
        var residues: [Int64: Int] = [:]
        for i in survivors {
            residues[keys[i].rollingStartNumber % TemporaryExposureKey.intervalsPerDay, default: 0] += 1
        }
        let earliest = survivors.min { keys[$0].rollingStartNumber < keys[$1].rollingStartNumber }
        let earliestResidue = earliest.map { keys[$0].rollingStartNumber % TemporaryExposureKey.intervalsPerDay }
        let reference = residues.max { a, b in
            a.value != b.value ? a.value < b.value : b.key == earliestResidue
        }?.key
        for (i, key) in keys.enumerated() where reasons[i] == nil {
            if let reference, key.rollingStartNumber % TemporaryExposureKey.intervalsPerDay != reference {
                reasons[i] = .misaligned
            } else if key.rollingStartNumber > clientInterval {
                reasons[i] = .future
            } else if key.expiresAtSeconds <= oldestAllowedEnd {
                reasons[i] = .tooOld
            } else if key.day < firstRiskyDay {
                reasons[i] = .beforeRiskWindow
            }
        }
        var accepted: [AcceptedKey] = []
        var dropped: [UploadEvaluation.DroppedKey] = []
        for (i, key) in keys.enumerated() {
            if let reason = reasons[i] {
                dropped.append(.init(index: i, reason: reason))
            } else {
                let onset = min(14, max(-14, key.day.days(since: symptomsStartedOn)))
                accepted.append(
                    AcceptedKey(
                        key: key, transmissionRiskLevel: profile.transmissionRiskLevel, reportType: profile.reportType,
                        daysSinceOnsetOfSymptoms: onset))
            }
        }
        return UploadEvaluation(
            accepted: accepted, dropped: dropped, clockSkewSeconds: skew,
            clockSkewFlagged: abs(skew) > profile.clockSkewFlagSeconds)
    }
}
