import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk queue`: the follow-ups due, as the console's queue screen lists them (issue 21).
enum QueueCommand {
    static var help: String { HelpText.command(CommandTable.command("queue")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "queue"
        let arguments = try Arguments(words, CommandTable.command("queue"), command: command)
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
