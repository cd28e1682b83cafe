import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskExport
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What chunks are signed with and labelled as (spec/immuni-rules.md defaults).
public struct ChunkSigning: Sendable {
    public var key: ECPrivateKey
    /// `verification_key_id`: the mobile country code (Italy: 222).
    public var keyID: String
    /// `verification_key_version`, for key rotation.
    public var keyVersion: String
    /// The export's `region`.
    public var region: String
    /// The deprecated SignatureInfo field 1 that Immuni still wrote; nil or empty leaves it out.
    public var appBundleID: String?

    public init(
        key: ECPrivateKey, keyID: String = "222", keyVersion: String = "v1", region: String = "222",
        appBundleID: String? = "it.ministerodellasalute.immuni"
    ) {
        self.key = key
        self.keyID = keyID
        self.keyVersion = keyVersion
        self.region = region
        self.appBundleID = appBundleID
    }
}

/// The result of one publishing run.
public struct PublishRun: Sendable {
    public var published: [ChunkSummary]
    /// What is left after the run.
    public var backlog: PublishingBacklog
    /// No signing key is configured: nothing was (or can be) published.
    public var unsigned: Bool
    /// The run stopped with this error after publishing `published` (whole chunks only).
    public var failure: String?
    /// Another server held the publishing lock: this one did nothing.
    public var skipped: Bool

    public init(
        published: [ChunkSummary], backlog: PublishingBacklog, unsigned: Bool, failure: String? = nil,
        skipped: Bool = false
    ) {
        self.published = published
        self.backlog = backlog
        self.unsigned = unsigned
        self.failure = failure
        self.skipped = skipped
    }

    /// One line for the server log and the CLI.
    public var summary: String {
        var parts: [String] = []
        if skipped {
            parts.append("skipped: another server holds the lock")
        } else if unsigned {
            parts.append("NOT PUBLISHING: no signing key is configured (set signing_key_path)")
        } else if published.isEmpty {
            parts.append("no keys ready: nothing published")
        } else {
            for chunk in published {
                var text = "chunk \(chunk.index) published (\(chunk.keyCount) keys"
                if chunk.paddingCount > 0 { text += " + \(chunk.paddingCount) padding" }
                text += ", window \(Self.time(chunk.windowStart)) to \(Self.time(chunk.windowEnd)))"
                parts.append(text)
            }
        }
        if let failure { parts.append("then FAILED (the next run goes on from here): \(failure)") }
        var waiting = "\(backlog.ready) keys ready, \(backlog.embargoed) under embargo"
        if let next = backlog.nextReleaseAt { waiting += " (next release \(Self.time(next)))" }
        parts.append(waiting)
        if backlog.tooOld > 0 {
            parts.append(
                "\(backlog.tooOld) keys were never published and are now too old to be (LOST: publishing did not run in time)"
            )
        }
        return parts.joined(separator: "; ")
    }

    /// `2026-11-29T14:00:00Z`.
    public static func time(_ unixSeconds: Int64) -> String {
        let second = ((unixSeconds % 86_400) + 86_400) % 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let date = CivilDay(unixSeconds: unixSeconds).iso
        return "\(date)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}

/// The publishing job: turns keys past their embargo into signed GAEN chunks, one transaction
/// per chunk (a crash leaves whole chunks only, and no gap in the indexes).
///
/// Threading rule: safe from any thread; two runs at once (even in two processes) are
/// serialised by the store's write lock and never publish a key twice.
public struct ChunkPublisher: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let signing: ChunkSigning?
    public let policy: PublishingPolicy

    public init(store: any Store, clock: any Clock = SystemClock(), signing: ChunkSigning?, policy: PublishingPolicy) {
        self.store = store
        self.clock = clock
        self.signing = signing
        self.policy = policy
    }

    /// Publishes every key that is ready now, in as many chunks as it takes. `shouldStop` is
    /// asked between chunks (a server that is stopping does not wait for a long backlog).
    /// Throws only when nothing could be published; a failure after some chunks is reported
    /// in the result with what was published.
    public func run(shouldStop: () -> Bool = { false }) throws(ServiceError) -> PublishRun {
        let now = clock.now()
        let before: PublishingBacklog
        do {
            before = try store.publishingBacklog(now: now, policy: policy)
        } catch {
            throw ServiceError(error)
        }
        guard let signing else { return PublishRun(published: [], backlog: before, unsigned: true) }
        // One server publishes at a time; the others skip the run (the chunks are the same
        // wherever they are made, and indexes stay gapless either way).
        let lease: JobLease?
        do {
            lease = try store.acquireJobLock(.publishing)
        } catch {
            throw ServiceError(error)
        }
        guard let lease else { return PublishRun(published: [], backlog: before, unsigned: false, skipped: true) }
        defer { lease.release() }
        let perChunk = policy.realKeysPerChunk
        let planned = (before.ready + perChunk - 1) / perChunk
        var published: [ChunkSummary] = []
        var failure: ServiceError?
        // Keys that arrive during the run wait for the next one, so a run always ends.
        for _ in 0..<planned where !shouldStop() {
            do {
                let policy = self.policy
                guard
                    let chunk = try store.publishChunk(
                        now: now, policy: policy,
                        build: { draft throws(StoreError) in try Self.build(draft, signing: signing, policy: policy) })
                else { break }
                published.append(chunk)
            } catch {
                failure = ServiceError(error)
                break
            }
        }
        if let failure, published.isEmpty { throw failure }
        let after = (try? store.publishingBacklog(now: now, policy: policy)) ?? before
        return PublishRun(published: published, backlog: after, unsigned: false, failure: failure?.message)
    }

    /// The chunk for a draft: padding if the policy asks for it, keys sorted by their bytes
    /// (random order, never grouped by upload), export.bin signed, zipped.
    public static func build(
        _ draft: ChunkDraft, signing: ChunkSigning, policy: PublishingPolicy
    ) throws(StoreError) -> ChunkBuild {
        var generator = SystemRandomNumberGenerator()
        let padding = paddingKeys(for: draft.keys, policy: policy, using: &generator)
        let keys = (draft.keys + padding).map(exportKey).sorted { $0.keyData.lexicographicallyPrecedes($1.keyData) }
        let file = ExportFile(
            startTimestamp: UInt64(max(0, draft.windowStart)), endTimestamp: UInt64(max(0, draft.windowEnd)),
            region: signing.region, batchNum: 1, batchSize: 1,
            signatureInfos: [
                ExportSignatureInfo(
                    appBundleID: signing.appBundleID.flatMap { $0.isEmpty ? nil : $0 },
                    verificationKeyVersion: signing.keyVersion, verificationKeyID: signing.keyID)
            ],
            keys: keys, revisedKeys: [])
        do {
            let chunk = try SignedChunk.make(file: file, signer: signing.key)
            return ChunkBuild(
                zip: chunk.zip, exportBinSHA256: Hex.encode(SHA256.digest(chunk.exportBin)), paddingKeys: padding,
                region: signing.region, keyID: signing.keyID, keyVersion: signing.keyVersion)
        } catch {
            throw StoreError.failed(operation: "build chunk \(draft.index)", reason: error.message)
        }
    }

    /// Google-style padding: when a chunk has fewer real keys than the minimum, random keys
    /// fill it up to the minimum plus a random jitter, each copying the labels of a real key
    /// (round robin), so they cannot be told apart.
    static func paddingKeys(
        for real: [PublishableKey], policy: PublishingPolicy, using generator: inout some RandomNumberGenerator
    ) -> [PublishableKey] {
        guard policy.minimumKeys > 0, !real.isEmpty, real.count < policy.minimumKeys else { return [] }
        let jitter = policy.paddingJitter > 0 ? Int.random(in: 0...policy.paddingJitter, using: &generator) : 0
        let target = min(policy.maxKeysPerChunk, policy.minimumKeys + jitter)
        guard target > real.count else { return [] }
        return (0..<(target - real.count)).map { n in
            var key = real[n % real.count]
            key.keyData = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return key
        }
    }

    /// A stored key as the export writes it: a rolling period of 144 is left out (the default),
    /// an unknown report type is left unset.
    static func exportKey(_ key: PublishableKey) -> ExportKey {
        ExportKey(
            keyData: key.keyData, transmissionRiskLevel: Int32(clamping: key.transmissionRiskLevel),
            rollingStartIntervalNumber: Int32(clamping: key.rollingStartNumber),
            rollingPeriod: key.rollingPeriod == 144 ? nil : Int32(clamping: key.rollingPeriod),
            reportType: key.reportType == .unknown ? nil : Int32(key.reportType.rawValue),
            daysSinceOnsetOfSymptoms: Int32(clamping: key.daysSinceOnsetOfSymptoms))
    }
}

/// The retention job: what the store may no longer keep, deleted in one transaction.
public struct RetentionJob: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let policy: RetentionPolicy

    public init(store: any Store, clock: any Clock = SystemClock(), policy: RetentionPolicy) {
        self.store = store
        self.clock = clock
        self.policy = policy
    }

    /// One cleanup; `skipped` in the report when another server holds the cleanup lock.
    public func run() throws(ServiceError) -> CleanupReport {
        do {
            guard let lease = try store.acquireJobLock(.cleanup) else {
                var report = CleanupReport()
                report.skipped = true
                return report
            }
            defer { lease.release() }
            return try store.cleanup(now: clock.now(), policy: policy)
        } catch {
            throw ServiceError(error)
        }
    }
}
