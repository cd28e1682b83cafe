import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk his …`: the hospital systems (HIS clients) that may authorise codes over
/// `POST /v1/otp`, for admins. Locally on the store or through `--server`, like `staff`.
enum HISCommand {
    static var help: String { HelpText.command(CommandTable.command("his")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else { throw UsageError("say what to do: add, list or revoke", command: "his") }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        let command = "his \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("his"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        let options = Globals.person.merged(with: arguments)
        switch verb {
        case "add":
            let name = try oneName(arguments, command: command)
            var rate: Int?
            if let text = arguments.values["rate"] {
                guard let value = Int(text), HISRate.allowed.contains(value) else {
                    throw UsageError(
                        "--rate takes a whole number from \(HISRate.allowed.lowerBound) to \(HISRate.allowed.upperBound) (authorisations a minute)",
                        command: command)
                }
                rate = value
            }
            let chosen = rate
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let added = try await desk.addHISClient(session, name: name, ratePerMinute: chosen)
                if arguments.has("json") {
                    print(StaffWire.newHISClient(added.client, key: added.key).serialized)
                } else {
                    say(
                        "added HIS client \(added.client.name) (actor \(added.client.actor), \(rateText(added.client)))"
                    )
                    say("API key, shown only now: give it to the HIS (Authorization: Bearer KEY)")
                    print(added.key)
                }
                return .success
            }
        case "list":
            guard arguments.positionals.isEmpty else { throw UsageError("list takes no names", command: command) }
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let clients = try await desk.hisClients(session)
                if arguments.has("json") {
                    print(StaffWire.hisClients(clients).serialized)
                } else {
                    printTable(clients)
                }
                return .success
            }
        case "revoke":
            let name = try oneName(arguments, command: command)
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let client = try await desk.revokeHISClient(session, name: name)
                say("revoked HIS client \(client.name): its key and certificate are refused from now on")
                return .success
            }
        default:
            throw UsageError("unknown command 'his \(verb)': use add, list or revoke", command: "his")
        }
    }

    private static func oneName(_ arguments: Arguments, command: String) throws(UsageError) -> String {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty ? "give the client's name: tracedesk \(command) NAME" : "give one name",
                command: command)
        }
        return name
    }

    static func rateText(_ client: HISClient) -> String {
        client.ratePerMinute.map { "\($0) authorisations a minute" } ?? "the server's rate limit"
    }

    private static func printTable(_ clients: [HISClient]) {
        guard !clients.isEmpty else {
            say("no HIS clients: add one with 'tracedesk his add NAME --user ADMIN'")
            return
        }
        let rows =
            [["NAME", "STATE", "RATE/MIN", "CREATED", "CREATED BY", "REVOKED"]]
            + clients.map {
                [
                    $0.name, $0.stateName, $0.ratePerMinute.map(String.init) ?? "default",
                    StaffCommand.localTime($0.createdAt), $0.createdBy,
                    $0.revokedAt.map { "\(StaffCommand.localTime($0))" } ?? "-",
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            say(
                row.enumerated().map { index, cell in
                    index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }.joined(separator: "  "))
        }
    }
}
