import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk his …`: the hospital systems (HIS clients) that may authorise codes over
/// `POST /v1/otp`, for admins. Locally on the store or through `--server`, like `staff`.
enum HISCommand {
    static var help: String { HelpText.command(CommandTable.command("his")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else { throw UsageError(tr("cli.his.sayWhat"), command: "his") }
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
                        tr(
                            "cli.his.badRate",
                            ["low": String(HISRate.allowed.lowerBound), "high": String(HISRate.allowed.upperBound)]),
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
                        tr(
                            "cli.his.added",
                            [
                                "name": added.client.name, "actor": added.client.actor,
                                "rate": rateText(added.client),
                            ]))
                    say(tr("cli.his.keyOnce"))
                    print(added.key)
                }
                return .success
            }
        case "list":
            guard arguments.positionals.isEmpty else { throw UsageError(tr("cli.staff.listNoNames"), command: command) }
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
                say(tr("cli.his.revoked", ["name": client.name]))
                return .success
            }
        default:
            throw UsageError(tr("cli.his.unknownVerb", ["verb": verb]), command: "his")
        }
    }

    private static func oneName(_ arguments: Arguments, command: String) throws(UsageError) -> String {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty
                    ? tr("cli.his.giveName", ["command": command]) : tr("cli.staff.oneName"),
                command: command)
        }
        return name
    }

    static func rateText(_ client: HISClient) -> String {
        client.ratePerMinute.map { trCount("cli.his.rate", $0) } ?? tr("cli.his.serverRate")
    }

    private static func printTable(_ clients: [HISClient]) {
        guard !clients.isEmpty else {
            say(tr("cli.his.none"))
            return
        }
        let rows =
            [["name", "state", "rate", "created", "createdBy", "revoked"].map { tr("cli.his.column.\($0)") }]
            + clients.map {
                [
                    $0.name, tr("console.his.state.\($0.stateName)"),
                    $0.ratePerMinute.map(String.init) ?? tr("cli.his.defaultRate"),
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
