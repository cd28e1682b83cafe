import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk queue`: the follow-ups due, as the console's queue screen lists them (issue 21).
enum QueueCommand {
    static let help = """
        Usage: tracedesk queue --user NAME [--mine | --tracer NAME | --unassigned | --everyone]
                               [--later] [--search TEXT] [--limit N] [--after CURSOR]
                               [--json | --csv] [--store PATH|URL | --server URL] [--password-stdin]

          The follow-ups to call or check, due first: overdue and due now, then later today
          (with --later, the days ahead too), in the order of their due time, then their
          number. Each row: the follow-up's number (for tracedesk followup), when it is due,
          the person's full number, the case (+N: followed for N more cases), the state, the
          attempts so far, the last outcome and why the person is a contact (minutes, days,
          last exposure). The first line counts the whole queue, not only the page.

          --mine          yours (the default for a tracer, and a tracer's only choice)
          --tracer NAME   one tracer's (supervisor)
          --unassigned    follow-ups no tracer has yet (supervisor)
          --everyone      everyone's (supervisor; the default for a supervisor)
          --later         also the follow-ups due on later days
          --search TEXT   only those whose case reference or phone number holds TEXT (digits
                          of a number match wherever they appear)
          --limit N       at most N rows, 1 to 500 (default 100); when there are more, the
                          last line gives the --after CURSOR of the next page
          --after CURSOR  the page after CURSOR (as the previous page printed it)
          --json          what the staff API answers (POST /staff/v1/queue): rows, counts,
                          next (the cursor of the next page, or null), read_at
          --csv           the rows as CSV: \(QueueCSV.columns.joined(separator: ","))

        Work a row with: tracedesk followup attempt ID --outcome …, followup check ID …; a
        supervisor reassigns with tracedesk followup assign ID… --to TRACER.

        Needs the tracer or supervisor role. Every page read is audited (follow_up_viewed,
        target queue) with how many persons it showed. Times are local in the table, UTC in
        CSV and JSON. The options --user, --password-stdin, --store and --server work as for
        'tracedesk staff'.

        Exit 0 ok (also an empty queue: the output says so), 1 refused (a tracer that does not
        exist), 2 usage error, 4 store or server unavailable (also: this desk has no case
        follow-up yet), 6 sign-in failed, or not allowed (another tracer's queue for a tracer).
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "queue"
        let arguments = try Arguments(
            words,
            valueOptions: Set(["store", "tracer", "search", "limit", "after"]).union(PersonOptions.valueOptions),
            flagOptions: Set(["mine", "unassigned", "everyone", "later", "json", "csv"]).union(
                PersonOptions.flagOptions), command: command)
        if arguments.has("help") || words.first == "help" {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra.prefix(40))': queue takes only options", command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError("give --csv or --json, not both", command: command)
        }
        var scopes: [QueueScope] = []
        if arguments.has("mine") { scopes.append(.mine) }
        if let tracer = arguments.values["tracer"] {
            guard !tracer.isEmpty else { throw UsageError("--tracer needs a tracer's name", command: command) }
            scopes.append(.tracer(tracer))
        }
        if arguments.has("unassigned") { scopes.append(.unassigned) }
        if arguments.has("everyone") { scopes.append(.everyone) }
        guard scopes.count <= 1 else {
            throw UsageError(
                "give one of --mine, --tracer NAME, --unassigned or --everyone: whose queue to show", command: command)
        }
        let limit = try arguments.integer("limit", default: 100, in: 1...QueueQuery.maximumLimit, command: command)
        var after: QueueCursor?
        if let text = arguments.values["after"] {
            guard let cursor = QueueCursor(text: text) else {
                throw UsageError(
                    "--after '\(text.prefix(40))' is not a queue cursor: give the one the previous page printed (e.g. 1764662400000-42)",
                    command: command)
            }
            after = cursor
        }
        let search = arguments.values["search"]
        let includeLater = arguments.has("later")
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            // Without a scope: a tracer's own queue, everyone's for a supervisor.
            let scope = scopes.first ?? (session.role == .supervisor ? .everyone : .mine)
            let query = QueueQuery(
                scope: scope, includeLater: includeLater, search: search, after: after, limit: limit)
            let page = try await desk.followUpQueue(session, query: query)
            if arguments.has("json") {
                print(StaffWire.queuePage(page).serialized)
            } else if arguments.has("csv") {
                FileHandle.standardOutput.write(Data(QueueCSV.encode(page).utf8))
                if let next = page.next {
                    printError("more rows: the next page is tracedesk queue --after \(next.text) --csv (same options)")
                }
            } else {
                FollowUpText.printQueue(page, scope: scope, user: session.user, includeLater: includeLater)
            }
            return .success
        }
    }
}
