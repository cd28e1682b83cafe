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
            throw UsageError(
                tr("cli.common.onlyOptions", ["argument": String(extra.prefix(40)), "verb": "queue"]), command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError(tr("cli.common.csvOrJson"), command: command)
        }
        var scopes: [QueueScope] = []
        if arguments.has("mine") { scopes.append(.mine) }
        if let tracer = arguments.values["tracer"] {
            guard !tracer.isEmpty else {
                throw UsageError(tr("cli.common.needsTracer", ["option": "tracer"]), command: command)
            }
            scopes.append(.tracer(tracer))
        }
        if arguments.has("unassigned") { scopes.append(.unassigned) }
        if arguments.has("everyone") { scopes.append(.everyone) }
        guard scopes.count <= 1 else {
            throw UsageError(tr("cli.queue.oneScope"), command: command)
        }
        let limit = try arguments.integer("limit", default: 100, in: 1...QueueQuery.maximumLimit, command: command)
        var after: QueueCursor?
        if let text = arguments.values["after"] {
            guard let cursor = QueueCursor(text: text) else {
                throw UsageError(
                    tr("cli.queue.badCursor", ["value": String(text.prefix(40))]),
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
                    printError(tr("cli.queue.moreRowsCSV", ["cursor": next.text]))
                }
            } else {
                FollowUpText.printQueue(page, scope: scope, user: session.user, includeLater: includeLater)
            }
            return .success
        }
    }
}
