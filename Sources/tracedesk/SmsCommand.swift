import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// `tracedesk sms outbox`: the APRICOT SMS outbox, for admins.
enum SmsCommand {
    static let help = """
        Usage:
          tracedesk sms outbox --user ADMIN [--limit N] [--json]
              The newest SMS messages (default 50, at most 1000), newest first: when, to whom,
              the gateway (outbox: kept here, never sent; http: sent to the provider), the
              status (held, pending, sent, failed), attempts, the text (with the http gateway
              its code masked; once the code has expired, been used or been replaced, the text is
              dropped and the entry says why) and the last delivery detail. With sms_gateway outbox (the
              default) this is where the codes of POST /apricot/v1/otp are read, for training
              and test deployments.

        The texts hold sign-in codes and the rows phone numbers: reading the outbox is audited
        (sms_outbox_read). The options --user, --password-stdin, --store and --server work as
        for 'tracedesk staff'. --json prints what the staff API answers (GET /staff/v1/sms/outbox).
        Exit status: 0 ok, 2 usage error, 4 store or server unavailable, 6 sign-in failed or
        not an admin.
        """

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else { throw UsageError("say what to do: outbox", command: "sms") }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        guard verb == "outbox" else {
            throw UsageError("unknown command 'sms \(verb.prefix(40))': use outbox", command: "sms")
        }
        let command = "sms outbox"
        let arguments = try Arguments(
            Array(words.dropFirst()), valueOptions: Set(["store", "limit"]).union(PersonOptions.valueOptions),
            flagOptions: Set(["json"]).union(PersonOptions.flagOptions), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra.prefix(40))'", command: command)
        }
        let limit = try arguments.integer("limit", default: 50, in: 1...1_000, command: command)
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let messages = try await desk.smsOutbox(session, limit: limit)
            if arguments.has("json") {
                print(StaffWire.smsOutbox(messages).serialized)
            } else if messages.isEmpty {
                say("the outbox is empty: no SMS code was asked for yet")
            } else {
                for message in messages {
                    say(
                        "\(message.id)\t\(StaffCommand.localTime(message.createdAt))\t\(message.phone.e164)\t\(message.gateway)\t\(message.status.rawValue)\t\(message.attempts)\t\(message.textDropped.map { "(\($0.explanation))" } ?? message.text)\t\(message.detail)"
                    )
                }
            }
            return .success
        }
    }
}
