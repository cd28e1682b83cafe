import DeskCore
import DeskCrypto
import DeskStore
import Foundation

/// The server's checkpoints of the audit chain: every `everyEntries` new entries, and at the
/// interval when entries were added since the last one, a signed checkpoint is appended to a
/// file outside the store (``AuditCheckpointFile``).
///
/// Why incremental: the first run checks the whole chain against the file (as `tracedesk audit
/// verify --checkpoints` does); from then on only the entries added since are read and chained
/// to the head this job last saw, so a check every few seconds costs one indexed read. A chain
/// that no longer continues from that head, or a file that does not verify, stops the
/// checkpoints (a checkpoint would anchor the change) and is logged, once per different
/// problem, until it is fixed; the server keeps running.
///
/// Threading: ``tick(now:)`` is called from one queue (the server's jobs queue) only.
public final class AuditCheckpointJob: @unchecked Sendable {
    public let store: any Store
    let key: ECPrivateKey
    public let file: AuditCheckpointFile
    public let everyEntries: Int64
    public let intervalSeconds: Int
    let log: @Sendable (String) -> Void

    /// The last checkpoint in the file and the head of the chain checked so far; nil until the
    /// first full check succeeds (and again after a problem).
    private var last: AuditCheckpoint?
    private var head: (id: Int64, hash: String)?
    /// Entry 1's hash, once there is an entry 1.
    private var first: String?
    private var lastProblem: String?
    /// Set after a chain or file problem: no new check before then.
    private var retryAt: Date?

    public init(
        store: any Store, key: ECPrivateKey, file: AuditCheckpointFile, everyEntries: Int, intervalSeconds: Int,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.key = key
        self.file = file
        self.everyEntries = Int64(max(1, everyEntries))
        self.intervalSeconds = intervalSeconds
        self.log = log
    }

    /// What a tick did.
    public enum Outcome: Hashable, Sendable {
        /// A checkpoint of this many entries was appended.
        case wrote(Int64)
        case nothingToDo
        /// The chain or the file is not as the last checkpoint says, or the store failed.
        case failed(String)
    }

    /// One check: appends a checkpoint when `everyEntries` were added since the last one, or the
    /// interval has passed and any were (and on the first run, when the file lags the chain).
    @discardableResult
    public func tick(now: Date) -> Outcome {
        // After a chain or file problem the whole chain is walked again only this often, not
        // at every check: on a long log a walk takes seconds.
        if let retryAt, now < retryAt, let lastProblem { return .failed(lastProblem) }
        do {
            let outcome = try step(now: now)
            lastProblem = nil
            retryAt = nil
            return outcome
        } catch {
            let message: String
            switch error {
            case .store(let storeError):
                // The store is away for a moment: what was checked stays checked.
                message = "cannot read the audit log: \(storeError.message)"
            case .file(let problem):
                message = problem.message
                (last, head, retryAt) = (nil, nil, now.addingTimeInterval(Self.recheckSeconds))
            case .chain(let text):
                message = text
                (last, head, retryAt) = (nil, nil, now.addingTimeInterval(Self.recheckSeconds))
            }
            if message != lastProblem {
                log(
                    "audit checkpoints STOPPED (\(file.path)): \(message). Run tracedesk audit verify --checkpoints \(file.path); checkpoints resume once the chain and the file agree"
                )
                lastProblem = message
            }
            return .failed(message)
        }
    }

    /// How long after a chain or file problem the whole check is made again.
    public static let recheckSeconds: Double = 300

    enum Failure: Error {
        case store(StoreError)
        case file(AuditCheckpointFile.Problem)
        case chain(String)
    }

    private func step(now: Date) throws(Failure) -> Outcome {
        guard let last, let head else { return try firstRun(now: now) }
        var tail = head
        while true {
            let page: [AuditEntry]
            do {
                page = try store.auditEntries(after: tail.id, limit: 2_000)
            } catch {
                throw .store(error)
            }
            if let broken = AuditChain.check(page, after: tail) {
                throw .chain(
                    "the audit chain no longer continues from entry \(tail.id) at entry \(broken.id): \(broken.reason)")
            }
            guard let end = page.last else { break }
            if first == nil, let one = page.first(where: { $0.id == 1 }) { first = one.hash }
            tail = (end.id, end.hash)
            if page.count < 2_000 { break }
        }
        self.head = tail
        let grown = tail.id - last.entries
        let due = now.timeIntervalSince(last.at) >= Double(intervalSeconds)
        guard grown >= everyEntries || (grown > 0 && due) else { return .nothingToDo }
        return try write(entries: tail.id, head: tail.hash, now: now)
    }

    /// The whole chain against the whole file, then a checkpoint if the file lags the chain.
    private func firstRun(now: Date) throws(Failure) -> Outcome {
        let lines: [AuditCheckpointLine]
        do {
            lines = try file.lines(key: key.publicKey, mustExist: false)
        } catch {
            throw .file(error)
        }
        let chain: AuditVerification
        do {
            chain = try LocalDesk.verifyChain(store, hashesAt: Set(AuditCheckpoint.countsToAsk(lines)))
        } catch {
            throw .store(error)
        }
        let report = AuditCheckpoint.verify(lines, chain: chain)
        // A last line cut short (the machine lost power while appending) is named in the log
        // and left behind: the new line starts on a line of its own. Any other problem stops.
        var cutShort: Int?
        if let tail = lines.last, case .unreadable = tail.state { cutShort = tail.number }
        if let problem = report.problems.first(where: { $0.line != cutShort }) {
            throw .chain("the checkpoint file does not verify against the store: \(problem.message)")
        }
        if let cutShort {
            log(
                "audit checkpoints: line \(cutShort) of \(file.path) is damaged (a write cut short?); appending after it"
            )
        }
        let previous = lines.last(where: { $0.signed != nil })?.signed
        if let problem = AuditCheckpoint.appendProblem(after: previous, chain: chain) { throw .chain(problem) }
        last = previous
        head = (chain.headID, chain.headHash)
        first = chain.hashesAt[1]
        if previous == nil || chain.entries > previous!.entries {
            return try write(entries: chain.entries, head: chain.headHash, now: now)
        }
        return .nothingToDo
    }

    private func write(entries: Int64, head: String, now: Date) throws(Failure) -> Outcome {
        // A clock set back must not make the file's times go back.
        let at = max(now, last?.at ?? now)
        let checkpoint = AuditCheckpoint.signed(
            entries: entries, headHash: head, firstHash: first ?? AuditChain.genesis, at: at, key: key)
        do {
            try file.append(checkpoint)
        } catch {
            throw .file(error)
        }
        last = checkpoint
        return .wrote(entries)
    }
}
