import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk followup show|attempt|check|assign`: one follow-up's calls and daily checks, and
/// the supervisor's reassignment (issue 21).
enum FollowUpCommand {
    static let outcomes = CallOutcome.allCases.map(\.argument).joined(separator: "|")

    static var help: String { HelpText.command(CommandTable.command("followup")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first, !verb.hasPrefix("-") || ["--help", "-h"].contains(verb) else {
            throw UsageError(tr("cli.followup.sayWhat"), command: "followup")
        }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        let command = "followup \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("followup"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        let hint = "tracedesk queue"
        switch verb {
        case "show":
            try arguments.checkVerb(CommandTable.command("followup"), verb, command: command)
            let id = try FollowUpInput.oneID(
                arguments, what: "follow-up", usage: "tracedesk followup show ID", hint: hint, command: command)
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let detail = try await desk.followUpDetail(session, followUpID: id)
                if arguments.has("json") {
                    print(StaffWire.followUpDetail(detail).serialized)
                } else {
                    FollowUpText.printFollowUpDetail(detail)
                }
                return .success
            }
        case "attempt":
            try arguments.checkVerb(CommandTable.command("followup"), verb, command: command)
            let usage = "tracedesk followup attempt ID --outcome \(outcomes)"
            let id = try FollowUpInput.oneID(arguments, what: "follow-up", usage: usage, hint: hint, command: command)
            guard let text = arguments.values["outcome"] else {
                throw UsageError(tr("cli.followup.giveOutcome", ["outcomes": outcomes]), command: command)
            }
            guard let outcome = CallOutcome(argument: text.lowercased()), !text.contains("_") else {
                throw UsageError(
                    tr(
                        "cli.followup.unknownOutcome",
                        [
                            "value": String(text.prefix(24)),
                            "outcomes": CallOutcome.allCases.map(\.argument).joined(separator: ", "),
                        ]),
                    command: command)
            }
            guard let note = FollowUpInput.note(arguments) else { return .refused }
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let followUp = try await desk.recordAttempt(session, followUpID: id, outcome: outcome, note: note)
                if arguments.has("json") {
                    print(StaffWire.followUp(followUp).serialized)
                } else {
                    var line = tr(
                        "cli.followup.attempt.recorded",
                        [
                            "outcome": FollowUpText.word(outcome), "id": String(followUp.id),
                            "next": FollowUpText.next(followUp),
                        ])
                    if outcome == .reached, followUp.state == .monitoring {
                        line += " (tracedesk followup check \(followUp.id) --symptoms yes|no --isolating yes|no)"
                    }
                    say(line)
                }
                return .success
            }
        case "check":
            try arguments.checkVerb(CommandTable.command("followup"), verb, command: command)
            let usage = "tracedesk followup check ID --symptoms yes|no --isolating yes|no"
            let id = try FollowUpInput.oneID(arguments, what: "follow-up", usage: usage, hint: hint, command: command)
            let symptoms = try FollowUpInput.yesNo(arguments, "symptoms", usage: usage, command: command)
            let isolating = try FollowUpInput.yesNo(arguments, "isolating", usage: usage, command: command)
            guard let note = FollowUpInput.note(arguments) else { return .refused }
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let followUp = try await desk.recordCheck(
                    session, followUpID: id, symptoms: symptoms, isolating: isolating, note: note)
                if arguments.has("json") {
                    print(StaffWire.followUp(followUp).serialized)
                } else {
                    say(
                        tr(
                            "cli.followup.check.recorded",
                            [
                                "id": String(followUp.id), "symptoms": tr(symptoms ? "common.yes" : "common.no"),
                                "isolating": tr(isolating ? "common.yes" : "common.no"),
                                "next": FollowUpText.next(followUp),
                            ]))
                    if symptoms {
                        say(tr("cli.followup.check.flagged"))
                    }
                }
                return .success
            }
        case "assign":
            try arguments.checkVerb(CommandTable.command("followup"), verb, command: command)
            let usage = "tracedesk followup assign ID... --to TRACER"
            guard !arguments.positionals.isEmpty else {
                throw UsageError(tr("cli.followup.assign.giveIDs", ["usage": usage, "hint": hint]), command: command)
            }
            if arguments.positionals.count > QueueQuery.maximumLimit {
                throw UsageError(
                    tr("cli.followup.assign.tooMany", ["limit": String(QueueQuery.maximumLimit)]), command: command)
            }
            var ids: [Int64] = []
            for text in arguments.positionals {
                let id = try FollowUpInput.id(text, what: "follow-up", hint: hint, command: command)
                if !ids.contains(id) { ids.append(id) }
            }
            guard let tracer = arguments.values["to"], !tracer.isEmpty else {
                throw UsageError(tr("cli.followup.assign.toWhom"), command: command)
            }
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let followUps = try await desk.assignFollowUps(session, ids: ids, to: tracer)
                if arguments.has("json") {
                    print(StaffWire.followUpList(followUps).serialized)
                } else {
                    let numbers = followUps.map { String($0.id) }.joined(separator: ", ")
                    say(trCount("cli.followup.assign.done", followUps.count, ["tracer": tracer, "ids": numbers]))
                }
                return .success
            }
        default:
            throw UsageError(
                tr("cli.followup.unknownVerb", ["verb": String(verb.prefix(24))]),
                command: "followup")
        }
    }
}
