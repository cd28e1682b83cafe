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
            throw UsageError(tr("cli.case.sayWhat"), command: "case")
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
            throw UsageError(tr("cli.case.unknownVerb", ["verb": String(verb.prefix(24))]), command: "case")
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
            throw UsageError(tr("cli.case.givePhone", ["usage": usage]), command: command)
        }
        guard let typedReference = arguments.values["reference"] else {
            throw UsageError(
                tr("cli.case.giveReference"),
                command: command)
        }
        if arguments.values["onset"] != nil, arguments.values["test-day"] != nil {
            throw UsageError(tr("cli.case.onsetOrTestDay"), command: command)
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
                    tr(
                        "cli.case.open.existing",
                        [
                            "id": String(trace.id), "reference": trace.reference, "by": trace.openedBy,
                            "at": FollowUpText.localTime(trace.openedAt),
                        ])
                )
            } else {
                say(
                    tr(
                        "cli.case.open.opened",
                        [
                            "id": String(trace.id), "reference": trace.reference, "phone": trace.phone.spaced,
                            "index": FollowUpText.index(trace),
                        ])
                )
                var followUps = "  " + trCount("cli.case.open.followUps", opening.followUpsCreated)
                if opening.followUpsJoined > 0 {
                    followUps += ", " + trCount("cli.case.open.joined", opening.followUpsJoined)
                }
                say(followUps + (mine ? tr("cli.case.open.assignedToYou") : ""))
                for from in trace.cameFrom {
                    say("  " + tr("cli.case.open.cameFrom", ["link": FollowUpText.link(from)]))
                }
            }
            say("  " + tr("cli.case.open.seeIt", ["id": String(trace.id)]))
            return .success
        }
    }

    static func list(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        if arguments.has("closed"), arguments.has("all") {
            throw UsageError(tr("cli.case.closedOrAll"), command: command)
        }
        if let extra = arguments.positionals.first {
            throw UsageError(
                tr("cli.common.onlyOptions", ["argument": String(extra.prefix(40)), "verb": "list"]), command: command)
        }
        let status: CaseQuery.Status = arguments.has("closed") ? .closed : arguments.has("all") ? .all : .open
        let limit = try arguments.integer("limit", default: 200, in: 1...CaseQuery.maximumLimit, command: command)
        let openedBy = arguments.values["opened-by"]
        if let name = openedBy, name.isEmpty {
            throw UsageError(tr("cli.common.needsTracer", ["option": "opened-by"]), command: command)
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
            throw UsageError(tr("cli.case.close.giveReason", ["reasons": reasons]), command: command)
        }
        // The parser (checkVerb, the table's `case close --reason`) took a close reason only.
        guard let reason = CaseCloseReason.allCases.first(where: { argument($0) == text.lowercased() }) else {
            preconditionFailure("--reason '\(text)' passed the table but is no close reason")
        }
        guard let note = FollowUpInput.note(arguments) else { return .refused }
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let trace = try await desk.closeCase(session, caseID: id, reason: reason, note: note)
            if arguments.has("json") {
                print(StaffWire.traceCase(trace).serialized)
            } else {
                say(
                    tr(
                        "cli.case.close.closed",
                        [
                            "id": String(trace.id), "reference": trace.reference,
                            "reason": tr("console.case.reason.\(reason.rawValue)"),
                        ])
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
            throw UsageError(tr("cli.case.add.giveIDAndPhone", ["usage": usage]), command: command)
        }
        let id = try FollowUpInput.id(first, what: "case", hint: "tracedesk case list", command: command)
        if arguments.positionals.count < 2, !arguments.has("phone-stdin") {
            throw UsageError(tr("cli.case.add.givePhone", ["usage": usage]), command: command)
        }
        guard let typedReason = arguments.values["reason"] else {
            throw UsageError(tr("cli.case.add.giveReason"), command: command)
        }
        guard let phone = try FollowUpInput.phone(arguments, skipping: 1, usage: usage, command: command) else {
            return .refused
        }
        guard
            let reason = FollowUpInput.requiredText(
                typedReason, option: "reason", example: tr("cli.case.add.reasonExample"))
        else { return .refused }
        return try await acting(arguments, command) { desk, session throws(ServiceError) in
            let followUp = try await desk.addFollowUp(session, caseID: id, phone: phone, reason: reason)
            if arguments.has("json") {
                print(StaffWire.followUp(followUp).serialized)
                return .success
            }
            let byHand = followUp.reasons.first { $0.caseID == id }?.addedByHand != nil
            say(
                tr(
                    byHand ? "cli.case.add.addedByHand" : "cli.case.add.alreadyContact",
                    [
                        "id": String(id), "phone": followUp.phone.spaced, "followUp": String(followUp.id),
                        "state": FollowUpText.word(followUp.state),
                        "assignee": followUp.assignedTo ?? tr("cli.followup.nobodyYet"),
                    ])
            )
            return .success
        }
    }
}
