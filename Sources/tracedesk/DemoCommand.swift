import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskSimulation
import DeskStore
import Foundation
import TerminalKit
import TerminalNcurses

#if canImport(Glibc)
    import Glibc
#endif

/// `tracedesk demo`: the whole system on this machine from one command. A fresh store, one
/// staff account per role (printed), a signing key, an in-process server on loopback, simulated
/// phones talking to it over HTTP, and the console signed in as the operator.
///
/// A simulated citizen calls the operator: the authorise screen shows its code and onset day in a
/// strip (``DemoCitizen``, ``DemoCitizenStrip``); once authorised, its phone checks and uploads.
/// Its server, and only it, accepts the simulated
/// phones' attestations (``SimulatedAttestation``), so that analytics reach the statistics.
enum DemoCommand {
    static var help: String { HelpText.command(CommandTable.command("demo")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "demo"
        let arguments = try Arguments(words, CommandTable.command("demo"), command: command)
        if arguments.has("help") {
            print(help)
            return .success
        }
        guard arguments.positionals.isEmpty else {
            throw UsageError(tr("cli.out.demo.noArgument", ["argument": arguments.positionals[0]]), command: command)
        }
        var plan = SimulationPlan()
        plan.immuniPerMinute = Double(try arguments.integer("immuni-rate", default: 6, in: 0...600, command: command))
        plan.apricotUsers = try arguments.integer("apricot-users", default: 40, in: 0...2_000, command: command)
        plan.positiveShare = 0.1
        plan.contactDays = 3
        plan.analyticsPerMinute = 6
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
        let console = !arguments.has("no-console")
        if console && arguments.values["duration"] != nil {
            throw UsageError(tr("cli.out.demo.durationWithConsole"), command: command)
        }
        let duration = try arguments.integer("duration", default: 60, in: 1...86_400, command: command)
        plan.duration = console ? .seconds(86_400) : .seconds(duration)
        var theme: Theme
        do {
            theme = try ThemeLoader.load(arguments.values["theme"] ?? "default")
        } catch {
            printError(error.message)
            return .refused
        }
        if arguments.has("no-color") || !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty {
            theme = theme.withoutColor
        }
        if console && (isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1) {
            printError(tr("cli.out.demo.needsTerminal"))
            return .usage
        }

        // The store: a new file, in a temporary folder unless --store.
        let storePath: String
        var temporary: URL?
        if let path = arguments.values["store"] {
            guard !FileManager.default.fileExists(atPath: path) else {
                throw UsageError(tr("cli.out.demo.storeExists", ["file": path]), command: command)
            }
            storePath = path
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-demo-\(UUID().uuidString)", isDirectory: true)
            temporary = folder
            storePath = folder.appendingPathComponent("demo.sqlite").path
        }
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let folder = URL(fileURLWithPath: storePath).deletingLastPathComponent()

        // SIGINT, SIGTERM, SIGHUP: the simulation is cancelled and the console quits (restoring
        // the terminal), then the run ends as it does at its end: summary, server stopped,
        // temporary store deleted. Should that take more than 15 s, the store is deleted and the
        // process exits anyway.
        let stopping = StopActions()
        let removeTemporary = temporary
        let signals = StopSignals { signal in
            stopping.fire()
            sleep(15)
            if let removeTemporary { try? FileManager.default.removeItem(at: removeTemporary) }
            _exit(StopSignals.exitStatus(signal))
        }
        let logPath = folder.appendingPathComponent("demo.log").path

        let store: SQLiteStore
        let accounts: [(StaffRole, String, String)]
        let operatorSession: StaffSession
        let hisKey: String
        let server: TraceDeskServer
        do {
            // Only this user may read the demo's store, log and outbox (the codes in it).
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: temporary == nil ? nil : [.posixPermissions: 0o700])
            store = try SQLiteStore(path: storePath)
            (accounts, operatorSession, hisKey) = try await makeAccounts(store)
            FileManager.default.createFile(atPath: logPath, contents: nil)
            let logFile = FileHandle(forWritingAtPath: logPath)
            let log: @Sendable (String) -> Void = { line in try? logFile?.write(contentsOf: Data((line + "\n").utf8)) }
            var config = ServerConfig()
            config.listen = ListenAddress(host: "127.0.0.1", port: 0)
            config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
            config.apricotOTPPerAddressPerHour = 0
            config.publishIntervalSeconds = 60
            server = try TraceDeskServer(
                config: config, store: store, appSettingsPath: ServeCommand.defaultAppSettings(),
                attestationCheck: { attestation, nonce in
                    SimulatedAttestation.accepts(attestation, nonce: nonce) ? .success(()) : .failure(.signatureInvalid)
                }, nonce: { _, salt in SimulatedAttestation.nonce(salt: salt) },
                signing: ChunkSigning(key: ECPrivateKey.generate()), accessLog: AccessLog(write: log), log: log)
            try server.start(runningJobs: true)
        } catch {
            printError(tr("cli.out.demo.cannotStart", ["problem": "\(error)"]))
            return .storeUnavailable
        }
        defer { server.stop(grace: .seconds(2)) }
        let phoneURL = URL(string: "http://127.0.0.1:\(server.phonePort)")!
        let internalURL = URL(string: "http://127.0.0.1:\(server.internalPort)")!
        let patients = Simulation.positiveIndices(plan).map { Simulation.phoneNumber(seed: plan.seed, index: $0) }
        var intro = introduction(
            accounts: accounts, store: storePath, kept: temporary == nil, log: logPath, phone: phoneURL,
            internalURL: internalURL, hisKey: hisKey, patients: patients, seed: plan.seed)
        // The console covers what was printed: the same lines go to a file only this user can
        // read, next to the store (deleted with a temporary folder).
        let accountsPath = folder.appendingPathComponent("demo-accounts.txt").path
        let written = writePrivate(intro + "\n", to: accountsPath)
        if written { intro += "\n" + tr("cli.out.demo.intro.written", ["file": accountsPath]) }
        print(intro)
        fflush(nil)  // every output stream: a script reading the addresses and accounts sees them now

        let simulation = Simulation(
            plan: plan,
            targets: SimulationTargets(
                phoneAPI: phoneURL, hisAPI: internalURL, codes: StoreOutboxCodes(store: store), hisKey: hisKey))
        let running = Task { await simulation.run() }
        stopping.add { running.cancel() }
        // The tracing day: cases for the simulated patients once their files are in, and the
        // simulated tracer working its queue, through a desk on the same store.
        let tracing = DemoTracing(
            desk: LocalDesk(
                store: store, sessions: server.config.sessionPolicy, signIns: server.config.signInPolicy,
                publishing: server.config.publishingPolicy, apricot: server.config.apricotSettings),
            plan: DemoTracingPlan(
                patients: patientsWithCases(patients), tracer: simulatedTracer,
                password: accounts.first { $0.1 == simulatedTracer }?.2 ?? "", seed: plan.seed))
        let tracingRun = Task { [simulation] in
            if !tracing.plan.patients.isEmpty { await tracing.run { simulation.contactRoundsDone >= 1 } }
        }
        stopping.add { tracingRun.cancel() }
        var savedStderr: Int32 = -1
        if console {
            // While the console owns the terminal, what goes to stderr (libmicrohttpd's word on a
            // client that went away mid-request) goes to the demo's log, not over the screen.
            let logFD = open(logPath, O_WRONLY | O_APPEND)
            if logFD >= 0 {
                savedStderr = dup(STDERR_FILENO)
                dup2(logFD, STDERR_FILENO)
                close(logFD)
            }
            // The citizen on the phone with the operator: its code is shown in the console only.
            let citizen = DemoCitizen(
                client: SimulationClient(recorder: simulation.recorder), phoneAPI: phoneURL, seed: plan.seed)
            let calling = Task { await citizen.run() }
            defer { calling.cancel() }
            stopping.add { calling.cancel() }
            let desk = LocalDesk(
                store: store, sessions: server.config.sessionPolicy, signIns: server.config.signInPolicy,
                publishing: server.config.publishingPolicy, apricot: server.config.apricotSettings,
                followUps: server.config.followUpSettings)
            let mouse = !arguments.has("no-mouse")
            await runConsole(
                desk: desk, session: operatorSession, theme: theme, mouse: mouse, signals: signals,
                accounts: DemoAccounts(
                    accounts: accounts.map { DemoAccounts.Account(role: $0.0, name: $0.1, password: $0.2) },
                    patients: patients, file: written ? accountsPath : nil),
                citizen: { citizen.status.map(Self.strip) })
            running.cancel()
            print(intro)
        }
        let result = await running.value
        tracingRun.cancel()
        await tracingRun.value
        if savedStderr >= 0 {
            dup2(savedStderr, STDERR_FILENO)
            close(savedStderr)
        }
        print(
            tr(
                "cli.out.demo.summary",
                [
                    "citizens": String(result.citizens), "uploads": String(result.uploadsAccepted),
                    "registered": String(result.registered.count), "positives": String(result.positives.count),
                    "files": String(result.contactFiles), "records": String(result.analyticsSent),
                ]))
        for line in SimulationText.lines(result.summary) { print(line) }
        if !tracing.plan.patients.isEmpty { print(SimulationText.tracing(tracing.status)) }
        if signals.signal != 0 {
            printError(tr("cli.out.demo.stoppedEarly", ["signal": StopSignals.name(signals.signal)]))
            return ExitStatus(rawValue: StopSignals.exitStatus(signals.signal)) ?? .refused
        }
        return .success
    }

    /// Writes `text` to a new file at `path` that only this user may read (0600 from its
    /// creation, never wider for a moment); an older file there is replaced. False on failure.
    static func writePrivate(_ text: String, to path: String) -> Bool {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// The console's strip for the simulated citizen's status.
    static func strip(_ status: DemoCitizenStatus) -> DemoCitizenStrip {
        let phase: DemoCitizenStrip.Phase
        switch status.phase {
        case .waiting: phase = .waiting
        case .checked(let at): phase = .checked(at)
        case .uploaded(let at): phase = .uploaded(at)
        case .refused(let code): phase = .refused(code)
        }
        return DemoCitizenStrip(code: status.code, symptomsStartedOn: status.symptomsStartedOn, phase: phase)
    }

    /// One account per role with a random password each; the operator signed in.
    /// The demo's accounts (role, name, password), the operator signed in, and the API key of
    /// the simulated hospital's HIS client (`demo-hospital`, added by the admin like any other).
    static func makeAccounts(_ store: SQLiteStore) async throws -> (
        [(StaffRole, String, String)], StaffSession, String
    ) {
        let desk = LocalDesk(store: store)
        func password() -> String { "demo-" + Base64.encodeURL(SecureRandom.bytes(9)) }
        let adminPassword = password()
        let admin = try await desk.createFirstAdmin(name: "admin", password: adminPassword)
        var accounts: [(StaffRole, String, String)] = [(.admin, "admin", adminPassword)]
        for (role, name) in [
            (StaffRole.operator, "operator"), (.tracer, "tracer"), (.supervisor, "supervisor"),
            (.tracer, simulatedTracer),
        ] {
            let secret = password()
            _ = try await desk.addStaff(admin, name: name, role: role, password: secret)
            accounts.append((role, name, secret))
        }
        let hospital = try await desk.addHISClient(admin, name: demoHospital, ratePerMinute: HISRate.allowed.upperBound)
        try await desk.signOut(admin)
        let session = try await desk.signIn(name: "operator", password: accounts[1].2)
        return (accounts, session, hospital.key)
    }

    /// The HIS client of the demo's simulated hospital.
    static let demoHospital = "demo-hospital"

    /// The simulated second tracer (``DemoTracing``): it opens the simulated patients' cases and
    /// works its share of the queue.
    static let simulatedTracer = "tracer2"

    /// The patients the simulated tracer opens cases for: all but the last (when there are two or
    /// more), left for a person to open.
    static func patientsWithCases(_ patients: [String]) -> [String] {
        patients.count >= 2 ? Array(patients.dropLast()) : patients
    }

    static func introduction(
        accounts: [(StaffRole, String, String)], store: String, kept: Bool, log: String, phone: URL, internalURL: URL,
        hisKey: String, patients: [String], seed: UInt64
    ) -> String {
        var lines = [tr("cli.out.demo.intro.title")]
        // The labels in one column: 11 wide, or the longest label and a space.
        let names = ["store", "phones", "internal", "hisKey", "log"]
        let labels = Dictionary(uniqueKeysWithValues: names.map { ($0, tr("cli.out.demo.intro.label.\($0)")) })
        let column = max(11, (labels.values.map(DisplayWidth.of).max() ?? 0) + 1)
        func label(_ name: String) -> String { "  " + ChunksCommand.pad(labels[name] ?? name, column) }
        lines.append(label("store") + store + (kept ? "" : tr("cli.out.demo.intro.deleted")))
        lines.append(label("phones") + phone.absoluteString + tr("cli.out.demo.intro.phones"))
        lines.append(
            label("internal") + internalURL.absoluteString
                + tr("cli.out.demo.intro.internal", ["url": internalURL.absoluteString]))
        lines.append(label("hisKey") + hisKey + tr("cli.out.demo.intro.hisKey", ["client": demoHospital]))
        lines.append(label("log") + log)
        lines.append(tr("cli.out.demo.intro.accounts"))
        // The roles in the run's language, in a column as wide as the longest and a space.
        let roles = accounts.map { tr("console.frame.role.\($0.0.rawValue)") }
        let roleColumn = max(11, roles.map(DisplayWidth.of).max() ?? 0)
        for ((_, name, password), role) in zip(accounts, roles) {
            lines.append("    " + ChunksCommand.pad(role, roleColumn) + " \(name) / \(password)")
        }
        if !patients.isEmpty {
            let shown = patients.prefix(5).joined(separator: ", ") + (patients.count > 5 ? ", …" : "")
            lines.append(tr("cli.out.demo.intro.patients", ["phones": shown]))
            let withCases = patientsWithCases(patients)
            lines.append(
                tr(
                    withCases.count == patients.count
                        ? "cli.out.demo.intro.cases.all" : "cli.out.demo.intro.cases.allButLast",
                    ["tracer": simulatedTracer, "seed": String(seed)]))
            if withCases.count < patients.count, let last = patients.last {
                lines.append(tr("cli.out.demo.intro.openLast", ["phone": last]))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The console on a thread of its own (its loop blocks), signed in as `session`.
    static func runConsole(
        desk: LocalDesk, session: StaffSession, theme: Theme, mouse: Bool, signals: StopSignals,
        accounts: DemoAccounts, citizen: @escaping @Sendable () -> DemoCitizenStrip?
    ) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                let backend = NcursesBackend(options: .init(theme: theme, mouse: mouse))
                let program = Program(
                    backend: QuitOnSignalBackend(backend, stop: signals), service: desk, userName: session.user,
                    ascii: backend.glyphs.ascii)
                // TRACEDESK_COPY=off turns copying off here too (the demo has no --no-copy).
                let copy = (ProcessInfo.processInfo.environment["TRACEDESK_COPY"] ?? "").lowercased()
                program.copyEnabled = !["off", "0", "no", "false"].contains(copy)
                program.demoCitizen = citizen
                program.demoAccounts = accounts
                program.signIn(as: session)
                program.run()
                backend.stop()
                program.finishCalls(within: 1)
                done.resume()
            }
            thread.start()
        }
    }
}
