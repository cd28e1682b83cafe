import CivilCalendar
import DeskContract
import DeskCore
import DeskServer
import Foundation

/// `tracedesk otp check|authorize|status`: the authorisation flow without the full screen,
/// with stable exit statuses for scripts.
///
/// Privacy rule: the code is never printed back; output names it by a short hash tag.
enum OtpCommand {
    static var help: String { HelpText.command(CommandTable.command("otp")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else {
            throw UsageError(tr("cli.otp.sayWhat"), command: "otp")
        }
        if verb == "--help" || verb == "-h" || verb == "help" {
            print(help)
            return .success
        }
        let command = "otp \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("otp"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        guard ["check", "authorize", "status"].contains(verb) else {
            throw UsageError(tr("cli.otp.unknownVerb", ["verb": verb]), command: "otp")
        }
        let code: String
        if arguments.has("code-stdin") {
            guard arguments.positionals.isEmpty else {
                throw UsageError(tr("cli.otp.codeBoth"), command: command)
            }
            // Read before any password: with --password-stdin the password is the next line.
            switch Terminal.readLine(fd: STDIN_FILENO, limit: 64) {
            case .line(let line): code = line
            case .end:
                printError(tr("cli.otp.stdinEmpty"))
                return .refused
            case .tooLong:
                printError(tr("cli.otp.stdinLong"))
                return .refused
            }
        } else {
            guard arguments.positionals.count == 1, let given = arguments.positionals.first else {
                throw UsageError(
                    arguments.positionals.isEmpty
                        ? tr("cli.otp.giveCode", ["command": command])
                        : tr("cli.otp.oneCode"),
                    command: command)
            }
            code = given
        }
        switch verb {
        case "check": return check(code, json: arguments.has("json"))
        case "authorize": return try await authorize(code, arguments)
        default: return try await status(code, arguments)
        }
    }

    private static func check(_ code: String, json: Bool) -> ExitStatus {
        do {
            _ = try Otp(operatorInput: code)
            print(json ? #"{"valid":true}"# : tr("cli.otp.valid"))
            return .success
        } catch {
            print(json ? CheckJSON(valid: false, reason: error.message).encoded() : error.message)
            return .refused
        }
    }

    private static func authorize(_ code: String, _ arguments: Arguments) async throws(UsageError) -> ExitStatus {
        guard let symptoms = arguments.values["symptoms"] else {
            throw UsageError(tr("cli.otp.giveSymptoms"), command: "otp authorize")
        }
        guard let day = CivilDay(iso: symptoms) else {
            printError(SymptomOnsetError.notADate(symptoms).message)
            return .refused
        }
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: "otp authorize") {
            desk, session throws(ServiceError) in
            switch try await desk.authorize(session, code: code, symptomsStartedOn: day) {
            case .authorized(let record):
                emit(arguments, outcome: "authorized", record: record, now: desk.now()) {
                    tr(
                        "cli.otp.authorized",
                        [
                            "tag": record.otpHash.shortTag, "time": clockTime(record.expiresAt),
                            "seconds": String(Int(record.expiresAt.timeIntervalSince(desk.now()).rounded())),
                        ])
                }
                return .success
            case .alreadyAuthorized(let record):
                emit(arguments, outcome: "already_authorized", record: record, now: desk.now()) {
                    tr(
                        "cli.otp.alreadyAuthorized",
                        [
                            "tag": record.otpHash.shortTag, "by": record.authorizedBy,
                            "time": clockTime(record.expiresAt),
                        ])
                }
                return .alreadyAuthorized
            case .invalid(let refusal):
                printError(refusal.message)
                return .refused
            }
        }
    }

    private static func status(_ code: String, _ arguments: Arguments) async throws(UsageError) -> ExitStatus {
        let options = Globals.person.merged(with: arguments)
        return try await Person.acting(arguments, options, command: "otp status") {
            desk, session throws(ServiceError) in
            let status = try await desk.status(session, of: code)
            emit(arguments, outcome: status.name, record: status.record, now: desk.now()) {
                guard let record = status.record else { return tr("cli.otp.status.unknown") }
                switch status {
                case .authorized:
                    return tr(
                        "cli.otp.status.authorized",
                        [
                            "tag": record.otpHash.shortTag, "by": record.authorizedBy,
                            "day": record.symptomsStartedOn.iso,
                            "seconds": String(Int(record.expiresAt.timeIntervalSince(desk.now()).rounded(.up))),
                        ])
                case .expired:
                    return tr(
                        "cli.otp.status.expired", ["tag": record.otpHash.shortTag, "time": clockTime(record.expiresAt)])
                default:
                    return tr("cli.otp.status.consumed", ["tag": record.otpHash.shortTag])
                }
            }
            return .success
        }
    }

    /// Prints one line, or a JSON object with `--json`.
    private static func emit(
        _ arguments: Arguments, outcome: String, record: OtpAuthorization?, now: Date, line: () -> String
    ) {
        guard arguments.has("json") else {
            say(line())
            return
        }
        print(StatusJSON(outcome: outcome, record: record, now: now).encoded())
    }

    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}

/// The `--json` shape of a refused `otp check`.
struct CheckJSON: Encodable {
    let valid: Bool
    let reason: String

    func encoded() -> String { jsonLine(self, fallback: #"{"valid":false}"#) }
}

/// The `--json` shape of `otp authorize` and `otp status`.
struct StatusJSON: Encodable {
    let status: String
    let otpHashPrefix: String?
    let symptomsStartedOn: String?
    let authorizedAt: String?
    let expiresAt: String?
    let authorizedBy: String?
    let secondsLeft: Int?

    init(outcome: String, record: OtpAuthorization?, now: Date) {
        let iso = ISO8601DateFormatter()
        status = outcome
        otpHashPrefix = record.map { String($0.otpHash.hex.prefix(12)) }
        symptomsStartedOn = record?.symptomsStartedOn.iso
        authorizedAt = record.map { iso.string(from: $0.authorizedAt) }
        expiresAt = record.map { iso.string(from: $0.expiresAt) }
        authorizedBy = record?.authorizedBy
        secondsLeft = record.flatMap {
            $0.isUsable(at: now) ? max(0, Int($0.expiresAt.timeIntervalSince(now).rounded(.up))) : nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case status
        case otpHashPrefix = "otp_hash_prefix"
        case symptomsStartedOn = "symptoms_started_on"
        case authorizedAt = "authorized_at"
        case expiresAt = "expires_at"
        case authorizedBy = "authorized_by"
        case secondsLeft = "seconds_left"
    }

    func encoded() -> String { jsonLine(self, fallback: #"{"status":"\#(status)"}"#) }
}

/// One line of JSON with sorted keys, as every `--json` output prints it.
func jsonLine(_ value: some Encodable, fallback: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return fallback }
    return String(decoding: data, as: UTF8.self)
}
