extension English {
    /// What the operating commands print for people (keys `cli.out.<command>.<message>`): the
    /// lines, table headings, refusals and prompts of chunks, cleanup, serve, demo and simulate.
    /// Not their --json, the server's log lines or wire text, which stay as they are. The English
    /// is byte for byte what these commands printed before the catalogue (tests and the e2e
    /// scripts read it).
    static let cliOutput: [(String, String)] = chunksOutput + serveOutput + settingsHelp + demoOutput + simulateOutput
}

extension English {
    static let chunksOutput: [(String, String)] = [
        ("cli.out.chunks.list.column.index", "index"),
        ("cli.out.chunks.list.column.published", "published"),
        ("cli.out.chunks.list.column.window", "window (UTC)"),
        ("cli.out.chunks.list.column.keys", "keys"),
        ("cli.out.chunks.list.column.padding", "padding"),
        ("cli.out.chunks.list.column.bytes", "bytes"),
        ("cli.out.chunks.window", "{from} to {to}"),
        ("cli.out.chunks.list.notOffered", "(no longer offered)"),
        ("cli.out.chunks.show.noneYet", "no chunks published yet"),
        ("cli.out.chunks.show.beyondNewest", "there is no chunk {index}: the newest is {last}"),
        (
            "cli.out.chunks.show.notKept",
            "chunk {index} is no longer kept (retention deletes chunks after {days} days)"
        ),
        ("cli.out.chunks.show.chunk.one", "chunk {index}, published {time}, {keys} key"),
        ("cli.out.chunks.show.chunk.other", "chunk {index}, published {time}, {keys} keys"),
        ("cli.out.chunks.show.padding", " + {count} padding"),
        ("cli.out.chunks.show.bytes", ", {count} bytes"),
        ("cli.out.chunks.show.file", "file {file}, {count} bytes"),
        ("cli.out.chunks.show.cannotRead", "cannot read {file}"),
        ("cli.out.chunks.show.neither", "'{value}' is neither a chunk index (1, 2, …) nor a file"),
        ("cli.out.chunks.show.label.window", "window"),
        ("cli.out.chunks.show.label.region", "region"),
        ("cli.out.chunks.show.label.batch", "batch"),
        ("cli.out.chunks.show.label.signedBy", "signed by"),
        ("cli.out.chunks.show.label.keys", "keys"),
        ("cli.out.chunks.show.label.signature", "signature"),
        ("cli.out.chunks.show.batch", "{number} of {size}"),
        ("cli.out.chunks.show.signedBy", "key id {id}, version {version}, algorithm {algorithm}"),
        ("cli.out.chunks.show.app", ", app {app}"),
        ("cli.out.chunks.show.revised", ", revised {count}"),
        ("cli.out.chunks.show.day.one", "  {day}: {count} key (risk {risks}, days since onset {onsets})"),
        ("cli.out.chunks.show.day.other", "  {day}: {count} keys (risk {risks}, days since onset {onsets})"),
        ("cli.out.chunks.show.column.key", "key (base64)"),
        ("cli.out.chunks.show.column.start", "start interval (UTC day)"),
        ("cli.out.chunks.show.column.period", "period"),
        ("cli.out.chunks.show.column.risk", "risk"),
        ("cli.out.chunks.show.column.report", "report"),
        ("cli.out.chunks.show.column.onset", "onset"),
        ("cli.out.chunks.show.unchecked.one", "{count} present, not checked (give --public-key FILE)"),
        ("cli.out.chunks.show.unchecked.other", "{count} present, not checked (give --public-key FILE)"),
        ("cli.out.chunks.show.verified", "verified with {source}"),
        ("cli.out.chunks.show.notVerified", "DOES NOT VERIFY with {source}"),
        ("cli.out.chunks.show.signingKey", "the signing key {file}"),
        ("cli.out.chunks.show.cannotReadKey", "cannot read the public key {file}"),
        ("cli.out.chunks.show.notPublicKey", "{file} is not a P-256 public key: {problem}"),
        (
            "cli.out.cleanup.done",
            "{summary} (kept: {days} days, analytics {analytics} days, contact files {contacts} days)"
        ),
    ]

    static let serveOutput: [(String, String)] = [
        ("cli.out.serve.settings.title", "Settings (file key, environment variable, current value, meaning):"),
        ("cli.out.serve.settingsProblems", "the settings have problems:"),
    ]

    /// What each setting is for, as `serve --settings` shows it: the server's own words
    /// (ServerConfig.settings, its ranges and allowed values included), which English prints as they
    /// are; cli-italian.sh checks that every one has its Italian and that the ranges agree.
    static let settingsHelp: [(String, String)] = [
        ("cli.out.serve.setting.listen", "public listener (phones): IPv4 address and port"),
        (
            "cli.out.serve.setting.internal_listen",
            "internal listener (POST /v1/otp, the staff API for consoles, /metrics): keep it private"
        ),
        (
            "cli.out.serve.setting.store",
            "SQLite store file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL (default: the console's store)"
        ),
        (
            "cli.out.serve.setting.busy_timeout_ms",
            "how long to wait for another process's write lock on the store, or for a free database connection (then 503) [100…600000]"
        ),
        (
            "cli.out.serve.setting.store_pool_size",
            "PostgreSQL: connections this server keeps open at most (keep N servers x this under max_connections) [1…500]"
        ),
        ("cli.out.serve.setting.tls_cert", "PEM certificate (chain) for HTTPS on both listeners; needs tls_key"),
        ("cli.out.serve.setting.tls_key", "PEM private key for HTTPS"),
        ("cli.out.serve.setting.threads", "server threads per listener [1…256]"),
        ("cli.out.serve.setting.otp_ttl_seconds", "how long an authorised code may be used [10…3600]"),
        (
            "cli.out.serve.setting.check_delay_mean_ms",
            "mean of the random delay on check-otp and dummy requests [0…10000]"
        ),
        ("cli.out.serve.setting.check_delay_sd_ms", "standard deviation of that delay [0…10000]"),
        (
            "cli.out.serve.setting.dummy_error_percent",
            "share of dummy check-otp answered 401, like real failures [0…100]"
        ),
        (
            "cli.out.serve.setting.max_body_bytes",
            "largest request body; more is refused with 413 unread [1024…16777216]"
        ),
        ("cli.out.serve.setting.connection_timeout_seconds", "idle time after which a connection is closed [1…600]"),
        ("cli.out.serve.setting.max_connections", "simultaneous connections per listener [16…100000]"),
        (
            "cli.out.serve.setting.max_connections_per_address",
            "simultaneous connections from one IP address (0: no limit; behind a proxy, 0 or above max_connections) [0…100000]"
        ),
        (
            "cli.out.serve.setting.head_deadline_seconds",
            "a request head must be whole within this time, however steadily it trickles in (then the connection is closed) [1…600]"
        ),
        (
            "cli.out.serve.setting.max_connections_reading_head",
            "connections still sending their request head at once (past it the oldest of the busiest address is closed) [16…100000]"
        ),
        (
            "cli.out.serve.setting.max_head_bytes",
            "largest request head (request line and headers); more is refused with 400 [1024…65536]"
        ),
        (
            "cli.out.serve.setting.linger_seconds",
            "after a 413, how long the rest of the body is read and thrown away so the client sees the answer [0…60]"
        ),
        (
            "cli.out.serve.setting.linger_bytes",
            "after a 413, how much more of the body is read and thrown away (a larger one: closed at once) [0…67108864]"
        ),
        (
            "cli.out.serve.setting.http_keep_alive",
            "keep connections open between requests (false: close after every answer, behind a proxy that pools clients)"
        ),
        (
            "cli.out.serve.setting.app_settings_file",
            "the settings the apps download (default: config/app-settings.json shipped with tracedesk)"
        ),
        ("cli.out.serve.setting.risk_transmission_level", "transmission risk level of published keys [0…8]"),
        (
            "cli.out.serve.setting.risk_report_type",
            "report type of published keys (revoked and recursive are not allowed in a chunk's keys) [confirmed_test, confirmed_clinical_diagnosis, self_report]"
        ),
        (
            "cli.out.serve.setting.risk_days_before_symptoms",
            "keys from before symptoms minus this many days are not published [0…14]"
        ),
        ("cli.out.serve.setting.max_key_age_days", "keys that ended longer ago are dropped [1…30]"),
        (
            "cli.out.serve.setting.clock_skew_flag_seconds",
            "phone clock skew beyond this is flagged to staff [60…31536000]"
        ),
        (
            "cli.out.serve.setting.apple_device_check_url",
            "Apple DeviceCheck base URL (https://api.devicecheck.apple.com); unset: iOS analytics tokens are refused"
        ),
        ("cli.out.serve.setting.apple_team_id", "Apple developer team id for DeviceCheck"),
        ("cli.out.serve.setting.apple_key_id", "DeviceCheck key id"),
        ("cli.out.serve.setting.apple_private_key_file", "DeviceCheck P-256 private key (PEM)"),
        (
            "cli.out.serve.setting.apple_device_check_wait_seconds",
            "pause between DeviceCheck steps (Immuni: 7 to 10 s) [0…60]"
        ),
        (
            "cli.out.serve.setting.google_attestation_root_file",
            "PEM root certificate(s) for SafetyNet attestations; unset: Android analytics are discarded"
        ),
        ("cli.out.serve.setting.google_apk_package_name", "expected apkPackageName in attestations"),
        (
            "cli.out.serve.setting.google_apk_certificate_digest",
            "expected apkCertificateDigestSha256 (base64) in attestations"
        ),
        ("cli.out.serve.setting.access_log", "one line per request on stderr (method, route, status, duration)"),
        (
            "cli.out.serve.setting.log_format",
            "the log on stderr: text lines, or one JSON object a line (time, level, event, message, route, status, duration_ms, incident) for a log shipper [text, json]"
        ),
        (
            "cli.out.serve.setting.shutdown_grace_seconds",
            "on SIGINT/SIGTERM, how long in-flight requests may take [0…300]"
        ),
        (
            "cli.out.serve.setting.signing_key_path",
            "P-256 private key (PEM) that signs TEK chunks (make one with: tracedesk keys generate --out FILE)"
        ),
        (
            "cli.out.serve.setting.signing_key_required",
            "refuse to start without signing_key_path; false: run, but publish nothing and say so"
        ),
        (
            "cli.out.serve.setting.signing_key_id",
            "verification_key_id of the chunks (the country's MCC) [letters, digits, _ and .; at most 64]"
        ),
        (
            "cli.out.serve.setting.signing_key_version",
            "verification_key_version of the chunks [letters, digits, _ and .; at most 64]"
        ),
        ("cli.out.serve.setting.region", "region written in every chunk [letters, digits, _ and .; at most 64]"),
        (
            "cli.out.serve.setting.app_bundle_id",
            "app bundle id in the chunks' signature info (deprecated field Immuni wrote; empty: left out)"
        ),
        (
            "cli.out.serve.setting.publish_interval_seconds",
            "how often the server publishes keys past their embargo as a chunk [60…86400]"
        ),
        (
            "cli.out.serve.setting.chunk_max_keys",
            "most keys in one chunk; more make several chunks (400 000 keep export.bin under 16 MiB) [100…400000]"
        ),
        (
            "cli.out.serve.setting.chunk_min_keys",
            "pad chunks with random keys up to this many (plus jitter) so small ones do not single out uploaders; 0: off [0…100000]"
        ),
        ("cli.out.serve.setting.chunk_padding_jitter", "random extra padding keys, 0 to this [0…10000]"),
        (
            "cli.out.serve.setting.cleanup_interval_seconds",
            "how often the server deletes what the retention rules no longer allow to keep [3600…604800]"
        ),
        (
            "cli.out.serve.setting.stats_rollup_interval_seconds",
            "how often the server rolls up the statistics of the hours that closed (the dashboard reads them) [60…3600]"
        ),
        (
            "cli.out.serve.setting.retention_days",
            "uploads, keys, chunks, codes and their events are kept this many days [10…30]"
        ),
        (
            "cli.out.serve.setting.analytics_retention_days",
            "operational info (analytics) is kept this many days [14…365]"
        ),
        (
            "cli.out.serve.setting.follow_up_period_days",
            "a contact is followed this many days after their last exposure (the daily checks' period) [1…60]"
        ),
        (
            "cli.out.serve.setting.follow_up_retry_minutes",
            "after no answer or voicemail, the next call to a contact is due this many minutes later [5…1440]"
        ),
        (
            "cli.out.serve.setting.follow_up_attempts_per_day",
            "at most this many calls to one contact are scheduled on a day; the next is due the next day [1…24]"
        ),
        (
            "cli.out.serve.setting.follow_up_lost_after_days",
            "a contact never reached this many days after their follow-up began is lost to follow-up [1…30]"
        ),
        (
            "cli.out.serve.setting.closed_case_retention_days",
            "closed cases, their history and the follow-ups that name no other case are deleted this many days after the case closed [1…3650]"
        ),
        (
            "cli.out.serve.setting.session_idle_minutes",
            "a staff session with no request for this long ends (a console left unattended locks) [1…240]"
        ),
        (
            "cli.out.serve.setting.session_hours",
            "a staff session ends this long after sign-in whatever happens (one shift) [1…24]"
        ),
        (
            "cli.out.serve.setting.sign_in_failures_before_lock",
            "consecutive failed sign-ins from every source together that lock a staff account until an admin resets its password (NIST SP 800-63B: at most 100); waits grow after a source's third failure, for that source only [3…100]"
        ),
        (
            "cli.out.serve.setting.sign_in_first_wait_seconds",
            "seconds an address waits after its third failed sign-in on an account before its next try is taken, doubled for each further failure up to 300; 2 by default, and never shorter (a longer one only slows an attacker more) [2…300]"
        ),
        (
            "cli.out.serve.setting.sign_in_places_per_address",
            "sign-ins one client address (an IPv6 /64) may have waiting for the password hash at once, of 16 places (more: 429 with Retry-After; 0: no limit) [0…16]"
        ),
        (
            "cli.out.serve.setting.sign_in_per_address_per_minute",
            "sign-ins a minute from one client address, per server (more: 429 with Retry-After; successes and waits cost nothing; 0: no limit). Staff behind one NAT or a proxy share an address [0…100000]"
        ),
        (
            "cli.out.serve.setting.sign_in_burst_per_address",
            "of those, how many one client address may make at once before the rate applies (a flood's first seconds must not fill the hashing queue) [1…100000]"
        ),
        (
            "cli.out.serve.setting.sign_in_per_name_per_minute",
            "wrong passwords a minute for one account name from every address, per server (more: 429 with Retry-After for that name; 0: no limit) [0…100000]"
        ),
        (
            "cli.out.serve.setting.setup_token_file",
            "where serve writes the first admin's one-time setup token (mode 0600) while no account exists (default: STORE.setup-token beside an SQLite store, ./tracedesk-setup-token for PostgreSQL)"
        ),
        (
            "cli.out.serve.setting.num_pseudo_ids",
            "APRICOT NUM_PSEUDO_IDS: pseudo-ids made per registered user (the design's 1000: one per 5-minute beacon for about 3.5 days; 2^32 in all limit users to 2^32 / this) [1…10000]"
        ),
        (
            "cli.out.serve.setting.beacon_change_interval",
            "APRICOT BEACON_CHANGE_INTERVAL, seconds: how often apps change the beacon they broadcast (served to apps) [10…86400]"
        ),
        (
            "cli.out.serve.setting.beacon_detect_interval",
            "APRICOT BEACON_DETECT_INTERVAL, seconds: how often apps scan; one record counts as this much proximity [1…3600]"
        ),
        (
            "cli.out.serve.setting.contact_timestamp_option",
            "APRICOT CONTACT_TIMESTAMP_OPTION: whether apps put a time in each record (served to apps; the server takes both)"
        ),
        (
            "cli.out.serve.setting.contact_history_max",
            "APRICOT CONTACT_HISTORY_MAX, days: contact files for older days are refused, and deleted once older [1…90]"
        ),
        (
            "cli.out.serve.setting.close_contact_minutes",
            "APRICOT close-contact rule: at least this many minutes of proximity on one day (ECDC's 15) [1…1440]"
        ),
        (
            "cli.out.serve.setting.default_country_code",
            "added to phone numbers staff type without a country code (+ and 1 to 3 digits, e.g. +39)"
        ),
        (
            "cli.out.serve.setting.apricot_uploads_per_hour",
            "contact-file uploads one sign-in may make in an hour, per server (more: 429 with Retry-After) [1…3600]"
        ),
        (
            "cli.out.serve.setting.apricot_otp_per_minute",
            "APRICOT codes (SMS) this server sends a minute, all phones together (more: 429 with Retry-After; 0: no limit): bounds the SMS bill of a flood [0…100000]"
        ),
        (
            "cli.out.serve.setting.apricot_otp_per_address_per_hour",
            "APRICOT codes one client address (an IPv6 /64) may ask for in an hour, per server (more: 429 with Retry-After; 0: no limit). Phones behind one carrier NAT share an address; behind a reverse proxy every phone has the proxy's address: raise it or set 0 there [0…100000]"
        ),
        (
            "cli.out.serve.setting.apricot_code_secret_file",
            "file with the secret (at least 32 bytes) that keys the HMAC of APRICOT SMS codes; unset: beside an SQLite store, made on first start; required with PostgreSQL (one secret for every server)"
        ),
        (
            "cli.out.serve.setting.sms_gateway",
            "where APRICOT SMS codes go: outbox keeps them for admins (tracedesk sms outbox), nothing is sent; http posts them to sms_http_url [outbox, http]"
        ),
        (
            "cli.out.serve.setting.sms_http_url",
            "the SMS provider's endpoint for sms_gateway http: POST {\"to\",\"text\"} as JSON"
        ),
        (
            "cli.out.serve.setting.sms_http_api_key",
            "the SMS provider's API key, sent as Authorization: Bearer KEY (shown redacted)"
        ),
        (
            "cli.out.serve.setting.sms_http_max_attempts",
            "attempts per SMS on 5xx, 429 or connection failures, 2 s apart and doubling, before it is marked failed [1…10]"
        ),
        (
            "cli.out.serve.setting.audit_key_path",
            "P-256 private key (PEM) that signs audit checkpoints; keep it off the store's machine if you can (make one with: tracedesk keys generate --audit --out FILE); needs audit_checkpoint_path"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_path",
            "file outside the store the server appends signed audit checkpoints to (one JSON line each, mode 0600); unset: no checkpoints"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_every_entries",
            "a checkpoint after this many new audit entries [1…1000000]"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_interval_seconds",
            "and at least this often while entries are added [10…86400]"
        ),
        (
            "cli.out.serve.setting.his_auth",
            "how POST /v1/otp knows the hospital system: key (Authorization: Bearer KEY of a client made with tracedesk his add), certificate (a TLS client certificate verified against his_ca_file, its subject CN naming the client), none (anyone who reaches the listener: closed test networks only; warned at every start) [key, certificate, none]"
        ),
        (
            "cli.out.serve.setting.his_listen",
            "a listener of its own for POST /v1/otp (IPv4 address and port), so hospitals reach it through a separate network; then internal_listen no longer serves it (default: unset, served on internal_listen)"
        ),
        (
            "cli.out.serve.setting.his_rate_per_minute",
            "authorisations a minute one HIS client may make on this server, unless the client has its own (tracedesk his add --rate); more: 429 with Retry-After. Bounds what a stolen key can do before it is revoked [1…1000000]"
        ),
        (
            "cli.out.serve.setting.his_ca_file",
            "PEM certificate(s) of the authority that signs HIS client certificates (his_auth certificate; needs tls_cert and tls_key)"
        ),
        (
            "cli.out.serve.setting.otp_guess_limit",
            "wrong codes one client address (an IPv6 /64) may send to check-otp and upload in ten minutes, per server, before it gets 429 with Retry-After (dummy requests never count; 0: no limit). Phones behind one carrier NAT share it: see docs/decisions.md [0…100000]"
        ),
        (
            "cli.out.serve.setting.sms_allowed_prefixes",
            "the numbers APRICOT codes are sent to: + and digits, comma-separated (e.g. \"+39 3, +378\"); empty: default_country_code. Others get 422: premium, satellite and foreign numbers cost an SMS each. +999 test numbers only with sms_gateway outbox"
        ),
    ]

    static let demoOutput: [(String, String)] = [
        ("cli.out.demo.noArgument", "demo takes no argument '{argument}'"),
        ("cli.out.demo.durationWithConsole", "--duration goes with --no-console: with the console, quit it to stop"),
        ("cli.out.demo.needsTerminal", "the demo's console needs a terminal: run it in one, or give --no-console"),
        (
            "cli.out.demo.storeExists",
            "{file} exists: the demo makes a new store with demo accounts and simulated people; give a path that does not exist yet"
        ),
        ("cli.out.demo.cannotStart", "the demo could not start: {problem}"),
        ("cli.out.demo.intro.title", "TraceDesk demo (simulated phones; never point real ones at it)"),
        ("cli.out.demo.intro.label.store", "store"),
        ("cli.out.demo.intro.label.phones", "phones"),
        ("cli.out.demo.intro.label.internal", "internal"),
        ("cli.out.demo.intro.label.hisKey", "HIS key"),
        ("cli.out.demo.intro.label.log", "server log"),
        ("cli.out.demo.intro.deleted", " (deleted at the end)"),
        ("cli.out.demo.intro.phones", "   (Immuni and APRICOT API)"),
        ("cli.out.demo.intro.internal", "   (POST /v1/otp, staff API: tracedesk --server {url} …)"),
        ("cli.out.demo.intro.hisKey", "   (HIS client {client}: Authorization: Bearer KEY on POST /v1/otp)"),
        ("cli.out.demo.intro.accounts", "  accounts (name / password):"),
        ("cli.out.demo.intro.patients", "  positive patients, for the tracer's lookup: {phones}"),
        (
            "cli.out.demo.intro.cases.all",
            "  cases: {tracer} opens a case for each once their contact files are in (DEMO-{seed}-1…); their contacts are shared between tracer and {tracer}, who works its own queue"
        ),
        (
            "cli.out.demo.intro.cases.allButLast",
            "  cases: {tracer} opens a case for each but the last once their contact files are in (DEMO-{seed}-1…); their contacts are shared between tracer and {tracer}, who works its own queue"
        ),
        (
            "cli.out.demo.intro.openLast",
            "  open the last one's case yourself, as tracer: tracedesk case open {phone} --reference TEXT"
        ),
        ("cli.out.demo.intro.written", "  written to {file} (mode 0600); in the console, F8 or ? shows them"),
        (
            "cli.out.demo.summary",
            "citizens {citizens}, uploads accepted {uploads}; APRICOT phones signed in {registered}, positive {positives}, contact files accepted {files}; operational-info records {records}"
        ),
        ("cli.out.demo.stoppedEarly", "{signal}: the demo stopped early (the summary above is partial)"),
    ]

    static let simulateOutput: [(String, String)] = [
        ("cli.out.simulation.totals", "requests {requests}, errors {errors}"),
        ("cli.out.simulation.column.endpoint", "endpoint"),
        ("cli.out.simulation.column.requests", "requests"),
        ("cli.out.simulation.column.p50", "p50 ms"),
        ("cli.out.simulation.column.p95", "p95 ms"),
        ("cli.out.simulation.column.p99", "p99 ms"),
        ("cli.out.simulation.errorsByKind", "errors by kind:"),
        ("cli.out.simulation.notes", "notes:"),
        ("cli.out.demo.tracing.none", "tracing: no cases opened ({problem})"),
        (
            "cli.out.demo.tracing.done.one",
            "tracing: cases opened {cases} ({followUps} follow-up); the simulated tracer's attempts {attempts} (reached {reached}), daily checks {checks}"
        ),
        (
            "cli.out.demo.tracing.done.other",
            "tracing: cases opened {cases} ({followUps} follow-ups); the simulated tracer's attempts {attempts} (reached {reached}), daily checks {checks}"
        ),
        ("cli.out.demo.tracing.skipped.one", "; {count} patient without a case (not registered)"),
        ("cli.out.demo.tracing.skipped.other", "; {count} patients without a case (not registered)"),
        ("cli.out.demo.tracing.stopped", "; stopped: {problem}"),
        (
            "cli.out.simulate.serverBefore",
            "put --server after 'simulate': for simulate it names the server's public listener (the phones'), not its staff API"
        ),
        ("cli.out.simulate.noArgument", "simulate takes no argument '{argument}'"),
        ("cli.out.simulate.storeOrUser", "give --store or --user, not both: they are two ways to read the SMS codes"),
        (
            "cli.out.simulate.dummyOrPopulation",
            "give --dummy-per-real or --immuni-population, not both: each sets the dummy traffic"
        ),
        (
            "cli.out.simulate.apricotNeedsCodes",
            "APRICOT phones need their SMS code: give --store (the server's store) or --user ADMIN (read through the staff API of --internal)"
        ),
        (
            "cli.out.simulate.noStore",
            "--store {store}: there is no store there; give the store the server uses (its --store or TRACEDESK_STORE)"
        ),
        ("cli.out.simulate.userNeedsInternal", "--user reads codes through the staff API: give --internal URL too"),
        (
            "cli.out.simulate.notAdmin",
            "{user} is a {role}: only an admin may read the SMS outbox; give --user with an admin account, or --store"
        ),
        (
            "cli.out.simulate.noHISKey",
            "no HIS key: POST /v1/otp will be refused unless the server's his_auth is none; give --his-key-file FILE, --user ADMIN or --store"
        ),
        ("cli.out.simulate.hospital", "the simulated hospital is HIS client {client} (revoked at the end)"),
        (
            "cli.out.simulate.starting",
            "simulating for {seconds} s against {url}: {rate}, {phones}, seed {seed}"
        ),
        ("cli.out.simulate.citizens.one", "{count} citizen a minute"),
        ("cli.out.simulate.citizens.other", "{count} citizens a minute"),
        ("cli.out.simulate.phones.one", "{count} APRICOT phone"),
        ("cli.out.simulate.phones.other", "{count} APRICOT phones"),
        ("cli.out.simulate.dummyOnly", "no --internal: no real citizens, dummy Immuni traffic only"),
        (
            "cli.out.simulate.summary",
            "citizens {citizens}, uploads accepted {uploads}; APRICOT phones signed in {registered}, positive {positives}, contact files accepted {files}"
        ),
        ("cli.out.simulate.stoppedEarly", "{signal}: the simulation stopped early (the summary above is partial)"),
        ("cli.out.simulate.hisKeyUnreadable", "--his-key-file {file} cannot be read"),
        (
            "cli.out.simulate.notHISKey",
            "--his-key-file {file} does not hold an HIS API key (tdh_…, as tracedesk his add prints it)"
        ),
        ("cli.out.simulate.hospitalFailed", "the simulated hospital's HIS client could not be added: {problem}"),
        ("cli.out.simulate.progress", "{elapsed} s of {total} s: {requests}, {errors}"),
        ("cli.out.simulate.requests.one", "{count} request"),
        ("cli.out.simulate.requests.other", "{count} requests"),
        ("cli.out.simulate.errors.one", "{count} error"),
        ("cli.out.simulate.errors.other", "{count} errors"),
        (
            "cli.out.simulate.notThisMachine",
            "{option} {host} is not this machine: simulated phones make real load and real-looking data; add --allow-non-loopback if that server is a test server"
        ),
        ("cli.out.simulate.number", "--{option} must be a number from {low} to {high}, got '{value}'"),
    ]
}
