import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import Foundation

/// What `tracedesk case`, `queue` and `followup` read from their arguments, checked before a
/// password is asked for: ids, yes/no answers, notes, a phone number (as PHONE or on stdin).
enum FollowUpInput {
    /// A case's or follow-up's number: digits, 1 or more (what `case list` and `queue` show).
    static func id(_ text: String, what: String, hint: String, command: String) throws(UsageError) -> Int64 {
        guard let value = Int64(text), value > 0, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw UsageError(
                tr(
                    "cli.input.notAnID",
                    ["value": String(text.prefix(24)), "what": tr("cli.input.what.\(what)"), "hint": hint]),
                command: command)
        }
        return value
    }

    /// The one positional a verb takes, as an id.
    static func oneID(_ arguments: Arguments, what: String, usage: String, hint: String, command: String)
        throws(UsageError) -> Int64
    {
        guard let first = arguments.positionals.first else {
            throw UsageError(
                tr("cli.input.giveID", ["what": tr("cli.input.what.\(what)"), "usage": usage, "hint": hint]),
                command: command)
        }
        if arguments.positionals.count > 1 {
            throw UsageError(
                tr(
                    "cli.input.oneID",
                    [
                        "what": tr("cli.input.what.\(what)"), "value": String(arguments.positionals[1].prefix(24)),
                        "usage": usage,
                    ]),
                command: command)
        }
        return try id(first, what: what, hint: hint, command: command)
    }

    /// `yes` or `no` for `--name` (required).
    static func yesNo(_ arguments: Arguments, _ name: String, usage: String, command: String) throws(UsageError)
        -> Bool
    {
        guard let text = arguments.values[name] else {
            throw UsageError(tr("cli.input.giveYesNo", ["option": name, "usage": usage]), command: command)
        }
        switch text.lowercased() {
        case "yes", "y": return true
        case "no", "n": return false
        default:
            throw UsageError(
                tr("cli.input.yesOrNo", ["option": name, "value": String(text.prefix(20))]), command: command)
        }
    }

    /// `--note TEXT` (default empty), checked as an outcome's note is; nil with the reason
    /// printed when it cannot be one.
    static func note(_ arguments: Arguments, option: String = "note") -> String? {
        let note = arguments.values[option] ?? ""
        if let problem = ServiceChecks.noteProblem(note) {
            printError("--\(option): \(problem)")
            return nil
        }
        return note
    }

    /// A free-text reason that must not be empty (a contact added by hand), checked like a note.
    static func requiredText(_ text: String, option: String, example: String) -> String? {
        let trimmed = String(
            text.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
        if trimmed.isEmpty {
            printError(tr("cli.input.emptyText", ["option": option, "example": example]))
            return nil
        }
        if let problem = ServiceChecks.noteProblem(trimmed) {
            printError("--\(option): \(problem)")
            return nil
        }
        return trimmed
    }

    /// The phone number: the one PHONE positional after `skipping` others, or stdin's first line
    /// with `--phone-stdin` (read before the password, which is then the next line). Checked
    /// for its format; nil with the reason printed (exit 1) when it cannot be a number.
    static func phone(
        _ arguments: Arguments, skipping: Int, usage: String, command: String
    ) throws(UsageError) -> String? {
        let positionals = Array(arguments.positionals.dropFirst(skipping))
        let fromStdin = arguments.has("phone-stdin")
        if fromStdin, !positionals.isEmpty {
            throw UsageError(tr("cli.trace.phoneBoth"), command: command)
        }
        guard fromStdin || positionals.count == 1 else {
            throw UsageError(
                positionals.isEmpty
                    ? tr("cli.input.givePhone", ["usage": usage])
                    : tr("cli.input.onePhone", ["usage": usage]),
                command: command)
        }
        let phone: String
        if fromStdin {
            switch Terminal.readLine(fd: STDIN_FILENO, limit: 256) {
            case .line(let line): phone = line
            case .end:
                printError(tr("cli.input.phoneStdinEmpty"))
                return nil
            case .tooLong:
                printError(tr("cli.trace.stdinLong"))
                return nil
            }
        } else {
            phone = positionals[0]
        }
        let countryCode = try StoreLocation.apricotSettings(command: command).defaultCountryCode
        do throws(PhoneNumberError) {
            _ = try PhoneNumber.normalize(phone, defaultCountryCode: countryCode)
        } catch {
            printError(error.message)
            return nil
        }
        return phone
    }

    /// A day written YYYY-MM-DD (UTC), for `--onset` and `--test-day`: not in the future, at most
    /// 180 days back (as a symptom onset). Nil with the reason printed.
    static func indexDay(_ text: String, option: String) -> CivilDay? {
        guard let day = Fields.isoDate(text) else {
            printError(
                tr("cli.input.notADay", ["option": option, "value": String(text.prefix(20)), "example": example]))
            return nil
        }
        let today = Date().utcDay
        if day > today {
            printError(tr("cli.input.dayInFuture", ["option": option, "day": day.iso, "today": today.iso]))
            return nil
        }
        if today.days(since: day) > SymptomOnset.maximumDaysBack {
            printError(
                tr(
                    "cli.input.dayTooOld",
                    ["option": option, "day": day.iso, "days": String(SymptomOnset.maximumDaysBack)]))
            return nil
        }
        return day
    }

    /// Three days before today (UTC), as the console's hints give an example day.
    static var example: String { Date().utcDay.adding(days: -3).iso }
}
