import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskStore
import Foundation

/// `tracedesk staff …` and `tracedesk audit …`: accounts and the audit log, for admins.
enum StaffCommand {
    static var help: String { HelpText.command(CommandTable.command("staff")) }

    static var auditHelp: String { HelpText.command(CommandTable.command("audit")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else {
            throw UsageError(tr("cli.staff.sayWhat"), command: "staff")
        }
        if ["--help", "-h", "help"].contains(verb) {
            print(help)
            return .success
        }
        let command = "staff \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("staff"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        let options = Globals.person.merged(with: arguments)
        switch verb {
        case "add": return try await add(arguments, options)
        case "list":
            guard arguments.positionals.isEmpty else { throw UsageError(tr("cli.staff.listNoNames"), command: command) }
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let accounts = try await desk.staff(session)
                if arguments.has("json") {
                    print(StaffWire.accounts(accounts).serialized)
                } else {
                    printTable(accounts)
                }
                return .success
            }
        case "disable":
            let name = try oneName(arguments, command: command)
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let account = try await desk.disableStaff(session, name: name)
                say(tr("cli.staff.disabled", ["name": account.name, "role": roleWord(account.role)]))
                return .success
            }
        case "recover":
            return try await recover(arguments, options)
        case "reset-password":
            let name = try oneName(arguments, command: command)
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                guard let password = Person.readNewPassword(for: name, fromStdin: options.passwordStdin) else {
                    return .refused
                }
                let account = try await desk.resetPassword(session, name: name, password: password)
                say(tr("cli.staff.passwordSet", ["name": account.name]))
                return .success
            }
        default:
            throw UsageError(tr("cli.staff.unknownVerb", ["verb": verb]), command: "staff")
        }
    }

    static func audit(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let verb = words.first else {
            throw UsageError(tr("cli.audit.sayWhat"), command: "audit")
        }
        if ["--help", "-h", "help"].contains(verb) {
            print(auditHelp)
            return .success
        }
        let command = "audit \(verb)"
        let arguments = try Arguments(Array(words.dropFirst()), CommandTable.command("audit"), command: command)
        if arguments.has("help") {
            print(auditHelp)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError(tr("cli.common.unexpected", ["argument": extra]), command: command)
        }
        let options = Globals.person.merged(with: arguments)
        switch verb {
        case "checkpoint":
            return try await checkpoint(arguments, options)
        case "verify":
            let checkpoints = arguments.values["checkpoints"]
            let publicKey = arguments.values["public-key"]
            if (checkpoints == nil) != (publicKey == nil) {
                throw UsageError(
                    tr("cli.audit.checkpointsAndKey"),
                    command: command)
            }
            if let checkpoints, let publicKey {
                return try await verifyWithCheckpoints(
                    arguments, options, checkpoints: checkpoints, publicKey: publicKey)
            }
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let result = try await desk.verifyAudit(session)
                if arguments.has("json") {
                    print(StaffWire.verification(result).serialized)
                } else if let broken = result.firstBroken {
                    say(tr("cli.audit.broken", ["id": String(broken.id), "reason": broken.shownReason]))
                    say(tr("cli.audit.before", ["entries": String(result.entries), "head": String(result.headID)]))
                } else {
                    say(
                        trCount(
                            "cli.audit.intact", Int(clamping: result.entries),
                            [
                                "entries": String(result.entries), "hash": result.headHash,
                                "head": String(result.headID),
                            ]))
                }
                return result.firstBroken == nil ? .success : .auditBroken
            }
        case "list":
            var query = AuditQuery(limit: 50)
            if let actor = arguments.values["actor"] { query.actor = actor }
            if let subject = arguments.values["subject"] { query.subject = subject }
            // The parser took one of the known actions only (the table's allowed values).
            if let action = arguments.values["action"] { query.action = AuditAction(rawValue: action.lowercased()) }
            if let text = arguments.values["day"] {
                guard let day = CivilDay(iso: text) else {
                    throw UsageError(tr("cli.audit.badDay"), command: command)
                }
                let bounds = localBounds(of: day)
                query.from = bounds.from
                query.until = bounds.until
            }
            if let text = arguments.values["limit"] {
                guard let limit = Int(text), (1...1_000).contains(limit) else {
                    throw UsageError(tr("cli.audit.badLimit"), command: command)
                }
                query.limit = limit
            }
            let bounded = query
            return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
                let entries = try await desk.audit(session, query: bounded)
                if arguments.has("json") {
                    print(StaffWire.auditEntries(entries).serialized)
                } else if entries.isEmpty {
                    say(tr("cli.audit.noEntries"))
                } else {
                    for entry in entries {
                        say(
                            "\(entry.id)\t\(localTime(entry.at))\t\(entry.actor)\t\(entry.action)\t\(entry.target ?? "-")\t\(entry.detail)"
                        )
                    }
                }
                return .success
            }
        default:
            throw UsageError(tr("cli.audit.unknownVerb", ["verb": verb]), command: "audit")
        }
    }

    private static func add(_ arguments: Arguments, _ options: PersonOptions) async throws(UsageError) -> ExitStatus {
        let name = try oneName(arguments, command: "staff add")
        guard let roleText = arguments.values["role"] else {
            throw UsageError(tr("cli.staff.giveRole", ["roles": StaffRole.namesList]), command: "staff add")
        }
        guard let role = StaffRole(name: roleText) else {
            throw UsageError(
                tr("cli.staff.unknownRole", ["value": String(roleText.prefix(20)), "roles": StaffRole.namesList]),
                command: "staff add")
        }
        guard let desk = try Person.desk(options, store: arguments.values["store"], command: "staff add") else {
            return .storeUnavailable
        }
        let empty: Bool
        do {
            empty = try await desk.needsFirstAdmin()
        } catch {
            printError(error.message)
            return ExitStatus(error)
        }
        if empty {
            guard role == .admin else {
                printError(tr("cli.staff.firstMustBeAdmin"))
                return .refused
            }
            guard let password = Person.readNewPassword(for: name, fromStdin: options.passwordStdin) else {
                return .refused
            }
            // Through a server, the one-time token `serve` printed (from the environment, so it
            // stays out of `ps`); on the store itself none is needed.
            var token: String?
            if desk.firstAdminNeedsSetupToken {
                token = ProcessInfo.processInfo.environment["TRACEDESK_SETUP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
                if token == nil {
                    printError(tr("cli.staff.needsSetupToken"))
                    return .refused
                }
            }
            do {
                let session = try await desk.createFirstAdmin(name: name, password: password, setupToken: token)
                await Person.signOut(desk, session)
                say(tr("cli.staff.addedFirst", ["name": session.user, "role": roleWord(.admin)]))
                return .success
            } catch {
                printError(error.message)
                return ExitStatus(error)
            }
        }
        return try await Person.acting(arguments, options, command: "staff add") { desk, session throws(ServiceError) in
            guard let password = Person.readNewPassword(for: name, fromStdin: options.passwordStdin) else {
                return .refused
            }
            let account = try await desk.addStaff(session, name: name, role: role, password: password)
            say(tr("cli.staff.added", ["name": account.name, "role": roleWord(account.role)]))
            return .success
        }
    }

    /// Break-glass recovery straight on the store: no sign-in, audited as store access.
    private static func recover(_ arguments: Arguments, _ options: PersonOptions) async throws(UsageError)
        -> ExitStatus
    {
        let command = "staff recover"
        let typed = try oneName(arguments, command: command)
        if options.server != nil {
            throw UsageError(
                tr("cli.staff.recoverOnStore"),
                command: command)
        }
        guard case .success(let name) = StaffName.normalize(typed) else {
            printError(StaffName.normalize(typed).failureMessage ?? tr("cli.staff.notAName"))
            return .refused
        }
        let busyTimeout = try StoreLocation.busyTimeout()
        let store: any Store
        do {
            store = try StoreLocation.open(arguments.values["store"], busyTimeoutMilliseconds: busyTimeout, poolSize: 1)
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
        let actor = "store-access:\(StoreLocation.userName)"
        do {
            let existing = try store.staffAccounts().first { $0.name == name }
            if let existing, existing.disabled {
                printError(tr("cli.staff.disabledForGood", ["name": name]))
                return .refused
            }
            guard let password = Person.readNewPassword(for: name, fromStdin: options.passwordStdin) else {
                return .refused
            }
            let hash: String
            do {
                hash = try PasswordHasher().hash(password)
            } catch {
                printError(error.message)
                return .storeUnavailable
            }
            if existing != nil {
                _ = try store.setPassword(name: name, passwordHash: hash, by: actor, now: Date(), reason: .reset)
                say(tr("cli.staff.recoveredPassword", ["name": name, "actor": actor]))
            } else {
                switch try store.addStaff(
                    name: name, role: .admin, passwordHash: hash, by: actor, now: Date(), onlyIfEmpty: false)
                {
                case .added:
                    say(tr("cli.staff.recoveredAdded", ["name": name, "role": roleWord(.admin), "actor": actor]))
                case .nameTaken, .notEmpty:
                    printError(tr("cli.staff.nameTaken", ["name": name]))
                    return .refused
                }
            }
            return .success
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
    }

    private static func oneName(_ arguments: Arguments, command: String) throws(UsageError) -> String {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty
                    ? tr("cli.staff.giveName", ["command": command]) : tr("cli.staff.oneName"),
                command: command)
        }
        return name
    }

    // MARK: Output

    /// A role's word in the run's language (the console's): "operator", "operatore".
    static func roleWord(_ role: StaffRole) -> String { tr("console.frame.role.\(role.rawValue)") }

    private static func printTable(_ accounts: [StaffAccount]) {
        guard !accounts.isEmpty else {
            say(tr("cli.staff.noAccounts"))
            return
        }
        let rows =
            [
                ["name", "role", "state", "failed", "lastSignIn", "createdBy"].map { tr("cli.staff.column.\($0)") }
            ]
            + accounts.map {
                [
                    $0.name, roleWord($0.role), tr("console.staff.state.\($0.stateName)"), String($0.failedSignIns),
                    $0.lastSignInAt.map(localTime) ?? tr("cli.staff.never"), $0.createdBy,
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

    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// The instants a local calendar day starts and ends.
    static func localBounds(of day: CivilDay) -> (from: Date, until: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = day.iso.split(separator: "-").compactMap { Int($0) }
        let start =
            calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            ?? Date(timeIntervalSince1970: 0)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return (start, end)
    }
}

extension Result where Failure == StaffInputError {
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
