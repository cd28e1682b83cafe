import DeskContract
import DeskCrypto
import DeskLocal
import DeskLog
import DeskServer
import DeskStore
import Foundation

/// Where the signal handler writes; set once before the handler is installed.
nonisolated(unsafe) private var terminationPipe: Int32 = -1

/// `tracedesk serve`: the Immuni API over HTTP for phones and hospital systems.
enum ServeCommand {
    static var help: String { HelpText.command(CommandTable.command("serve")) }

    /// The start line about audit checkpoints: where they go and how often, or that there are none.
    static func logAuditCheckpoints(
        _ config: ServerConfig, key: ECPrivateKey?, store: any Store, log: (String) -> Void
    ) {
        guard let key, let path = config.auditCheckpointPath else {
            log(
                "note: no audit checkpoints (audit_key_path and audit_checkpoint_path unset): a store writer could rewrite the audit log unseen (docs/admin-guide.md, \"Checkpoints\")"
            )
            return
        }
        log(
            "audit checkpoints to \(path) (audit key id \(key.publicKey.keyID)) every \(config.auditCheckpointEveryEntries) entries, and every \(config.auditCheckpointIntervalSeconds) s while entries are added"
        )
        if let mode = permissions(config.auditKeyPath ?? ""), mode & 0o077 != 0 {
            log("WARNING: the audit key \(config.auditKeyPath ?? "") can be read by other users: chmod 600 it")
        }
        let storeFolder = URL(fileURLWithPath: store.location).deletingLastPathComponent().standardizedFileURL.path
        let fileFolder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        if !store.location.hasPrefix("postgres"), storeFolder == fileFolder {
            log(
                "note: the audit checkpoint file is in the store's folder: whoever can rewrite the store there may rewrite it too; keep it elsewhere (another disk, machine or a log stream)"
            )
        }
    }

    /// Installs a SIGINT/SIGTERM handler that writes the signal number to a pipe (the self-pipe
    /// trick) and returns the pipe's read end. It works whichever thread the kernel picks, unlike
    /// a `sigwait` that needs the signals blocked in threads the runtime may already have started.
    static func installTerminationHandler() -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return -1 }
        terminationPipe = fds[1]
        let handler: @convention(c) (Int32) -> Void = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(terminationPipe, &byte, 1)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        return fds[0]
    }

    /// Waits for the handler's signal and returns which it was.
    static func waitForTermination(_ pipe: Int32) -> Int32 {
        guard pipe >= 0 else { return SIGTERM }
        var byte: UInt8 = 0
        while read(pipe, &byte, 1) != 1 {}
        // A second signal during the graceful stop ends the process at once.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        return Int32(byte)
    }

    static func run(_ words: [String]) throws(UsageError) -> Int32 {
        let arguments = try Arguments(words, CommandTable.command("serve"), command: "serve")
        if arguments.has("help") {
            print(help)
            return 0
        }
        if let extra = arguments.positionals.first {
            throw UsageError(tr("cli.common.noArguments", ["command": "serve", "argument": extra]), command: "serve")
        }
        let environment = ProcessInfo.processInfo.environment
        let file = arguments.values["config"] ?? environment["TRACEDESK_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        // Every problem is collected before any is reported: file, environment, options, the rules
        // between settings, and the files the settings name.
        var (config, problems) = ServerConfig.read(file: file, environment: environment)
        if let text = arguments.values["listen"] {
            if let address = ListenAddress(text) {
                config.listen = address
            } else {
                problems.append(tr("config.option.listen", ["option": "--listen", "example": "127.0.0.1:8080"]))
            }
        }
        if let text = arguments.values["internal-listen"] {
            if let address = ListenAddress(text) {
                config.internalListen = address
            } else {
                problems.append(
                    tr("config.option.listen", ["option": "--internal-listen", "example": "127.0.0.1:8081"]))
            }
        }
        if let text = arguments.values["his-listen"] {
            if let address = ListenAddress(text) {
                config.hisListen = address
            } else {
                problems.append(tr("config.option.listen", ["option": "--his-listen", "example": "127.0.0.1:8082"]))
            }
        }
        if let store = arguments.values["store"] { config.store = store }
        if let cert = arguments.values["tls-cert"] { config.tlsCert = cert }
        if let key = arguments.values["tls-key"] { config.tlsKey = key }
        if let key = arguments.values["signing-key"] { config.signingKeyPath = key }
        // The parser took text or json only (the table's allowed values).
        if let text = arguments.values["log-format"] { config.logFormat = text.lowercased() }
        problems += config.crossCheck()
        if arguments.has("settings") && problems.isEmpty {
            printSettings(config)
            return 0
        }
        var verifiers: (ImmuniAPI.DeviceCheck?, ImmuniAPI.AttestationCheck?, ImmuniAPI.NonceMaker?) = (nil, nil, nil)
        switch TraceDeskServer.analyticsVerifiers(config) {
        case .success(let made): verifiers = made
        case .failure(let error): problems += error.problems
        }
        var signing: ChunkSigning?
        switch TraceDeskServer.chunkSigning(config) {
        case .success(let made): signing = made
        case .failure(let error): problems += error.problems
        }
        var auditKey: ECPrivateKey?
        switch TraceDeskServer.auditKey(config) {
        case .success(let made): auditKey = made
        case .failure(let error): problems += error.problems
        }
        let settingsPath = config.appSettingsFile ?? defaultAppSettings()
        if settingsPath == nil {
            problems.append(tr("config.appSettingsMissing"))
        }
        problems += TraceDeskServer.fileProblems(config, appSettingsPath: settingsPath)
        // From here every line on stderr is in the log's format (a JSON reader sees no text line).
        let format = config.logFormatChoice
        // A JSON log is for a log shipper: every line in it English, problems included. Nothing
        // has been started yet, so the start is simply made again in English.
        if format == .json, Language.current != .en, !problems.isEmpty {
            var refusal: UsageError?
            let status = Language.$scoped.withValue(.en) { () -> Int32 in
                do throws(UsageError) { return try run(words) } catch {
                    refusal = error
                    return 2
                }
            }
            if let refusal { throw refusal }
            return status
        }
        let log: @Sendable (String) -> Void
        if format == .json {
            log = ServerLog.jsonWriter()
        } else {
            log = { message in printError("serve: \(message)") }
        }
        // A failure that ends the start: level error in the JSON log.
        func fail(_ message: String, event: String) {
            if format == .json {
                LogWriter.standardError.line(ServerLog.failure(message, event: event).text)
            } else {
                printError("serve: \(message)")
            }
        }
        // The settings' problems: a refusal in the run's language on a terminal, English in the JSON log (above).
        func settingsProblems(_ problems: [String]) -> String {
            (format == .json ? "the settings have problems:" : tr("cli.out.serve.settingsProblems")) + "\n  "
                + problems.joined(separator: "\n  ")
        }
        if !problems.isEmpty {
            fail(settingsProblems(problems), event: "settings")
            return ExitStatus.usage.rawValue
        }
        let store: any Store
        do {
            store = try StoreLocation.open(
                config.store, busyTimeoutMilliseconds: Int32(config.busyTimeoutMs), poolSize: config.storePoolSize)
        } catch {
            fail(error.message, event: "store_unavailable")
            return ExitStatus.storeUnavailable.rawValue
        }
        // A log whose reader went away must not kill the server (every log line goes through
        // LogWriter, which drops and counts what it cannot write).
        LogWriter.ignoreBrokenPipes()
        // While no account exists, the first admin over the staff API needs a one-time token:
        // printed on stdout (never the log) and written to a 0600 file beside the store.
        let tokenPath = config.setupTokenFile ?? SetupToken.defaultPath(store: store.location)
        var setup: (token: SetupToken, text: String)?
        do {
            if try store.staffCount() == 0 {
                let made = try SetupToken.make(writingTo: tokenPath)
                setup = (made.0, made.text)
            } else {
                SetupToken.removeStale(at: tokenPath)
            }
        } catch let error as StoreError {
            fail(error.message, event: "store_unavailable")
            return ExitStatus.storeUnavailable.rawValue
        } catch let error as SetupTokenError {
            fail(error.message, event: "setup")
            return ExitStatus.usage.rawValue
        } catch {
            fail("\(error)", event: "setup")
            return ExitStatus.usage.rawValue
        }
        let server: TraceDeskServer
        do {
            server = try TraceDeskServer(
                config: config, store: store, appSettingsPath: settingsPath, deviceCheck: verifiers.0,
                attestationCheck: verifiers.1, nonce: verifiers.2, signing: signing, auditKey: auditKey,
                accessLog: config.accessLog ? AccessLog(format: format) : nil, setupToken: setup?.token,
                log: log)
        } catch {
            fail(settingsProblems(error.problems), event: "settings")
            return ExitStatus.usage.rawValue
        }
        // From here on the server's own words are its log's, in English whatever the locale: its
        // jobs' lines (a store error while publishing…) included. A staff client's refusals are
        // still worded in its Accept-Language (StaffAPI scopes each request).
        Language.setProcessWide(.en)
        // From here a signal is a request to stop, even while the listeners are starting.
        let termination = installTerminationHandler()
        do {
            try server.start()
        } catch {
            fail(error.message, event: "listen_failed")
            return ExitStatus.cannotListen.rawValue
        }
        let scheme = config.tlsCert == nil ? "http" : "https"
        log("phone API on \(scheme)://\(config.listen.host):\(server.phonePort)")
        if let hisPort = server.hisPort, let his = config.hisListen {
            log(
                "internal API (staff API, /metrics) on \(scheme)://\(config.internalListen.host):\(server.internalPort)"
            )
            log("HIS API (POST /v1/otp, his_auth \(config.hisAuth)) on \(scheme)://\(his.host):\(hisPort)")
        } else {
            log(
                "internal API (POST /v1/otp with his_auth \(config.hisAuth), staff API, /metrics) on \(scheme)://\(config.internalListen.host):\(server.internalPort)"
            )
        }
        log("store \(store.location); app settings \(settingsPath ?? "")")
        if let setup {
            log(
                "no staff account yet: the first admin (POST /staff/v1/setup, or tracedesk --server URL) needs the one-time setup token printed on stdout, also in \(tokenPath) (mode 0600); tracedesk staff add NAME --role admin on the store needs none"
            )
            print("setup token: \(setup.text)")
            fflush(nil)
        }
        for address in [config.listen, config.internalListen] + (config.hisListen.map { [$0] } ?? [])
        where !address.isLoopback {
            log("note: \(address) is not a loopback address: it is reachable from the network")
        }
        if let file = store as? SQLiteStore {
            for (path, mode) in file.filesOthersCanRead() {
                log(
                    "WARNING: the store file \(path) can be read by other users (mode \(String(mode, radix: 8))): whoever reads it reads phone numbers and the contact graph; chmod 600 the files (700 the folder)"
                )
            }
        }
        if signing != nil, let path = config.signingKeyPath, let mode = permissions(path), mode & 0o077 != 0 {
            log(
                "WARNING: the signing key \(path) can be read by other users (mode \(String(mode, radix: 8))): chmod 600 it"
            )
        }
        if let signing {
            log(
                "chunks signed with \(config.signingKeyPath ?? "") (key id \(signing.keyID), version \(signing.keyVersion), region \(signing.region)), published every \(config.publishIntervalSeconds) s"
            )
        } else {
            log("WARNING: no signing key (signing_key_required is false): NO chunks will be published")
        }
        logAuditCheckpoints(config, key: auditKey, store: store, log: log)
        if server.apricotDesk == nil {
            log(
                "WARNING: no apricot_code_secret_file with a PostgreSQL store: the APRICOT API is off (503); give every server the same secret file (docs/apricot-api.md)"
            )
        } else {
            log(
                "APRICOT on \(scheme)://\(config.listen.host):\(server.phonePort)/apricot/v1, SMS gateway \(server.smsGateway.name)"
            )
            if server.smsGateway is OutboxSmsGateway {
                log(
                    "WARNING: sms_gateway is outbox: no SMS is sent, and every code is stored readable in the store's SMS outbox (tracedesk sms outbox) for training; use sms_gateway http with real phones (docs/apricot-api.md, \"SMS gateways\")"
                )
            }
        }
        if config.appleDeviceCheckURL == nil {
            log("WARNING: Apple DeviceCheck is not configured: iOS analytics tokens will be refused")
        }
        if config.googleAttestationRootFile == nil {
            log("WARNING: no SafetyNet attestation root is configured: Android analytics will be discarded")
        }
        // systemd (Type=notify): every listener is up. Sent last, so `systemctl start` returns
        // once the server serves and has said everything it says at start.
        let notifier = ServiceNotifier()
        if let failure = notifier.send("READY=1\nSTATUS=serving the phone API on port \(server.phonePort)") {
            log("note: systemd could not be told the server is ready (\(failure.reason)); it serves all the same")
        }
        let signal = waitForTermination(termination)
        notifier.send("STOPPING=1\nSTATUS=stopping: finishing requests in flight")
        log("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): finishing requests in flight, then stopping")
        server.stop(grace: .seconds(config.shutdownGraceSeconds))
        log("stopped")
        return 0
    }

    /// The permission bits of a file, nil if it cannot be examined.
    static func permissions(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode) & 0o777
    }

    static func printSettings(_ config: ServerConfig) {
        print(tr("cli.out.serve.settings.title"))
        for setting in ServerConfig.settings {
            print("  \(setting.name)  (\(setting.environmentName))")
            print("      = \(setting.value(in: config))")
            // English: the server's own words; another language: the catalogue's (the server's words
            // for a setting it does not have yet).
            let help =
                Language.current == .en
                ? setting.help : Catalogue.raw("cli.out.serve.setting.\(setting.name)", in: .current) ?? setting.help
            print("      \(help)")
        }
    }

    /// The shipped app settings: the installed share folder (/usr/share/tracedesk with the
    /// Debian package), or the source tree above a `.build` binary, or the current directory.
    static func defaultAppSettings() -> String? {
        InstallPaths.candidates(installed: "app-settings.json", name: "config/app-settings.json").first {
            FileManager.default.fileExists(atPath: $0)
        }
    }
}
