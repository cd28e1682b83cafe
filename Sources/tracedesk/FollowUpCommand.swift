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
            throw UsageError("say what to do: show, attempt, check or assign", command: "followup")
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
                throw UsageError("give what the call came to: --outcome \(outcomes)", command: command)
            }
            guard let outcome = CallOutcome(argument: text.lowercased()), !text.contains("_") else {
                throw UsageError(
                    "unknown outcome '\(text.prefix(24))': use \(CallOutcome.allCases.map(\.argument).joined(separator: ", "))",
                    command: command)
            }
            guard let note = FollowUpInput.note(arguments) else { return .refused }
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let followUp = try await desk.recordAttempt(session, followUpID: id, outcome: outcome, note: note)
                if arguments.has("json") {
                    print(StaffWire.followUp(followUp).serialized)
                } else {
                    var line = "recorded \(outcome.label) for follow-up \(followUp.id): \(FollowUpText.next(followUp))"
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
                        "recorded the daily check of follow-up \(followUp.id): symptoms \(symptoms ? "yes" : "no"), isolating \(isolating ? "yes" : "no"); \(FollowUpText.next(followUp))"
                    )
                    if symptoms {
                        say("symptoms: flagged for the supervisor and the case's tracer; tell them now")
                    }
                }
                return .success
            }
        case "assign":
            try arguments.checkVerb(CommandTable.command("followup"), verb, command: command)
            let usage = "tracedesk followup assign ID... --to TRACER"
            guard !arguments.positionals.isEmpty else {
                throw UsageError("give the follow-ups' numbers: \(usage) (\(hint) shows them)", command: command)
            }
            if arguments.positionals.count > QueueQuery.maximumLimit {
                throw UsageError(
                    "at most \(QueueQuery.maximumLimit) follow-ups at once: assign them in parts", command: command)
            }
            var ids: [Int64] = []
            for text in arguments.positionals {
                let id = try FollowUpInput.id(text, what: "follow-up", hint: hint, command: command)
                if !ids.contains(id) { ids.append(id) }
            }
            guard let tracer = arguments.values["to"], !tracer.isEmpty else {
                throw UsageError("say to whom: --to TRACER (a tracer's account name)", command: command)
            }
            return try await CaseCommand.acting(arguments, command) { desk, session throws(ServiceError) in
                let followUps = try await desk.assignFollowUps(session, ids: ids, to: tracer)
                if arguments.has("json") {
                    print(StaffWire.followUpList(followUps).serialized)
                } else {
                    let numbers = followUps.map { String($0.id) }.joined(separator: ", ")
                    say(
                        "assigned \(followUps.count) \(followUps.count == 1 ? "follow-up" : "follow-ups") to \(tracer): \(numbers)"
                    )
                }
                return .success
            }
        default:
            throw UsageError(
                "unknown command 'followup \(verb.prefix(24))': use show, attempt, check or assign",
                command: "followup")
        }
    }
}
