import DeskCore
import DeskCrypto
import Foundation
import Testing

/// Checkpoints of the audit chain: the line format, signatures, and what verification finds
/// when a store writer rewrites, cuts or reorders the chain and recomputes every hash.
@Suite struct AuditCheckpointTests {
    static let key = ECPrivateKey.generate()
    static let otherKey = ECPrivateKey.generate()
    static let start = Date(unixMilliseconds: 1_764_000_000_000)

    /// A chain of `count` entries as a store writes it (ids 1…, each chained to the last).
    static func chain(_ count: Int, actorOf: (Int) -> String = { "op\($0 % 3)" }) -> [AuditEntry] {
        rechain(
            (1...count).map { i in
                AuditEntry(
                    id: Int64(i), at: start.addingTimeInterval(Double(i)), actor: actorOf(i), action: .traceLookup,
                    target: "user \(i)", detail: #"{"purpose":"case \#(i)"}"#, previousHash: "", hash: "")
            })
    }

    /// Gives `entries` fresh ids 1… and recomputes every hash: what an attacker with write
    /// access to the store does after editing, deleting or reordering rows.
    static func rechain(_ entries: [AuditEntry]) -> [AuditEntry] {
        var previous = AuditChain.genesis
        return entries.enumerated().map { index, entry in
            var e = entry
            e.id = Int64(index + 1)
            e.previousHash = previous
            e.hash = AuditChain.hash(
                id: e.id, atMilliseconds: e.at.unixMilliseconds, actor: e.actor, action: e.action.rawValue,
                target: e.target, detail: e.detail, previousHash: previous)
            previous = e.hash
            return e
        }
    }

    /// What a desk's verifyAudit answers for `entries` with the hashes at `counts`.
    static func verification(_ entries: [AuditEntry], counts: [Int64]) -> AuditVerification {
        let broken = AuditChain.check(entries, after: nil)
        let good = entries.prefix { $0.id != broken?.id }
        var hashes: [Int64: String] = [:]
        for entry in good where counts.contains(entry.id) { hashes[entry.id] = entry.hash }
        return AuditVerification(
            entries: Int64(good.count), headHash: good.last?.hash ?? AuditChain.genesis, headID: good.last?.id ?? 0,
            firstBroken: broken, hashesAt: hashes)
    }

    static func checkpoint(_ entries: [AuditEntry], count: Int, minutes: Double, key: ECPrivateKey = key)
        -> AuditCheckpoint
    {
        AuditCheckpoint.signed(
            entries: Int64(count), headHash: count == 0 ? AuditChain.genesis : entries[count - 1].hash,
            firstHash: entries.first?.hash ?? AuditChain.genesis, at: start.addingTimeInterval(minutes * 60), key: key)
    }

    /// The file's text → lines checked with the public key → the report against `entries`.
    static func report(_ file: String, _ entries: [AuditEntry], with publicKey: ECPublicKey = key.publicKey)
        -> AuditCheckpointReport
    {
        let lines = AuditCheckpoint.read(file: file, key: publicKey)
        return AuditCheckpoint.verify(
            lines, chain: verification(entries, counts: AuditCheckpoint.countsToAsk(lines)))
    }

    static let original = chain(30)
    /// Checkpoints at 10, 20 and 30 entries.
    static let file =
        [10, 20, 30].enumerated().map { checkpoint(original, count: $1, minutes: Double($0 + 1)).line }
        .joined(separator: "\n") + "\n"

    @Test("a line reads back as the checkpoint it was written from, and its signature verifies")
    func roundTrip() throws {
        let made = Self.checkpoint(Self.original, count: 7, minutes: 3)
        let read = try AuditCheckpoint.parse(made.line).get()
        #expect(read == made)
        #expect(read.signatureVerifies(with: Self.key.publicKey))
        #expect(!read.signatureVerifies(with: Self.otherKey.publicKey))
        #expect(made.line.hasPrefix(#"{"format":"tracedesk-audit-checkpoint-v1","entries":7,"#))
        #expect(Array(made.signedBytes.prefix(30)) == Array("tracedesk-audit-checkpoint-v1\n".utf8))
        #expect(AuditCheckpoint.timeText(Self.start) == "2025-11-24T16:00:00.000Z")
        #expect(Self.key.publicKey.keyID.count == 16)
    }

    @Test("the untouched chain matches every checkpoint")
    func goodChain() {
        let report = Self.report(Self.file, Self.original)
        #expect(report.problems == [])
        #expect(report.matched == 3)
        #expect(report.anchoredEntries == 30)
    }

    @Test("entries after the last checkpoint are not covered, and not reported")
    func tailAfterLastCheckpoint() {
        var longer = Self.original
        longer += Self.chain(35).suffix(5)
        let report = Self.report(Self.file, Self.rechain(longer))
        #expect(report.worst == nil)
        #expect(report.anchoredEntries == 30)
        #expect(report.chainEntries == 35)
    }

    @Test("a rewritten entry with every later hash recomputed is found, between the checkpoints around it")
    func rewrittenEntry() {
        var rewritten = Self.original
        rewritten[14].actor = "someone-else"
        rewritten[14].detail = #"{"purpose":"routine check"}"#
        let entries = Self.rechain(rewritten)
        #expect(AuditChain.check(entries, after: nil) == nil, "the chain alone still verifies")
        let report = Self.report(Self.file, entries)
        #expect(report.worst == .tampered)
        #expect(report.matched == 1)
        #expect(report.problems.count == 1)
        #expect(report.problems[0].line == 2)
        #expect(report.problems[0].message.contains("among entries 11…20"))
        #expect(report.problems[0].message.contains("and 1 later line does not match either"))
    }

    @Test("a chain cut short is found")
    func shortened() {
        let report = Self.report(Self.file, Array(Self.original.prefix(25)))
        #expect(report.worst == .tampered)
        #expect(report.problems.map(\.line) == [3])
        #expect(report.problems[0].message.contains("entries 26…30 were cut off the end"))
    }

    @Test("entries swapped and renumbered, hashes recomputed, are found")
    func reordered() {
        var swapped = Self.original
        swapped.swapAt(3, 4)
        let report = Self.report(Self.file, Self.rechain(swapped))
        #expect(report.worst == .tampered)
        #expect(report.problems.first?.line == 1)
        #expect(report.problems.first?.message.contains("among entries 1…10") == true)
    }

    @Test("an entry deleted and the rest renumbered is found")
    func deleted() {
        var fewer = Self.original
        fewer.remove(at: 21)
        let report = Self.report(Self.file, Self.rechain(fewer))
        #expect(report.worst == .tampered)
        #expect(report.problems.first?.line == 3)
    }

    @Test("a checkpoint edited to match a rewritten chain fails its signature")
    func badSignature() throws {
        var rewritten = Self.original
        rewritten[4].actor = "someone-else"
        let entries = Self.rechain(rewritten)
        var forged = try AuditCheckpoint.parse(Self.file.split(separator: "\n")[0].description).get()
        forged.headHash = entries[9].hash
        forged.firstHash = entries[0].hash
        let report = Self.report(forged.line + "\n", entries)
        #expect(report.worst == .tampered)
        #expect(
            report.problems.map(\.message) == [
                "line 1's signature does not verify with key \(Self.key.publicKey.keyID): the line was changed after it was signed"
            ])
    }

    @Test("the wrong public key is named as such, with what to do")
    func wrongKey() {
        let report = Self.report(Self.file, Self.original, with: Self.otherKey.publicKey)
        #expect(report.worst == .input)
        #expect(report.matched == 0)
        #expect(
            report.problems.last?.message.contains("give the public key of the audit key that wrote this file") == true)
        #expect(report.problems.last?.message.contains(Self.key.publicKey.keyID) == true)
    }

    @Test("lines whose counts go back, or whose times go back, are reported as reordered")
    func goingBack() {
        let lines = Self.file.split(separator: "\n").map(String.init)
        let countsBack = Self.report([lines[0], lines[2], lines[1]].joined(separator: "\n"), Self.original)
        #expect(countsBack.worst == .tampered)
        #expect(countsBack.problems.contains { $0.line == 3 && $0.message.contains("fewer than line 2") })
        let late = Self.checkpoint(Self.original, count: 25, minutes: 0.5).line
        let timeBack = Self.report(lines[1] + "\n" + late, Self.original)
        #expect(timeBack.problems.contains { $0.line == 2 && $0.message.contains("before line 1") })
    }

    @Test("a checkpoint file of another store says so")
    func otherStore() {
        let other = Self.chain(30, actorOf: { "nurse\($0)" })
        let report = Self.report(Self.file, other)
        #expect(report.worst == .tampered)
        #expect(report.problems.count == 1)
        #expect(report.problems[0].message.contains("another audit log"))
    }

    @Test(
        "a damaged line is named with the reason, never quoted, and the other lines are still checked",
        arguments: [
            ("{not json", "not JSON"), ("[1]", "not a JSON object"),
            (#"{"format":"tracedesk-audit-checkpoint-v2"}"#, "is missing"),
            (
                #"{"format":"x","entries":1,"head_hash":"","first_hash":"","at":"","key_id":"","signature":""}"#,
                "format is not"
            ),
        ])
    func damagedLine(line: String, reason: String) {
        let lines = Self.file.split(separator: "\n").map(String.init)
        let report = Self.report(lines[0] + "\n" + line + "\n" + lines[2] + "\n", Self.original)
        #expect(report.worst == .input)
        #expect(report.matched == 2)
        #expect(report.problems.count == 1)
        #expect(report.problems[0].line == 2)
        #expect(report.problems[0].message.hasPrefix("line 2 is not a checkpoint: "))
        #expect(report.problems[0].message.contains(reason))
    }

    @Test(
        "a line with a member out of shape is refused with the member's name",
        arguments: [
            ("\"entries\":10", "\"entries\":-1", "entries is not"), ("\"key_id\":\"", "\"key_id\":\"zz", "key_id"),
            ("\"at\":\"2025", "\"at\":\"x2025", "at is not"),
            (",\"signature\"", ",\"signature\":\"\",\"signature\"", "given twice"),
        ])
    func malformedMember(find: String, replace: String, reason: String) {
        let line = String(Self.file.split(separator: "\n")[0]).replacingOccurrences(of: find, with: replace)
        guard case .failure(let problem) = AuditCheckpoint.parse(line) else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(problem.reason.contains(reason))
    }

    @Test("many checkpoints: at most the limit of counts is asked, the first and last always in")
    func thinnedCounts() {
        let lines = (1...1_000).map {
            AuditCheckpointLine(
                number: $0,
                state: .signed(
                    AuditCheckpoint(
                        entries: Int64($0 * 3), headHash: "", firstHash: "", at: Self.start, keyID: "", signature: "")))
        }
        let counts = AuditCheckpoint.countsToAsk(lines, limit: 100)
        #expect(counts.count <= 100 && counts.count >= 90)
        #expect(Set(counts).count == counts.count, "each count once")
        #expect(counts.contains(1) && counts.contains(3) && counts.contains(3_000))
        #expect(AuditCheckpoint.countsToAsk(Array(lines.prefix(99)), limit: 100).count == 100, "99 fit, with entry 1")
        #expect(AuditCheckpoint.countsToAsk([]) == [1])
    }

    @Test("an answer without the hashes asked (an older server) is told apart from a match")
    func missingHashes() {
        let asked: [Int64] = [1, 10, 20, 40]
        let full = Self.verification(Self.original, counts: asked)
        var old = full
        old.hashesAt = [:]
        #expect(AuditCheckpoint.missingHashes(asked: asked, in: full) == [])
        #expect(AuditCheckpoint.missingHashes(asked: asked, in: old) == [1, 10, 20])
    }

    @Test("a checkpoint is appended only to a chain that is whole and still matches the file's last one")
    func appendRule() {
        let last = Self.checkpoint(Self.original, count: 20, minutes: 1)
        let counts: [Int64] = [1, 20]
        #expect(
            AuditCheckpoint.appendProblem(after: last, chain: Self.verification(Self.original, counts: counts)) == nil)
        #expect(AuditCheckpoint.appendProblem(after: nil, chain: Self.verification(Self.original, counts: [])) == nil)
        var rewritten = Self.original
        rewritten[2].detail = "{}"
        let changed = Self.verification(Self.rechain(rewritten), counts: counts)
        #expect(AuditCheckpoint.appendProblem(after: last, chain: changed)?.contains("another audit log") == false)
        #expect(AuditCheckpoint.appendProblem(after: last, chain: changed)?.contains("no longer matches") == true)
        var naive = Self.original
        naive[2].detail = "{}"
        #expect(
            AuditCheckpoint.appendProblem(after: nil, chain: Self.verification(naive, counts: []))?.contains("broken")
                == true)
        #expect(
            AuditCheckpoint.appendProblem(
                after: last, chain: Self.verification(Array(Self.original.prefix(12)), counts: counts))?
                .contains("cut off") == true)
    }
}
