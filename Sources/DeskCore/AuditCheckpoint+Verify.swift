import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line of a checkpoint file as read and signature-checked by the caller (DeskCrypto has
/// the key; the rules below need only the outcome).
public struct AuditCheckpointLine: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        /// The signature verifies with the key given.
        case signed(AuditCheckpoint)
        /// Signed, by its key id, with another key than the one given.
        case otherKey(AuditCheckpoint)
        /// The key id is the given key's, the signature does not verify.
        case badSignature(AuditCheckpoint)
        case unreadable(AuditCheckpointLineProblem)
    }

    /// 1-based, as an editor shows it.
    public var number: Int
    public var state: State

    public init(number: Int, state: State) {
        self.number = number
        self.state = state
    }
}

/// What checking a checkpoint file against the store's chain found.
public struct AuditCheckpointReport: Hashable, Sendable {
    public enum Severity: Int, Hashable, Sendable, Comparable {
        /// The file cannot be fully used (a damaged line, another key): exit 1.
        case input = 1
        /// The chain or the checkpoints were changed: exit 7.
        case tampered = 7

        public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Problem: Hashable, Sendable {
        public var line: Int
        public var severity: Severity
        public var message: String
    }

    public var problems: [Problem]
    /// Signed checkpoints whose count and hash the chain matched.
    public var matched: Int
    /// The largest count a matching checkpoint anchors (0 when none).
    public var anchoredEntries: Int64
    /// Entries in the store's chain (the verified part).
    public var chainEntries: Int64

    /// nil: everything checked holds.
    public var worst: Severity? { problems.map(\.severity).max() }
}

extension AuditCheckpoint {
    /// At most this many distinct counts are asked of a desk in one verification (they travel
    /// in a URL through the staff API).
    public static let maximumCountsAsked = 400

    /// The counts whose hashes a verification needs: entry 1 (which log; always asked) and the
    /// counts of the signed checkpoints, all of them when they fit, else evenly spread with the
    /// first and the last always in (every line is still checked for its signature and order).
    /// At most `limit`, each once.
    public static func countsToAsk(_ lines: [AuditCheckpointLine], limit: Int = maximumCountsAsked) -> [Int64] {
        var counts = Set<Int64>()
        for line in lines { if case .signed(let c) = line.state, c.entries > 1 { counts.insert(c.entries) } }
        var sorted = counts.sorted()
        if sorted.count > limit - 1 {
            let keep = max(2, limit - 1)
            let step = Double(sorted.count - 1) / Double(keep - 1)
            sorted = Array(Set((0..<keep).map { sorted[Int((Double($0) * step).rounded())] })).sorted()
        }
        return [1] + sorted
    }

    /// The counts asked that the chain has but the answer gave no hash for: a desk that does not
    /// hand out hashes (a server of an older version), whose answer must not pass for a match.
    public static func missingHashes(asked: [Int64], in chain: AuditVerification) -> [Int64] {
        asked.filter { $0 <= chain.entries && chain.hashesAt[$0] == nil }
    }

    /// Checks the checkpoint lines against the chain as `chain` found it (``AuditVerification``
    /// with the hashes at ``countsToAsk(_:limit:)``).
    ///
    /// - every line must be a checkpoint signed by the given key (else `input`, or `tampered`
    ///   when the key id is the given key's and the signature fails: the line was edited);
    /// - counts never decrease and times never go back, line after line (else `tampered`:
    ///   lines were reordered or removed);
    /// - each checkpoint's `firstHash` is the chain's entry 1 (else another log, or a log
    ///   rewritten from its first entry); its count is no more than the chain has (else the
    ///   chain was cut short); the chain's hash at its count is its `headHash` (else an entry
    ///   up to that count was rewritten, removed or reordered, even with every later hash
    ///   recomputed). The first mismatch is reported with the last checkpoint before it that
    ///   matched, which bounds where the change is.
    public static func verify(_ lines: [AuditCheckpointLine], chain: AuditVerification) -> AuditCheckpointReport {
        var report = AuditCheckpointReport(problems: [], matched: 0, anchoredEntries: 0, chainEntries: chain.entries)
        func problem(_ line: Int, _ severity: AuditCheckpointReport.Severity, _ message: String) {
            report.problems.append(.init(line: line, severity: severity, message: message))
        }
        var previous: (line: Int, checkpoint: AuditCheckpoint)?
        var lastMatch: (line: Int, checkpoint: AuditCheckpoint)?
        var mismatchIndex: Int?
        var mismatchReported: Bool { mismatchIndex != nil }
        var laterMismatches = 0
        /// The first finding that the chain differs is reported; later lines of the changed
        /// part are only counted (each would say the same).
        func mismatch(_ line: Int, _ message: String) {
            if mismatchIndex == nil {
                problem(line, .tampered, message)
                mismatchIndex = report.problems.count - 1
            } else {
                laterMismatches += 1
            }
        }
        var otherKeys = Set<String>()
        var signedCount = 0
        for line in lines {
            let checkpoint: AuditCheckpoint
            switch line.state {
            case .unreadable(let why):
                problem(
                    line.number, .input,
                    tr("audit.line.notCheckpoint", ["line": String(line.number), "why": why.reason]))
                continue
            case .otherKey(let c):
                otherKeys.insert(c.keyID)
                problem(
                    line.number, .input,
                    tr("audit.line.otherKey", ["line": String(line.number), "key": c.keyID]))
                continue
            case .badSignature(let c):
                problem(
                    line.number, .tampered,
                    tr("audit.line.badSignature", ["line": String(line.number), "key": c.keyID])
                )
                continue
            case .signed(let c): checkpoint = c
            }
            signedCount += 1
            if let (before, last) = previous {
                if checkpoint.entries < last.entries {
                    problem(
                        line.number, .tampered,
                        trCount(
                            "audit.line.fewer", Int(clamping: checkpoint.entries),
                            [
                                "line": String(line.number), "entries": String(checkpoint.entries),
                                "before": String(before),
                                "lastEntries": String(last.entries),
                            ])
                    )
                }
                if checkpoint.at < last.at {
                    problem(
                        line.number, .tampered,
                        tr(
                            "audit.line.earlier",
                            [
                                "line": String(line.number), "at": timeText(checkpoint.at), "before": String(before),
                                "lastAt": timeText(last.at),
                            ])
                    )
                }
            }
            previous = (line.number, checkpoint)
            guard checkpoint.entries > 0 else {
                lastMatch = lastMatch ?? (line.number, checkpoint)
                report.matched += 1
                continue
            }
            if let first = chain.hashesAt[1], first != checkpoint.firstHash {
                mismatch(
                    line.number,
                    tr("audit.line.otherLog", ["line": String(line.number)])
                )
                continue
            }
            if checkpoint.entries > chain.entries {
                if chain.firstBroken != nil {
                    // The chain is broken below this count: the break is the finding.
                    continue
                }
                mismatch(
                    line.number,
                    trCount(
                        "audit.line.cutOff", Int(clamping: checkpoint.entries),
                        [
                            "line": String(line.number), "entries": String(checkpoint.entries),
                            "at": timeText(checkpoint.at), "store": String(chain.entries),
                            "from": String(chain.entries + 1),
                        ])
                )
                continue
            }
            guard let hash = chain.hashesAt[checkpoint.entries] else { continue }  // thinned out: not asked
            if hash == checkpoint.headHash {
                if !mismatchReported {
                    lastMatch = (line.number, checkpoint)
                    report.matched += 1
                    report.anchoredEntries = max(report.anchoredEntries, checkpoint.entries)
                } else {
                    // A later checkpoint of the changed chain: the audit key signed it after the
                    // change (a checkpoint made by hand on the rewritten store).
                    problem(
                        line.number, .tampered,
                        tr("audit.line.matchesAgain", ["line": String(line.number)])
                    )
                }
                continue
            }
            if mismatchReported {
                laterMismatches += 1
                continue
            }
            let bound =
                lastMatch.map {
                    $0.checkpoint.entries > 0
                        ? trCount(
                            "audit.bound.after", Int(clamping: $0.checkpoint.entries),
                            [
                                "line": String($0.line), "entries": String($0.checkpoint.entries),
                                "from": String($0.checkpoint.entries + 1), "to": String(checkpoint.entries),
                            ])
                        : tr("audit.bound.all", ["to": String(checkpoint.entries)])
                } ?? tr("audit.bound.all", ["to": String(checkpoint.entries)])
            mismatch(
                line.number,
                trCount(
                    "audit.line.mismatch", Int(clamping: checkpoint.entries),
                    [
                        "line": String(line.number), "entries": String(checkpoint.entries),
                        "at": timeText(checkpoint.at),
                        "bound": bound,
                    ])
            )
        }
        if laterMismatches > 0, let index = mismatchIndex {
            report.problems[index].message +=
                " " + trCount("audit.laterMismatches", laterMismatches)
        }
        if signedCount == 0, !otherKeys.isEmpty {
            problem(
                0, .input,
                tr(
                    otherKeys.count == 1 ? "audit.noLineSigned.one" : "audit.noLineSigned.other",
                    ["keys": otherKeys.sorted().joined(separator: ", ")])
            )
        }
        return report
    }
}

extension AuditCheckpoint {
    /// Why the chain as `chain` found it must not get a checkpoint after `last` (the last signed
    /// checkpoint of the file it would be appended to), or nil when it may. `chain` must hold
    /// the hashes at 1 and at `last.entries`.
    ///
    /// Why: a checkpoint vouches for the whole chain up to its count. Signing a chain that is
    /// broken, or that no longer matches the file's last checkpoint, would anchor the change.
    public static func appendProblem(after last: AuditCheckpoint?, chain: AuditVerification) -> String? {
        if let broken = chain.firstBroken {
            return
                tr("audit.append.broken", ["id": String(broken.id), "reason": broken.shownReason])
        }
        guard let last, last.entries > 0 else { return nil }
        if let first = chain.hashesAt[1], first != last.firstHash {
            return
                tr("audit.append.otherLog")
        }
        if last.entries > chain.entries {
            return
                trCount(
                    "audit.append.cutOff", Int(clamping: last.entries),
                    ["entries": String(last.entries), "store": String(chain.entries)])
        }
        if chain.hashesAt[last.entries] != last.headHash {
            return
                trCount("audit.append.rewritten", Int(clamping: last.entries), ["entries": String(last.entries)])
        }
        return nil
    }
}
