import DeskBench
import DeskCrypto
import DeskText
import Foundation

/// `tracedesk`: the console with no arguments, or a subcommand.
let version = "tracedesk 0.1.0"

func runMain() async -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let settingsPath = ConsoleSettings.path(environment: environment)
    // A mistake in the leading options (--lang itself) is told in the language of the settings
    // file or the locale: --lang is not read yet.
    let settingsFile = ConsoleSettings.readFile(settingsPath)
    Language.setProcessWide(
        Language.resolve(option: nil, settingsFile: settingsFile.values["language"]?.value, environment: environment)
            .language)
    do throws(UsageError) {
        let words = try Globals.extract(Array(CommandLine.arguments.dropFirst()))
        // The language of every screen and message from here on: --lang, the console's settings
        // file, the locale, English (the file's problems are the console's to print).
        let language = ConsoleSettings.language(
            option: Globals.language, file: settingsFile.values["language"],
            path: settingsPath, environment: environment)
        Language.setProcessWide(language.value.flatMap(Language.init(rawValue:)) ?? .en)
        switch words.first {
        case "--version", "version":
            print(version)
            return 0
        case "--help", "-h", "help":
            print(HelpText.main())
            return 0
        case "otp":
            return try await OtpCommand.run(Array(words.dropFirst())).rawValue
        case "staff":
            return try await StaffCommand.run(Array(words.dropFirst())).rawValue
        case "trace":
            return try await TraceCommand.run(Array(words.dropFirst())).rawValue
        case "case":
            return try await CaseCommand.run(Array(words.dropFirst())).rawValue
        case "queue":
            return try await QueueCommand.run(Array(words.dropFirst())).rawValue
        case "followup", "follow-up":
            return try await FollowUpCommand.run(Array(words.dropFirst())).rawValue
        case "audit":
            return try await StaffCommand.audit(Array(words.dropFirst())).rawValue
        case "his":
            return try await HISCommand.run(Array(words.dropFirst())).rawValue
        case "sms":
            return try await SmsCommand.run(Array(words.dropFirst())).rawValue
        case "stats":
            return try await StatsCommand.run(Array(words.dropFirst())).rawValue
        case "serve":
            return try ServeCommand.run(Array(words.dropFirst()))
        case "demo":
            return try await DemoCommand.run(Array(words.dropFirst())).rawValue
        case "simulate":
            return try await SimulateCommand.run(Array(words.dropFirst())).rawValue
        case "keys":
            return try KeysCommand.run(Array(words.dropFirst())).rawValue
        case "chunks":
            return try ChunksCommand.run(Array(words.dropFirst())).rawValue
        case "cleanup":
            return try ChunksCommand.run(Array(words.dropFirst()), cleanup: true).rawValue
        case "migrate":
            return try StoreCommand.migrate(Array(words.dropFirst())).rawValue
        case "store":
            return try StoreCommand.run(Array(words.dropFirst())).rawValue
        case "bench":
            // Its options, usage lines and help come from the table too (DeskBench reads it).
            return try await BenchCommand.run(Array(words.dropFirst())).rawValue
        case "settings":
            return try SettingsCommand.run(Array(words.dropFirst())).rawValue
        case "docs":
            return try DocsCommand.run(Array(words.dropFirst())).rawValue
        case "completion":
            return try DocsCommand.completion(Array(words.dropFirst())).rawValue
        case let word? where !word.hasPrefix("-"):
            throw UsageError(tr("cli.usage.unknownCommand", ["command": word]), command: "tracedesk")
        default:
            return try await ConsoleCommand.run(words).rawValue
        }
    } catch {
        printError(error.message)
        let topic = error.command == "tracedesk" ? "" : CommandTable.helpTopic(error.command)
        let family = topic.isEmpty ? "" : topic + " "
        printError(tr("cli.usage.seeHelp", ["command": family]))
        return ExitStatus.usage.rawValue
    }
}

CryptoLibrary.keepUntilExit()
exit(await runMain())
