import DeskBench
import DeskText
import Foundation

/// `tracedesk`: the console with no arguments, or a subcommand.
let version = "tracedesk 0.1.0"

let mainHelp = """
    TraceDesk: the contact-tracing staff console.

    Usage:
      tracedesk [--store PATH|URL | --server URL] [--user NAME] [--theme NAME] [--no-color] [--no-mouse]
                [--no-copy] [--refresh SECONDS]
          Opens the console: sign in, then your role's screens (an operator authorises an
          app's upload during a phone call; a tracer looks a patient's contacts up; a
          supervisor watches the dashboard and the monitor; an admin manages staff and reads
          the audit log).
      tracedesk [--server URL] [--user NAME] otp check|authorize|status CODE [...]
          The operator's flow from the command line (tracedesk otp --help).
      tracedesk [--server URL] [--user NAME] trace PHONE|--phone-stdin --purpose TEXT [--csv|--json] [--sightings]
          The contact tracer's lookup: a patient's contacts by phone number (tracedesk trace --help).
      tracedesk [--server URL] [--user NAME] case open PHONE --reference TEXT [--onset DAY | --test-day DAY] [--mine]
      tracedesk [...] case list [--closed|--all] | case show ID | case close ID --reason R | case add ID PHONE --reason TEXT
          A positive patient's case: its close contacts become follow-ups, assigned to tracers
          (tracedesk case --help).
      tracedesk [...] queue [--mine|--tracer NAME|--unassigned|--everyone] [--later] [--json|--csv]
          The follow-ups due, overdue first: whom to call now (tracedesk queue --help).
      tracedesk [...] followup show ID | attempt ID --outcome O | check ID --symptoms yes|no --isolating yes|no
      tracedesk [...] followup assign ID... --to TRACER
          One follow-up: its calls and daily checks; a supervisor's reassignment
          (tracedesk followup --help).
      tracedesk staff add|list|disable|reset-password|recover [...]
          Staff accounts and roles (tracedesk staff --help); the first admin is made here
          or by the console when the store has no account.
      tracedesk audit verify|checkpoint|list [...]
          Checks the audit log's hash chain (against signed checkpoints kept outside the
          store, with --checkpoints); appends a checkpoint; lists entries (tracedesk audit --help).
      tracedesk his add|list|revoke [...]
          The hospital systems that may authorise codes (POST /v1/otp), each with its API
          key (admin; tracedesk his --help).
      tracedesk sms outbox [--limit N] [--json]
          The APRICOT SMS outbox, newest first (admin; tracedesk sms --help).
      tracedesk stats [--range today|1h|24h|7d|14d] [--bucket 5m|hour|day] [--from TIME --to TIME] [--json|--csv]
          The supervisor's statistics: authorisations, uploads, keys, chunks, analytics by
          province, APRICOT figures (tracedesk stats --help).
      tracedesk serve [--store PATH|URL] [--listen ADDR] [--internal-listen ADDR] [--config FILE]
          Serves the Immuni and APRICOT APIs to phones and hospital systems (tracedesk serve --help).
      tracedesk demo [--store PATH] [--immuni-rate N] [--apricot-users M] [--no-console [--duration S]]
          The whole system on this machine: demo accounts (printed), a server on loopback,
          simulated phones, and the console signed in as the operator (tracedesk demo --help).
      tracedesk simulate [--server URL] [--internal URL] [--immuni-rate N] [--apricot-users M] [--duration S] [...]
          Simulated phones and a simulated hospital system against a server, for a bounded
          time, loopback by default: a load generator (tracedesk simulate --help).
      tracedesk keys generate --out FILE [--audit] | keys public --key FILE
          Makes the P-256 key that signs TEK chunks (or, --audit, audit checkpoints), or prints
          its public key.
      tracedesk chunks publish|list|show [...]
          Publishes keys as signed GAEN chunks, lists them, decodes one (tracedesk chunks --help).
      tracedesk migrate [--store PATH|URL] | store info [--store PATH|URL] [--json]
          Applies schema migrations; shows the adapter, schema version and sizes.
      tracedesk cleanup [--store PATH|URL]
          Deletes what the retention rules no longer allow to keep (14 days; analytics and
          APRICOT contact files 30).
      tracedesk bench render [--width W] [--height H] [--frames N]
          Measures rendering and diffing of full frames.
      tracedesk bench seed --store PATH --count N --tokens FILE
          Authorises N codes for the upload load test (Benchmarks/http.sh).
      tracedesk bench staff [--hashes N] [--authorizations N]
          Measures the sign-in KDF and authorisations through the staff API on loopback.
      tracedesk bench monitor [--seconds N] [--rate N] | bench events --store PATH [--rate N]
          Measures the monitor under a stream of events; writes such a stream into a store.
      tracedesk bench apricot [--registrations N] [--uploads N] [--store PATH|URL]
          Measures APRICOT sign-ins (1 000 pseudo-ids) and full-day contact files over HTTP.
      tracedesk bench trace [--store PATH|URL] [--users N] [--days N] [--records N]
          Measures the contact-trace lookup against N users of 1 000 pseudo-ids each.
      tracedesk bench stats [--store PATH] [--postgres URL] [--uploads N] [--events N] [--runs N]
          Measures the supervisor's statistics over a seeded fortnight (SQLite, PostgreSQL).
      tracedesk settings [--server URL] [--user NAME] [--theme NAME]
          The console's settings in force and where each comes from (an option, the
          environment, $XDG_CONFIG_HOME/tracedesk/console.json, the default).
      tracedesk --version | --help

    Options:
      --lang en|it    the language of the screens and messages (before the command); else the
                      console's settings file, else LC_ALL, LC_MESSAGES or LANG, else English
      --user NAME     who acts (default TRACEDESK_USER); the password is asked without echo
                      (the console fills in its sign-in screen's name and asks there)
      --password-stdin  read passwords from stdin, one per line, instead of the terminal
                      (subcommands only)
      --server URL    act through a server's staff API (its internal listener, e.g.
                      http://127.0.0.1:8081) instead of opening a store
      --store PATH    the SQLite store (default $XDG_DATA_HOME/tracedesk/tracedesk.sqlite,
                      i.e. ~/.local/share/tracedesk/tracedesk.sqlite; created on first run),
                      or a PostgreSQL URL postgres://USER@HOST:PORT/DATABASE
      --theme NAME    a theme from themes/NAME.json: default, high-contrast, monochrome
      --no-color      monochrome (also when NO_COLOR is set and not empty)
      --no-mouse      leave the mouse to the terminal (text selection)
      --no-copy       y copies nothing (also when TRACEDESK_COPY=off); otherwise y copies a
                      phone number (audited), a code tag or a row to the clipboard with OSC 52,
                      which works over SSH and in tmux (set -g set-clipboard on)
      --refresh SECONDS  how often the supervisor's dashboard reads its figures again:
                      1 to 3600, or 0 for only when r is pressed (default 5); the range it
                      shows (0-4) is kept for the next run in $XDG_STATE_HOME/tracedesk/
                      dashboard-range (~/.local/state/tracedesk/dashboard-range)

    In the console, ? (F1 while typing) lists the keys of the moment, : (or Ctrl-P) opens the
    command palette (:monitor, :export, :signout, :quit…), Ctrl-L redraws, Ctrl-Z suspends to
    the shell (fg comes back); docs/operator-guide.md has the table of keys.

    Environment: TRACEDESK_STORE (the store when --store is not given), NO_COLOR (monochrome),
    TRACEDESK_OTP_TTL_SECONDS (authorisation lifetime, default 150), TRACEDESK_THEMES (extra
    theme folder), TRACEDESK_BUSY_TIMEOUT_MS (how long to wait for another process's write
    lock or a free database connection, default 5000), TRACEDESK_IDLE_LOCK_SECONDS (lock the
    console after this many seconds without a key, 2 to 86400; default and upper limit: the
    session's idle limit, 10 min), TRACEDESK_SETUP_TOKEN (a fresh server's one-time setup token,
    for its first admin with staff add --server), TRACEDESK_COPY (off: the console's y copies
    nothing, as --no-copy).

    Exit status: 0 ok, 1 input refused, 2 usage error, 3 already authorised,
    4 store or server unavailable, 5 cannot listen (serve), 6 sign-in failed or not allowed
    for the role, 7 audit chain broken or not matching its checkpoints; 129, 130, 143 the
    console, demo or simulate stopped by SIGHUP, SIGINT or SIGTERM (128 + the signal), after
    signing out and restoring the terminal.
    """

func runMain() async -> Int32 {
    do throws(UsageError) {
        let words = try Globals.extract(Array(CommandLine.arguments.dropFirst()))
        // The language of every screen and message from here on: --lang, the console's settings
        // file, the locale, English (the file's problems are the console's to print).
        let environment = ProcessInfo.processInfo.environment
        let settingsPath = ConsoleSettings.path(environment: environment)
        let language = ConsoleSettings.language(
            option: Globals.language, file: ConsoleSettings.readFile(settingsPath).values["language"],
            path: settingsPath, environment: environment)
        Language.setProcessWide(language.value.flatMap(Language.init(rawValue:)) ?? .en)
        switch words.first {
        case "--version", "version":
            print(version)
            return 0
        case "--help", "-h", "help":
            print(mainHelp)
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
            return try await BenchCommand.run(Array(words.dropFirst())).rawValue
        case "settings":
            return try SettingsCommand.run(Array(words.dropFirst())).rawValue
        case let word? where !word.hasPrefix("-"):
            throw UsageError("unknown command '\(word)'", command: "tracedesk")
        default:
            return try await ConsoleCommand.run(words).rawValue
        }
    } catch {
        printError(error.message)
        printError(
            "see 'tracedesk \(error.command == "tracedesk" ? "" : error.command.split(separator: " ").first.map { "\($0) " } ?? "")--help'"
        )
        return ExitStatus.usage.rawValue
    }
}

exit(await runMain())
