import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk sms outbox`: the APRICOT SMS outbox, for admins.
enum SmsCommand {
    static var help: String { HelpText.command(CommandTable.command("sms")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else { throw UsageError(tr("cli.sms.sayWhat"), command: "sms") }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        guard verb == "outbox" else {
            throw UsageError(tr("cli.sms.unknownVerb", ["verb": String(verb.prefix(40))]), command: "sms")
        }
        let command = "sms outbox"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("sms"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError(tr("cli.common.unexpected", ["argument": String(extra.prefix(40))]), command: command)
        }
        let limit = try arguments.integer("limit", default: 50, in: 1...1_000, command: command)
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let messages = try await desk.smsOutbox(session, limit: limit)
            if arguments.has("json") {
                print(StaffWire.smsOutbox(messages).serialized)
            } else if messages.isEmpty {
                say(tr("cli.sms.empty"))
            } else {
                for message in messages {
                    say(
                        "\(message.id)\t\(StaffCommand.localTime(message.createdAt))\t\(message.phone.e164)\t\(message.gateway)\t\(message.status.rawValue)\t\(message.attempts)\t\(message.textDropped.map { "(\($0.explanation))" } ?? message.text)\t\(message.shownDetail)"
                    )
                }
            }
            return .success
        }
    }
}
