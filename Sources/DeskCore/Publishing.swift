import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A key as it goes into a chunk: the upload's accepted key with its labels, or a padding key.
public struct PublishableKey: Hashable, Sendable {
    public var keyData: [UInt8]
    public var rollingStartNumber: Int64
    public var rollingPeriod: Int64
    public var transmissionRiskLevel: Int
    public var reportType: ReportType
    public var daysSinceOnsetOfSymptoms: Int

    public init(
        keyData: [UInt8], rollingStartNumber: Int64, rollingPeriod: Int64, transmissionRiskLevel: Int,
        reportType: ReportType, daysSinceOnsetOfSymptoms: Int
    ) {
        self.keyData = keyData
        self.rollingStartNumber = rollingStartNumber
        self.rollingPeriod = rollingPeriod
        self.transmissionRiskLevel = transmissionRiskLevel
        self.reportType = reportType
        self.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms
    }
}

/// The rules of the publishing job (spec/immuni-rules.md, "TEK chunks").
public struct PublishingPolicy: Hashable, Sendable {
    /// A key is published only once it has been expired this long (GAEN: 2 h).
    public var embargoSeconds: Int64
    /// At most this many keys (real and padding) in one chunk; more make several chunks.
    public var maxKeysPerChunk: Int
    /// Uploads accept keys that ended up to this many days ago.
    public var maximumKeyAgeDays: Int
    /// The index and downloads offer the chunks of this many days (the rules: 14; fewer when
    /// retention keeps less).
    public var chunkLifetimeDays: Int
    /// Padding: a chunk with fewer real keys is filled with random keys up to this many,
    /// plus a random 0…`paddingJitter` (0 turns padding off).
    public var minimumKeys: Int
    public var paddingJitter: Int

    public init(
        embargoSeconds: Int64 = 7_200, maxKeysPerChunk: Int = 10_000, maximumKeyAgeDays: Int = 14,
        chunkLifetimeDays: Int = 14, minimumKeys: Int = 0, paddingJitter: Int = 100
    ) {
        self.embargoSeconds = embargoSeconds
        self.maxKeysPerChunk = maxKeysPerChunk
        self.maximumKeyAgeDays = maximumKeyAgeDays
        self.chunkLifetimeDays = chunkLifetimeDays
        self.minimumKeys = minimumKeys
        self.paddingJitter = paddingJitter
    }

    /// Keys that ended longer ago than this are never published: one day more than uploads
    /// accept, so a key accepted just inside the limit is still published by the next run
    /// (GAEN treats keys more than 15 days older than the chunk as errors).
    public var publishableAgeDays: Int { maximumKeyAgeDays + 1 }

    /// The real keys one chunk takes, leaving room for the jitter of the padding.
    public var realKeysPerChunk: Int {
        guard minimumKeys > 0 else { return maxKeysPerChunk }
        return max(1, min(maxKeysPerChunk, maxKeysPerChunk - paddingJitter))
    }
}

/// What the store hands the chunk builder inside the publishing transaction.
public struct ChunkDraft: Sendable {
    /// The index this chunk will have (the previous one + 1; never reused).
    public var index: Int64
    /// The chunk's window, Unix seconds: starts where the previous chunk's ended.
    public var windowStart: Int64
    public var windowEnd: Int64
    /// Real keys (one copy of each): those that waited for their embargo first, then in order
    /// of arrival.
    public var keys: [PublishableKey]
    /// The uploads these keys came from.
    public var uploadIDs: [Int64]

    public init(index: Int64, windowStart: Int64, windowEnd: Int64, keys: [PublishableKey], uploadIDs: [Int64]) {
        self.index = index
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.keys = keys
        self.uploadIDs = uploadIDs
    }
}

/// The finished chunk the builder returns; the store keeps it as it is.
public struct ChunkBuild: Sendable {
    /// The zip phones download (never rebuilt).
    public var zip: [UInt8]
    /// SHA-256 of export.bin, lowercase hex (a content hash: the signature differs per signing).
    public var exportBinSHA256: String
    /// The random keys added to the chunk, persisted with it.
    public var paddingKeys: [PublishableKey]
    public var region: String
    public var keyID: String
    public var keyVersion: String

    public init(
        zip: [UInt8], exportBinSHA256: String, paddingKeys: [PublishableKey], region: String, keyID: String,
        keyVersion: String
    ) {
        self.zip = zip
        self.exportBinSHA256 = exportBinSHA256
        self.paddingKeys = paddingKeys
        self.region = region
        self.keyID = keyID
        self.keyVersion = keyVersion
    }
}

/// A published chunk, without its bytes.
public struct ChunkSummary: Hashable, Sendable {
    public var index: Int64
    public var publishedAt: Date
    public var windowStart: Int64
    public var windowEnd: Int64
    /// Real keys.
    public var keyCount: Int
    public var paddingCount: Int
    public var zipBytes: Int
    public var exportBinSHA256: String
    public var region: String
    public var keyID: String
    public var keyVersion: String

    public init(
        index: Int64, publishedAt: Date, windowStart: Int64, windowEnd: Int64, keyCount: Int, paddingCount: Int,
        zipBytes: Int, exportBinSHA256: String, region: String, keyID: String, keyVersion: String
    ) {
        self.index = index
        self.publishedAt = publishedAt
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.keyCount = keyCount
        self.paddingCount = paddingCount
        self.zipBytes = zipBytes
        self.exportBinSHA256 = exportBinSHA256
        self.region = region
        self.keyID = keyID
        self.keyVersion = keyVersion
    }
}

/// Keys not yet published.
public struct PublishingBacklog: Hashable, Sendable {
    /// Past their embargo: the next run publishes them.
    public var ready: Int
    /// Still valid or expired less than the embargo ago.
    public var embargoed: Int
    /// When the earliest embargoed key becomes publishable (Unix seconds), if any.
    public var nextReleaseAt: Int64?
    /// Never published and now too old to be (publishing did not run for over a day): lost.
    public var tooOld: Int

    public init(ready: Int, embargoed: Int, nextReleaseAt: Int64?, tooOld: Int = 0) {
        self.ready = ready
        self.embargoed = embargoed
        self.nextReleaseAt = nextReleaseAt
        self.tooOld = tooOld
    }
}

/// How long things are kept (spec/immuni-rules.md: 14 days; analytics 30).
public struct RetentionPolicy: Hashable, Sendable {
    /// Uploads, keys, chunks, authorisations and their events.
    public var days: Int
    /// Operational info, analytics allowances' events, dummy-traffic counts.
    public var analyticsDays: Int
    /// APRICOT contact files: the days of history kept (CONTACT_HISTORY_MAX; today counts as one).
    public var contactHistoryDays: Int
    /// SMS messages (outbox and sent): they hold a code and a phone number, and a code lives
    /// 5 minutes, so a day is plenty for an admin or a trainer to read them.
    public var smsMessageHours: Int
    /// Closed cases (issue 21): deleted this many days after they closed, with their history and
    /// the ended follow-ups that named no other case.
    public var closedCaseDays: Int

    public init(
        days: Int = 14, analyticsDays: Int = 30, contactHistoryDays: Int = 30, smsMessageHours: Int = 24,
        closedCaseDays: Int = FollowUpSettings.standard.closedRetentionDays
    ) {
        self.closedCaseDays = closedCaseDays
        self.days = days
        self.analyticsDays = analyticsDays
        self.contactHistoryDays = contactHistoryDays
        self.smsMessageHours = smsMessageHours
    }
}

/// What one cleanup run deleted, per kind of record.
public struct CleanupReport: Hashable, Sendable {
    public var uploads = 0
    public var keys = 0
    public var chunks = 0
    public var authorizations = 0
    public var events = 0
    public var operationalInfo = 0
    /// APRICOT contact files older than the contact history.
    public var contactFiles = 0
    /// APRICOT SMS codes expired and out of the rate limit's hour.
    public var smsCodes = 0
    /// Expired APRICOT access tokens.
    public var apricotTokens = 0
    /// SMS messages past ``RetentionPolicy/smsMessageHours``.
    public var smsMessages = 0
    /// Cases closed longer ago than ``RetentionPolicy/closedCaseDays``.
    public var closedCases = 0
    public var other = 0
    /// Another server held the cleanup lock: nothing was done here.
    public var skipped = false

    public init() {}

    public var total: Int {
        uploads + keys + chunks + authorizations + events + operationalInfo + contactFiles + smsCodes + apricotTokens
            + smsMessages + closedCases + other
    }

    /// One line in English, for the server's log: "deleted 3 uploads, 42 keys, 1 chunk" (kinds
    /// with nothing deleted are left out).
    public var summary: String { Language.$scoped.withValue(.en) { words } }

    /// The same line in the current language, for the command line.
    public var words: String {
        let parts: [(Int, String)] = [
            (uploads, "uploads"), (keys, "keys"), (chunks, "chunks"), (authorizations, "authorizations"),
            (events, "events"), (operationalInfo, "analytics"), (contactFiles, "contactFiles"),
            (smsCodes, "smsCodes"), (apricotTokens, "appTokens"), (smsMessages, "smsMessages"),
            (closedCases, "closedCases"), (other, "other"),
        ]
        if skipped { return tr("cleanup.skipped") }
        let said = parts.filter { $0.0 > 0 }.map { trCount("cleanup.\($0.1)", $0.0) }
        return said.isEmpty ? tr("cleanup.nothing") : tr("cleanup.deleted", ["what": said.joined(separator: ", ")])
    }
}
