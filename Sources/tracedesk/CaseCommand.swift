import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk case open|list|show|close|add`: a tracer's cases from the command line (issue 21).
/// Every mistake in the arguments is caught before a password is asked for; what the desk
/// refuses (a number nobody registered, a closed case, someone else's case) exits 1 with the
/// desk's message. Privacy: the output holds phone numbers (the tracer's work); errors never do.
enum CaseCommand {
    static var help: String { HelpText.command(CommandTable.command("case")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first, !verb.hasPrefix("-") || ["--help", "-h"].contains(verb) else {
            throw UsageError("say what to do: open, list, show, close or add", command: "case")
        }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        let command = "case \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("case"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        switch verb {
        case "open":
            try arguments.checkVerb(CommandTable.command("case"), verb, command: command)
            return try await open(arguments, command: command)
        case "list":
            try arguments.checkVerb(CommandTable.command("case"), verb, command: command)
            return try await list(arguments, command: command)
        case "show":
            try arguments.checkVerb(CommandTable.command("case"), verb, command: command)
            let id = try caseID(arguments, usage: "tracedesk case show ID", command: command)
            return try await acting(arguments, command) { desk, session throws(ServiceError) in
                let detail = try await desk.caseDetail(session, caseID: id)
                if arguments.has("json") {
                    print(StaffWire.caseDetail(detail).serialized)
                } else {
                    FollowUpText.printCaseDetail(detail)
                }
                return .success
            }
        case "close":
            try arguments.checkVerb(CommandTable.command("case"), verb, command: command)
            return try await close(arguments, command: command)
        case "add":
            try arguments.checkVerb(CommandTable.command("case"), verb, command: command)
            return try await add(arguments, command: command)
        default:
            throw UsageError(
                "unknown command 'case \(verb.prefix(24))': use open, list, show, close or add", command: "case")
        }
    }

    static func acting(
        _ arguments: Arguments, _ command: String,
        _ body: (any DeskService, StaffSession) async throws(ServiceError) -> ExitStatus
    ) async throws(UsageError) -> ExitStatus {
        try await Person.acting(arguments, Globals.person.merged(with: arguments), command: command, body)
    }

    static func caseID(_ arguments: Arguments, usage: String, command: String) throws(UsageError) -> Int64 {
        try FollowUpInput.oneID(arguments, what: "case", usage: usage, hint: "tracedesk case list", command: command)
    }

    static func open(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let usage = "tracedesk case open PHONE --reference TEXT"
        if arguments.positionals.isEmpty, !arguments.has("phone-stdin") {
            throw UsageError(
                "give the patient's phone number: \(usage) (or --phone-stdin)", command: command)
        }
        guard let typedReference = arguments.values["reference"] else {
            throw UsageError(
                "give the case reference: --reference \"ASL-2026-0412\" (every view of the case is audited with it)",
                command: command)
        }
        if arguments.values["onset"] != nil, arguments.values["test-day"] != nil {
            throw UsageError(
                "give --onset (symptoms started) or --test-day (no symptoms), not both", command: command)
        }
        guard let phone = try FollowUpInput.phone(arguments, skipping: 0, usage: usage, command: command) else {
            return .refused
        }
        let reference: String
        switch CaseReference.checked(typedReference) {
        case .success(let checked): reference = checked
        case .failure(let problem):
            printError(problem.message)
            return .refused
        }
        var indexDay: CivilDay?
        var kind = IndexDayKind.testDay
        if let text = arguments.values["onset"] {
            guard let day = FollowUpInput.indexDay(text, option: "onset") else { return .refused }
            indexDay = day
            kind = .symptomOnset
        } else if let text = arguments.values["test-day"] {
            guard let day = FollowUpInput.indexDay(text, option: "test-day") else { return .refused }
            indexDay = day
        }
        let mine = arguments.has("mine")
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let opening = try await desk.openCase(
                session, phone: phone, reference: reference, indexDay: indexDay, indexKind: kind, assignToMe: mine)
            if arguments.has("json") {
                print(StaffWire.caseOpening(opening).serialized)
                return .success
            }
            let trace = opening.trace
            if opening.existing {
                say(
                    "the patient already has an open case: case \(trace.id) (\(trace.reference)), opened by \(trace.openedBy) at \(FollowUpText.localTime(trace.openedAt)); nothing changed (the reference typed was not used)"
                )
            } else {
                say(
                    "opened case \(trace.id) (\(trace.reference)) for \(trace.phone.spaced), index day \(FollowUpText.index(trace))"
                )
                var followUps = "  follow-ups: \(opening.followUpsCreated) new"
                if opening.followUpsJoined > 0 {
                    followUps += ", \(opening.followUpsJoined) already followed for another open case (joined)"
                }
                say(followUps + (mine ? ", assigned to you" : ""))
                for from in trace.cameFrom {
                    say("  the patient was a contact of \(FollowUpText.link(from)): the two cases are linked")
                }
            }
            say("  see it with: tracedesk case show \(trace.id); the calls due: tracedesk queue")
            return .success
        }
    }

    static func list(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        if arguments.has("closed"), arguments.has("all") {
            throw UsageError("give --closed or --all, not both (without either: the open cases)", command: command)
        }
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra.prefix(40))': list takes only options", command: command)
        }
        let status: CaseQuery.Status = arguments.has("closed") ? .closed : arguments.has("all") ? .all : .open
        let limit = try arguments.integer("limit", default: 200, in: 1...CaseQuery.maximumLimit, command: command)
        let openedBy = arguments.values["opened-by"]
        if let name = openedBy, name.isEmpty {
            throw UsageError("--opened-by needs a tracer's name", command: command)
        }
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let cases = try await desk.cases(
                session, query: CaseQuery(status: status, openedBy: openedBy, limit: limit))
            if arguments.has("json") {
                print(StaffWire.caseList(cases).serialized)
            } else {
                FollowUpText.printCases(cases, listed: status)
            }
            return .success
        }
    }

    static func close(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let id = try caseID(arguments, usage: "tracedesk case close ID --reason R", command: command)
        let reasons = CaseCloseReason.allCases.map(argument).joined(separator: ", ")
        guard let text = arguments.values["reason"] else {
            throw UsageError("give why the case closes: --reason \(reasons)", command: command)
        }
        guard let reason = CaseCloseReason.allCases.first(where: { argument($0) == text.lowercased() }) else {
            throw UsageError("unknown reason '\(text.prefix(24))': use \(reasons)", command: command)
        }
        guard let note = FollowUpInput.note(arguments) else { return .refused }
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let trace = try await desk.closeCase(session, caseID: id, reason: reason, note: note)
            if arguments.has("json") {
                print(StaffWire.traceCase(trace).serialized)
            } else {
                say(
                    "closed case \(trace.id) (\(trace.reference)): \(reason.label); its follow-ups that name no other open case have ended"
                )
            }
            return .success
        }
    }

    /// The command line's spelling of a reason: `opened-in-error`.
    static func argument(_ reason: CaseCloseReason) -> String {
        String(reason.rawValue.map { $0 == "_" ? "-" : $0 })
    }

    static func add(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let usage = "tracedesk case add ID PHONE --reason TEXT"
        guard let first = arguments.positionals.first else {
            throw UsageError("give the case number and the person's phone: \(usage)", command: command)
        }
        let id = try FollowUpInput.id(first, what: "case", hint: "tracedesk case list", command: command)
        if arguments.positionals.count < 2, !arguments.has("phone-stdin") {
            throw UsageError("give the person's phone number after the case number: \(usage)", command: command)
        }
        guard let typedReason = arguments.values["reason"] else {
            throw UsageError(
                "say why the person is added: --reason \"household member, no phone seen\"", command: command)
        }
        guard let phone = try FollowUpInput.phone(arguments, skipping: 1, usage: usage, command: command) else {
            return .refused
        }
        guard
            let reason = FollowUpInput.requiredText(
                typedReason, option: "reason", example: "household member, no phone seen")
        else { return .refused }
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let followUp = try await desk.addFollowUp(session, caseID: id, phone: phone, reason: reason)
            if arguments.has("json") {
                print(StaffWire.followUp(followUp).serialized)
                return .success
            }
            let byHand = followUp.reasons.first { $0.caseID == id }?.addedByHand != nil
            say(
                "case \(id) follows \(followUp.phone.spaced) as follow-up \(followUp.id)\(byHand ? ", added by hand" : ", already a contact of the case"): \(followUp.state.label), assigned to \(followUp.assignedTo ?? "nobody yet")"
            )
            return .success
        }
    }
}
