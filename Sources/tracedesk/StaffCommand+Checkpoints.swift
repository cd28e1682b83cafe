import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import Foundation
import JSONText

/// `tracedesk audit checkpoint` and `audit verify --checkpoints`: the audit chain anchored in a
/// file outside the store, signed with an audit key the store does not hold.
///
/// Both run through the desk (the store, or a server's staff API with `--server`): the desk
/// walks the chain and hands out its hashes at the checkpoints' counts; the key and the file stay
/// on this machine.
extension StaffCommand {
    /// `audit checkpoint --key FILE --out FILE`: appends one checkpoint of the chain as it is now,
    /// after checking that the chain is whole and that the file so far still verifies against it.
    static func checkpoint(_ arguments: Arguments, _ options: PersonOptions) async throws(UsageError) -> ExitStatus {
        let command = "audit checkpoint"
        guard let keyPath = arguments.values["key"] else {
            throw UsageError(
                tr("cli.audit.giveKey"),
                command: command)
        }
        guard let out = arguments.values["out"] else {
            throw UsageError(tr("cli.audit.giveOut"), command: command)
        }
        guard let key = KeysCommand.loadPrivateKey(keyPath) else { return .refused }
        let file = AuditCheckpointFile(path: out)
        let lines: [AuditCheckpointLine]
        do {
            lines = try file.lines(key: key.publicKey, mustExist: false)
        } catch {
            printError("\(command): \(error.message)")
            return .refused
        }
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let asked = AuditCheckpoint.countsToAsk(lines)
            let chain = try await desk.verifyAudit(session, hashesAt: asked)
            guard hashesGiven(asked, chain, command: command) else { return .refused }
            let report = AuditCheckpoint.verify(lines, chain: chain)
            if let worst = report.worst {
                for problem in report.problems { printError("\(command): \(out): \(problem.message)") }
                printError(command + ": " + tr("cli.audit.notVerified", ["file": out]))
                return worst == .tampered ? .auditBroken : .refused
            }
            let last = lines.last?.signed
            if let problem = AuditCheckpoint.appendProblem(after: last, chain: chain) {
                printError(command + ": " + tr("cli.audit.nothingAppended", ["problem": problem]))
                return .auditBroken
            }
            let checkpoint = AuditCheckpoint.signed(
                entries: chain.entries, headHash: chain.headHash, firstHash: chain.hashesAt[1] ?? AuditChain.genesis,
                at: max(desk.now(), last?.at ?? .distantPast), key: key)
            do throws(AuditCheckpointFile.Problem) {
                try file.append(checkpoint)
            } catch {
                printError("\(command): \(error.message)")
                return .refused
            }
            say(
                trCount(
                    "cli.audit.appended", Int(clamping: checkpoint.entries),
                    [
                        "entries": String(checkpoint.entries), "hash": checkpoint.headHash, "key": checkpoint.keyID,
                        "file": out,
                    ]))
            return .success
        }
    }

    /// "checkpoints: 3 of 3 lines match; entries 1…2000 are anchored; entries 2001…2345 are …".
    static func checkpointSummary(_ report: AuditCheckpointReport, lines: Int, chain: AuditVerification) -> String {
        var text = trCount("cli.audit.summary.matched", lines, ["matched": String(report.matched)])
        if report.anchoredEntries == 0 {
            text += tr("cli.audit.summary.noneAnchored")
        } else {
            text += tr("cli.audit.summary.anchored", ["last": String(report.anchoredEntries)])
        }
        if let broken = chain.firstBroken {
            text += tr("cli.audit.summary.breaks", ["id": String(broken.id)])
        } else if chain.entries > report.anchoredEntries {
            text += tr(
                "cli.audit.summary.uncovered",
                ["first": String(report.anchoredEntries + 1), "last": String(chain.entries)])
        }
        return text
    }

    /// Whether the desk gave the chain's hash at every count asked that the chain has; says what
    /// to do when not (an older server answers without them, which must not read as a match).
    static func hashesGiven(_ asked: [Int64], _ chain: AuditVerification, command: String) -> Bool {
        guard AuditCheckpoint.missingHashes(asked: asked, in: chain).isEmpty else {
            printError(command + ": " + tr("cli.audit.noHashes"))
            return false
        }
        return true
    }

    /// The public key `--public-key FILE` names, or nil with the reason printed.
    static func loadAuditPublicKey(_ path: String, command: String) -> ECPublicKey? {
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            printError(command + ": " + tr("cli.audit.cannotReadKey", ["file": path]))
            return nil
        }
        if pem.contains("PRIVATE KEY") {
            printError(command + ": " + tr("cli.audit.privateKey", ["file": path]))
            return nil
        }
        do {
            return try ECPublicKey(pem: pem)
        } catch {
            printError(command + ": " + tr("cli.audit.badPublicKey", ["file": path, "problem": error.message]))
            return nil
        }
    }

    /// `audit verify --checkpoints FILE --public-key FILE`: the chain's own check, then every
    /// checkpoint against it. Exit 7 when either finds a change, 1 when the file cannot be fully
    /// used (a damaged line, another key), 0 when everything holds.
    static func verifyWithCheckpoints(
        _ arguments: Arguments, _ options: PersonOptions, checkpoints path: String, publicKey keyPath: String
    ) async throws(UsageError) -> ExitStatus {
        let command = "audit verify"
        guard let key = loadAuditPublicKey(keyPath, command: command) else { return .refused }
        let lines: [AuditCheckpointLine]
        do {
            lines = try AuditCheckpointFile(path: path).lines(key: key, mustExist: true)
        } catch {
            printError("\(command): \(error.message)")
            return .refused
        }
        guard !lines.isEmpty else {
            printError(command + ": " + tr("cli.audit.noCheckpoints", ["file": path]))
            return .refused
        }
        let json = arguments.has("json")
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let asked = AuditCheckpoint.countsToAsk(lines)
            let chain = try await desk.verifyAudit(session, hashesAt: asked)
            guard hashesGiven(asked, chain, command: command) else { return .refused }
            let report = AuditCheckpoint.verify(lines, chain: chain)
            if json {
                print(checkpointVerificationJSON(chain, report, lines: lines.count).serialized)
            } else {
                if let broken = chain.firstBroken {
                    say(tr("cli.audit.broken", ["id": String(broken.id), "reason": broken.shownReason]))
                    say(tr("cli.audit.before", ["entries": String(chain.entries), "head": String(chain.headID)]))
                } else {
                    say(
                        trCount(
                            "cli.audit.chainIntact", Int(clamping: chain.entries),
                            ["entries": String(chain.entries), "hash": chain.headHash, "head": String(chain.headID)]))
                }
                for problem in report.problems { say(tr("cli.audit.checkpointProblem", ["problem": problem.message])) }
                say(checkpointSummary(report, lines: lines.count, chain: chain))
            }
            if chain.firstBroken != nil || report.worst == .tampered { return .auditBroken }
            return report.worst == .input ? .refused : .success
        }
    }
}

/// `audit verify --checkpoints … --json`: the chain as the staff API answers it
/// (`GET /staff/v1/audit/verification`), and what the checkpoints came to.
func checkpointVerificationJSON(_ chain: AuditVerification, _ report: AuditCheckpointReport, lines: Int) -> JSONValue {
    func member(_ key: String, _ value: JSONValue) -> JSONValue.Member { JSONValue.Member(key: key, value: value) }
    return .object([
        member("anchored_entries", .number(String(report.anchoredEntries))),
        member("chain", StaffWire.verification(chain)), member("lines", .number(String(lines))),
        member("matched", .number(String(report.matched))),
        member(
            "problems",
            .array(
                report.problems.map {
                    .object([member("line", .number(String($0.line))), member("message", .string($0.message))])
                })),
    ])
}
