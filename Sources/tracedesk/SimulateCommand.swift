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
            throw UsageError(
                "put --server after 'simulate': for simulate it names the server's public listener (the phones'), not its staff API",
                command: command)
        }
        guard arguments.positionals.isEmpty else {
            throw UsageError("simulate takes no argument '\(arguments.positionals[0])'", command: command)
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
            throw UsageError(
                "give --store or --user, not both: they are two ways to read the SMS codes", command: command)
        }
        var plan = SimulationPlan()
        plan.immuniPerMinute = Double(try arguments.integer("immuni-rate", default: 6, in: 0...6_000, command: command))
        plan.dummySessionsPerReal = try decimal(arguments, "dummy-per-real", default: 4, in: 0...100, command)
        if arguments.values["immuni-population"] != nil {
            if arguments.values["dummy-per-real"] != nil {
                throw UsageError(
                    "give --dummy-per-real or --immuni-population, not both: each sets the dummy traffic",
                    command: command)
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
                    "--seed must be a whole number from 0 to \(UInt64.max), got '\(seed)'", command: command)
            }
            plan.seed = value
            plan.seedGiven = true
        }
        let hasCodeSource = arguments.values["store"] != nil || person.user != nil
        plan.apricotUsers = try arguments.integer(
            "apricot-users", default: hasCodeSource ? 20 : 0, in: 0...100_000, command: command)
        if plan.apricotUsers > 0 && !hasCodeSource {
            throw UsageError(
                "APRICOT phones need their SMS code: give --store (the server's store) or --user ADMIN (read through the staff API of --internal)",
                command: command)
        }

        // Where APRICOT phones read their codes.
        var codes: (any ApricotCodeSource)?
        var signedIn: (any DeskService, StaffSession)?
        if plan.apricotUsers > 0 {
            if let spec = arguments.values["store"] {
                // The server's store, which exists: a mistyped path must not make a new, empty one
                // (no phone would ever find its code).
                if !PostgresStore.isURL(spec) && !FileManager.default.fileExists(atPath: spec) {
                    printError(
                        "--store \(spec): there is no store there; give the store the server uses (its --store or TRACEDESK_STORE)"
                    )
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
                    throw UsageError(
                        "--user reads codes through the staff API: give --internal URL too", command: command)
                }
                let desk = RemoteDesk(url: internalAPI)
                switch try await Person.signIn(desk, person, command: command) {
                case .success(let session):
                    guard session.role == .admin else {
                        await Person.signOut(desk, session)
                        printError(
                            "\(session.user) is a \(session.role.rawValue): only an admin may read the SMS outbox; give --user with an admin account, or --store"
                        )
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
                printError(
                    "no HIS key: POST /v1/otp will be refused unless the server's his_auth is none; give --his-key-file FILE, --user ADMIN or --store"
                )
            }
        }

        let simulation = Simulation(
            plan: plan, targets: SimulationTargets(phoneAPI: phoneAPI, hisAPI: hisAPI, codes: codes, hisKey: hisKey))
        if let madeClient { printError("the simulated hospital is HIS client \(madeClient.name) (revoked at the end)") }
        printError(
            "simulating for \(plan.duration.components.seconds) s against \(phoneAPI.absoluteString): \(Int(plan.immuniPerMinute)) citizens a minute, \(plan.apricotUsers) APRICOT phones, seed \(plan.seed)"
        )
        if hisAPI == nil { printError("no --internal: no real citizens, dummy Immuni traffic only") }
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
            "citizens \(result.citizens), uploads accepted \(result.uploadsAccepted); APRICOT phones signed in \(result.registered.count), positive \(result.positives.count), contact files accepted \(result.contactFiles)"
        )
        for line in result.summary.lines { print(line) }
        if signals.signal != 0 {
            fflush(nil)
            printError(
                "\(StopSignals.name(signals.signal)): the simulation stopped early (the summary above is partial)")
            return ExitStatus(rawValue: StopSignals.exitStatus(signals.signal)) ?? .refused
        }
        return result.summary.errorCount == 0 ? .success : .refused
    }

    /// The key of `--his-key-file`, else of TRACEDESK_HIS_KEY; nil when neither is given.
    static func givenHISKey(_ arguments: Arguments, command: String) throws(UsageError) -> String? {
        if let path = arguments.values["his-key-file"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError("--his-key-file \(path) cannot be read", command: command)
            }
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard HISKey.looksValid(key) else {
                throw UsageError(
                    "--his-key-file \(path) does not hold an HIS API key (tdh_…, as tracedesk his add prints it)",
                    command: command)
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
                printError("the simulated hospital's HIS client could not be added: \(error.message)")
                return .failure(ExitStatus(error))
            }
        }
        guard let storeSpec else { return .success((name, nil, {})) }
        // The server's store, which exists: a mistyped path must not make a new, empty one.
        if !PostgresStore.isURL(storeSpec) && !FileManager.default.fileExists(atPath: storeSpec) {
            printError(
                "--store \(storeSpec): there is no store there; give the store the server uses (its --store or TRACEDESK_STORE)"
            )
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
            let line =
                "\(min(elapsed, total.components.seconds)) s of \(total.components.seconds) s: \(totals.requests) requests, \(totals.errors) errors"
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
            throw UsageError(
                "\(option) \(host) is not this machine: simulated phones make real load and real-looking data; add --allow-non-loopback if that server is a test server",
                command: command)
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
                "--\(name) must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), got '\(text)'",
                command: command)
        }
        return value
    }
}
