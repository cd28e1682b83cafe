import DeskContract
import DeskCore
import DeskCrypto
import DeskRemote
import DeskSimulation
import DeskStore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `tracedesk simulate`: simulated phones (Immuni and APRICOT) and a simulated hospital system
/// against a running `tracedesk serve`, over real HTTP, for a bounded time; a progress line,
/// then a summary (requests, errors by kind, latency percentiles).
enum SimulateCommand {
    static var help: String { HelpText.command(CommandTable.command("simulate")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "simulate"
        let arguments = try Arguments(words, CommandTable.command("simulate"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        if Globals.person.server != nil {
            throw UsageError(tr("cli.out.simulate.serverBefore"), command: command)
        }
        guard arguments.positionals.isEmpty else {
            throw UsageError(
                tr("cli.out.simulate.noArgument", ["argument": arguments.positionals[0]]), command: command)
        }
        let allowRemote = arguments.has("allow-non-loopback")
        let serverGiven = arguments.values["server"] != nil
        let phoneAPI = try url(arguments.values["server"] ?? "http://127.0.0.1:8080", "--server", allowRemote, command)
        let internalText = arguments.values["internal"] ?? (serverGiven ? nil : "http://127.0.0.1:8081")
        let internalAPI = try internalText.map { text throws(UsageError) in
            try url(text, "--internal", allowRemote, command)
        }
        let hisAPI =
            try arguments.values["his"].map { text throws(UsageError) in try url(text, "--his", allowRemote, command)
            } ?? internalAPI

        let person = Globals.person.merged(with: arguments)
        if arguments.values["store"] != nil && person.user != nil {
            throw UsageError(tr("cli.out.simulate.storeOrUser"), command: command)
        }
        var plan = SimulationPlan()
        plan.immuniPerMinute = Double(try arguments.integer("immuni-rate", default: 6, in: 0...6_000, command: command))
        plan.dummySessionsPerReal = try decimal(arguments, "dummy-per-real", default: 4, in: 0...100, command)
        if arguments.values["immuni-population"] != nil {
            if arguments.values["dummy-per-real"] != nil {
                throw UsageError(tr("cli.out.simulate.dummyOrPopulation"), command: command)
            }
            plan.immuniPopulation = try arguments.integer(
                "immuni-population", default: 0, in: 1...100_000_000, command: command)
        }
        plan.positiveShare = try decimal(arguments, "positive-share", default: 10, in: 0...100, command) / 100
        plan.contactDays = try arguments.integer("contact-days", default: 2, in: 1...30, command: command)
        plan.duration = .seconds(try arguments.integer("duration", default: 60, in: 1...86_400, command: command))
        plan.maxInFlight = try arguments.integer("max-in-flight", default: 32, in: 1...1_024, command: command)
        if let seed = arguments.values["seed"] {
            guard let value = UInt64(seed) else {
                throw UsageError(
                    tr(
                        "cli.usage.wholeNumber",
                        ["option": "seed", "low": "0", "high": String(UInt64.max), "value": seed]),
                    command: command)
            }
            plan.seed = value
            plan.seedGiven = true
        }
        let hasCodeSource = arguments.values["store"] != nil || person.user != nil
        plan.apricotUsers = try arguments.integer(
            "apricot-users", default: hasCodeSource ? 20 : 0, in: 0...100_000, command: command)
        if plan.apricotUsers > 0 && !hasCodeSource {
            throw UsageError(tr("cli.out.simulate.apricotNeedsCodes"), command: command)
        }

        // Where APRICOT phones read their codes.
        var codes: (any ApricotCodeSource)?
        var signedIn: (any DeskService, StaffSession)?
        if plan.apricotUsers > 0 {
            if let spec = arguments.values["store"] {
                // The server's store, which exists: a mistyped path must not make a new, empty one
                // (no phone would ever find its code).
                if !PostgresStore.isURL(spec) && !FileManager.default.fileExists(atPath: spec) {
                    printError(tr("cli.out.simulate.noStore", ["store": spec]))
                    return .storeUnavailable
                }
                do {
                    codes = StoreOutboxCodes(store: try StoreLocation.open(spec))
                } catch {
                    printError(error.message)
                    return .storeUnavailable
                }
            } else {
                guard let internalAPI else {
                    throw UsageError(tr("cli.out.simulate.userNeedsInternal"), command: command)
                }
                let desk = RemoteDesk(url: internalAPI)
                switch try await Person.signIn(desk, person, command: command) {
                case .success(let session):
                    guard session.role == .admin else {
                        await Person.signOut(desk, session)
                        printError(
                            tr(
                                "cli.out.simulate.notAdmin",
                                ["user": session.user, "role": tr("console.frame.role.\(session.role.rawValue)")]))
                        return .notAllowed
                    }
                    codes = StaffOutboxCodes(desk: desk, session: session)
                    signedIn = (desk, session)
                case .failure(let status): return status
                }
            }
        }

        // The simulated hospital's key: given, or a client of its own for the run.
        var hisKey = try givenHISKey(arguments, command: command)
        var madeClient: (name: String, revoke: @Sendable () async -> Void)?
        if hisKey == nil, hisAPI != nil, plan.immuniPerMinute > 0 {
            if signedIn == nil, person.user != nil, let internalAPI {
                let desk = RemoteDesk(url: internalAPI)
                switch try await Person.signIn(desk, person, command: command) {
                case .success(let session): signedIn = (desk, session)
                case .failure(let status): return status
                }
            }
            switch await makeHospital(signedIn: signedIn, storeSpec: arguments.values["store"]) {
            case .success(let made):
                hisKey = made.key
                madeClient = (made.name, made.revoke)
            case .failure(let status):
                if let (desk, session) = signedIn { await Person.signOut(desk, session) }
                return status
            }
            if hisKey == nil {
                printError(tr("cli.out.simulate.noHISKey"))
            }
        }

        let simulation = Simulation(
            plan: plan, targets: SimulationTargets(phoneAPI: phoneAPI, hisAPI: hisAPI, codes: codes, hisKey: hisKey))
        if let madeClient { printError(tr("cli.out.simulate.hospital", ["client": madeClient.name])) }
        printError(
            tr(
                "cli.out.simulate.starting",
                [
                    "seconds": String(plan.duration.components.seconds), "url": phoneAPI.absoluteString,
                    "rate": trCount("cli.out.simulate.citizens", Int(plan.immuniPerMinute)),
                    "phones": trCount("cli.out.simulate.phones", plan.apricotUsers),
                    "seed": String(plan.seed),
                ]))
        if hisAPI == nil { printError(tr("cli.out.simulate.dummyOnly")) }
        let total = plan.duration
        let work = Task {
            await withTaskGroup(of: SimulationResult?.self) { group in
                group.addTask { await simulation.run() }
                group.addTask {
                    await progress(simulation.recorder, total: total)
                    return nil
                }
                var result: SimulationResult?
                for await value in group {
                    if let value {
                        result = value
                        group.cancelAll()
                    }
                }
                return result!
            }
        }
        // SIGINT, SIGTERM, SIGHUP: the run stops early; the summary of what ran is printed and the
        // admin signed out all the same. A second signal ends the process at once.
        let signals = StopSignals { _ in work.cancel() }
        let result = await work.value
        await madeClient?.revoke()
        if let (desk, session) = signedIn { await Person.signOut(desk, session) }
        if isatty(2) == 1 { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
        print(
            tr(
                "cli.out.simulate.summary",
                [
                    "citizens": String(result.citizens), "uploads": String(result.uploadsAccepted),
                    "registered": String(result.registered.count), "positives": String(result.positives.count),
                    "files": String(result.contactFiles),
                ]))
        for line in SimulationText.lines(result.summary) { print(line) }
        if signals.signal != 0 {
            fflush(nil)
            printError(tr("cli.out.simulate.stoppedEarly", ["signal": StopSignals.name(signals.signal)]))
            return ExitStatus(rawValue: StopSignals.exitStatus(signals.signal)) ?? .refused
        }
        return result.summary.errorCount == 0 ? .success : .refused
    }

    /// The key of `--his-key-file`, else of TRACEDESK_HIS_KEY; nil when neither is given.
    static func givenHISKey(_ arguments: Arguments, command: String) throws(UsageError) -> String? {
        if let path = arguments.values["his-key-file"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError(tr("cli.out.simulate.hisKeyUnreadable", ["file": path]), command: command)
            }
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard HISKey.looksValid(key) else {
                throw UsageError(tr("cli.out.simulate.notHISKey", ["file": path]), command: command)
            }
            return key
        }
        if let key = ProcessInfo.processInfo.environment["TRACEDESK_HIS_KEY"], !key.isEmpty { return key }
        return nil
    }

    /// A client of its own for the simulated hospital: added by the signed-in admin, or straight
    /// in the store (audited as store access, as `staff recover` is); its key, and how to revoke
    /// it at the end. Nothing to add with (no admin, no store): a nil key.
    static func makeHospital(signedIn: (any DeskService, StaffSession)?, storeSpec: String?) async -> Result<
        (name: String, key: String?, revoke: @Sendable () async -> Void), ExitStatus
    > {
        let name = "simulate-" + Hex.encode(SecureRandom.bytes(3))
        let rate = HISRate.allowed.upperBound
        if let (desk, session) = signedIn {
            do {
                let added = try await desk.addHISClient(session, name: name, ratePerMinute: rate)
                return .success(
                    (name, added.key, { _ = try? await desk.revokeHISClient(session, name: name) }))
            } catch {
                printError(tr("cli.out.simulate.hospitalFailed", ["problem": error.message]))
                return .failure(ExitStatus(error))
            }
        }
        guard let storeSpec else { return .success((name, nil, {})) }
        // The server's store, which exists: a mistyped path must not make a new, empty one.
        if !PostgresStore.isURL(storeSpec) && !FileManager.default.fileExists(atPath: storeSpec) {
            printError(tr("cli.out.simulate.noStore", ["store": storeSpec]))
            return .failure(.storeUnavailable)
        }
        let actor = "store-access:\(StoreLocation.userName)"
        do {
            let store = try StoreLocation.open(storeSpec)
            let key = HISKey.make()
            _ = try store.addHISClient(
                name: name, keyHash: HISKey.hash(key), ratePerMinute: rate, by: actor, now: Date())
            return .success((name, key, { _ = try? store.revokeHISClient(name: name, by: actor, now: Date()) }))
        } catch {
            printError(error.message)
            return .failure(.storeUnavailable)
        }
    }

    /// The progress line: every second on a terminal (overwritten), else every 10 s.
    static func progress(_ recorder: SimulationRecorder, total: Duration) async {
        let terminal = isatty(2) == 1
        let started = ContinuousClock.now
        var tick = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            if Task.isCancelled { return }
            tick += 1
            guard terminal || tick % 10 == 0 else { continue }
            let totals = recorder.totals()
            let elapsed = (ContinuousClock.now - started).components.seconds
            let line = tr(
                "cli.out.simulate.progress",
                [
                    "elapsed": String(min(elapsed, total.components.seconds)),
                    "total": String(total.components.seconds),
                    "requests": trCount("cli.out.simulate.requests", totals.requests),
                    "errors": trCount("cli.out.simulate.errors", totals.errors),
                ])
            try? FileHandle.standardError.write(contentsOf: Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    /// An http(s) URL with a host; a loopback host unless `allowRemote`.
    static func url(_ text: String, _ option: String, _ allowRemote: Bool, _ command: String) throws(UsageError) -> URL
    {
        let url: URL
        switch RemoteDesk.parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let problem): throw UsageError("\(option): \(problem.message)", command: command)
        }
        let host = (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if !allowRemote && !["127.0.0.1", "::1", "localhost"].contains(host) {
            throw UsageError(tr("cli.out.simulate.notThisMachine", ["option": option, "host": host]), command: command)
        }
        return url
    }

    /// A number (decimals allowed) given to `--name`, inside `range`.
    static func decimal(
        _ arguments: Arguments, _ name: String, default fallback: Double, in range: ClosedRange<Double>,
        _ command: String
    ) throws(UsageError) -> Double {
        guard let text = arguments.values[name] else { return fallback }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(
                tr(
                    "cli.out.simulate.number",
                    [
                        "option": name, "low": String(Int(range.lowerBound)), "high": String(Int(range.upperBound)),
                        "value": text,
                    ]),
                command: command)
        }
        return value
    }
}
