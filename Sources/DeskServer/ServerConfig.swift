import DeskAPI
import DeskCore
import DeskStore
import DeskText
import Foundation
import JSONText

/// Every problem found in a configuration, reported together.
public struct ConfigError: Error, Sendable {
    public var problems: [String]
    public init(problems: [String]) { self.problems = problems }
    public var message: String { problems.joined(separator: "\n") }
}

/// `host:port` for a listener. Only IPv4 literals: a name would be resolved by the OS, and a
/// listener should bind exactly what the operator wrote.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else { return nil }
        self.host = String(parts[0])
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
    public var isLoopback: Bool { host.hasPrefix("127.") }
}

/// The server's settings: one struct, each setting with its default and why it exists.
/// Loaded from a JSON file (`--config`), then `TRACEDESK_<NAME>` environment variables, then
/// command-line flags; every problem is reported at once. `tracedesk serve --settings` prints
/// this list.
public struct ServerConfig: Hashable, Sendable {
    public var listen = ListenAddress(host: "127.0.0.1", port: 8080)
    public var internalListen = ListenAddress(host: "127.0.0.1", port: 8081)
    public var store: String?
    public var busyTimeoutMs = 5_000
    public var storePoolSize = 16
    public var tlsCert: String?
    public var tlsKey: String?
    public var threads = 4
    public var otpTTLSeconds = 150
    public var checkDelayMeanMs = 150
    public var checkDelaySdMs = 20
    public var dummyErrorPercent = 1
    public var maxBodyBytes = 262_144
    public var connectionTimeoutSeconds = 15
    public var maxConnections = 1_000
    public var maxConnectionsPerAddress = 256
    // Slow and odd clients (issue 18, points 8 and 9), per listener. A request head must be
    // whole within `headDeadlineSeconds` (the idle timeout alone let a client sending a header
    // line every 4 s hold a connection for ever); at most `maxConnectionsReadingHead` connections
    // may be sending their head at once (past it the oldest of the busiest address is closed, so
    // a trickle from a few addresses cannot keep a fresh client out); a head is at most
    // `maxHeadBytes`. A body refused as too large is still read and thrown away for
    // `lingerSeconds` and `lingerBytes` at most, so that a client that writes it whole before
    // reading sees the 413 rather than a reset.
    public var headDeadlineSeconds = 10
    public var maxConnectionsReadingHead = 512
    public var maxHeadBytes = 32_768
    public var lingerSeconds = 5
    public var lingerBytes = 4_194_304
    // Keep-alive (HTTP/1.1's default): phones and proxies reuse connections, and closing after
    // every answer cut a reusing client's throughput to a third. Only a connection's first head
    // passes the gate's byte-level checks; later ones are checked as libmicrohttpd parsed them,
    // which cannot show bare-LF line ends. Off: `Connection: close` after every answer, for a
    // deployment behind a proxy that pools several clients' requests on one connection without
    // normalising their heads (docs/security.md).
    public var httpKeepAlive = true
    public var appSettingsFile: String?
    public var riskTransmissionLevel = 8
    public var riskReportType = "confirmed_test"
    public var riskDaysBeforeSymptoms = 2
    public var maxKeyAgeDays = 14
    public var clockSkewFlagSeconds = 86_400
    public var appleDeviceCheckURL: String?
    public var appleTeamID: String?
    public var appleKeyID: String?
    public var applePrivateKeyFile: String?
    public var appleDeviceCheckWaitSeconds = 7
    public var googleAttestationRootFile: String?
    public var googleApkPackageName = "it.ministerodellasalute.immuni"
    public var googleApkCertificateDigest: String?
    public var accessLog = true
    /// `text` (default): lines a person reads; `json`: one JSON object a line for a log shipper.
    public var logFormat = LogFormat.text.rawValue
    public var shutdownGraceSeconds = 10
    public var signingKeyPath: String?
    public var signingKeyRequired = true
    public var signingKeyID = "222"
    public var signingKeyVersion = "v1"
    public var region = "222"
    public var appBundleID: String? = "it.ministerodellasalute.immuni"
    public var publishIntervalSeconds = 3_600
    public var chunkMaxKeys = 10_000
    public var chunkMinKeys = 0
    public var chunkPaddingJitter = 100
    public var cleanupIntervalSeconds = 86_400
    public var statsRollupIntervalSeconds = 300
    public var retentionDays = 14
    public var analyticsRetentionDays = 30
    // Contact follow-up (issue 21): FollowUpSettings, each with its default.
    public var followUpPeriodDays = FollowUpSettings.standard.periodDays
    public var followUpRetryMinutes = FollowUpSettings.standard.retrySeconds / 60
    public var followUpAttemptsPerDay = FollowUpSettings.standard.attemptsPerDay
    public var followUpLostAfterDays = FollowUpSettings.standard.lostAfterDays
    public var closedCaseRetentionDays = FollowUpSettings.standard.closedRetentionDays
    public var sessionIdleMinutes = 10
    public var sessionHours = 12
    // Sign-in (issue 18): the lock, the admission budgets before the password hash, the first
    // admin's setup token.
    /// NIST SP 800-63B §5.2.2: at most 100 consecutive failures before a lock; the waits per
    /// source make one source take hours to get there.
    public var signInFailuresBeforeLock = 100
    /// The wait after an address's third failed sign-in on an account, then doubled: 2 s, and
    /// only ever longer (a test that must see the wait whatever the machine's speed sets 300).
    public var signInFirstWaitSeconds = 2
    /// Sign-ins one client address may have on the 16-place hashing queue at once: five
    /// flooding addresses hold at most 10 places.
    public var signInPlacesPerAddress = 2
    /// Sign-ins a minute per client address (successes and waits give theirs back), at most
    /// `signInBurstPerAddress` at once: a flood's first seconds must not fill the queue either.
    public var signInPerAddressPerMinute = 10
    public var signInBurstPerAddress = 3
    /// Wrong passwords a minute for one account name, from every address together.
    public var signInPerNamePerMinute = 60
    /// Where `serve` writes the first admin's setup token (mode 0600) while no account exists;
    /// nil: beside an SQLite store, `tracedesk-setup-token` in the working folder for PostgreSQL.
    public var setupTokenFile: String?
    public var numPseudoIDs = 1_000
    public var beaconChangeInterval = 300
    public var beaconDetectInterval = 60
    public var contactTimestampOption = true
    public var contactHistoryMax = 30
    public var closeContactMinutes = 15
    public var defaultCountryCode = "+39"
    public var apricotUploadsPerHour = 60
    public var apricotOTPPerMinute = 600
    public var apricotOTPPerAddressPerHour = 60
    public var apricotCodeSecretFile: String?
    public var smsGateway = "outbox"
    public var smsHTTPURL: String?
    public var smsHTTPAPIKey: String?
    public var smsHTTPMaxAttempts = 5
    // Audit checkpoints (issue 18, point 6): a key the store does not hold signs the chain's
    // count and head hash into a file outside the store, so a store writer cannot rewrite the
    // log unseen. Both paths or neither: without them, no checkpoints (said at start).
    public var auditKeyPath: String?
    public var auditCheckpointPath: String?
    /// A checkpoint after this many new entries (about 1 000 entries leave a small window at
    /// the file's end unanchored and keep the file small: ~330 bytes a line).
    public var auditCheckpointEveryEntries = 1_000
    /// …and, when entries were added, at least this often.
    public var auditCheckpointIntervalSeconds = 3_600

    // Hospital systems (HIS clients, issue 18): who may authorise codes on POST /v1/otp.
    /// `key` (default): a named client's API key; `certificate`: a TLS client certificate that
    /// verifies against `his_ca_file`; `none`: anyone who reaches the listener (test networks).
    public var hisAuth = HISAuthMode.key.rawValue
    /// A listener of the HIS's own for POST /v1/otp (then not served on internal_listen), so the
    /// hospitals reach it through a network that does not reach the staff API.
    public var hisListen: ListenAddress?
    /// Authorisations a minute one client may make on one server, unless the client has its own.
    public var hisRatePerMinute = 60
    /// PEM certificate(s) of the authority that signs HIS client certificates.
    public var hisCAFile: String?

    // Phones guessing and pumping (issue 18, point 10; docs/security.md, docs/decisions.md).
    /// Wrong codes one client address (an IPv6 /64) may send to check-otp and upload in ten
    /// minutes, per server, before it is answered 429; 0: no limit (benchmarks).
    public var otpGuessLimit = OtpGuessPolicy().failures
    /// The numbers APRICOT codes are sent to, `+` and digits each; empty: `default_country_code`.
    public var smsAllowedPrefixes: [String] = []

    /// The guess limit of check-otp and upload.
    public var otpGuessPolicy: OtpGuessPolicy { OtpGuessPolicy(failures: otpGuessLimit) }
    /// Where SMS codes may go: the allowed prefixes, and the +999 test numbers only with the
    /// outbox gateway (nothing is sent, so nothing is paid).
    public var smsDestinations: SmsDestinations {
        SmsDestinations(
            prefixes: smsAllowedPrefixes.isEmpty ? [defaultCountryCode] : smsAllowedPrefixes,
            testNumbers: smsGateway == "outbox")
    }

    public init() {}

    public var hisAuthMode: HISAuthMode { HISAuthMode(rawValue: hisAuth) ?? .key }
    /// `log_format` (checked when read: text or json).
    public var logFormatChoice: LogFormat { LogFormat(rawValue: logFormat) ?? .text }

    /// The APRICOT settings (spec/apricot-protocol.md) the phone API serves and the tracing
    /// desk applies.
    public var apricotSettings: ApricotSettings {
        var settings = ApricotSettings()
        settings.pseudoIDsPerUser = numPseudoIDs
        settings.beaconChangeSeconds = beaconChangeInterval
        settings.beaconDetectSeconds = beaconDetectInterval
        settings.contactTimestamps = contactTimestampOption
        settings.contactHistoryDays = contactHistoryMax
        settings.closeContactMinutes = closeContactMinutes
        settings.defaultCountryCode = defaultCountryCode
        return settings
    }

    /// The contact follow-up rules the staff desk schedules by.
    public var followUpSettings: FollowUpSettings {
        var settings = FollowUpSettings()
        settings.periodDays = followUpPeriodDays
        settings.retrySeconds = followUpRetryMinutes * 60
        settings.attemptsPerDay = followUpAttemptsPerDay
        settings.lostAfterDays = followUpLostAfterDays
        settings.closedRetentionDays = closedCaseRetentionDays
        return settings
    }

    public var riskProfile: RiskProfile {
        RiskProfile(
            transmissionRiskLevel: riskTransmissionLevel,
            reportType: ReportType(name: riskReportType) ?? .confirmedTest,
            daysBeforeSymptoms: riskDaysBeforeSymptoms, maximumKeyAgeDays: maxKeyAgeDays,
            clockSkewFlagSeconds: Int64(clockSkewFlagSeconds))
    }

    public var publishingPolicy: PublishingPolicy {
        PublishingPolicy(
            maxKeysPerChunk: chunkMaxKeys, maximumKeyAgeDays: maxKeyAgeDays, chunkLifetimeDays: min(14, retentionDays),
            minimumKeys: chunkMinKeys, paddingJitter: chunkPaddingJitter)
    }

    /// How long staff sessions last (the staff API's desk).
    public var sessionPolicy: SessionPolicy {
        SessionPolicy(maximumSeconds: sessionHours * 3_600, idleSeconds: sessionIdleMinutes * 60)
    }

    /// When failed sign-ins lock an account.
    public var signInPolicy: SignInPolicy {
        SignInPolicy(failuresBeforeLock: signInFailuresBeforeLock, firstDelaySeconds: signInFirstWaitSeconds)
    }

    /// The budgets that admit sign-ins to the password hash.
    public var signInAdmission: SignInAdmission {
        SignInAdmission(
            placesPerAddress: signInPlacesPerAddress, perAddressPerMinute: signInPerAddressPerMinute,
            perNamePerMinute: signInPerNamePerMinute, addressBurst: signInBurstPerAddress)
    }

    public var retentionPolicy: RetentionPolicy {
        RetentionPolicy(
            days: retentionDays, analyticsDays: analyticsRetentionDays, contactHistoryDays: contactHistoryMax,
            closedCaseDays: closedCaseRetentionDays)
    }

    /// One setting: its file key, what it is for, and how to apply a value.
    public struct Setting: Sendable {
        public let name: String
        public let help: String
        let apply: @Sendable (inout ServerConfig, Raw) -> String?
        let show: @Sendable (ServerConfig) -> String

        /// The environment variable that overrides it.
        public var environmentName: String { "TRACEDESK_" + name.uppercased() }
        public func value(in config: ServerConfig) -> String { show(config) }
    }

    enum Raw {
        case json(JSONValue)
        case text(String)
    }

    public static let settings: [Setting] = [
        address("listen", \.listen, "public listener (phones): IPv4 address and port"),
        address(
            "internal_listen", \.internalListen,
            "internal listener (POST /v1/otp, the staff API for consoles, /metrics): keep it private"),
        Setting(
            name: "store",
            help:
                "SQLite store file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL (default: the console's store)",
            apply: path("store", \.store, "").apply,
            show: { $0.store.map(PostgresStore.redacted) ?? tr("messages.settings.unset") }),
        integer(
            "busy_timeout_ms", \.busyTimeoutMs, 100...600_000,
            "how long to wait for another process's write lock on the store, or for a free database connection (then 503)"
        ),
        integer(
            "store_pool_size", \.storePoolSize, 1...500,
            "PostgreSQL: connections this server keeps open at most (keep N servers x this under max_connections)"),
        path("tls_cert", \.tlsCert, "PEM certificate (chain) for HTTPS on both listeners; needs tls_key"),
        path("tls_key", \.tlsKey, "PEM private key for HTTPS"),
        integer("threads", \.threads, 1...256, "server threads per listener"),
        integer("otp_ttl_seconds", \.otpTTLSeconds, 10...3600, "how long an authorised code may be used"),
        integer(
            "check_delay_mean_ms", \.checkDelayMeanMs, 0...10_000,
            "mean of the random delay on check-otp and dummy requests"),
        integer("check_delay_sd_ms", \.checkDelaySdMs, 0...10_000, "standard deviation of that delay"),
        integer(
            "dummy_error_percent", \.dummyErrorPercent, 0...100,
            "share of dummy check-otp answered 401, like real failures"),
        integer(
            "max_body_bytes", \.maxBodyBytes, 1_024...16_777_216,
            "largest request body; more is refused with 413 unread"),
        integer(
            "connection_timeout_seconds", \.connectionTimeoutSeconds, 1...600,
            "idle time after which a connection is closed"),
        integer("max_connections", \.maxConnections, 16...100_000, "simultaneous connections per listener"),
        integer(
            "max_connections_per_address", \.maxConnectionsPerAddress, 0...100_000,
            "simultaneous connections from one IP address (0: no limit; behind a proxy, 0 or above max_connections)"),
        integer(
            "head_deadline_seconds", \.headDeadlineSeconds, 1...600,
            "a request head must be whole within this time, however steadily it trickles in (then the connection is closed)"
        ),
        integer(
            "max_connections_reading_head", \.maxConnectionsReadingHead, 16...100_000,
            "connections still sending their request head at once (past it the oldest of the busiest address is closed)"
        ),
        integer(
            "max_head_bytes", \.maxHeadBytes, 1_024...65_536,
            "largest request head (request line and headers); more is refused with 400"),
        integer(
            "linger_seconds", \.lingerSeconds, 0...60,
            "after a 413, how long the rest of the body is read and thrown away so the client sees the answer"),
        integer(
            "linger_bytes", \.lingerBytes, 0...67_108_864,
            "after a 413, how much more of the body is read and thrown away (a larger one: closed at once)"),
        boolean(
            "http_keep_alive", \.httpKeepAlive,
            "keep connections open between requests (false: close after every answer, behind a proxy that pools clients)"
        ),
        path(
            "app_settings_file", \.appSettingsFile,
            "the settings the apps download (default: config/app-settings.json shipped with tracedesk)"),
        integer("risk_transmission_level", \.riskTransmissionLevel, 0...8, "transmission risk level of published keys"),
        text(
            "risk_report_type", \.riskReportType,
            [ReportType.confirmedTest, .confirmedClinicalDiagnosis, .selfReport].map(\.name),
            "report type of published keys (revoked and recursive are not allowed in a chunk's keys)"),
        integer(
            "risk_days_before_symptoms", \.riskDaysBeforeSymptoms, 0...14,
            "keys from before symptoms minus this many days are not published"),
        integer("max_key_age_days", \.maxKeyAgeDays, 1...30, "keys that ended longer ago are dropped"),
        integer(
            "clock_skew_flag_seconds", \.clockSkewFlagSeconds, 60...31_536_000,
            "phone clock skew beyond this is flagged to staff"),
        path(
            "apple_device_check_url", \.appleDeviceCheckURL,
            "Apple DeviceCheck base URL (https://api.devicecheck.apple.com); unset: iOS analytics tokens are refused"),
        path("apple_team_id", \.appleTeamID, "Apple developer team id for DeviceCheck"),
        path("apple_key_id", \.appleKeyID, "DeviceCheck key id"),
        path("apple_private_key_file", \.applePrivateKeyFile, "DeviceCheck P-256 private key (PEM)"),
        integer(
            "apple_device_check_wait_seconds", \.appleDeviceCheckWaitSeconds, 0...60,
            "pause between DeviceCheck steps (Immuni: 7 to 10 s)"),
        path(
            "google_attestation_root_file", \.googleAttestationRootFile,
            "PEM root certificate(s) for SafetyNet attestations; unset: Android analytics are discarded"),
        path(
            "google_apk_package_name", \.googleApkPackageName, "expected apkPackageName in attestations", required: true
        ),
        path(
            "google_apk_certificate_digest", \.googleApkCertificateDigest,
            "expected apkCertificateDigestSha256 (base64) in attestations"),
        boolean("access_log", \.accessLog, "one line per request on stderr (method, route, status, duration)"),
        text(
            "log_format", \.logFormat, LogFormat.allCases.map(\.rawValue),
            "the log on stderr: text lines, or one JSON object a line (time, level, event, message, route, status, duration_ms, incident) for a log shipper"
        ),
        integer(
            "shutdown_grace_seconds", \.shutdownGraceSeconds, 0...300,
            "on SIGINT/SIGTERM, how long in-flight requests may take"),
        path(
            "signing_key_path", \.signingKeyPath,
            "P-256 private key (PEM) that signs TEK chunks (make one with: tracedesk keys generate --out FILE)"),
        boolean(
            "signing_key_required", \.signingKeyRequired,
            "refuse to start without signing_key_path; false: run, but publish nothing and say so"),
        identifier("signing_key_id", \.signingKeyID, "verification_key_id of the chunks (the country's MCC)"),
        identifier("signing_key_version", \.signingKeyVersion, "verification_key_version of the chunks"),
        identifier("region", \.region, "region written in every chunk"),
        path(
            "app_bundle_id", \.appBundleID,
            "app bundle id in the chunks' signature info (deprecated field Immuni wrote; empty: left out)"),
        integer(
            "publish_interval_seconds", \.publishIntervalSeconds, 60...86_400,
            "how often the server publishes keys past their embargo as a chunk"),
        integer(
            "chunk_max_keys", \.chunkMaxKeys, 100...400_000,
            "most keys in one chunk; more make several chunks (400 000 keep export.bin under 16 MiB)"),
        integer(
            "chunk_min_keys", \.chunkMinKeys, 0...100_000,
            "pad chunks with random keys up to this many (plus jitter) so small ones do not single out uploaders; 0: off"
        ),
        integer("chunk_padding_jitter", \.chunkPaddingJitter, 0...10_000, "random extra padding keys, 0 to this"),
        integer(
            "cleanup_interval_seconds", \.cleanupIntervalSeconds, 3_600...604_800,
            "how often the server deletes what the retention rules no longer allow to keep"),
        integer(
            "stats_rollup_interval_seconds", \.statsRollupIntervalSeconds, 60...3_600,
            "how often the server rolls up the statistics of the hours that closed (the dashboard reads them)"),
        integer(
            "retention_days", \.retentionDays, 10...30,
            "uploads, keys, chunks, codes and their events are kept this many days"),
        integer(
            "analytics_retention_days", \.analyticsRetentionDays, 14...365,
            "operational info (analytics) is kept this many days"),
        integer(
            "follow_up_period_days", \.followUpPeriodDays, 1...60,
            "a contact is followed this many days after their last exposure (the daily checks' period)"),
        integer(
            "follow_up_retry_minutes", \.followUpRetryMinutes, 5...1_440,
            "after no answer or voicemail, the next call to a contact is due this many minutes later"),
        integer(
            "follow_up_attempts_per_day", \.followUpAttemptsPerDay, 1...24,
            "at most this many calls to one contact are scheduled on a day; the next is due the next day"),
        integer(
            "follow_up_lost_after_days", \.followUpLostAfterDays, 1...30,
            "a contact never reached this many days after their follow-up began is lost to follow-up"),
        integer(
            "closed_case_retention_days", \.closedCaseRetentionDays, 1...3_650,
            "closed cases, their history and the follow-ups that name no other case are deleted this many days after the case closed"
        ),
        integer(
            "session_idle_minutes", \.sessionIdleMinutes, 1...240,
            "a staff session with no request for this long ends (a console left unattended locks)"),
        integer(
            "session_hours", \.sessionHours, 1...24,
            "a staff session ends this long after sign-in whatever happens (one shift)"),
        integer(
            "sign_in_failures_before_lock", \.signInFailuresBeforeLock, 3...100,
            "consecutive failed sign-ins from every source together that lock a staff account until an admin resets its password (NIST SP 800-63B: at most 100); waits grow after a source's third failure, for that source only"
        ),
        integer(
            "sign_in_first_wait_seconds", \.signInFirstWaitSeconds, 2...300,
            "seconds an address waits after its third failed sign-in on an account before its next try is taken, doubled for each further failure up to 300; 2 by default, and never shorter (a longer one only slows an attacker more)"
        ),
        integer(
            "sign_in_places_per_address", \.signInPlacesPerAddress, 0...16,
            "sign-ins one client address (an IPv6 /64) may have waiting for the password hash at once, of 16 places (more: 429 with Retry-After; 0: no limit)"
        ),
        integer(
            "sign_in_per_address_per_minute", \.signInPerAddressPerMinute, 0...100_000,
            "sign-ins a minute from one client address, per server (more: 429 with Retry-After; successes and waits cost nothing; 0: no limit). Staff behind one NAT or a proxy share an address"
        ),
        integer(
            "sign_in_burst_per_address", \.signInBurstPerAddress, 1...100_000,
            "of those, how many one client address may make at once before the rate applies (a flood's first seconds must not fill the hashing queue)"
        ),
        integer(
            "sign_in_per_name_per_minute", \.signInPerNamePerMinute, 0...100_000,
            "wrong passwords a minute for one account name from every address, per server (more: 429 with Retry-After for that name; 0: no limit)"
        ),
        path(
            "setup_token_file", \.setupTokenFile,
            "where serve writes the first admin's one-time setup token (mode 0600) while no account exists (default: STORE.setup-token beside an SQLite store, ./tracedesk-setup-token for PostgreSQL)"
        ),
        integer(
            "num_pseudo_ids", \.numPseudoIDs, 1...10_000,
            "APRICOT NUM_PSEUDO_IDS: pseudo-ids made per registered user (the design's 1000: one per 5-minute beacon for about 3.5 days; 2^32 in all limit users to 2^32 / this)"
        ),
        integer(
            "beacon_change_interval", \.beaconChangeInterval, 10...86_400,
            "APRICOT BEACON_CHANGE_INTERVAL, seconds: how often apps change the beacon they broadcast (served to apps)"),
        integer(
            "beacon_detect_interval", \.beaconDetectInterval, 1...3_600,
            "APRICOT BEACON_DETECT_INTERVAL, seconds: how often apps scan; one record counts as this much proximity"),
        boolean(
            "contact_timestamp_option", \.contactTimestampOption,
            "APRICOT CONTACT_TIMESTAMP_OPTION: whether apps put a time in each record (served to apps; the server takes both)"
        ),
        integer(
            "contact_history_max", \.contactHistoryMax, 1...90,
            "APRICOT CONTACT_HISTORY_MAX, days: contact files for older days are refused, and deleted once older"),
        integer(
            "close_contact_minutes", \.closeContactMinutes, 1...1_440,
            "APRICOT close-contact rule: at least this many minutes of proximity on one day (ECDC's 15)"),
        Setting(
            name: "default_country_code",
            help:
                "added to phone numbers staff type without a country code (+ and 1 to 3 digits, e.g. +39)",
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)), .text(let s):
                    let digits = s.dropFirst()
                    guard s.hasPrefix("+"), (1...3).contains(digits.count), digits.first != "0",
                        digits.allSatisfy({ ("0"..."9").contains($0) })
                    else { return tr("config.countryCode") }
                    config.defaultCountryCode = s
                    return nil
                default: return tr("config.countryCodeString")
                }
            }, show: { $0.defaultCountryCode }),
        integer(
            "apricot_uploads_per_hour", \.apricotUploadsPerHour, 1...3_600,
            "contact-file uploads one sign-in may make in an hour, per server (more: 429 with Retry-After)"),
        integer(
            "apricot_otp_per_minute", \.apricotOTPPerMinute, 0...100_000,
            "APRICOT codes (SMS) this server sends a minute, all phones together (more: 429 with Retry-After; 0: no limit): bounds the SMS bill of a flood"
        ),
        integer(
            "apricot_otp_per_address_per_hour", \.apricotOTPPerAddressPerHour, 0...100_000,
            "APRICOT codes one client address (an IPv6 /64) may ask for in an hour, per server (more: 429 with Retry-After; 0: no limit). Phones behind one carrier NAT share an address; behind a reverse proxy every phone has the proxy's address: raise it or set 0 there"
        ),
        path(
            "apricot_code_secret_file", \.apricotCodeSecretFile,
            "file with the secret (at least 32 bytes) that keys the HMAC of APRICOT SMS codes; unset: beside an SQLite store, made on first start; required with PostgreSQL (one secret for every server)"
        ),
        text(
            "sms_gateway", \.smsGateway, ["outbox", "http"],
            "where APRICOT SMS codes go: outbox keeps them for admins (tracedesk sms outbox), nothing is sent; http posts them to sms_http_url"
        ),
        path(
            "sms_http_url", \.smsHTTPURL,
            "the SMS provider's endpoint for sms_gateway http: POST {\"to\",\"text\"} as JSON"),
        Setting(
            name: "sms_http_api_key",
            help: "the SMS provider's API key, sent as Authorization: Bearer KEY (shown redacted)",
            apply: path("sms_http_api_key", \.smsHTTPAPIKey, "").apply,
            show: { $0.smsHTTPAPIKey == nil ? tr("messages.settings.unset") : tr("messages.settings.redacted") }),
        integer(
            "sms_http_max_attempts", \.smsHTTPMaxAttempts, 1...10,
            "attempts per SMS on 5xx, 429 or connection failures, 2 s apart and doubling, before it is marked failed"),
        path(
            "audit_key_path", \.auditKeyPath,
            "P-256 private key (PEM) that signs audit checkpoints; keep it off the store's machine if you can (make one with: tracedesk keys generate --audit --out FILE); needs audit_checkpoint_path"
        ),
        path(
            "audit_checkpoint_path", \.auditCheckpointPath,
            "file outside the store the server appends signed audit checkpoints to (one JSON line each, mode 0600); unset: no checkpoints"
        ),
        integer(
            "audit_checkpoint_every_entries", \.auditCheckpointEveryEntries, 1...1_000_000,
            "a checkpoint after this many new audit entries"),
        integer(
            "audit_checkpoint_interval_seconds", \.auditCheckpointIntervalSeconds, 10...86_400,
            "and at least this often while entries are added"),

        text(
            "his_auth", \.hisAuth, HISAuthMode.allCases.map(\.rawValue),
            "how POST /v1/otp knows the hospital system: key (Authorization: Bearer KEY of a client made with tracedesk his add), certificate (a TLS client certificate verified against his_ca_file, its subject CN naming the client), none (anyone who reaches the listener: closed test networks only; warned at every start)"
        ),
        Setting(
            name: "his_listen",
            help:
                "a listener of its own for POST /v1/otp (IPv4 address and port), so hospitals reach it through a separate network; then internal_listen no longer serves it (default: unset, served on internal_listen)",
            apply: { config, raw in
                switch raw {
                case .json(.null): config.hisListen = nil
                case .json(.string(let s)), .text(let s):
                    if s.isEmpty {
                        config.hisListen = nil
                        return nil
                    }
                    guard let address = ListenAddress(s) else {
                        return tr("config.hisListen")
                    }
                    config.hisListen = address
                default: return tr("config.hisListenString")
                }
                return nil
            }, show: { $0.hisListen?.description ?? tr("messages.settings.unset") }),
        integer(
            "his_rate_per_minute", \.hisRatePerMinute, HISRate.allowed,
            "authorisations a minute one HIS client may make on this server, unless the client has its own (tracedesk his add --rate); more: 429 with Retry-After. Bounds what a stolen key can do before it is revoked"
        ),
        path(
            "his_ca_file", \.hisCAFile,
            "PEM certificate(s) of the authority that signs HIS client certificates (his_auth certificate; needs tls_cert and tls_key)"
        ),

        // Phones guessing and pumping (issue 18, point 10).
        integer(
            "otp_guess_limit", \.otpGuessLimit, 0...100_000,
            "wrong codes one client address (an IPv6 /64) may send to check-otp and upload in ten minutes, per server, before it gets 429 with Retry-After (dummy requests never count; 0: no limit). Phones behind one carrier NAT share it: see docs/decisions.md"
        ),
        Setting(
            name: "sms_allowed_prefixes",
            help:
                "the numbers APRICOT codes are sent to: + and digits, comma-separated (e.g. \"+39 3, +378\"); empty: default_country_code. Others get 422: premium, satellite and foreign numbers cost an SMS each. +999 test numbers only with sms_gateway outbox",
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)), .text(let s):
                    if s.trimmingCharacters(in: .whitespaces).isEmpty {
                        config.smsAllowedPrefixes = []
                        return nil
                    }
                    switch SmsDestinations.parse(s) {
                    case .success(let prefixes):
                        config.smsAllowedPrefixes = prefixes
                        return nil
                    case .failure(let problem):
                        return
                            tr("config.prefix", ["part": problem.part])
                    }
                default: return tr("config.prefixesString")
                }
            },
            show: {
                $0.smsAllowedPrefixes.isEmpty ? "(default_country_code)" : $0.smsAllowedPrefixes.joined(separator: ",")
            }
        ),
    ]

    /// The settings the tracing desk applies (country code, close-contact rule, detect
    /// interval, history), from their `TRACEDESK_<NAME>` environment variables only: what a
    /// console or a CLI command on the embedded store uses, so it looks up and counts exactly as
    /// a server given the same variables does. Other settings are not read here.
    public static func apricotSettings(environment: [String: String]) -> Result<ApricotSettings, ConfigError> {
        var config = ServerConfig()
        var problems: [String] = []
        for setting in settings where apricotSettingNames.contains(setting.name) {
            guard let value = environment[setting.environmentName] else { continue }
            if let problem = setting.apply(&config, .text(value)) {
                problems.append("\(setting.environmentName) \(problem)")
            }
        }
        return problems.isEmpty ? .success(config.apricotSettings) : .failure(ConfigError(problems: problems))
    }

    /// The contact follow-up settings from their `TRACEDESK_<NAME>` environment variables only,
    /// as ``apricotSettings(environment:)``: a console or CLI command on the embedded store
    /// schedules exactly as a server given the same variables.
    public static func followUpSettings(environment: [String: String]) -> Result<FollowUpSettings, ConfigError> {
        var config = ServerConfig()
        var problems: [String] = []
        for setting in settings where followUpSettingNames.contains(setting.name) {
            guard let value = environment[setting.environmentName] else { continue }
            if let problem = setting.apply(&config, .text(value)) {
                problems.append("\(setting.environmentName) \(problem)")
            }
        }
        return problems.isEmpty ? .success(config.followUpSettings) : .failure(ConfigError(problems: problems))
    }

    static let followUpSettingNames: Set<String> = [
        "follow_up_period_days", "follow_up_retry_minutes", "follow_up_attempts_per_day", "follow_up_lost_after_days",
        "closed_case_retention_days",
    ]

    static let apricotSettingNames: Set<String> = [
        "num_pseudo_ids", "beacon_change_interval", "beacon_detect_interval", "contact_timestamp_option",
        "contact_history_max", "close_contact_minutes", "default_country_code",
    ]

    /// Loads `file` (if any), then the environment, and checks the rules between settings.
    /// Problems from all three are reported together.
    public static func load(file: String?, environment: [String: String]) -> Result<ServerConfig, ConfigError> {
        var (config, problems) = read(file: file, environment: environment)
        problems += config.crossCheck()
        return problems.isEmpty ? .success(config) : .failure(ConfigError(problems: problems))
    }

    /// The settings from `file` and the environment, with every problem found so far, before the
    /// rules between settings are checked (command-line options may still change them).
    public static func read(file: String?, environment: [String: String]) -> (ServerConfig, [String]) {
        var config = ServerConfig()
        var problems: [String] = []
        let byName = Dictionary(uniqueKeysWithValues: settings.map { ($0.name, $0) })
        if let file {
            if let data = FileManager.default.contents(atPath: file) {
                do throws(JSONSyntaxError) {
                    let document = try JSONReader.parse(utf8: Array(data))
                    guard case .object(let members) = document else {
                        throw JSONSyntaxError(offset: 0, reason: "the file must hold one JSON object")
                    }
                    for member in members where !member.key.hasPrefix("_") {
                        guard let setting = byName[member.key] else {
                            problems.append(
                                tr(
                                    "config.unknownSetting",
                                    ["file": file, "name": member.key, "suggestion": suggestion(member.key)]))
                            continue
                        }
                        if let problem = setting.apply(&config, .json(member.value)) {
                            problems.append("\(file): \(member.key) \(problem)")
                        }
                    }
                } catch {
                    problems.append(
                        tr("config.notJSON", ["file": file, "offset": String(error.offset), "reason": error.reason]))
                }
            } else {
                problems.append(tr("config.unreadable", ["file": file]))
            }
        }
        for setting in settings {
            guard let value = environment[setting.environmentName] else { continue }
            if let problem = setting.apply(&config, .text(value)) {
                problems.append("\(setting.environmentName) \(problem)")
            }
        }
        return (config, problems)
    }

    /// Rules between settings.
    public func crossCheck() -> [String] {
        var problems: [String] = []
        if (tlsCert == nil) != (tlsKey == nil) { problems.append(tr("config.tlsTogether")) }
        if (auditKeyPath == nil) != (auditCheckpointPath == nil) {
            problems.append(
                tr("config.auditTogether")
            )
        }
        if listen == internalListen, listen.port != 0 {
            problems.append(tr("config.listenDiffer", ["listen": listen.description]))
        }
        let apple = [appleDeviceCheckURL, appleTeamID, appleKeyID, applePrivateKeyFile]
        if apple.contains(where: { $0 != nil }) && apple.contains(where: { $0 == nil }) {
            problems.append(
                tr("config.appleTogether"))
        }
        if googleAttestationRootFile != nil && googleApkCertificateDigest == nil {
            problems.append(tr("config.googleDigest"))
        }
        if sessionIdleMinutes > sessionHours * 60 {
            problems.append(
                tr("config.idleExceeds", ["idle": String(sessionIdleMinutes), "hours": String(sessionHours)])
            )
        }
        if smsGateway == "http" {
            let url = smsHTTPURL.flatMap { URL(string: $0) }
            if smsHTTPURL == nil {
                problems.append(tr("config.smsURLNeeded"))
            } else if url?.host == nil || !["http", "https"].contains(url?.scheme?.lowercased() ?? "") {
                problems.append(tr("config.smsURL"))
            } else if url?.scheme?.lowercased() != "https", !Self.isLoopback(host: url?.host ?? "") {
                problems.append(
                    tr("config.smsHTTPS")
                )
            }
            if smsHTTPAPIKey == nil { problems.append(tr("config.smsKey")) }
        }
        if let hisListen, hisListen.port != 0, hisListen == listen || hisListen == internalListen {
            problems.append(tr("config.hisDiffer", ["listen": hisListen.description]))
        }
        if hisAuthMode == .certificate {
            if hisCAFile == nil {
                problems.append(
                    tr("config.hisCA")
                )
            }
            if tlsCert == nil || tlsKey == nil {
                problems.append(
                    tr("config.hisTLS"))
            }
        }
        if chunkMinKeys > 0 && chunkMinKeys + chunkPaddingJitter > chunkMaxKeys {
            problems.append(
                tr(
                    "config.chunkFit",
                    ["min": String(chunkMinKeys), "jitter": String(chunkPaddingJitter), "max": String(chunkMaxKeys)])
            )
        }
        return problems
    }

    /// Whether a URL's host is this machine's loopback (127.0.0.1, ::1, localhost): the only
    /// hosts `sms_http_url` may reach over plain http (a provider stand-in, a local relay).
    static func isLoopback(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "127.0.0.1" || bare == "::1" || bare == "localhost"
    }

    static func suggestion(_ key: String) -> String {
        let near = settings.map(\.name).min { distance($0, key) < distance($1, key) }
        guard let near, distance(near, key) <= 3 else { return "" }
        return tr("config.suggestion", ["near": near])
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }

    // MARK: Setting kinds

    static func integer(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, Int> & Sendable, _ range: ClosedRange<Int>,
        _ help: String
    ) -> Setting {
        Setting(
            name: name, help: "\(help) [\(range.lowerBound)…\(range.upperBound)]",
            apply: { config, raw in
                let text: String?
                switch raw {
                case .json(.number(let n)): text = n
                case .json: text = nil
                case .text(let t): text = t
                }
                guard let text, let n = Fields.parseInteger(text), n >= range.lowerBound, n <= range.upperBound else {
                    return tr("config.wholeNumber", ["min": String(range.lowerBound), "max": String(range.upperBound)])
                }
                config[keyPath: keyPath] = Int(n)
                return nil
            }, show: { String($0[keyPath: keyPath]) })
    }

    static func boolean(_ name: String, _ keyPath: WritableKeyPath<ServerConfig, Bool> & Sendable, _ help: String)
        -> Setting
    {
        Setting(
            name: name, help: help,
            apply: { config, raw in
                switch raw {
                case .json(.bool(let b)): config[keyPath: keyPath] = b
                case .text("true"), .text("1"), .text("yes"): config[keyPath: keyPath] = true
                case .text("false"), .text("0"), .text("no"): config[keyPath: keyPath] = false
                default: return tr("config.boolean")
                }
                return nil
            }, show: { String($0[keyPath: keyPath]) })
    }

    static func path(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, String?> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            name: name, help: help,
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)), .text(let s): config[keyPath: keyPath] = s.isEmpty ? nil : s
                case .json(.null): config[keyPath: keyPath] = nil
                default: return tr("config.string")
                }
                return nil
            }, show: { $0[keyPath: keyPath] ?? tr("messages.settings.unset") })
    }

    static func path(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, String> & Sendable, _ help: String, required: Bool
    ) -> Setting {
        Setting(
            name: name, help: help,
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)) where !s.isEmpty, .text(let s) where !s.isEmpty: config[keyPath: keyPath] = s
                default: return tr("config.nonEmpty")
                }
                return nil
            }, show: { $0[keyPath: keyPath] })
    }

    static func text(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, String> & Sendable, _ choices: [String], _ help: String
    ) -> Setting {
        Setting(
            name: name, help: "\(help) [\(choices.joined(separator: ", "))]",
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)) where choices.contains(s), .text(let s) where choices.contains(s):
                    config[keyPath: keyPath] = s
                default: return tr("config.oneOf", ["choices": choices.joined(separator: ", ")])
                }
                return nil
            }, show: { $0[keyPath: keyPath] })
    }

    static func identifier(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, String> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            name: name, help: "\(help) [letters, digits, _ and .; at most 64]",
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)), .text(let s):
                    guard (1...64).contains(s.utf8.count),
                        s.utf8.allSatisfy({
                            $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
                        })
                    else { return tr("config.name") }
                    config[keyPath: keyPath] = s
                    return nil
                default: return tr("config.nameString")
                }
            }, show: { $0[keyPath: keyPath] })
    }

    static func address(
        _ name: String, _ keyPath: WritableKeyPath<ServerConfig, ListenAddress> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            name: name, help: help,
            apply: { config, raw in
                switch raw {
                case .json(.string(let s)), .text(let s):
                    guard let address = ListenAddress(s) else {
                        return tr("config.listen")
                    }
                    config[keyPath: keyPath] = address
                    return nil
                default: return tr("config.listenString")
                }
            }, show: { $0[keyPath: keyPath].description })
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}

/// A file's modification time and size, to notice edits.
struct FileStamp: Hashable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int

    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, size: Int(info.st_size))
    }

    static func read(_ path: String) -> ([UInt8], FileStamp)? {
        guard let stamp = of(path), let data = FileManager.default.contents(atPath: path) else { return nil }
        return (Array(data), stamp)
    }
}
