import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskText
import Dispatch
import Foundation

/// `tracedesk serve` assembled: the public listener (phones), the internal listener (hospital
/// systems, the staff API for consoles, metrics), the app-settings file watcher, access log and metrics, over one store.
/// Tests start it in-process on ephemeral ports.
public final class TraceDeskServer: @unchecked Sendable {
    public let config: ServerConfig
    public let metrics = Metrics()
    public let desk: PhoneDesk
    /// The APRICOT use cases of the public listener; nil when no code secret is configured
    /// (a PostgreSQL store without apricot_code_secret_file): `/apricot/…` then answers 503.
    public let apricotDesk: ApricotDesk?
    /// The SMS gateway of `apricotDesk` (``HTTPSmsGateway`` sends in the background).
    public let smsGateway: any SmsGateway
    /// The staff use cases the staff API serves (internal listener), with the session and
    /// sign-in settings of `config`.
    public let staffDesk: LocalDesk
    /// Where the staff API hashes passwords (two at a time) and runs its store calls.
    public let kdfExecutor: DeskExecutor
    public let staffExecutor: DeskExecutor
    /// The staff API (its long polls are answered first when the server stops).
    public let staffAPI: StaffAPI
    public let chunkFiles: ChunkFiles
    /// Publishing and retention; run on timers once started.
    public let jobs: ServerJobs
    let phone: HTTPServer
    let internalServer: HTTPServer
    /// `his_listen`: POST /v1/otp on a listener of its own; nil when it is served on internal.
    let hisServer: HTTPServer?
    let appSettings: AppSettingsFile?
    private var watcher: DispatchSourceTimer?
    let accessLog: AccessLog?
    let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - appSettingsPath: the resolved settings file (config's or the shipped default).
    ///   - hasher: how new staff passwords are hashed. Not a setting of `config` on purpose:
    ///     only tests lower it (in code), so no config file can weaken production hashes.
    ///   - delays: where check-otp's artificial delay is waited out: nil, a dispatch timer; tests
    ///     hold it with a clock of their own.
    ///   - log: server messages (startup, warnings, incidents); the access log goes to `accessLog`.
    public init(
        config: ServerConfig, store: any Store, clock: any Clock = SystemClock(), appSettingsPath: String?,
        deviceCheck: ImmuniAPI.DeviceCheck? = nil, attestationCheck: ImmuniAPI.AttestationCheck? = nil,
        nonce: ImmuniAPI.NonceMaker? = nil, signing: ChunkSigning? = nil, auditKey: ECPrivateKey? = nil,
        accessLog: AccessLog? = AccessLog(), setupToken: SetupToken? = nil,
        hasher: PasswordHasher = PasswordHasher(), delays: WaitClock? = nil,
        log: @escaping @Sendable (String) -> Void
    ) throws(ConfigError) {
        self.config = config
        self.log = log
        self.accessLog = accessLog
        desk = PhoneDesk(
            store: store, clock: clock, otpLifetime: .seconds(config.otpTTLSeconds), risk: config.riskProfile)
        staffDesk = LocalDesk(
            store: store, clock: clock, otpLifetime: .seconds(config.otpTTLSeconds), sessions: config.sessionPolicy,
            signIns: config.signInPolicy, hasher: hasher, publishing: config.publishingPolicy,
            apricot: config.apricotSettings, setupToken: setupToken, followUps: config.followUpSettings)
        // The decoy hash of unknown names, made now in the background rather than by the first
        // unknown name (which would then take two hashes' time where a real name takes one).
        DispatchQueue.global(qos: .utility).async { LocalDesk.prepareDecoy(for: hasher) }
        // Sign-ins: two hashes at a time, at most 16 admitted (under a second of queue) before
        // more are answered 503. Other staff calls: as wide as the HTTP threads, 64 deep each.
        kdfExecutor = DeskExecutor(name: "tracedesk.staff.kdf", width: 2, limit: 16)
        staffExecutor = DeskExecutor(name: "tracedesk.staff.work", width: config.threads, limit: config.threads * 64)
        chunkFiles = ChunkFiles(store: store, clock: clock, lifetimeDays: config.publishingPolicy.chunkLifetimeDays)
        jobs = ServerJobs(
            publisher: ChunkPublisher(store: store, clock: clock, signing: signing, policy: config.publishingPolicy),
            retention: RetentionJob(store: store, clock: clock, policy: config.retentionPolicy),
            publishIntervalSeconds: config.publishIntervalSeconds,
            cleanupIntervalSeconds: config.cleanupIntervalSeconds,
            rollupIntervalSeconds: config.statsRollupIntervalSeconds,
            auditCheckpoints: Self.auditCheckpointJob(config, key: auditKey, store: store, log: log),
            metrics: metrics, log: log)
        appSettings = try appSettingsPath.map { path throws(ConfigError) in try AppSettingsFile(path: path, log: log) }
        let gateway = Self.smsGateway(config, store: store, clock: clock, log: log)
        smsGateway = gateway
        switch Self.apricotCodeSecret(config, store: store) {
        case .failure(let error): throw error
        case .success(let secret?):
            apricotDesk = ApricotDesk(
                store: store, clock: clock, settings: config.apricotSettings, codeSecret: secret, gateway: gateway,
                log: log)
        case .success(nil): apricotDesk = nil
        }
        var tlsKey: String?
        var tlsCert: String?
        if let keyPath = config.tlsKey, let certPath = config.tlsCert {
            var problems: [String] = []
            tlsKey = (try? String(contentsOfFile: keyPath, encoding: .utf8))
            tlsCert = (try? String(contentsOfFile: certPath, encoding: .utf8))
            if tlsKey == nil { problems.append(tr("config.cannotRead", ["setting": "tls_key", "file": keyPath])) }
            if tlsCert == nil { problems.append(tr("config.cannotRead", ["setting": "tls_cert", "file": certPath])) }
            if !problems.isEmpty { throw ConfigError(problems: problems) }
        }
        // his_auth certificate: the listener of POST /v1/otp asks for client certificates signed
        // by this authority (the HIS listener when there is one, else the internal one).
        var hisTrust: String?
        if config.hisAuthMode == .certificate, let path = config.hisCAFile {
            hisTrust = try? String(contentsOfFile: path, encoding: .utf8)
            if hisTrust == nil {
                throw ConfigError(problems: [tr("config.cannotRead", ["setting": "his_ca_file", "file": path])])
            }
        }
        let delay = ImmuniAPI.Delay(
            meanMilliseconds: Double(config.checkDelayMeanMs), sdMilliseconds: Double(config.checkDelaySdMs))
        let metrics = self.metrics
        let completed: @Sendable (ExchangeSummary) -> Void = { exchange in
            metrics.recordExchange(exchange)
            accessLog?.record(exchange)
        }
        func options(_ name: String, _ address: ListenAddress, trust: String? = nil) -> HTTPServer.Options {
            var options = HTTPServer.Options(
                name: name, host: address.host, port: address.port, threads: config.threads,
                maxBodyBytes: config.maxBodyBytes, connectionTimeoutSeconds: config.connectionTimeoutSeconds,
                maxConnections: config.maxConnections, maxConnectionsPerAddress: config.maxConnectionsPerAddress,
                tlsKeyPEM: tlsKey, tlsCertificatePEM: tlsCert, tlsTrustPEM: trust)
            options.headDeadlineSeconds = config.headDeadlineSeconds
            options.maxConnectionsReadingHead = config.maxConnectionsReadingHead
            options.maxHeadBytes = config.maxHeadBytes
            options.lingerSeconds = config.lingerSeconds
            options.lingerBytes = config.lingerBytes
            options.keepAlive = config.httpKeepAlive
            options.delays = delays
            return options
        }
        let headRefused: @Sendable (Int, String) -> Void = { _, reason in
            metrics.count(.httpHeadsRefusedTotal, "reason=\"\(reason)\"")
        }
        phone = HTTPServer(
            options: options("public", config.listen),
            handler: PublicRoutes(
                immuni: ImmuniAPI(
                    listener: .phone, desk: desk, metrics: metrics, appSettings: appSettings, delay: delay,
                    dummyErrorPercent: config.dummyErrorPercent, deviceCheck: deviceCheck,
                    attestationCheck: attestationCheck, nonce: nonce, chunkFiles: chunkFiles,
                    guesses: OtpGuessLimiter(policy: config.otpGuessPolicy, clock: clock),
                    guessesLimited: { [desk] route, seconds in
                        desk.recordGuessesLimited(route: route, retryAfterSeconds: seconds)
                    }, log: log),
                apricot: apricotDesk.map { desk in
                    ApricotAPI(
                        desk: desk, metrics: metrics, uploadsPerHour: config.apricotUploadsPerHour,
                        otpPerMinute: config.apricotOTPPerMinute,
                        otpPerAddressPerHour: config.apricotOTPPerAddressPerHour,
                        destinations: config.smsDestinations, clock: clock, log: log)
                }),
            completed: completed, headRefused: headRefused)
        staffAPI = StaffAPI(
            desk: staffDesk, kdf: kdfExecutor, work: staffExecutor, admission: config.signInAdmission, clock: clock,
            metrics: metrics, log: log)
        let his = HISGate(
            mode: config.hisAuthMode, desk: desk, metrics: metrics, defaultRatePerMinute: config.hisRatePerMinute,
            clock: clock, log: log)
        internalServer = HTTPServer(
            options: options("internal", config.internalListen, trust: config.hisListen == nil ? hisTrust : nil),
            handler: InternalRoutes(
                immuni: ImmuniAPI(
                    listener: .internal, desk: desk, metrics: metrics, appSettings: appSettings, delay: delay,
                    dummyErrorPercent: config.dummyErrorPercent, his: his, servesOtp: config.hisListen == nil,
                    log: log),
                staff: staffAPI),
            completed: completed, headRefused: headRefused)
        if let address = config.hisListen {
            let phoneDesk = desk
            hisServer = HTTPServer(
                options: options("his", address, trust: hisTrust),
                handler: ImmuniAPI(
                    listener: .his, desk: phoneDesk, metrics: metrics, appSettings: nil, delay: delay, his: his,
                    log: log),
                completed: completed, headRefused: headRefused)
        } else {
            hisServer = nil
        }
    }

    /// The SMS gateway `sms_gateway` names (the settings were checked: http has its URL and key).
    public static func smsGateway(
        _ config: ServerConfig, store: any Store, clock: any Clock, log: @escaping @Sendable (String) -> Void
    ) -> any SmsGateway {
        if config.smsGateway == "http", let text = config.smsHTTPURL, let url = URL(string: text),
            let key = config.smsHTTPAPIKey
        {
            return HTTPSmsGateway(
                store: store, clock: clock,
                options: HTTPSmsGateway.Options(
                    url: url, apiKey: key, maxAttempts: config.smsHTTPMaxAttempts,
                    maxAge: SmsCodePolicy().lifetime),
                log: log)
        }
        return OutboxSmsGateway(store: store, clock: clock)
    }

    /// The key of the APRICOT codes' HMAC, from `apricot_code_secret_file` (see
    /// ``codeSecret(fileBytes:)``); unset, the file `<store>.code-secret` beside an SQLite store,
    /// made with 32 random bytes (64 hex digits, mode 600) when missing. With PostgreSQL and no
    /// file: nil (every server of a deployment must share the secret, so none is made up;
    /// APRICOT is then off and the server says so).
    public static func apricotCodeSecret(_ config: ServerConfig, store: any Store) -> Result<[UInt8]?, ConfigError> {
        let make = "make one with: openssl rand -hex 32 > FILE; chmod 600 FILE"
        if let path = config.apricotCodeSecretFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(
                    ConfigError(problems: [
                        "apricot_code_secret_file \(path) cannot be read: check the path and that this user may read it (\(make))"
                    ]))
            }
            switch codeSecret(fileBytes: Array(data)) {
            case .success(let secret): return .success(secret)
            case .failure(let problem):
                return .failure(ConfigError(problems: ["apricot_code_secret_file \(path) \(problem) (\(make))"]))
            }
        }
        guard let sqlite = store as? SQLiteStore else { return .success(nil) }
        let path = sqlite.path + ".code-secret"
        if !FileManager.default.fileExists(atPath: path), let problem = createSecretFile(path) {
            return .failure(ConfigError(problems: [problem]))
        }
        var fromStore = config
        fromStore.apricotCodeSecretFile = path
        return apricotCodeSecret(fromStore, store: store)
    }

    /// The key a secret file's bytes give, or what is wrong with them (words that follow the
    /// file's name). One trailing newline is not part of the secret. 64 or more hex digits (what
    /// `openssl rand -hex 32` writes) are decoded, so the key is the 32 random bytes and not
    /// their 64 characters; anything else is taken as raw bytes. Either way at least 32 bytes,
    /// not all the same byte.
    public static func codeSecret(fileBytes: [UInt8]) -> Result<[UInt8], CodeSecretProblem> {
        var bytes = fileBytes[...]
        if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        let secret: [UInt8]
        if bytes.count >= 64, let decoded = Hex.decode(bytes) {
            secret = decoded
        } else {
            secret = Array(bytes)
        }
        guard secret.count >= 32 else {
            return .failure(CodeSecretProblem("holds \(secret.count) bytes: at least 32 are needed"))
        }
        if let first = secret.first, secret.allSatisfy({ $0 == first }) {
            return .failure(CodeSecretProblem("holds one byte repeated: it must be random"))
        }
        return .success(secret)
    }

    /// Why a secret file's content cannot be the key (never the content itself).
    public struct CodeSecretProblem: Error, Hashable, Sendable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// Makes the secret file at `path` whole or not at all: written to a temporary file beside
    /// it (mode 600), then linked to `path`, which fails if another server made it meanwhile (the
    /// loser then reads the winner's complete file). Nil when done or lost; else the problem.
    static func createSecretFile(_ path: String) -> String? {
        let text = Array((Hex.encode(SecureRandom.bytes(32)) + "\n").utf8)
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            return "the APRICOT code secret \(path) could not be made: \(temporary) cannot be created"
        }
        defer { unlink(temporary) }
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == text.count, synced else {
            return "the APRICOT code secret \(path) could not be written (is the disk full?)"
        }
        if link(temporary, path) != 0, errno != EEXIST {
            return "the APRICOT code secret \(path) could not be made (check that this user may write its directory)"
        }
        return nil
    }

    /// Problems with the files the settings name (app settings, TLS), all of them, without
    /// starting anything.
    public static func fileProblems(_ config: ServerConfig, appSettingsPath: String?) -> [String] {
        var problems: [String] = []
        if let appSettingsPath {
            do {
                _ = try AppSettingsFile(path: appSettingsPath, log: { _ in })
            } catch {
                problems += error.problems
            }
        }
        if let key = config.tlsKey, (try? String(contentsOfFile: key, encoding: .utf8)) == nil {
            problems.append(tr("config.cannotRead", ["setting": "tls_key", "file": key]))
        }
        if let cert = config.tlsCert, (try? String(contentsOfFile: cert, encoding: .utf8)) == nil {
            problems.append(tr("config.cannotRead", ["setting": "tls_cert", "file": cert]))
        }
        if config.hisAuthMode == .certificate, let ca = config.hisCAFile,
            (try? String(contentsOfFile: ca, encoding: .utf8)) == nil
        {
            problems.append(tr("config.cannotRead", ["setting": "his_ca_file", "file": ca]))
        }
        return problems
    }

    /// The analytics verifiers the settings describe: Apple DeviceCheck and SafetyNet, each nil
    /// when not configured. Unreadable keys or certificates are configuration problems.
    public static func analyticsVerifiers(_ config: ServerConfig) -> Result<
        (ImmuniAPI.DeviceCheck?, ImmuniAPI.AttestationCheck?, ImmuniAPI.NonceMaker?), ConfigError
    > {
        var problems: [String] = []
        var deviceCheck: ImmuniAPI.DeviceCheck?
        if let url = config.appleDeviceCheckURL, let team = config.appleTeamID, let keyID = config.appleKeyID,
            let keyFile = config.applePrivateKeyFile
        {
            if let base = URL(string: url), base.scheme == "https" || base.scheme == "http", base.host != nil {
                if let pem = try? String(contentsOfFile: keyFile, encoding: .utf8) {
                    do {
                        let key = try ECPrivateKey(pem: pem)
                        let wait = Double(config.appleDeviceCheckWaitSeconds)
                        let client = DeviceCheckClient(
                            baseURL: base, teamID: team, keyID: keyID, privateKey: key,
                            firstWait: wait...(wait * 10 / 7),
                            secondWait: 0...(wait * 3 / 7))
                        deviceCheck = { token in await client.authorize(deviceToken: token, now: Date()) }
                    } catch {
                        problems.append("apple_private_key_file \(keyFile): \(error.message)")
                    }
                } else {
                    problems.append(tr("config.cannotRead", ["setting": "apple_private_key_file", "file": keyFile]))
                }
            } else {
                problems.append(
                    tr("config.appleURL"))
            }
        }
        var attestation: ImmuniAPI.AttestationCheck?
        var nonce: ImmuniAPI.NonceMaker?
        if let rootFile = config.googleAttestationRootFile, let digest = config.googleApkCertificateDigest {
            if let pem = try? String(contentsOfFile: rootFile, encoding: .utf8) {
                do {
                    let verifier = try SafetyNetVerifier(
                        rootCertificatesPEM: pem, apkPackageName: config.googleApkPackageName,
                        apkCertificateDigestSha256: digest)
                    attestation = { jws, expected in verifier.verify(jws: jws, expectedNonce: expected, now: Date()) }
                    nonce = { info, salt in
                        SafetyNetVerifier.nonce(
                            province: info.province.code, exposurePermission: info.exposurePermission ? 1 : 0,
                            bluetoothActive: info.bluetoothActive ? 1 : 0,
                            notificationPermission: info.notificationPermission ? 1 : 0,
                            exposureNotification: info.exposureNotification ? 1 : 0,
                            lastRiskyExposureOn: info.lastRiskyExposureOn.iso, salt: salt)
                    }
                } catch {
                    problems.append("google_attestation_root_file \(rootFile): \(error.message)")
                }
            } else {
                problems.append(tr("config.cannotRead", ["setting": "google_attestation_root_file", "file": rootFile]))
            }
        }
        if !problems.isEmpty { return .failure(ConfigError(problems: problems)) }
        return .success((deviceCheck, attestation, nonce))
    }

    /// The signing key and labels the settings name. No key: a problem, unless
    /// `signing_key_required` is false (then nil: the server runs and publishes nothing).
    public static func chunkSigning(_ config: ServerConfig) -> Result<ChunkSigning?, ConfigError> {
        guard let path = config.signingKeyPath else {
            if !config.signingKeyRequired { return .success(nil) }
            return .failure(
                ConfigError(problems: [
                    tr("config.noSigningKey")
                ]))
        }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            return .failure(
                ConfigError(problems: [
                    tr("config.cannotReadCheck", ["setting": "signing_key_path", "file": path])
                ]))
        }
        do {
            let key = try ECPrivateKey(pem: pem)
            return .success(
                ChunkSigning(
                    key: key, keyID: config.signingKeyID, keyVersion: config.signingKeyVersion, region: config.region,
                    appBundleID: config.appBundleID))
        } catch {
            return .failure(
                ConfigError(problems: [
                    tr("config.signingKeyUnusable", ["file": path, "problem": error.message])
                ]))
        }
    }

    /// The audit key `audit_key_path` names; nil without one. A key that cannot be used is a
    /// problem: a server told to checkpoint must not run silently without.
    public static func auditKey(_ config: ServerConfig) -> Result<ECPrivateKey?, ConfigError> {
        guard let path = config.auditKeyPath else { return .success(nil) }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            return .failure(
                ConfigError(problems: [
                    tr("config.cannotReadCheck", ["setting": "audit_key_path", "file": path])
                ]))
        }
        do {
            return .success(try ECPrivateKey(pem: pem))
        } catch {
            return .failure(
                ConfigError(problems: [
                    tr("config.auditKeyUnusable", ["file": path, "problem": error.message])
                ]))
        }
    }

    static func auditCheckpointJob(
        _ config: ServerConfig, key: ECPrivateKey?, store: any Store, log: @escaping @Sendable (String) -> Void
    ) -> AuditCheckpointJob? {
        guard let key, let path = config.auditCheckpointPath else { return nil }
        return AuditCheckpointJob(
            store: store, key: key, file: AuditCheckpointFile(path: path),
            everyEntries: config.auditCheckpointEveryEntries, intervalSeconds: config.auditCheckpointIntervalSeconds,
            log: log)
    }

    /// Binds both listeners and starts the jobs on their timers (tests that drive the jobs
    /// themselves pass `runningJobs: false`); on failure nothing is left listening.
    public func start(runningJobs: Bool = true) throws(HTTPServer.StartError) {
        try phone.start()
        do {
            try internalServer.start()
        } catch {
            phone.stop(grace: .zero)
            throw error
        }
        do {
            try hisServer?.start()
        } catch {
            phone.stop(grace: .zero)
            internalServer.stop(grace: .zero)
            throw error
        }
        if config.hisAuthMode == .none {
            let address = config.hisListen ?? config.internalListen
            log(
                "WARNING: his_auth is none: POST /v1/otp on \(address.host) authorises codes for anyone who reaches it (actor \(HISClientName.anonymousActor)), so anyone there can send fake exposure notifications; only for a closed test network: use his_auth key and tracedesk his add (docs/deployment.md)"
            )
        }
        if let appSettings {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 2, repeating: 2)
            timer.setEventHandler { appSettings.reloadIfChanged() }
            timer.resume()
            watcher = timer
        }
        if runningJobs { jobs.start() }
    }

    public var phonePort: UInt16 { phone.port }
    /// The handlers behind the listeners, as the listeners call them: tests drive them on values
    /// (a server that was never started serves them as well).
    public var phoneHandler: any HTTPHandler { phone.handler }
    public var internalHandler: any HTTPHandler { internalServer.handler }
    /// Nil without `his_listen` (POST /v1/otp is then the internal handler's).
    public var hisHandler: (any HTTPHandler)? { hisServer?.handler }
    /// See ``HTTPServer/peakSuspended``.
    public var phonePeakSuspended: Int { phone.peakSuspended }
    /// The phone listener's delays still running (``HTTPServer/delaysPending``).
    public var phoneDelaysPending: Int { phone.delaysPending }
    /// See ``HTTPServer/isStopping``: the phone listener has begun to stop.
    public var phoneStopping: Bool { phone.isStopping }
    /// See ``HTTPServer/requestsInFlight``.
    public var phoneRequestsInFlight: Int { phone.requestsInFlight }
    /// See ``HTTPServer/connectionsHeld``.
    public var phoneConnectionsHeld: Int { phone.connectionsHeld }
    public var internalPort: UInt16 { internalServer.port }
    /// The HIS listener's port (`his_listen`); nil when POST /v1/otp is on the internal listener.
    public var hisPort: UInt16? { hisServer?.port }
    /// See ``HTTPServer/peakSuspended``: staff requests waiting on the desk's executors.
    public var internalPeakSuspended: Int { internalServer.peakSuspended }

    /// Stops accepting on both listeners, lets in-flight requests finish (up to the grace), exits.
    public func stop(grace: Duration) {
        watcher?.cancel()
        watcher = nil
        // Queued staff calls (a sign-in flood) are answered 503 instead of run: a stop waits for
        // the calls running now, not for a queue.
        kdfExecutor.beginStopping()
        staffExecutor.beginStopping()
        staffAPI.stopWaiting()
        jobs.stop()
        if let http = smsGateway as? HTTPSmsGateway, http.pending > 0 {
            log("\(http.pending) SMS messages were still being sent: they stay in the outbox as pending or failed")
        }
        let phone = self.phone
        let internalServer = self.internalServer
        let group = DispatchGroup()
        for server in [phone, internalServer] + (hisServer.map { [$0] } ?? []) {
            DispatchQueue.global().async(group: group) { server.stop(grace: grace) }
        }
        group.wait()
        accessLog?.flush()
    }
}
