import DeskContract
import DeskCore
import DeskLocal
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server's scheduled jobs: publishing chunks (every `publish_interval_seconds`),
/// retention (every `cleanup_interval_seconds`) and the statistics rollup (every
/// `stats_rollup_interval_seconds`), all first run right after start. They run
/// one at a time on one queue, never in a request thread; each run logs one line and updates
/// `/metrics`. A publishing run that this server made records in the store when it ran and
/// when it runs next, for the watch of a code ("published at the next run, 14:05").
public final class ServerJobs: @unchecked Sendable {
    public let publisher: ChunkPublisher
    public let retention: RetentionJob
    let publishInterval: Int
    let cleanupInterval: Int
    let rollupInterval: Int
    /// Audit checkpoints; nil when the settings name no audit key and file.
    public let auditCheckpoints: AuditCheckpointJob?
    let metrics: Metrics
    let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "tracedesk.jobs")
    private var timers: [DispatchSourceTimer] = []
    private let stopping = SimpleLock()
    private var stopRequested = false
    /// A failed run is tried again this soon rather than at the next interval.
    static let retrySeconds = 60

    public init(
        publisher: ChunkPublisher, retention: RetentionJob, publishIntervalSeconds: Int, cleanupIntervalSeconds: Int,
        rollupIntervalSeconds: Int = 300, auditCheckpoints: AuditCheckpointJob? = nil, metrics: Metrics,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.auditCheckpoints = auditCheckpoints
        self.publisher = publisher
        self.retention = retention
        self.publishInterval = publishIntervalSeconds
        self.cleanupInterval = cleanupIntervalSeconds
        self.rollupInterval = rollupIntervalSeconds
        self.metrics = metrics
        self.log = log
        metrics.set(.publishingEnabled, to: publisher.signing == nil ? 0 : 1)
    }

    func start() {
        var jobs: [(Int, @Sendable () -> Void)] = [
            (publishInterval, { self.publishNow() }), (cleanupInterval, { self.cleanUpNow() }),
            (rollupInterval, { self.rollUpNow() }),
        ]
        // The count is checked every few seconds (one indexed read) so that "every N entries"
        // is kept within seconds; the hourly rule is the job's own.
        if let checkpoints = auditCheckpoints {
            jobs.append((min(10, checkpoints.intervalSeconds), { self.checkpointNow() }))
        }
        for (interval, job) in jobs {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: .seconds(interval), leeway: .seconds(1))
            timer.setEventHandler(handler: job)
            timer.resume()
            timers.append(timer)
        }
    }

    /// Cancels the timers and waits for a run in progress to finish its current chunk.
    func stop() {
        stopping.withLock { stopRequested = true }
        for timer in timers { timer.cancel() }
        timers = []
        queue.sync {}
    }

    /// One publishing run now (the timer's job; tests call it directly).
    @discardableResult
    public func publishNow() -> PublishRun? {
        let started = publisher.clock.now()
        do {
            let run = try publisher.run(shouldStop: { self.stopping.withLock { self.stopRequested } })
            let result = run.skipped ? "skipped" : run.unsigned ? "unsigned" : run.failure == nil ? "ok" : "failed"
            metrics.count(.publishingRunsTotal, #"result="\#(result)""#)
            metrics.count(.chunksPublishedTotal, by: run.published.count)
            metrics.count(.keysPublishedTotal, by: run.published.reduce(0) { $0 + $1.keyCount })
            metrics.set(.keysWaiting, #"state="ready""#, to: Double(run.backlog.ready))
            metrics.set(.keysWaiting, #"state="embargoed""#, to: Double(run.backlog.embargoed))
            metrics.set(.keysWaiting, #"state="too_old""#, to: Double(run.backlog.tooOld))
            if let last = run.published.last {
                metrics.set(.lastChunkIndex, to: Double(last.index))
            } else if let last = try? publisher.store.lastChunkIndex() {
                metrics.set(.lastChunkIndex, to: Double(last))
            }
            log("publishing: \(run.summary)")
            if run.failure != nil { retry { self.publishNow() } }
            // A skipped run was another server's to make (it records its own); an unsigned
            // server publishes nothing, so it has no next run to tell.
            if !run.skipped && !run.unsigned { recordPublishingRun(started: started, failed: run.failure != nil) }
            return run
        } catch {
            metrics.count(.publishingRunsTotal, #"result="failed""#)
            log("publishing FAILED (tried again in \(Self.retrySeconds) s): \(error.message)")
            retry { self.publishNow() }
            recordPublishingRun(started: started, failed: true)
            return nil
        }
    }

    /// Records the run that started at `started`: the timer fires again an interval after it,
    /// a failed run is tried again sooner.
    private func recordPublishingRun(started: Date, failed: Bool) {
        let ended = publisher.clock.now()
        var next = started.addingTimeInterval(Double(publishInterval))
        if failed { next = min(next, ended.addingTimeInterval(Double(Self.retrySeconds))) }
        do {
            try publisher.store.recordJobRun(.publishing, ranAt: started, nextRunAt: max(next, ended))
        } catch {
            log("publishing: the run was not recorded for the watch: \(error.message)")
        }
    }

    /// One retention run now.
    @discardableResult
    public func cleanUpNow() -> CleanupReport? {
        do {
            let report = try retention.run()
            metrics.count(.cleanupRunsTotal, report.skipped ? #"result="skipped""# : #"result="ok""#)
            let kinds: [(String, Int)] = [
                ("uploads", report.uploads), ("keys", report.keys), ("chunks", report.chunks),
                ("authorizations", report.authorizations), ("events", report.events),
                ("operational_info", report.operationalInfo), ("other", report.other),
            ]
            for (kind, n) in kinds where n > 0 {
                metrics.count(.cleanupDeletedTotal, #"kind="\#(kind)""#, by: n)
            }
            log("cleanup: \(report.summary)")
            return report
        } catch {
            metrics.count(.cleanupRunsTotal, #"result="failed""#)
            log("cleanup FAILED (tried again in \(Self.retrySeconds) s): \(error.message)")
            retry { self.cleanUpNow() }
            return nil
        }
    }

    /// One statistics rollup now: the hours that closed since the last one (``StatsStore``).
    /// Only a count is logged, and only when there was something to roll up (every few
    /// minutes a line saying "0 hours" would drown the log). Not retried early: the next run
    /// rolls up whatever this one could not, and the dashboard counts unrolled hours live.
    @discardableResult
    public func rollUpNow() -> Int? {
        do {
            let hours = try publisher.store.rollUpStatistics(now: publisher.clock.now())
            metrics.count(.statsRollupRunsTotal, #"result="ok""#)
            metrics.count(.statsHoursRolledUpTotal, by: hours)
            if hours > 0 { log("statistics: rolled up \(hours) closed hour\(hours == 1 ? "" : "s")") }
            return hours
        } catch {
            metrics.count(.statsRollupRunsTotal, #"result="failed""#)
            log("statistics rollup FAILED (tried again in \(rollupInterval) s): \(error.message)")
            return nil
        }
    }

    /// One audit checkpoint check now (the timer's job; tests call it directly).
    @discardableResult
    public func checkpointNow() -> AuditCheckpointJob.Outcome? {
        guard let job = auditCheckpoints else { return nil }
        let outcome = job.tick(now: publisher.clock.now())
        switch outcome {
        case .wrote(let entries):
            metrics.count(.auditCheckpointsTotal, #"result="written""#)
            metrics.set(.auditCheckpointEntries, to: Double(entries))
            log("audit checkpoint: \(entries) entries anchored in \(job.file.path)")
        case .nothingToDo: metrics.count(.auditCheckpointsTotal, #"result="unchanged""#)
        case .failed: metrics.count(.auditCheckpointsTotal, #"result="failed""#)
        }
        return outcome
    }

    /// Runs `job` once more after ``retrySeconds`` on the jobs' queue, unless stopping by then.
    private func retry(_ job: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .seconds(Self.retrySeconds)) {
            guard !self.stopping.withLock({ self.stopRequested }) else { return }
            job()
        }
    }
}
