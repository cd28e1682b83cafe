import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An operational-info record an app sends (Apple or Google): which permissions are on, whether
/// the app notified an exposure, in which province. Not personal: no token, no device id.
public struct OperationalInfo: Hashable, Sendable {
    public enum Platform: String, Hashable, Sendable { case ios, android }
    public var platform: Platform
    public var province: Province
    public var exposurePermission: Bool
    public var bluetoothActive: Bool
    public var notificationPermission: Bool
    public var exposureNotification: Bool
    /// Kept only when `exposureNotification` is on (the apps send today's date otherwise).
    public var lastRiskyExposureOn: CivilDay
    public var build: Int?

    public init(
        platform: Platform, province: Province, exposurePermission: Bool, bluetoothActive: Bool,
        notificationPermission: Bool, exposureNotification: Bool, lastRiskyExposureOn: CivilDay, build: Int?
    ) {
        self.platform = platform
        self.province = province
        self.exposurePermission = exposurePermission
        self.bluetoothActive = bluetoothActive
        self.notificationPermission = notificationPermission
        self.exposureNotification = exposureNotification
        self.lastRiskyExposureOn = lastRiskyExposureOn
        self.build = build
    }
}

/// An analytics token's monthly allowance (facts §6.1–6.2): once authorised, a token may send
/// one record with an exposure and one without, this month and next.
public struct AnalyticsAllowance: Hashable, Sendable {
    /// SHA-256 hex of the analytics token: the token itself is never stored.
    public var tokenHash: String
    public var month: CivilDay
    public var withExposure: Bool

    public init(tokenHash: String, month: CivilDay, withExposure: Bool) {
        self.tokenHash = tokenHash
        self.month = month.firstOfMonth
        self.withExposure = withExposure
    }
}

/// An accepted upload as the store keeps it.
public struct UploadRecord: Hashable, Sendable {
    public var otpHash: OtpHash
    public var receivedAt: Date
    public var symptomsStartedOn: CivilDay
    public var province: Province?
    public var clientClock: Int64
    public var evaluation: UploadEvaluation
    /// The validated exposure-detection summaries as compact JSON (for analytics).
    public var summariesJSON: String
    public var summaryCount: Int

    public init(
        otpHash: OtpHash, receivedAt: Date, symptomsStartedOn: CivilDay, province: Province?, clientClock: Int64,
        evaluation: UploadEvaluation, summariesJSON: String, summaryCount: Int
    ) {
        self.otpHash = otpHash
        self.receivedAt = receivedAt
        self.symptomsStartedOn = symptomsStartedOn
        self.province = province
        self.clientClock = clientClock
        self.evaluation = evaluation
        self.summariesJSON = summariesJSON
        self.summaryCount = summaryCount
    }
}

/// What became of an upload's request to use a code.
public enum UploadOutcome: Hashable, Sendable {
    /// The code was consumed and the upload stored under `uploadID`.
    case stored(uploadID: Int64, UploadRecord)
    /// The code is unknown, expired or already used: nothing stored (401).
    case refused(OtpStatus)
}
