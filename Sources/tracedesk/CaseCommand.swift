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
    static let help = """
        Usage:
          tracedesk case open PHONE --reference TEXT --user NAME [--onset DAY | --test-day DAY] [--mine]
              Opens a case for a positive patient by phone number (as for tracedesk trace:
              +39 333 123 4567, or without the country code). Every close contact in the
              patient's contact files becomes a follow-up of the case (or joins the one the
              person already has for another open case: the latest exposure counts), assigned
              to the active tracer with the fewest open follow-ups, or to you with --mine.
              A patient with an open case already: that case, unchanged (exit 0, the output
              says so). --onset DAY: the day symptoms started; --test-day DAY: the day of the
              positive test, for a patient without symptoms; neither: today, as a test day.
              Days are YYYY-MM-DD (UTC), not in the future.
          tracedesk case list --user NAME [--closed | --all] [--opened-by TRACER] [--limit N] [--json]
              Cases, newest first: open ones (default), closed ones, or all (at most N, 1 to
              1000, default 200). A tracer sees the cases they opened; a supervisor every case,
              or one tracer's with --opened-by.
          tracedesk case show ID --user NAME [--json]
              One case: the patient, the index day, who opened it, its status, the cases it
              came from or led to, its follow-ups (active first) and its history.
          tracedesk case close ID --reason recovered|transferred|opened-in-error|other --user NAME [--note TEXT]
              Closes an open case (a tracer their own, a supervisor any). Its follow-ups that
              name no other open case end. The note is kept with the case, not in the audit log.
          tracedesk case add ID PHONE --reason TEXT --user NAME
              Adds a contact by hand (a registered APRICOT user) to an open case, with why
              ("household member, no phone seen"). Someone already followed for the case:
              that follow-up, unchanged.

          --reference TEXT  required for open: the health authority's case number (at most
                            64 characters), kept in the audit log with every view of the case
          --phone-stdin     read PHONE from stdin's first line instead (a number in the
                            arguments shows in `ps` and in the shell's history); with
                            --password-stdin, the password is the next line
          --json            what the staff API answers (docs/staff-api.yaml, "Cases and
                            follow-ups"), on the store too

        Needs the tracer role (list, show and close: a supervisor too). Every view and change is
        audited (case_opened, follow_up_viewed, case_closed, follow_up_added), with the case as
        `case N`, never a phone number or a note. Times are local in the text, UTC in JSON. The
        options --user, --password-stdin, --store and --server work as for 'tracedesk staff'.

        Exit 0 ok, 1 refused (a number in a wrong format or nobody registered, an empty
        reference, a case that is closed or not yours to change: the reason is on stderr),
        2 usage error, 4 store or server unavailable (also: this desk has no case follow-up
        yet), 6 sign-in failed or not allowed for the role.
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first, !verb.hasPrefix("-") || ["--help", "-h"].contains(verb) else {
            throw UsageError("say what to do: open, list, show, close or add", command: "case")
        }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        let command = "case \(verb)"
        let arguments = try Arguments(
            Array(words.dropFirst()),
            valueOptions: Set(["store", "reference", "onset", "test-day", "opened-by", "limit", "reason", "note"])
                .union(PersonOptions.valueOptions),
            flagOptions: Set(["json", "mine", "closed", "all", "phone-stdin"]).union(PersonOptions.flagOptions),
            command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        switch verb {
        case "open":
            try allow(
                arguments, ["store", "reference", "onset", "test-day"], ["json", "mine", "phone-stdin"], command)
            return try await open(arguments, command: command)
        case "list":
            try allow(arguments, ["store", "opened-by", "limit"], ["json", "closed", "all"], command)
            return try await list(arguments, command: command)
        case "show":
            try allow(arguments, ["store"], ["json"], command)
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
            try allow(arguments, ["store", "reason", "note"], ["json"], command)
            return try await close(arguments, command: command)
        case "add":
            try allow(arguments, ["store", "reason"], ["json", "phone-stdin"], command)
            return try await add(arguments, command: command)
        default:
            throw UsageError(
                "unknown command 'case \(verb.prefix(24))': use open, list, show, close or add", command: "case")
        }
    }

    /// Refuses the options another verb of `case` takes (the parser knows them all).
    static func allow(
        _ arguments: Arguments, _ values: Set<String>, _ flags: Set<String>, _ command: String
    ) throws(UsageError) {
        let values = values.union(PersonOptions.valueOptions)
        let flags = flags.union(PersonOptions.flagOptions)
        if let extra = arguments.values.keys.sorted().first(where: { !values.contains($0) }) {
            throw UsageError("'\(command)' takes no --\(extra)", command: command)
        }
        if let extra = arguments.flags.sorted().first(where: { !flags.contains($0) && $0 != "help" }) {
            throw UsageError("'\(command)' takes no --\(extra)", command: command)
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
