import DeskCore

/// Every command, option, default and exit status of the `tracedesk` binary, once: the parser,
/// `--help`, the man pages and the shell completions are made from this table
/// (descriptions: the catalogue's `cli.…` keys, in the run's language).
package enum CommandTable {
    // Options several commands share, described once.
    static let store = CLIOption("store", "PATH|URL", kind: .file, key: "cli.option.store")
    static let json = CLIOption("json", key: "cli.option.json")
    static let user = CLIOption("user", "NAME", key: "cli.option.user")
    static let server = CLIOption("server", "URL", key: "cli.option.server")
    static let passwordStdin = CLIOption("password-stdin", key: "cli.option.password-stdin")
    /// The built-in themes are listed and completed; an installed one (TRACEDESK_THEMES, the user's
    /// themes folder) may add others, so the command, which finds them, refuses an unknown name.
    static let theme = CLIOption(
        "theme", "NAME", allowed: ["default", "high-contrast", "monochrome"], parserChecks: false,
        key: "cli.option.theme")
    /// `case close --reason`: one of the close reasons.
    static let closeReason = CLIOption(
        "reason", "R", allowed: CaseCloseReason.allCases.map { $0.rawValue.replacingUnderscores },
        key: "cli.case.option.reason")
    static let noColor = CLIOption("no-color", key: "cli.option.no-color")
    static let noMouse = CLIOption("no-mouse", key: "cli.option.no-mouse")
    static let config = CLIOption("config", "FILE", kind: .file, key: "cli.option.config")

    /// Who acts, and where: also given before the command (`tracedesk --user NAME otp …`).
    package static let personOptions: [CLIOption] = [user, passwordStdin, server]

    /// The options given before the command: the person's, and the language.
    package static let globalOptions: [CLIOption] =
        [CLIOption("lang", "en|it", allowed: ["en", "it"], word: "language", key: "cli.option.lang")] + personOptions

    /// The leading options no command takes after its name (the person's options are also every
    /// person-taking command's own): given after a command, the refusal says to put them first.
    package static let leadingOnly: Set<String> = Set(
        globalOptions.map(\.name).filter { name in !personOptions.contains { $0.name == name } })

    static func exits(_ prefix: String, _ own: [ExitStatus], shared: [ExitStatus] = []) -> [CLIExit] {
        let all = Set(own + shared).sorted { $0.rawValue < $1.rawValue }
        return all.map { CLIExit($0, own.contains($0) ? "\(prefix).exit.\($0.rawValue)" : "cli.exit.\($0.rawValue)") }
    }

    /// `tracedesk` without a command: the console.
    package static let console = CLICommand(
        "", section: 1,
        overview: [
            "tracedesk [--store PATH|URL | --server URL] [--user NAME] [--theme NAME] [--no-color] [--no-mouse] [--no-copy] [--refresh SECONDS]"
        ],
        summary: "cli.console.summary",
        verbs: [CLIVerb("", [], key: nil)],
        options: [
            store, theme, noColor, noMouse, CLIOption("no-copy", key: "cli.option.no-copy"),
            CLIOption("refresh", "SECONDS", default: "5", key: "cli.option.refresh"),
        ],
        notes: ["cli.console.keys"],
        exits: exits(
            "cli.console", [],
            shared: [.success, .usage, .storeUnavailable, .notAllowed, .hangUp, .interrupted, .terminated]),
        takesPerson: true)

    package static let commands: [CLICommand] = [
        CLICommand(
            "otp", section: 1,
            overview: ["tracedesk [--server URL] [--user NAME] otp check|authorize|status CODE [...]"],
            summary: "cli.otp.summary",
            verbs: [
                CLIVerb(
                    "check", ["tracedesk otp check CODE [--json]"], key: "cli.otp.check",
                    options: ["json", "code-stdin"]),
                CLIVerb(
                    "authorize",
                    [
                        "tracedesk otp authorize CODE --symptoms YYYY-MM-DD --user NAME [--store PATH|URL | --server URL] [--json]"
                    ],
                    key: "cli.otp.authorize"),
                CLIVerb(
                    "status", ["tracedesk otp status CODE --user NAME [--store PATH|URL | --server URL] [--json]"],
                    key: "cli.otp.status", options: ["store", "json", "code-stdin"]),
            ],
            options: [
                store, CLIOption("symptoms", "YYYY-MM-DD", key: "cli.otp.option.symptoms"), json,
                CLIOption("code-stdin", key: "cli.otp.option.code-stdin"),
            ],
            notes: ["cli.otp.notes.person", "cli.otp.notes.code", "cli.otp.notes.store"],
            exits: exits(
                "cli.otp", [.refused, .alreadyAuthorized, .notAllowed], shared: [.success, .usage, .storeUnavailable]),
            takesPerson: true),
        CLICommand(
            "trace", section: 1,
            overview: [
                "tracedesk [--server URL] [--user NAME] trace PHONE|--phone-stdin --purpose TEXT [--csv|--json] [--sightings]"
            ],
            summary: "cli.trace.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk trace PHONE --purpose TEXT --user NAME [--csv | --json] [--sightings] [--store PATH|URL | --server URL] [--password-stdin]",
                        "tracedesk trace --phone-stdin --purpose TEXT --user NAME [...]",
                    ], key: "cli.trace.about")
            ],
            options: [
                store, CLIOption("purpose", "TEXT", key: "cli.trace.option.purpose"),
                CLIOption("csv", key: "cli.trace.option.csv"), CLIOption("json", key: "cli.trace.option.json"),
                CLIOption("sightings", key: "cli.trace.option.sightings"),
                CLIOption("phone-stdin", key: "cli.trace.option.phone-stdin"),
            ],
            notes: ["cli.trace.notes.audit"],
            exits: exits("cli.trace", [.success, .refused, .notAllowed], shared: [.usage, .storeUnavailable]),
            takesPerson: true),
        CLICommand(
            "case", section: 1,
            overview: [
                "tracedesk [--server URL] [--user NAME] case open PHONE --reference TEXT [--onset DAY | --test-day DAY] [--mine]",
                "tracedesk [...] case list [--closed|--all] | case show ID | case close ID --reason R | case add ID PHONE --reason TEXT",
            ],
            summary: "cli.case.summary",
            verbs: [
                CLIVerb(
                    "open",
                    ["tracedesk case open PHONE --reference TEXT --user NAME [--onset DAY | --test-day DAY] [--mine]"],
                    key: "cli.case.open",
                    options: ["store", "reference", "onset", "test-day", "json", "mine", "phone-stdin"]),
                CLIVerb(
                    "list",
                    ["tracedesk case list --user NAME [--closed | --all] [--opened-by TRACER] [--limit N] [--json]"],
                    key: "cli.case.list", options: ["store", "opened-by", "limit", "json", "closed", "all"]),
                CLIVerb(
                    "show", ["tracedesk case show ID --user NAME [--json]"], key: "cli.case.show",
                    options: ["store", "json"]),
                CLIVerb(
                    "close",
                    [
                        "tracedesk case close ID --reason recovered|transferred|opened-in-error|other --user NAME [--note TEXT]"
                    ],
                    key: "cli.case.close", options: ["store", "reason", "note", "json"], own: [closeReason]),
                CLIVerb(
                    "add", ["tracedesk case add ID PHONE --reason TEXT --user NAME"], key: "cli.case.add",
                    options: ["store", "reason", "json", "phone-stdin"]),
            ],
            options: [
                store, CLIOption("reference", "TEXT", key: "cli.case.option.reference"),
                CLIOption("onset", "DAY", key: "cli.case.option.onset"),
                CLIOption("test-day", "DAY", key: "cli.case.option.test-day"),
                CLIOption("mine", key: "cli.case.option.mine"),
                CLIOption("opened-by", "TRACER", key: "cli.case.option.opened-by"),
                CLIOption("closed", key: "cli.case.option.closed"), CLIOption("all", key: "cli.case.option.all"),
                CLIOption("limit", "N", default: "200", key: "cli.case.option.limit"),
                // Free text for `case add`; `case close` takes its own form, the close reasons only.
                closeReason.freeText,
                CLIOption("note", "TEXT", key: "cli.case.option.note"),
                CLIOption("phone-stdin", key: "cli.case.option.phone-stdin"),
                CLIOption("json", key: "cli.case.option.json"),
            ],
            notes: ["cli.case.notes.roles"],
            exits: exits("cli.case", [.refused, .storeUnavailable], shared: [.success, .usage, .notAllowed]),
            takesPerson: true),
        CLICommand(
            "queue", section: 1,
            overview: ["tracedesk [...] queue [--mine|--tracer NAME|--unassigned|--everyone] [--later] [--json|--csv]"],
            summary: "cli.queue.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk queue --user NAME [--mine | --tracer NAME | --unassigned | --everyone] [--later] [--search TEXT] [--limit N] [--after CURSOR] [--json | --csv] [--store PATH|URL | --server URL] [--password-stdin]"
                    ], key: "cli.queue.about")
            ],
            options: [
                store, CLIOption("mine", key: "cli.queue.option.mine"),
                CLIOption("tracer", "NAME", key: "cli.queue.option.tracer"),
                CLIOption("unassigned", key: "cli.queue.option.unassigned"),
                CLIOption("everyone", key: "cli.queue.option.everyone"),
                CLIOption("later", key: "cli.queue.option.later"),
                CLIOption("search", "TEXT", key: "cli.queue.option.search"),
                CLIOption("limit", "N", default: "100", key: "cli.queue.option.limit"),
                CLIOption("after", "CURSOR", key: "cli.queue.option.after"),
                CLIOption("json", key: "cli.queue.option.json"), CLIOption("csv", key: "cli.queue.option.csv"),
            ],
            notes: ["cli.queue.notes.work", "cli.queue.notes.roles"],
            exits: exits("cli.queue", [.success, .refused, .storeUnavailable, .notAllowed], shared: [.usage]),
            takesPerson: true),
        CLICommand(
            "followup", aliases: ["follow-up"], section: 1,
            overview: [
                "tracedesk [...] followup show ID | attempt ID --outcome O | check ID --symptoms yes|no --isolating yes|no",
                "tracedesk [...] followup assign ID... --to TRACER",
            ],
            summary: "cli.followup.summary",
            verbs: [
                CLIVerb(
                    "show", ["tracedesk followup show ID --user NAME [--json]"], key: "cli.followup.show",
                    options: ["store", "json"]),
                CLIVerb(
                    "attempt",
                    [
                        "tracedesk followup attempt ID --outcome \(outcomes.joined(separator: "|")) --user NAME [--note TEXT] [--json]"
                    ],
                    key: "cli.followup.attempt", options: ["store", "outcome", "note", "json"]),
                CLIVerb(
                    "check",
                    [
                        "tracedesk followup check ID --symptoms yes|no --isolating yes|no --user NAME [--note TEXT] [--json]"
                    ],
                    key: "cli.followup.check", options: ["store", "symptoms", "isolating", "note", "json"]),
                CLIVerb(
                    "assign", ["tracedesk followup assign ID... --to TRACER --user SUPERVISOR [--json]"],
                    key: "cli.followup.assign", options: ["store", "to", "json"]),
            ],
            options: [
                store, CLIOption("outcome", "O", allowed: outcomes, key: "cli.followup.option.outcome"),
                CLIOption(
                    "symptoms", "yes|no", allowed: ["yes", "no"], word: "--symptoms answer",
                    key: "cli.followup.option.symptoms"),
                CLIOption(
                    "isolating", "yes|no", allowed: ["yes", "no"], word: "--isolating answer",
                    key: "cli.followup.option.isolating"),
                CLIOption("to", "TRACER", key: "cli.followup.option.to"),
                CLIOption("note", "TEXT", key: "cli.followup.option.note"),
                CLIOption("json", key: "cli.followup.option.json"),
            ],
            notes: ["cli.followup.notes.id", "cli.followup.notes.roles"],
            exits: exits("cli.followup", [.refused, .storeUnavailable, .notAllowed], shared: [.success, .usage]),
            takesPerson: true),
        CLICommand(
            "staff", section: 8,
            overview: ["tracedesk staff add|list|disable|reset-password|recover [...]"],
            summary: "cli.staff.summary",
            verbs: [
                CLIVerb(
                    "add", ["tracedesk staff add NAME --role operator|tracer|supervisor|admin --user ADMIN"],
                    key: "cli.staff.add", options: ["store", "role", "json"]),
                CLIVerb(
                    "list", ["tracedesk staff list --user ADMIN [--json]"], key: "cli.staff.list",
                    options: ["store", "json"]),
                CLIVerb(
                    "disable", ["tracedesk staff disable NAME --user ADMIN"], key: "cli.staff.disable",
                    options: ["store", "json"]),
                CLIVerb(
                    "reset-password", ["tracedesk staff reset-password NAME --user ADMIN"],
                    key: "cli.staff.reset-password",
                    options: ["store", "json"]),
                CLIVerb(
                    "recover", ["tracedesk staff recover NAME [--store PATH|URL]"], key: "cli.staff.recover",
                    options: ["store"]),
            ],
            options: [
                store,
                CLIOption("role", "ROLE", allowed: StaffRole.allCases.map(\.rawValue), key: "cli.staff.option.role"),
                json,
            ],
            notes: ["cli.staff.notes.person", "cli.staff.notes.rules"],
            exits: exits("cli.staff", [.refused], shared: [.success, .usage, .storeUnavailable, .notAllowed]),
            takesPerson: true),
        CLICommand(
            "audit", section: 8,
            overview: ["tracedesk audit verify|checkpoint|list [...]"],
            summary: "cli.audit.summary",
            verbs: [
                CLIVerb(
                    "verify", ["tracedesk audit verify --user ADMIN [--checkpoints FILE --public-key FILE] [--json]"],
                    key: "cli.audit.verify", options: ["store", "checkpoints", "public-key", "json"]),
                CLIVerb(
                    "checkpoint", ["tracedesk audit checkpoint --key FILE --out FILE --user ADMIN"],
                    key: "cli.audit.checkpoint",
                    options: ["store", "key", "out", "json"]),
                CLIVerb(
                    "list",
                    [
                        "tracedesk audit list --user ADMIN [--actor NAME] [--subject NAME] [--action ACTION] [--day YYYY-MM-DD] [--limit N] [--json]"
                    ],
                    key: "cli.audit.list", options: ["store", "actor", "subject", "action", "day", "limit", "json"]),
            ],
            options: [
                store, CLIOption("checkpoints", "FILE", kind: .file, key: "cli.audit.option.checkpoints"),
                CLIOption("public-key", "FILE", kind: .file, key: "cli.audit.option.public-key"),
                CLIOption("key", "FILE", kind: .file, key: "cli.audit.option.key"),
                CLIOption("out", "FILE", kind: .file, key: "cli.audit.option.out"),
                CLIOption("actor", "NAME", key: "cli.audit.option.actor"),
                CLIOption("subject", "NAME", key: "cli.audit.option.subject"),
                CLIOption(
                    "action", "ACTION", allowed: AuditAction.known.map(\.rawValue), key: "cli.audit.option.action"),
                CLIOption("day", "YYYY-MM-DD", key: "cli.audit.option.day"),
                CLIOption("limit", "N", default: "50", key: "cli.audit.option.limit"),
                CLIOption("json", key: "cli.audit.option.json"),
            ],
            notes: ["cli.audit.notes.person"],
            exits: exits(
                "cli.audit", [.refused, .auditBroken], shared: [.success, .usage, .storeUnavailable, .notAllowed]),
            takesPerson: true),
        CLICommand(
            "his", section: 8,
            overview: ["tracedesk his add|list|revoke [...]"],
            summary: "cli.his.summary",
            verbs: [
                CLIVerb(
                    "add", ["tracedesk his add NAME --user ADMIN [--rate N] [--json]"], key: "cli.his.add",
                    options: ["store", "rate", "json"]),
                CLIVerb(
                    "list", ["tracedesk his list --user ADMIN [--json]"], key: "cli.his.list",
                    options: ["store", "json"]),
                CLIVerb(
                    "revoke", ["tracedesk his revoke NAME --user ADMIN"], key: "cli.his.revoke",
                    options: ["store", "json"]),
            ],
            options: [store, CLIOption("rate", "N", key: "cli.his.option.rate"), json],
            notes: ["cli.his.notes.names"],
            exits: exits("cli.his", [.refused], shared: [.success, .usage, .storeUnavailable, .notAllowed]),
            takesPerson: true),
        CLICommand(
            "sms", section: 8,
            overview: ["tracedesk sms outbox [--limit N] [--json]"],
            summary: "cli.sms.summary",
            verbs: [
                CLIVerb("outbox", ["tracedesk sms outbox --user ADMIN [--limit N] [--json]"], key: "cli.sms.outbox")
            ],
            options: [
                store, CLIOption("limit", "N", default: "50", key: "cli.sms.option.limit"),
                CLIOption("json", key: "cli.sms.option.json"),
            ],
            notes: ["cli.sms.notes.audit"],
            exits: exits("cli.sms", [.notAllowed], shared: [.success, .usage, .storeUnavailable]),
            takesPerson: true),
        CLICommand(
            "stats", section: 1,
            overview: [
                "tracedesk stats [--range today|1h|24h|7d|14d] [--bucket 5m|hour|day] [--from TIME --to TIME] [--json|--csv]"
            ],
            summary: "cli.stats.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk stats --user NAME [--range today|1h|24h|7d|14d] [--bucket 5m|hour|day] [--json | --csv] [--store PATH|URL | --server URL] [--password-stdin]",
                        "tracedesk stats --user NAME --from TIME [--to TIME] [--bucket 5m|hour|day] [...]",
                    ], key: "cli.stats.about")
            ],
            options: [
                store,
                CLIOption(
                    "range", "R", default: "24h", allowed: ["today", "1h", "24h", "7d", "14d"],
                    key: "cli.stats.option.range"),
                CLIOption("bucket", "B", allowed: ["5m", "hour", "day"], key: "cli.stats.option.bucket"),
                CLIOption("from", "TIME", key: "cli.stats.option.from"),
                CLIOption("to", "TIME", key: "cli.stats.option.to"),
                CLIOption("json", key: "cli.stats.option.json"), CLIOption("csv", key: "cli.stats.option.csv"),
            ],
            notes: ["cli.stats.notes.roles"],
            exits: exits("cli.stats", [.success, .refused, .usage, .storeUnavailable, .notAllowed]),
            takesPerson: true),
        CLICommand(
            "serve", section: 8,
            overview: ["tracedesk serve [--store PATH|URL] [--listen ADDR] [--internal-listen ADDR] [--config FILE]"],
            summary: "cli.serve.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk serve [--store PATH|URL] [--listen 127.0.0.1:8080] [--internal-listen 127.0.0.1:8081] [--his-listen ADDR] [--config FILE] [--tls-cert FILE --tls-key FILE] [--signing-key FILE] [--log-format text|json]",
                        "tracedesk serve --settings",
                    ], key: "cli.serve.about")
            ],
            options: [
                store, CLIOption("listen", "ADDR", default: "127.0.0.1:8080", key: "cli.serve.option.listen"),
                CLIOption(
                    "internal-listen", "ADDR", default: "127.0.0.1:8081", key: "cli.serve.option.internal-listen"),
                CLIOption("his-listen", "ADDR", key: "cli.serve.option.his-listen"), config,
                CLIOption("tls-cert", "FILE", kind: .file, key: "cli.serve.option.tls-cert"),
                CLIOption("tls-key", "FILE", kind: .file, key: "cli.serve.option.tls-key"),
                CLIOption("signing-key", "FILE", kind: .file, key: "cli.serve.option.signing-key"),
                CLIOption(
                    "log-format", "text|json", default: "text", allowed: ["text", "json"], word: "log format",
                    key: "cli.serve.option.log-format"),
                CLIOption("settings", key: "cli.serve.option.settings"),
            ],
            notes: [
                "cli.serve.notes.his", "cli.serve.notes.store", "cli.serve.notes.jobs", "cli.serve.notes.checkpoints",
                "cli.serve.notes.sms", "cli.serve.notes.setup", "cli.serve.notes.settings", "cli.serve.notes.http",
                "cli.serve.notes.log", "cli.serve.notes.systemd", "cli.serve.notes.signals",
            ],
            exits: exits("cli.serve", [.success, .usage, .storeUnavailable, .cannotListen])),
        CLICommand(
            "demo", section: 1,
            overview: [
                "tracedesk demo [--store PATH] [--immuni-rate N] [--apricot-users M] [--no-console [--duration S]]"
            ],
            summary: "cli.demo.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk demo [--store PATH] [--immuni-rate N] [--apricot-users M] [--seed N] [--no-console [--duration S]] [--theme NAME] [--no-color] [--no-mouse]"
                    ], key: "cli.demo.about")
            ],
            options: [
                CLIOption("store", "PATH", kind: .file, key: "cli.demo.option.store"),
                CLIOption("immuni-rate", "N", default: "6", key: "cli.demo.option.immuni-rate"),
                CLIOption("apricot-users", "M", default: "40", key: "cli.demo.option.apricot-users"),
                CLIOption("seed", "N", default: "1", key: "cli.demo.option.seed"),
                CLIOption("no-console", key: "cli.demo.option.no-console"),
                CLIOption("duration", "S", default: "60", key: "cli.demo.option.duration"), theme, noColor, noMouse,
            ],
            notes: ["cli.demo.notes.server"],
            exits: exits(
                "cli.demo", [.hangUp, .interrupted, .terminated], shared: [.success, .usage, .storeUnavailable])),
        CLICommand(
            "simulate", section: 1,
            overview: [
                "tracedesk simulate [--server URL] [--internal URL] [--immuni-rate N] [--apricot-users M] [--duration S] [...]"
            ],
            summary: "cli.simulate.summary",
            verbs: [
                CLIVerb(
                    "",
                    [
                        "tracedesk simulate [--server URL] [--internal URL] [--his URL] [--his-key-file FILE] [--immuni-rate N] [--dummy-per-real X | --immuni-population N] [--apricot-users M] [--positive-share PERCENT] [--contact-days N] [--duration S] [--seed N] [--max-in-flight N] [--store PATH|URL | --user ADMIN [--password-stdin]] [--allow-non-loopback]"
                    ], key: "cli.simulate.about")
            ],
            options: [
                CLIOption("server", "URL", default: "http://127.0.0.1:8080", key: "cli.simulate.option.server"),
                CLIOption("internal", "URL", key: "cli.simulate.option.internal"),
                CLIOption("his", "URL", key: "cli.simulate.option.his"),
                CLIOption("his-key-file", "FILE", kind: .file, key: "cli.simulate.option.his-key-file"),
                CLIOption("allow-non-loopback", key: "cli.simulate.option.allow-non-loopback"),
                CLIOption("immuni-rate", "N", default: "6", key: "cli.simulate.option.immuni-rate"),
                CLIOption("dummy-per-real", "X", default: "4", key: "cli.simulate.option.dummy-per-real"),
                CLIOption("immuni-population", "N", key: "cli.simulate.option.immuni-population"),
                CLIOption("apricot-users", "M", key: "cli.simulate.option.apricot-users"),
                CLIOption("positive-share", "PERCENT", default: "10", key: "cli.simulate.option.positive-share"),
                CLIOption("contact-days", "N", default: "2", key: "cli.simulate.option.contact-days"),
                CLIOption("store", "PATH|URL", kind: .file, key: "cli.simulate.option.store"),
                CLIOption("user", "ADMIN", key: "cli.simulate.option.user"), passwordStdin,
                CLIOption("duration", "S", default: "60", key: "cli.simulate.option.duration"),
                CLIOption("seed", "N", default: "1", key: "cli.simulate.option.seed"),
                CLIOption("max-in-flight", "N", default: "32", key: "cli.simulate.option.max-in-flight"),
            ],
            notes: [
                "cli.simulate.notes.immuni", "cli.simulate.notes.apricot", "cli.simulate.notes.limits",
                "cli.simulate.notes.signals",
            ],
            exits: exits(
                "cli.simulate",
                [.success, .refused, .storeUnavailable, .notAllowed, .hangUp, .interrupted, .terminated],
                shared: [.usage])),
        CLICommand(
            "keys", section: 8,
            overview: ["tracedesk keys generate --out FILE [--audit] | keys public --key FILE"],
            summary: "cli.keys.summary",
            verbs: [
                CLIVerb(
                    "generate", ["tracedesk keys generate --out FILE [--audit]"], key: "cli.keys.generate",
                    options: ["out", "audit"]),
                CLIVerb("public", ["tracedesk keys public --key FILE"], key: "cli.keys.public", options: ["key"]),
            ],
            options: [
                CLIOption("out", "FILE", kind: .file, key: "cli.keys.option.out"),
                CLIOption("audit", key: "cli.keys.option.audit"),
                CLIOption("key", "FILE", kind: .file, key: "cli.keys.option.key"),
            ],
            exits: exits("cli.keys", [.refused], shared: [.success, .usage])),
        CLICommand(
            "chunks", section: 8,
            overview: ["tracedesk chunks publish|list|show [...]"],
            summary: "cli.chunks.summary",
            verbs: [
                CLIVerb(
                    "publish", ["tracedesk chunks publish [--store PATH|URL] [--signing-key FILE] [--config FILE]"],
                    key: "cli.chunks.publish", options: ["store", "signing-key", "config"]),
                CLIVerb(
                    "list", ["tracedesk chunks list [--store PATH|URL] [--json]"], key: "cli.chunks.list",
                    options: ["store", "config", "json"]),
                CLIVerb(
                    "show", ["tracedesk chunks show N|FILE.zip [--store PATH|URL] [--public-key FILE] [--keys]"],
                    key: "cli.chunks.show", options: ["store", "config", "signing-key", "public-key", "keys"]),
            ],
            options: [
                store, CLIOption("signing-key", "FILE", kind: .file, key: "cli.chunks.option.signing-key"), config,
                CLIOption("public-key", "FILE", kind: .file, key: "cli.chunks.option.public-key"),
                CLIOption("keys", key: "cli.chunks.option.keys"), json,
            ],
            notes: ["cli.chunks.notes.settings", "cli.chunks.notes.lock"],
            exits: exits("cli.chunks", [.refused, .usage, .storeUnavailable], shared: [.success])),
        CLICommand(
            "cleanup", page: "chunks", section: 8,
            overview: ["tracedesk cleanup [--store PATH|URL]"],
            summary: "cli.cleanup.summary",
            verbs: [CLIVerb("", ["tracedesk cleanup [--store PATH|URL] [--config FILE]"], key: "cli.cleanup.about")],
            options: [store, config],
            exits: exits("cli.chunks", [.usage, .storeUnavailable], shared: [.success])),
        CLICommand(
            "migrate", page: "store", section: 8,
            overview: ["tracedesk migrate [--store PATH|URL]"],
            summary: "cli.migrate.summary",
            verbs: [CLIVerb("", ["tracedesk migrate [--store PATH|URL]"], key: "cli.migrate.about")],
            options: [store],
            notes: ["cli.store.notes.url"],
            exits: exits("cli.store", [.storeUnavailable], shared: [.success, .usage])),
        CLICommand(
            "store", section: 8,
            overview: ["tracedesk store info [--store PATH|URL] [--json]"],
            summary: "cli.store.summary",
            verbs: [CLIVerb("info", ["tracedesk store info [--store PATH|URL] [--json]"], key: "cli.store.info")],
            options: [store, json],
            notes: ["cli.store.notes.url"],
            exits: exits("cli.store", [.storeUnavailable], shared: [.success, .usage])),
        CLICommand(
            "bench", section: 1,
            overview: [
                "tracedesk bench render [--width W] [--height H] [--frames N]",
                "tracedesk bench seed --store PATH --count N --tokens FILE",
                "tracedesk bench staff [--hashes N] [--authorizations N]",
                "tracedesk bench monitor [--seconds N] [--rate N] | bench events --store PATH [--rate N]",
                "tracedesk bench apricot [--registrations N] [--uploads N] [--store PATH|URL]",
                "tracedesk bench trace [--store PATH|URL] [--users N] [--days N] [--records N]",
                "tracedesk bench stats [--store PATH] [--postgres URL] [--uploads N] [--events N] [--runs N]",
            ],
            summary: "cli.bench.summary",
            // Each benchmark's options in its own forms: its defaults and ranges are here only;
            // the usage lines are made from them.
            verbs: [
                CLIVerb(
                    "render", [], key: "cli.bench.render", options: ["width", "height", "frames", "json"],
                    own: [
                        bench("width", 200, 1...100_000), bench("height", 60, 1...100_000),
                        bench("frames", 2000, 1...100_000),
                    ]),
                CLIVerb(
                    "seed", [], key: "cli.bench.seed",
                    own: [
                        benchStore(required: true), bench("count", nil, 1...5_000_000, key: "count.codes"),
                        CLIOption("tokens", "FILE", required: true, kind: .file, key: "cli.bench.option.tokens"),
                    ]),
                CLIVerb(
                    "keys", [], key: "cli.bench.keys",
                    own: [benchStore(required: true), bench("count", nil, 1...5_000_000, key: "count.keys")]),
                CLIVerb(
                    "publish", [], key: "cli.bench.publish", options: ["keys", "json"],
                    own: [bench("keys", 100_000, 1...5_000_000)]),
                CLIVerb(
                    "staff", [], key: "cli.bench.staff", options: ["hashes", "authorizations", "sign-ins", "json"],
                    own: [
                        bench("hashes", 20, 1...100_000), bench("authorizations", 200, 1...100_000),
                        bench("sign-ins", 10, 1...100_000),
                    ], notes: ["cli.bench.staff.more"]),
                CLIVerb(
                    "apricot", [], key: "cli.bench.apricot",
                    options: ["registrations", "uploads", "records", "store", "json"],
                    own: [
                        bench("registrations", 200, 2...100_000),
                        bench("uploads", 20, 1...10_000, key: "uploads.files"),
                        bench("records", 28_800, 1...ContactFile.maxRecords),
                    ], notes: ["cli.bench.apricot.more"]),
                CLIVerb(
                    "monitor", [], key: "cli.bench.monitor",
                    options: ["seconds", "rate", "polls", "width", "height", "json"],
                    own: [
                        bench("seconds", 10, 1...600), bench("rate", 1_000, 1...100_000),
                        bench("polls", 50, 1...10_000),
                        bench("width", 120, 80...500), bench("height", 40, 24...200),
                    ]),
                CLIVerb(
                    "events", [], key: "cli.bench.events",
                    own: [
                        benchStore(required: true), bench("rate", 1_000, 1...100_000), bench("seconds", 60, 1...3_600),
                    ]),
                CLIVerb(
                    "trace", [], key: "cli.bench.trace",
                    options: ["store", "users", "days", "records", "runs", "json"],
                    own: [
                        bench("users", 10_000, 2...1_000_000), bench("days", 30, 1...30, key: "days.files"),
                        bench("records", 28_800, 1...ContactFile.maxRecords), bench("runs", 5, 1...100),
                    ], notes: ["cli.bench.trace.more"]),
                CLIVerb(
                    "stats", [], key: "cli.bench.stats",
                    options: ["store", "postgres", "uploads", "events", "days", "runs", "json"],
                    own: [
                        CLIOption("store", "PATH", kind: .file, key: "cli.bench.option.store"),
                        bench("uploads", 100_000, 10...10_000_000), bench("events", 1_000_000, 100...100_000_000),
                        bench("days", 14, 1...StatsQuery.maximumDays - 1), bench("runs", 20, 1...1_000),
                    ], notes: ["cli.bench.stats.more"]),
                CLIVerb(
                    "followup", [], key: "cli.bench.followup",
                    options: ["postgres", "follow-ups", "cases", "contacts", "pages", "runs", "trigger-cost", "json"],
                    own: [
                        bench("follow-ups", 100_000, 1...5_000_000), bench("cases", 10_000, 1...1_000_000),
                        bench("contacts", 1_500, 1...2_500), bench("pages", 20, 1...1_000), bench("runs", 3, 1...20),
                    ], notes: ["cli.bench.followup.more"]),
                CLIVerb(
                    "indicators", [], key: "cli.bench.indicators",
                    options: ["store", "postgres", "postmaster-pid", "cases", "follow-ups", "days", "runs", "json"],
                    own: [
                        CLIOption("store", "PATH", kind: .file, key: "cli.bench.option.store"),
                        bench("cases", 10_000, 1...1_000_000), bench("follow-ups", 100_000, 1...10_000_000),
                        bench("days", 14, 1...StatsQuery.maximumDays - 1), bench("runs", 20, 1...1_000),
                    ], notes: ["cli.bench.indicators.more"]),
                CLIVerb(
                    "write-raw", [], key: "cli.bench.write-raw",
                    options: ["store", "op", "threads", "shared", "seconds", "count", "check-only", "json"],
                    own: [
                        CLIOption(
                            "store", "NEW_PATH", required: true, kind: .file, key: "cli.bench.about.store.new"),
                        bench("threads", 1, 1...64), bench("seconds", 5, 1...600),
                        bench("count", 100_000, 1...5_000_000, key: "count.transactions"),
                    ]),
            ],
            options: [
                CLIOption("store", "PATH|URL", kind: .file, key: "cli.bench.option.store"),
                CLIOption("postgres", "URL", key: "cli.bench.option.postgres"),
                CLIOption("postmaster-pid", "PID", key: "cli.bench.option.postmaster-pid"),
                CLIOption("width", "W", key: "cli.bench.option.width"),
                CLIOption("height", "H", key: "cli.bench.option.height"),
                CLIOption("frames", "N", default: "2000", key: "cli.bench.option.frames"),
                CLIOption("count", "N", key: "cli.bench.option.count"),
                CLIOption("tokens", "FILE", kind: .file, key: "cli.bench.option.tokens"),
                CLIOption("keys", "N", default: "100000", key: "cli.bench.option.keys"),
                CLIOption("hashes", "N", default: "20", key: "cli.bench.option.hashes"),
                CLIOption("authorizations", "N", default: "200", key: "cli.bench.option.authorizations"),
                CLIOption("sign-ins", "N", default: "10", key: "cli.bench.option.sign-ins"),
                CLIOption("registrations", "N", default: "200", key: "cli.bench.option.registrations"),
                CLIOption("uploads", "N", key: "cli.bench.option.uploads"),
                CLIOption("records", "N", default: "28800", key: "cli.bench.option.records"),
                CLIOption("seconds", "N", key: "cli.bench.option.seconds"),
                CLIOption("rate", "N", default: "1000", key: "cli.bench.option.rate"),
                CLIOption("polls", "N", default: "50", key: "cli.bench.option.polls"),
                CLIOption("users", "N", default: "10000", key: "cli.bench.option.users"),
                CLIOption("days", "N", key: "cli.bench.option.days"),
                CLIOption("runs", "N", key: "cli.bench.option.runs"),
                CLIOption("events", "N", default: "1000000", key: "cli.bench.option.events"),
                CLIOption("follow-ups", "N", default: "100000", key: "cli.bench.option.follow-ups"),
                CLIOption("cases", "N", default: "10000", key: "cli.bench.option.cases"),
                CLIOption("contacts", "N", default: "1500", key: "cli.bench.option.contacts"),
                CLIOption("pages", "N", default: "20", key: "cli.bench.option.pages"),
                CLIOption(
                    "op", "OP", default: "authorization", allowed: ["authorization", "upload"], word: "operation",
                    key: "cli.bench.option.op"),
                CLIOption("threads", "N", default: "1", key: "cli.bench.option.threads"),
                CLIOption("shared", key: "cli.bench.option.shared"),
                CLIOption("check-only", key: "cli.bench.option.check-only"),
                CLIOption("trigger-cost", key: "cli.bench.option.trigger-cost"),
                CLIOption("json", key: "cli.bench.option.json"),
            ],
            notes: ["cli.bench.notes.release"],
            exits: exits("cli.bench", [], shared: [.success, .refused, .usage, .storeUnavailable]),
            verbHelp: true),
        CLICommand(
            "settings", section: 1,
            overview: ["tracedesk settings [--server URL] [--user NAME] [--theme NAME]"],
            summary: "cli.settings.summary",
            verbs: [
                CLIVerb(
                    "", ["tracedesk settings [--server URL] [--user NAME] [--theme NAME] [--store PATH|URL]"],
                    key: "cli.settings.about")
            ],
            options: [theme, store],
            notes: ["cli.settings.notes.file"],
            exits: exits("cli.settings", [.success], shared: [.usage]),
            takesPerson: true),
        CLICommand(
            "docs", section: 1,
            overview: ["tracedesk docs man --out DIR [--lang en|it]"],
            summary: "cli.docs.summary",
            verbs: [CLIVerb("man", ["tracedesk docs man --out DIR [--lang en|it]"], key: "cli.docs.man")],
            options: [
                CLIOption("out", "DIR", kind: .folder, key: "cli.docs.option.out"),
                CLIOption("lang", "en|it", allowed: ["en", "it"], word: "language", key: "cli.docs.option.lang"),
            ],
            exits: exits("cli.docs", [.refused], shared: [.success, .usage])),
        CLICommand(
            "completion", section: 1,
            overview: ["tracedesk completion bash|zsh|fish"],
            summary: "cli.completion.summary",
            verbs: [
                CLIVerb("bash", ["tracedesk completion bash"], key: "cli.completion.bash"),
                CLIVerb("zsh", ["tracedesk completion zsh"], key: "cli.completion.zsh"),
                CLIVerb("fish", ["tracedesk completion fish"], key: "cli.completion.fish"),
            ],
            options: [],
            exits: exits("cli.completion", [], shared: [.success, .usage])),
    ]

    /// A benchmark's whole-number option: its default and range (description `cli.bench.about.KEY`).
    static func bench(_ name: String, _ defaultValue: Int?, _ range: ClosedRange<Int>, key: String? = nil)
        -> CLIOption
    {
        CLIOption(
            name, "N", default: defaultValue.map(String.init), range: range, required: defaultValue == nil,
            key: "cli.bench.about." + (key ?? name))
    }

    /// A benchmark's --store PATH|URL.
    static func benchStore(required: Bool) -> CLIOption {
        CLIOption("store", "PATH|URL", required: required, kind: .file, key: "cli.bench.option.store")
    }

    /// The call outcomes as typed: `no-answer`, `voicemail`, …
    package static let outcomes = CallOutcome.allCases.map(\.argument)

    /// The environment variables the binary reads, with the catalogue key of each.
    package static let environment: [(name: String, key: String)] = [
        ("TRACEDESK_STORE", "cli.env.store"), ("TRACEDESK_USER", "cli.env.user"), ("NO_COLOR", "cli.env.no-color"),
        ("TRACEDESK_OTP_TTL_SECONDS", "cli.env.otp-ttl"), ("TRACEDESK_THEMES", "cli.env.themes"),
        ("TRACEDESK_BUSY_TIMEOUT_MS", "cli.env.busy-timeout"), ("TRACEDESK_IDLE_LOCK_SECONDS", "cli.env.idle-lock"),
        ("TRACEDESK_SETUP_TOKEN", "cli.env.setup-token"), ("TRACEDESK_COPY", "cli.env.copy"),
        ("TRACEDESK_CONFIG", "cli.env.config"), ("TRACEDESK_<SETTING>", "cli.env.setting"),
        ("LC_ALL, LC_MESSAGES, LANG", "cli.env.locale"),
    ]

    /// The files the binary reads and writes, with the catalogue key of each.
    package static let files: [(path: String, key: String)] = [
        ("$XDG_DATA_HOME/tracedesk/tracedesk.sqlite", "cli.file.store"),
        ("$XDG_CONFIG_HOME/tracedesk/console.json", "cli.file.settings"),
        ("$XDG_STATE_HOME/tracedesk/dashboard-range", "cli.file.range"),
        ("/usr/share/tracedesk/themes", "cli.file.themes"),
    ]
}

extension String {
    /// `opened_in_error` as typed: `opened-in-error`.
    var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
