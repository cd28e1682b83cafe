extension English {
    /// The command line's help, man pages, completions and output (its lines, summaries, refusals
    /// and prompts; not --json, CSV or the server's log) in English (keys `cli.…`: the table of
    /// commands in DeskCLI names them). A blank line parts paragraphs; a line that starts with a
    /// space is kept as it is.
    static let cli: [(String, String)] =
        headings + shared + commands1 + commands2 + commands3 + bench + usage + operating + tracing + supervision
        + statistics
}

extension English {
    static let headings: [(String, String)] = [
        ("cli.heading.usage", "Usage:"),
        ("cli.heading.options", "Options:"),
        ("cli.heading.environment", "Environment:"),
        ("cli.heading.exit", "Exit status:"),
        ("cli.man.name", "NAME"),
        ("cli.man.synopsis", "SYNOPSIS"),
        ("cli.man.description", "DESCRIPTION"),
        ("cli.man.commands", "COMMANDS"),
        ("cli.man.options", "OPTIONS"),
        ("cli.man.environment", "ENVIRONMENT"),
        ("cli.man.exit", "EXIT STATUS"),
        ("cli.man.files", "FILES"),
        ("cli.man.seealso", "SEE ALSO"),
        ("cli.man.tagline", "the contact-tracing staff console"),
        (
            "cli.main.more",
            "Each command's --help (tracedesk case --help, …) and its man page (man tracedesk-case; tracedesk(1) lists them) say more."
        ),
        ("cli.main.title", "TraceDesk: the contact-tracing staff console."),
    ]

    static let shared: [(String, String)] = [
        (
            "cli.console.summary",
            """
            Opens the console: sign in, then your role's screens (an operator authorises an app's \
            upload during a phone call; a tracer looks a patient's contacts up; a supervisor watches \
            the dashboard and the monitor; an admin manages staff and reads the audit log).
            """
        ),
        (
            "cli.console.keys",
            """
            In the console, ? (F1 while typing) lists the keys of the moment, : (or Ctrl-P) opens the \
            command palette (:monitor, :export, :signout, :quit…), Ctrl-L redraws, Ctrl-Z suspends to \
            the shell (fg comes back); docs/operator-guide.md has the table of keys.
            """
        ),
        (
            "cli.option.lang",
            """
            the language of the screens, messages and help (before the command); else the console's \
            settings file, else LC_ALL, LC_MESSAGES or LANG, else English
            """
        ),
        (
            "cli.option.user",
            """
            who acts (default TRACEDESK_USER); the password is asked without echo (the console fills \
            in its sign-in screen's name and asks there)
            """
        ),
        (
            "cli.option.password-stdin",
            "read passwords from stdin, one per line, instead of the terminal (subcommands only)"
        ),
        (
            "cli.option.server",
            """
            act through a server's staff API (its internal listener, e.g. http://127.0.0.1:8081) \
            instead of opening a store
            """
        ),
        (
            "cli.option.store",
            """
            the SQLite store (default $XDG_DATA_HOME/tracedesk/tracedesk.sqlite, i.e. \
            ~/.local/share/tracedesk/tracedesk.sqlite; created on first run), or a PostgreSQL URL \
            postgres://USER@HOST:PORT/DATABASE
            """
        ),
        ("cli.option.json", "print what the staff API answers (docs/staff-api.yaml), on the store too"),
        ("cli.option.theme", "a theme from themes/NAME.json: default, high-contrast, monochrome"),
        ("cli.option.no-color", "monochrome (also when NO_COLOR is set and not empty)"),
        ("cli.option.no-mouse", "leave the mouse to the terminal (text selection)"),
        (
            "cli.option.no-copy",
            """
            y copies nothing (also when TRACEDESK_COPY=off); otherwise y copies a phone number \
            (audited), a code tag or a row to the clipboard with OSC 52, which works over SSH and in \
            tmux (set -g set-clipboard on)
            """
        ),
        (
            "cli.option.refresh",
            """
            how often the supervisor's dashboard reads its figures again: 1 to 3600, or 0 for only \
            when r is pressed (default 5); the range it shows (0-4) is kept for the next run in \
            $XDG_STATE_HOME/tracedesk/dashboard-range (~/.local/state/tracedesk/dashboard-range)
            """
        ),
        (
            "cli.option.config",
            "the server's settings, a JSON file (or TRACEDESK_CONFIG); tracedesk serve --settings lists them"
        ),
        ("cli.exit.0", "ok"),
        ("cli.exit.1", "input refused (an invalid code, a bad date…): the reason is on stderr"),
        ("cli.exit.2", "usage error"),
        ("cli.exit.3", "already authorised (otp authorize: nothing changed)"),
        ("cli.exit.4", "store or server unavailable"),
        ("cli.exit.5", "cannot listen (serve)"),
        ("cli.exit.6", "sign-in failed or not allowed for the role"),
        ("cli.exit.7", "audit chain broken or not matching its checkpoints"),
        (
            "cli.exit.129",
            "stopped by SIGHUP (128 + the signal), after signing out and restoring the terminal"
        ),
        ("cli.exit.130", "stopped by SIGINT (Ctrl-C), after signing out and restoring the terminal"),
        ("cli.exit.143", "stopped by SIGTERM, after signing out and restoring the terminal"),
        ("cli.env.store", "the store when --store is not given"),
        ("cli.env.user", "who acts when --user is not given"),
        ("cli.env.no-color", "monochrome, when set and not empty"),
        ("cli.env.otp-ttl", "how long an authorisation lasts, 10 to 3600 seconds (default 150)"),
        ("cli.env.themes", "an extra theme folder"),
        (
            "cli.env.busy-timeout",
            """
            how long to wait for another process's write lock or a free database connection, in \
            milliseconds (default 5000)
            """
        ),
        (
            "cli.env.idle-lock",
            """
            lock the console after this many seconds without a key, 2 to 86400; default and upper \
            limit: the session's idle limit, 10 min
            """
        ),
        (
            "cli.env.setup-token",
            "a fresh server's one-time setup token, for its first admin with staff add --server"
        ),
        ("cli.env.copy", "off: the console's y copies nothing, as --no-copy"),
        ("cli.env.config", "the server's settings file, when --config is not given"),
        (
            "cli.env.setting",
            "one server setting (e.g. TRACEDESK_OTP_TTL_SECONDS=300): tracedesk serve --settings lists them"
        ),
        ("cli.env.locale", "the language, when neither --lang nor the console's settings file names one"),
        ("cli.file.store", "the default store (~/.local/share/tracedesk/tracedesk.sqlite)"),
        (
            "cli.file.settings",
            "the console's settings: server, user, theme, language, export_folder (tracedesk settings)"
        ),
        ("cli.file.range", "the range the supervisor's dashboard showed last"),
        ("cli.file.themes", "the installed themes (default, high-contrast, monochrome)"),
    ]
}

extension English {
    /// The staff's commands: otp, trace, case, queue, followup.
    static let commands1: [(String, String)] = [
        ("cli.otp.summary", "The operator's flow from the command line: check, authorise and follow an app's code."),
        (
            "cli.otp.check",
            """
            Checks a code offline (alphabet, length, check character). Prints "valid" and exits 0, \
            or prints the reason and exits 1.
            """
        ),
        (
            "cli.otp.authorize",
            """
            Authorises the app showing CODE to upload its keys for 150 s. Exit 0 authorised, 3 already \
            authorised (nothing changed), 1 refused (reason on stderr), 4 store or server unavailable, \
            6 not allowed.
            """
        ),
        (
            "cli.otp.status",
            """
            Shows what the store knows about CODE: unknown, authorized, expired or consumed. Exit 0, \
            1 for an invalid code, 4 store or server unavailable, 6 not allowed (an operator follows \
            only the codes they authorised).
            """
        ),
        ("cli.otp.option.symptoms", "required for authorize: the day symptoms started (YYYY-MM-DD)"),
        (
            "cli.otp.option.code-stdin",
            """
            read CODE from stdin's first line instead: a code in the arguments shows in `ps` and in \
            the shell's history while it is live
            """
        ),
        (
            "cli.otp.notes.person",
            """
            authorize and status act for a person: --user NAME (or TRACEDESK_USER) and their password \
            (asked without echo, or the first line of stdin with --password-stdin); authorize needs \
            the operator role, status the operator (own codes) or supervisor role. --server URL does \
            the same through a server's staff API instead of a store. Exit 6: sign-in failed or the \
            role does not allow it.
            """
        ),
        (
            "cli.otp.notes.code",
            """
            CODE may be typed as the app shows it: 9K2-RAY8-UUQ, 9k2 ray8 uuq or 9K2RAY8UUQ. With \
            --code-stdin and --password-stdin, the code is the first line and the password the second:
              printf '%s\\n%s\\n' "$code" "$password" | tracedesk otp authorize --code-stdin \\
                --password-stdin --symptoms 2026-11-27 --user NAME
            """
        ),
        (
            "cli.otp.notes.store",
            """
            The store defaults to TRACEDESK_STORE, then $XDG_DATA_HOME/tracedesk/tracedesk.sqlite; \
            --store takes an SQLite path or a postgres://USER@HOST:PORT/DATABASE URL. \
            TRACEDESK_OTP_TTL_SECONDS (10-3600, default 150) sets how long an authorisation lasts.
            """
        ),
        ("cli.otp.exit.1", "refused: an invalid code, a bad date (the reason is on stderr)"),
        ("cli.otp.exit.3", "authorize: already authorised (nothing changed)"),
        ("cli.otp.exit.6", "sign-in failed or the role does not allow it"),

        (
            "cli.trace.summary",
            "The contact tracer's lookup: a patient's contacts by phone number."
        ),
        (
            "cli.trace.about",
            """
            Looks a positive patient up by phone number (APRICOT) and prints their summary and one row \
            per contact person, most minutes first. PHONE as the patient gives it: +39 333 123 4567, \
            0039 333 1234567, or without the country code (the desk adds its default, +39 unless \
            configured). Quote it if it has spaces.
            """
        ),
        (
            "cli.trace.option.purpose",
            "required: the case reference or reason, kept in the audit log with every lookup and export"
        ),
        (
            "cli.trace.option.csv",
            """
            the contacts as CSV, the columns of the console's export (contact_user_id, phone, \
            close_contact, minutes, most_minutes_on_one_day, days, sightings, first_seen, last_seen, \
            outcome, outcome_note, outcome_by, outcome_at); with --sightings, the raw sightings instead \
            (time, file_day, beacon, contact_user_id, contact_phone)
            """
        ),
        (
            "cli.trace.option.json",
            "the lookup as the staff API answers it; with --sightings, a \"sightings\" list is added"
        ),
        (
            "cli.trace.option.sightings",
            "also the raw sightings of the patient's files, oldest first (unresolved ones included)"
        ),
        (
            "cli.trace.option.phone-stdin",
            """
            read the patient's number from stdin's first line instead of PHONE: a number in the \
            arguments shows in `ps` and in the shell's history. With --password-stdin too, the number \
            is the first line and the password the second:
              printf '%s\\n%s\\n' "$number" "$password" | tracedesk trace \\
                --phone-stdin --password-stdin --purpose "case 2026-1234" --user NAME
            """
        ),
        (
            "cli.trace.notes.audit",
            """
            Needs the tracer role. --csv and --json are exports: recorded in the audit log (with the \
            purpose and the number of rows: contacts, or sightings with --sightings) before anything \
            is printed. Times are UTC (2026-11-29T10:00:00.000Z) in CSV and JSON, local in the table. \
            The options --user, --password-stdin, --store and --server work as for 'tracedesk staff'.
            """
        ),
        ("cli.trace.exit.0", "found (also a patient with no uploads: the output says so)"),
        (
            "cli.trace.exit.1",
            """
            refused (a number in a wrong format, a number nobody registered, an empty purpose: the \
            reason is on stderr)
            """
        ),
        ("cli.trace.exit.6", "sign-in failed or not a tracer"),

        (
            "cli.case.summary",
            """
            A positive patient's case: its close contacts become follow-ups, assigned to tracers.
            """
        ),
        (
            "cli.case.open",
            """
            Opens a case for a positive patient by phone number (as for tracedesk trace: \
            +39 333 123 4567, or without the country code). Every close contact in the patient's \
            contact files becomes a follow-up of the case (or joins the one the person already has for \
            another open case: the latest exposure counts), assigned to the active tracer with the \
            fewest open follow-ups, or to you with --mine. A patient with an open case already: that \
            case, unchanged (exit 0, the output says so). Days are YYYY-MM-DD (UTC), not in the future.
            """
        ),
        (
            "cli.case.list",
            """
            Cases, newest first: open ones (default), closed ones, or all (at most N, 1 to 1000, \
            default 200). A tracer sees the cases they opened; a supervisor every case, or one \
            tracer's with --opened-by.
            """
        ),
        (
            "cli.case.show",
            """
            One case: the patient, the index day, who opened it, its status, the cases it came from or \
            led to, its follow-ups (active first) and its history.
            """
        ),
        (
            "cli.case.close",
            """
            Closes an open case (a tracer their own, a supervisor any). Its follow-ups that name no \
            other open case end. The note is kept with the case, not in the audit log.
            """
        ),
        (
            "cli.case.add",
            """
            Adds a contact by hand (a registered APRICOT user) to an open case, with why ("household \
            member, no phone seen"). Someone already followed for the case: that follow-up, unchanged.
            """
        ),
        (
            "cli.case.option.reference",
            """
            required for open: the health authority's case number (at most 64 characters), kept in \
            the audit log with every view of the case
            """
        ),
        ("cli.case.option.onset", "open: the day symptoms started"),
        (
            "cli.case.option.test-day",
            "open: the day of the positive test, for a patient without symptoms; neither: today, as a test day"
        ),
        ("cli.case.option.mine", "open: assign the follow-ups to you"),
        ("cli.case.option.opened-by", "list: one tracer's cases (supervisor)"),
        ("cli.case.option.closed", "list: the closed cases"),
        ("cli.case.option.all", "list: every case, open and closed"),
        ("cli.case.option.limit", "list: at most N cases, 1 to 1000 (default 200)"),
        (
            "cli.case.option.reason",
            """
            close: why, one of recovered, transferred, opened-in-error, other; add: why the person is \
            a contact, in words
            """
        ),
        ("cli.case.option.note", "close: at most 500 characters on one line, kept with the case"),
        (
            "cli.case.option.phone-stdin",
            """
            read PHONE from stdin's first line instead (a number in the arguments shows in `ps` and \
            in the shell's history); with --password-stdin, the password is the next line
            """
        ),
        (
            "cli.case.option.json",
            "what the staff API answers (docs/staff-api.yaml, \"Cases and follow-ups\"), on the store too"
        ),
        (
            "cli.case.notes.roles",
            """
            Needs the tracer role (list, show and close: a supervisor too). Every view and change is \
            audited (case_opened, follow_up_viewed, case_closed, follow_up_added), with the case as \
            `case N`, never a phone number or a note. Times are local in the text, UTC in JSON. The \
            options --user, --password-stdin, --store and --server work as for 'tracedesk staff'.
            """
        ),
        (
            "cli.case.exit.1",
            """
            refused (a number in a wrong format or nobody registered, an empty reference, a case that \
            is closed or not yours to change: the reason is on stderr)
            """
        ),
        ("cli.case.exit.4", "store or server unavailable (also: this desk has no case follow-up yet)"),

        ("cli.queue.summary", "The follow-ups due, overdue first: whom to call now."),
        (
            "cli.queue.about",
            """
            The follow-ups to call or check, due first: overdue and due now, then later today (with \
            --later, the days ahead too), in the order of their due time, then their number. Each row: \
            the follow-up's number (for tracedesk followup), when it is due, the person's full number, \
            the case (+N: followed for N more cases), the state, the attempts so far, the last outcome \
            and why the person is a contact (minutes, days, last exposure). The first line counts the \
            whole queue, not only the page.
            """
        ),
        ("cli.queue.option.mine", "yours (the default for a tracer, and a tracer's only choice)"),
        ("cli.queue.option.tracer", "one tracer's (supervisor)"),
        ("cli.queue.option.unassigned", "follow-ups no tracer has yet (supervisor)"),
        ("cli.queue.option.everyone", "everyone's (supervisor; the default for a supervisor)"),
        ("cli.queue.option.later", "also the follow-ups due on later days"),
        (
            "cli.queue.option.search",
            """
            only those whose case reference or phone number holds TEXT (digits of a number match \
            wherever they appear)
            """
        ),
        (
            "cli.queue.option.limit",
            """
            at most N rows, 1 to 500 (default 100); when there are more, the last line gives the \
            --after CURSOR of the next page
            """
        ),
        ("cli.queue.option.after", "the page after CURSOR (as the previous page printed it)"),
        (
            "cli.queue.option.json",
            """
            what the staff API answers (POST /staff/v1/queue): rows, counts, next (the cursor of the \
            next page, or null), read_at
            """
        ),
        (
            "cli.queue.option.csv",
            """
            the rows as CSV: {columns}
            """
        ),
        (
            "cli.queue.notes.work",
            """
            Work a row with: tracedesk followup attempt ID --outcome …, followup check ID …; a \
            supervisor reassigns with tracedesk followup assign ID… --to TRACER.
            """
        ),
        (
            "cli.queue.notes.roles",
            """
            Needs the tracer or supervisor role. Every page read is audited (follow_up_viewed, target \
            queue) with how many persons it showed. Times are local in the table, UTC in CSV and JSON. \
            The options --user, --password-stdin, --store and --server work as for 'tracedesk staff'.
            """
        ),
        ("cli.queue.exit.0", "ok (also an empty queue: the output says so)"),
        ("cli.queue.exit.1", "refused (a tracer that does not exist)"),
        ("cli.queue.exit.4", "store or server unavailable (also: this desk has no case follow-up yet)"),
        ("cli.queue.exit.6", "sign-in failed, or not allowed (another tracer's queue for a tracer)"),

        (
            "cli.followup.summary",
            "One follow-up: its calls and daily checks; a supervisor's reassignment."
        ),
        (
            "cli.followup.show",
            """
            One follow-up: the person's number, its state, who it is assigned to, when the next call or \
            check is due, the period, why the person is followed (per case: the minutes, days and last \
            exposure of the APRICOT evidence, or the reason they were added by hand), every attempt and \
            every daily check.
            """
        ),
        (
            "cli.followup.attempt",
            """
            Records a call to the person and schedules what comes next: no answer or voicemail, another \
            call after the retry interval (at most a few a day; never reached for days: lost to \
            follow-up); wrong number or refused ends the follow-up; reached, the daily checks begin \
            (today's is due at once).
            """
        ),
        (
            "cli.followup.check",
            """
            Records today's daily check of a person who was reached. Symptoms flag the follow-up for the \
            supervisor and the case's tracer. The next check is due tomorrow, until the period ends.
            """
        ),
        (
            "cli.followup.assign",
            """
            Gives one or many follow-ups to an enabled tracer account (supervisor): nothing changes \
            when the name is not a tracer's.
            """
        ),
        (
            "cli.followup.option.outcome",
            "attempt: what the call came to: no-answer, voicemail, wrong-number, reached or refused"
        ),
        ("cli.followup.option.symptoms", "check: whether the person has symptoms today"),
        ("cli.followup.option.isolating", "check: whether the person is staying in isolation"),
        ("cli.followup.option.to", "assign: the tracer who takes the follow-ups"),
        (
            "cli.followup.option.note",
            "at most 500 characters on one line; kept with the attempt or check, never in the audit log"
        ),
        (
            "cli.followup.option.json",
            """
            what the staff API answers (docs/staff-api.yaml): the follow-up after the change; for show, \
            with its attempts and checks; for assign, a "follow_ups" list
            """
        ),
        (
            "cli.followup.notes.id",
            "ID is the follow-up's number, as tracedesk queue and tracedesk case show print it."
        ),
        (
            "cli.followup.notes.roles",
            """
            Needs the tracer role (attempts and checks: on follow-ups assigned to you), or the \
            supervisor role (show, assign). Every view and change is audited (follow_up_viewed, \
            follow_up_attempt, follow_up_check, follow_up_assigned) with the follow-up's number, never \
            a phone number or a note. The options --user, --password-stdin, --store and --server work \
            as for 'tracedesk staff'.
            """
        ),
        (
            "cli.followup.exit.1",
            """
            refused (a follow-up that has ended, a check before the person was reached, a name that is \
            not an enabled tracer's: the reason is on stderr)
            """
        ),
        ("cli.followup.exit.4", "store or server unavailable (also: this desk has no case follow-up yet)"),
        ("cli.followup.exit.6", "sign-in failed, or not allowed (someone else's follow-up, the wrong role)"),
    ]
}

extension English {
    /// The admins' and the supervisor's commands: staff, audit, his, sms, stats, serve.
    static let commands2: [(String, String)] = [
        (
            "cli.staff.summary",
            """
            Staff accounts and roles; the first admin is made here or by the console when the store \
            has no account.
            """
        ),
        (
            "cli.staff.add",
            """
            Adds an account. Asks for its password twice (without echo). With no account in the store \
            yet, the first admin is made this way without --user (its role must be admin). Through \
            --server, the server's one-time setup token (printed by tracedesk serve at start) goes in \
            TRACEDESK_SETUP_TOKEN.
            """
        ),
        (
            "cli.staff.list",
            """
            Every account: name, role, state (active, locked, disabled), failed sign-ins, last \
            sign-in, who made it.
            """
        ),
        ("cli.staff.disable", "Disables an account for good (it keeps its name) and ends its sessions."),
        ("cli.staff.reset-password", "Sets a new password (asked twice), unlocks the account, ends its sessions."),
        (
            "cli.staff.recover",
            """
            Break-glass, for whoever can write the store itself (not through --server): when every \
            admin is locked or gone. Gives NAME a new password (asked twice) and unlocks it, or, if \
            there is no such account, adds NAME as an admin. Audited with the actor \
            "store-access:<your OS user>".
            """
        ),
        (
            "cli.staff.option.role",
            """
            add: operator (authorise codes), tracer (contact trace), supervisor (monitor all), admin \
            (accounts, audit)
            """
        ),
        (
            "cli.staff.notes.person",
            """
            Every command acts for the person --user names (or TRACEDESK_USER) and asks for their \
            password on the terminal. --password-stdin reads passwords from stdin instead, one per \
            line: first the acting person's, then the new one (staff add, reset-password). --store \
            PATH|URL picks the embedded store; --server URL acts through a server's staff API instead.
            """
        ),
        (
            "cli.staff.notes.rules",
            """
            Names: a letter, then letters a-z, digits, . - _ (at most 32). Passwords: at least 10 \
            characters, not containing the name.
            """
        ),
        ("cli.staff.exit.1", "refused (bad name or password, name taken)"),

        (
            "cli.audit.summary",
            """
            Checks the audit log's hash chain (against signed checkpoints kept outside the store, with \
            --checkpoints); appends a checkpoint; lists entries.
            """
        ),
        (
            "cli.audit.verify",
            """
            Checks the audit log's hash chain from the first entry to the last. Prints "intact: N \
            entries, head <hash>" and exits 0, or names the first broken entry and why, and exits 7. \
            The chain alone cannot show a rewrite by someone who can write the store and recomputes \
            every later hash: with --checkpoints FILE (signed checkpoints kept outside the store) and \
            --public-key FILE (the audit key's public key), every checkpoint's signature and order is \
            checked, and the chain must have each checkpoint's head hash at its count. A rewritten, \
            reordered or cut-short chain exits 7 and says between which checkpoints it changed; a \
            damaged line or another key exits 1. Entries after the last checkpoint are not covered.
            """
        ),
        (
            "cli.audit.checkpoint",
            """
            Appends one signed checkpoint (entries, head hash, time, key id) of the chain as it is now \
            to FILE (created 0600), after checking that the chain is whole and that FILE's checkpoints \
            still match it (exit 7 otherwise, nothing appended). --key is the audit key (tracedesk keys \
            generate --audit --out FILE). The server does the same by itself with audit_key_path and \
            audit_checkpoint_path (docs/admin-guide.md).
            """
        ),
        (
            "cli.audit.list",
            """
            Entries, newest first (default 50; --day is a day in local time; --subject is whom or what \
            it was done to, the entry's target: an account, user 7, an HIS client). Actions: {actions}.
            """
        ),
        ("cli.audit.option.checkpoints", "verify: the signed checkpoints kept outside the store"),
        ("cli.audit.option.public-key", "verify: the audit key's public key (PEM)"),
        ("cli.audit.option.key", "checkpoint: the audit key (tracedesk keys generate --audit)"),
        ("cli.audit.option.out", "checkpoint: the checkpoint file to append to"),
        ("cli.audit.option.actor", "list: entries by this person"),
        ("cli.audit.option.subject", "list: entries done to this account, user or client"),
        ("cli.audit.option.action", "list: entries of this action, one of {actions}"),
        ("cli.audit.option.day", "list: entries of this day (local time)"),
        ("cli.audit.option.limit", "list: at most N entries (default 50)"),
        (
            "cli.audit.option.json",
            """
            what the staff API answers (GET /staff/v1/audit, /audit/verification); with \
            --checkpoints, that answer as "chain" beside what the checkpoints came to
            """
        ),
        (
            "cli.audit.notes.person",
            "The options --user, --password-stdin, --store and --server work as for 'tracedesk staff'."
        ),
        ("cli.audit.exit.1", "refused (a key or checkpoint file that cannot be used)"),
        ("cli.audit.exit.7", "the chain is broken or does not match its checkpoints"),

        (
            "cli.his.summary",
            "The hospital systems that may authorise codes (POST /v1/otp), each with its API key (admin)."
        ),
        (
            "cli.his.add",
            """
            Adds a hospital system and prints its API key, once: give it to the HIS, which sends it as \
            "Authorization: Bearer KEY" on POST /v1/otp. The store keeps only the key's SHA-256, so a \
            lost key cannot be shown again: revoke the client and add another.
            """
        ),
        ("cli.his.list", "Every client: name, state (active, revoked), rate limit, who added it and when."),
        (
            "cli.his.revoke",
            """
            Revokes a client for good (it keeps its name): its key and certificate are refused from \
            the next request on, on every server of the store.
            """
        ),
        (
            "cli.his.option.rate",
            """
            add: authorisations a minute this client may make on each server (default: the server's \
            his_rate_per_minute)
            """
        ),
        (
            "cli.his.notes.names",
            """
            Names follow the rules of staff names: a letter, then letters a-z, digits, . - _ (at most \
            32); events, the audit log and the statistics name the client "his:NAME". A client with a \
            TLS client certificate (his_auth certificate) is the client its certificate's subject CN \
            names; it is added the same way (its key is then unused). The options --user, \
            --password-stdin, --store and --server work as for 'tracedesk staff'.
            """
        ),
        ("cli.his.exit.1", "refused (bad name, name taken, no such client)"),

        ("cli.sms.summary", "The APRICOT SMS outbox, newest first (admin)."),
        (
            "cli.sms.outbox",
            """
            The newest SMS messages (default 50, at most 1000), newest first: when, to whom, the \
            gateway (outbox: kept here, never sent; http: sent to the provider), the status (held, \
            pending, sent, failed), attempts, the text (with the http gateway its code masked; once the \
            code has expired, been used or been replaced, the text is dropped and the entry says why) \
            and the last delivery detail. With sms_gateway outbox (the default) this is where the codes \
            of POST /apricot/v1/otp are read, for training and test deployments.
            """
        ),
        ("cli.sms.option.limit", "at most N messages, 1 to 1000 (default 50)"),
        ("cli.sms.option.json", "what the staff API answers (GET /staff/v1/sms/outbox)"),
        (
            "cli.sms.notes.audit",
            """
            The texts hold sign-in codes and the rows phone numbers: reading the outbox is audited \
            (sms_outbox_read). The options --user, --password-stdin, --store and --server work as for \
            'tracedesk staff'.
            """
        ),
        ("cli.sms.exit.6", "sign-in failed or not an admin"),

        (
            "cli.stats.summary",
            """
            The supervisor's statistics: authorisations, uploads, keys, chunks, analytics by province, \
            APRICOT figures, tracing indicators.
            """
        ),
        (
            "cli.stats.about",
            """
            The supervisor's statistics over a time range: codes authorised per operator and what \
            became of them (checked, uploaded, median time to upload), uploads and keys (accepted, \
            dropped by reason, keys per upload), uploads refused, chunks published, real and dummy \
            phone requests, analytics by province, APRICOT registrations, contact files, lookups per \
            tracer, pseudo-ids used; then the tracing indicators over the cases opened in the range \
            (contacts per case, close contacts reached in 24 h, time to the first contact reached, \
            checked every day, not reached yet, lost to follow-up, known contacts, and per tracer: \
            assigned, due, overdue, done today). docs/supervisor-guide.md says what every figure counts.
            """
        ),
        (
            "cli.stats.option.range",
            """
            the last 1h, 24h (default), 7d or 14d, the current bucket included; today: since midnight \
            in the local zone (TZ), in hours
            """
        ),
        (
            "cli.stats.option.bucket",
            """
            5m, hour or day; default 5m for 1h, hour for today and 24h, day for 7d and 14d (today in \
            day buckets is counted in hours) (5-minute buckets cover at most 24 hours)
            """
        ),
        (
            "cli.stats.option.from",
            """
            instead of --range: from TIME (UTC, 2026-11-29T10:00:00Z, 2026-11-29T10:00:00.000Z or a \
            day 2026-11-29 for its midnight), moved down to its bucket's start; at most 31 days
            """
        ),
        (
            "cli.stats.option.to",
            """
            with --from: up to TIME, not included (default now); without --bucket the bucket is 5m up \
            to 3 hours, hour up to 3 days, day beyond
            """
        ),
        (
            "cli.stats.option.json",
            """
            the figures as the staff API answers them (series as arrays, one value per bucket; shares \
            not included: divide the counts), and the indicators as the member "tracing"
            """
        ),
        (
            "cli.stats.option.csv",
            """
            the dashboard's CSV export: section,figure,key,label,bucket_start,value (the indicators in \
            the sections tracing, unreached, tracer_load)
            """
        ),
        (
            "cli.stats.notes.roles",
            """
            Needs the supervisor role. Not audited (figures only). Buckets are UTC; the text output \
            shows UTC times. The options --user, --password-stdin, --store and --server work as for \
            'tracedesk staff'.
            """
        ),
        ("cli.stats.exit.0", "ok (also when the range holds no data: the output says so)"),
        (
            "cli.stats.exit.1",
            "refused (a range the store or server cannot count: the reason is on stderr)"
        ),
        (
            "cli.stats.exit.2",
            """
            usage error (an unknown range or bucket, --range with --from, --from after --to, a range \
            too long)
            """
        ),
        ("cli.stats.exit.4", "store or server unavailable"),
        ("cli.stats.exit.6", "sign-in failed or not a supervisor"),

        (
            "cli.serve.summary",
            "Serves the Immuni and APRICOT APIs to phones and hospital systems."
        ),
        (
            "cli.serve.about",
            """
            Serves the Immuni API (docs/api.md) and the APRICOT API (docs/apricot-api.md):
              public listener    phones: /v1/settings, /v1/ingestion/*,
                                 /v1/analytics/*, /v1/keys/index and /v1/keys/N
                                 (the published chunks); APRICOT apps:
                                 /apricot/v1/settings, otp, login, contacts/DAY
              internal listener  hospital systems and operations: POST /v1/otp,
                                 GET /metrics, the staff API (/staff/v1) for
                                 consoles and the CLI
              HIS listener       with --his-listen (his_listen): POST /v1/otp
                                 alone, for hospitals on a network of their own
                                 (internal then no longer serves it)
            They listen on loopback unless told otherwise; put the public one behind a proxy or give \
            --tls-cert/--tls-key (docs/deployment.md).
            """
        ),
        ("cli.serve.option.listen", "the public listener, an IPv4 address and port (default 127.0.0.1:8080)"),
        (
            "cli.serve.option.internal-listen",
            "the internal listener, an IPv4 address and port (default 127.0.0.1:8081)"
        ),
        ("cli.serve.option.his-listen", "a listener of its own for POST /v1/otp (his_listen)"),
        ("cli.serve.option.tls-cert", "the TLS certificate (PEM) of the listeners; with --tls-key"),
        ("cli.serve.option.tls-key", "the TLS private key (PEM) of --tls-cert"),
        ("cli.serve.option.signing-key", "the P-256 key that signs TEK chunks (signing_key_path)"),
        ("cli.serve.option.log-format", "text (the default) or json: one JSON object a line (log_format)"),
        ("cli.serve.option.settings", "list every setting with its value and meaning, and exit"),
        (
            "cli.serve.notes.his",
            """
            Hospital systems authenticate on POST /v1/otp (his_auth): key (default) with \
            "Authorization: Bearer KEY" of a client an admin made with tracedesk his add; certificate \
            with a TLS client certificate verified against his_ca_file; none lets anyone in (closed \
            test networks only; warned at every start). Without a valid credential: 401.
            """
        ),
        (
            "cli.serve.notes.store",
            """
            Store: an SQLite file (one server), or postgres://USER@HOST:PORT/DATABASE: any number of \
            servers share one PostgreSQL database (docs/deployment.md). On PostgreSQL a server keeps \
            up to store_pool_size connections; while the database is unreachable requests get 503 with \
            Retry-After, and the server reconnects by itself when it is back.
            """
        ),
        (
            "cli.serve.notes.jobs",
            """
            Jobs: every publish_interval_seconds (1 h) keys past their embargo are published as chunks \
            signed with --signing-key (signing_key_path; make one with tracedesk keys generate); every \
            cleanup_interval_seconds (1 day) old data is deleted; every stats_rollup_interval_seconds \
            (5 min) the statistics of closed hours are rolled up for the supervisor's dashboard. All \
            three also run at start. Without a signing key serve refuses to start, unless \
            signing_key_required is false: then it publishes nothing and says so in the log and in \
            /metrics. With several servers on one PostgreSQL, one runs each job at a time; the others \
            log "skipped: another server holds the lock".
            """
        ),
        (
            "cli.serve.notes.checkpoints",
            """
            Audit checkpoints: with audit_key_path (tracedesk keys generate --audit) and \
            audit_checkpoint_path, the server appends a signed checkpoint of the audit chain to that \
            file at start, every audit_checkpoint_every_entries (1000) new entries and hourly while \
            entries are added, so a store writer cannot rewrite the log unseen (tracedesk audit verify \
            --checkpoints; docs/admin-guide.md). Without them a note at start says so.
            """
        ),
        (
            "cli.serve.notes.sms",
            """
            APRICOT SMS codes go through sms_gateway: outbox (default: kept for admins, read with \
            tracedesk sms outbox; nothing is sent) or http (sms_http_url, sms_http_api_key). Codes are \
            kept as HMACs keyed by a secret: beside an SQLite store it is made on first start \
            (STORE.code-secret); with PostgreSQL give every server the same apricot_code_secret_file, \
            or APRICOT answers 503 and says so.
            """
        ),
        (
            "cli.serve.notes.setup",
            """
            While the store has no staff account, serve makes a one-time setup token at start, prints \
            it on stdout ("setup token: …", never in the log) and writes it to setup_token_file \
            (default STORE.setup-token, mode 0600): the first admin made through the staff API must \
            give it (tracedesk staff add NAME --role admin on the store needs none). Sign-ins are \
            admitted to the password hash by budgets per client address and per name (sign_in_*; \
            more: 429 with Retry-After). After an address's third wrong password on an account its \
            next try waits sign_in_first_wait_seconds (2, and never less), doubled for each further \
            failure up to 5 min.
            """
        ),
        (
            "cli.serve.notes.settings",
            """
            Settings come from the --config JSON file (or TRACEDESK_CONFIG), then environment variables \
            TRACEDESK_<SETTING> (e.g. TRACEDESK_OTP_TTL_SECONDS=300), then these options. --settings \
            lists every setting with its value and meaning.
            """
        ),
        (
            "cli.serve.notes.http",
            """
            HTTP: on plain listeners each request head is read and checked before it is served (strict \
            framing: 400 for what a proxy could read another way; a head must be whole within \
            head_deadline_seconds; at most max_connections_reading_head heads at once, idle kept \
            connections included); later heads on a kept connection are checked as parsed, and \
            http_keep_alive = false closes after every answer (docs/deployment.md, "Slow clients").
            """
        ),
        (
            "cli.serve.notes.log",
            """
            The log goes to stderr; a line that cannot be written (full disk, reader gone) is dropped \
            and counted in /metrics (tracedesk_log_write_failures_total). --log-format json \
            (log_format) writes one JSON object a line for a log shipper: time, level, event, message, \
            and route, status and duration_ms for requests, incident for incidents; text lines are the \
            default. Neither holds a code, token, key, password or phone number.
            """
        ),
        (
            "cli.serve.notes.systemd",
            """
            systemd: under a Type=notify unit (NOTIFY_SOCKET set) serve sends READY=1 once every \
            listener is up and STOPPING=1 when a SIGINT or SIGTERM arrives (docs/deployment.md); a \
            socket that cannot be reached is noted in the log and the server runs on.
            """
        ),
        (
            "cli.serve.notes.signals",
            "SIGINT or SIGTERM: stop accepting, finish requests in flight, exit 0."
        ),
        ("cli.serve.exit.0", "stopped cleanly"),
        ("cli.serve.exit.2", "bad settings or usage"),
        ("cli.serve.exit.4", "store unavailable"),
        ("cli.serve.exit.5", "cannot listen (a listener's address is in use or not allowed)"),
    ]
}

extension English {
    /// The demo, the load generator, keys, chunks, the store, settings, docs and completions.
    static let commands3: [(String, String)] = [
        (
            "cli.demo.summary",
            """
            The whole system on this machine: demo accounts (printed), a server on loopback, simulated \
            phones, and the console signed in as the operator.
            """
        ),
        (
            "cli.demo.about",
            """
            Runs the whole system on this machine: a fresh demo store, one staff account per role \
            (names and passwords printed), a signing key, a server on 127.0.0.1 and simulated phones \
            (tracedesk simulate) talking to it, then opens the console signed in as the operator. Quit \
            the console to stop everything.

            A simulated citizen calls the operator: the strip above the authorise screen's footer \
            shows its code and symptom onset to read out; authorise it, and its phone checks the code \
            and uploads 5 to 20 s later (the watch shows both), then the next caller comes. For the \
            other roles, open a second terminal:
              tracedesk --server INTERNAL-URL --user supervisor    (or tracer)
            with the printed address and password.
            """
        ),
        (
            "cli.demo.option.store",
            """
            keep the demo in this SQLite file (it must not exist yet); default a temporary folder only \
            you can read, deleted at the end (also on SIGINT, SIGTERM or SIGHUP, which stop the demo: \
            exit 128 + the signal)
            """
        ),
        ("cli.demo.option.immuni-rate", "real Immuni citizens a minute, 0 to 600 (default 6)"),
        ("cli.demo.option.apricot-users", "APRICOT phones, 0 to 2000 (default 40)"),
        ("cli.demo.option.seed", "the simulation's seed (default 1)"),
        (
            "cli.demo.option.no-console",
            """
            no console (and no simulated caller): run for --duration seconds, then print the \
            simulation's summary (for scripts and a first look)
            """
        ),
        ("cli.demo.option.duration", "with --no-console: seconds of the run, 1 to 86400 (default 60)"),
        (
            "cli.demo.notes.server",
            """
            The server's public listener (phones) and internal listener (hospital systems, the staff \
            API: tracedesk --server URL …) are on ephemeral loopback ports, printed at start. Its log \
            goes to demo.log beside the store. It publishes chunks every minute, has no limit on \
            APRICOT codes per address (every simulated phone is on 127.0.0.1), keeps the SMS outbox, \
            where the simulated phones read their codes, and accepts the simulated Android apps' \
            attestations (6 operational-info records a minute). Never point real phones at it.
            """
        ),
        ("cli.demo.exit.129", "stopped by SIGHUP (128 + the signal), after its clean-up"),
        ("cli.demo.exit.130", "stopped by SIGINT (Ctrl-C), after its clean-up"),
        ("cli.demo.exit.143", "stopped by SIGTERM, after its clean-up"),

        (
            "cli.simulate.summary",
            """
            Simulated phones and a simulated hospital system against a server, for a bounded time, \
            loopback by default: a load generator.
            """
        ),
        (
            "cli.simulate.about",
            """
            Runs simulated phones against a `tracedesk serve` for --duration seconds, then prints \
            requests, errors by kind and latency percentiles (ms) per endpoint.
            """
        ),
        (
            "cli.simulate.option.server",
            "the server's public listener, where phones go (default http://127.0.0.1:8080)"
        ),
        (
            "cli.simulate.option.internal",
            """
            its internal listener, where the simulated hospital system authorises citizens' codes \
            (POST /v1/otp) and the admin reads the SMS outbox (default http://127.0.0.1:8081 when \
            --server is not given; with --server and no --internal there are no real citizens: dummy \
            traffic only)
            """
        ),
        (
            "cli.simulate.option.his",
            """
            where POST /v1/otp goes when the server has an HIS listener of its own (its --his-listen; \
            default: --internal)
            """
        ),
        (
            "cli.simulate.option.his-key-file",
            """
            the API key of an HIS client (tracedesk his add) for POST /v1/otp, or TRACEDESK_HIS_KEY. \
            Without one, the simulated hospital gets a client of its own, simulate-XXXXXX, added by the \
            --user admin (through --internal) or straight in --store, and revoked at the end
            """
        ),
        (
            "cli.simulate.option.allow-non-loopback",
            """
            allow URLs whose host is not 127.0.0.1, ::1 or localhost: the simulation makes real load \
            and real-looking data; never aim it at a server that serves real phones
            """
        ),
        ("cli.simulate.option.immuni-rate", "real citizens a minute, 0 to 6000 (default 6), a Poisson process"),
        (
            "cli.simulate.option.dummy-per-real",
            """
            dummy sessions (check-otp, then an upload 95 % of the time) per real citizen, 0 to 100 \
            (default 4)
            """
        ),
        (
            "cli.simulate.option.immuni-population",
            """
            instead, dummy sessions of N installed apps, 1 to 100000000, each starting one every 60 \
            days on average as the apps do (1 000 000 apps: about 12 a minute)
            """
        ),
        (
            "cli.simulate.option.apricot-users",
            "phones to register, 0 to 100000 (default 20 when a way to read codes is given, else 0)"
        ),
        ("cli.simulate.option.positive-share", "share of them who upload, 0 to 100 (default 10; at least one)"),
        ("cli.simulate.option.contact-days", "days of files each uploads, 1 to 30 (default 2)"),
        (
            "cli.simulate.option.store",
            """
            read codes from the SMS outbox of the store the server uses (same machine; the server's \
            sms_gateway must be outbox, the default); it must name the server's existing store
            """
        ),
        (
            "cli.simulate.option.user",
            """
            or read them through the staff API of --internal, signed in as this admin (each read is an \
            audit entry: sms_outbox_read)
            """
        ),
        (
            "cli.simulate.option.duration",
            """
            seconds of the run, 1 to 86400 (default 60); APRICOT phones register from the start, \
            --max-in-flight at a time, and stop at the end of it: phones not signed in by then are \
            left out (the summary says how many signed in), so give thousands of phones some minutes
            """
        ),
        ("cli.simulate.option.seed", "every random draw (phones, codes, keys, encounters), default 1"),
        (
            "cli.simulate.option.max-in-flight",
            """
            sessions at once, 1 to 1024 (default 32); a session due when that many run is skipped and \
            counted in the notes
            """
        ),
        (
            "cli.simulate.notes.immuni",
            """
            Immuni: for each real citizen the hospital authorises the code, the phone checks it, then \
            uploads 14 daily keys; every ingestion request is padded to the apps' 110 000 bytes.
            """
        ),
        (
            "cli.simulate.notes.apricot",
            """
            APRICOT: phones register, read the code the server sent by SMS, sign in; the positive \
            patients among them upload contact files of the last --contact-days days, built from \
            households, workplaces and chance encounters, then today's file again every 2 minutes.
            """
        ),
        (
            "cli.simulate.notes.limits",
            """
            The server's limits apply to simulated phones as to real ones. All APRICOT phones ask for \
            codes from this machine's address: a server keeps to apricot_otp_per_address_per_hour \
            (default 60) codes an hour per address, so for more users run it with \
            apricot_otp_per_address_per_hour = 0 (`tracedesk demo` does). check_delay_mean_ms (150) is \
            in every Immuni latency.
            """
        ),
        (
            "cli.simulate.notes.signals",
            """
            SIGINT (Ctrl-C), SIGTERM or SIGHUP: the run stops early, its partial summary is printed and \
            the admin signed out.
            """
        ),
        ("cli.simulate.exit.0", "no errors"),
        ("cli.simulate.exit.1", "some requests failed (see errors by kind)"),
        ("cli.simulate.exit.4", "the store does not exist or cannot be opened"),
        ("cli.simulate.exit.6", "the admin's sign-in failed or the account is not an admin"),
        ("cli.simulate.exit.129", "stopped early by SIGHUP (128 + the signal)"),
        ("cli.simulate.exit.130", "stopped early by SIGINT (Ctrl-C)"),
        ("cli.simulate.exit.143", "stopped early by SIGTERM"),

        (
            "cli.keys.summary",
            """
            Makes the P-256 key that signs TEK chunks (or, --audit, audit checkpoints), or prints its \
            public key.
            """
        ),
        (
            "cli.keys.generate",
            """
            Writes a new P-256 private key (PKCS#8 PEM, mode 0600) to FILE, refusing to overwrite one, \
            and prints its public key. Give the public key to Apple and Google with the key id and \
            version of your settings (signing_key_id 222 and signing_key_version v1 by default); keep \
            FILE only on the servers.
            """
        ),
        ("cli.keys.public", "Prints the public key (PEM) of the private key in FILE."),
        ("cli.keys.option.out", "generate: the new key's file"),
        (
            "cli.keys.option.audit",
            """
            generate: the audit key, which signs audit checkpoints (audit_key_path, tracedesk audit \
            checkpoint --key FILE). Keep it away from the store's machine and its writers where you \
            can; give the public key (and its key id, printed) to whoever verifies (tracedesk audit \
            verify --public-key FILE)
            """
        ),
        ("cli.keys.option.key", "public: the private key's file"),
        ("cli.keys.exit.1", "the key file is refused (exists, unreadable, not P-256)"),

        ("cli.chunks.summary", "Publishes keys as signed GAEN chunks, lists them, decodes one."),
        (
            "cli.chunks.publish",
            """
            Publishes every key past its embargo (expiry + 2 h) as signed chunks of at most \
            chunk_max_keys keys, and prints each chunk (index, keys, window). tracedesk serve does the \
            same every publish_interval_seconds.
            """
        ),
        ("cli.chunks.list", "The chunks still kept: index, published, window, keys, padding, size."),
        (
            "cli.chunks.show",
            """
            Decodes chunk N of the store (or a chunk zip file): window, region, batch, signature info, \
            keys; verifies the signature with --public-key FILE, or with the configured signing key.
            """
        ),
        ("cli.chunks.option.signing-key", "publish: the signing key (signing_key_path)"),
        ("cli.chunks.option.public-key", "show: the public key to verify the signature with"),
        ("cli.chunks.option.keys", "show: list every key"),
        (
            "cli.chunks.notes.settings",
            """
            Settings (signing_key_path, signing_key_id, signing_key_version, region, chunk_max_keys, \
            chunk_min_keys, …) come from --config FILE (or TRACEDESK_CONFIG) and TRACEDESK_<SETTING> \
            variables, as for tracedesk serve (tracedesk serve --settings lists them).
            """
        ),
        (
            "cli.chunks.notes.lock",
            """
            --store takes an SQLite file or a postgres:// URL (tracedesk store --help). On PostgreSQL, \
            publish and cleanup take the same lock as the servers' jobs: while a server is publishing \
            (or cleaning up), the command says "skipped: another server holds the lock" and exits 4.
            """
        ),
        ("cli.chunks.exit.1", "refused (bad chunk, signature does not verify, no such chunk)"),
        ("cli.chunks.exit.2", "usage or settings"),
        ("cli.chunks.exit.4", "store unavailable (or the job's lock is held elsewhere)"),
        (
            "cli.cleanup.summary",
            """
            Deletes what the retention rules no longer allow to keep (14 days; analytics and APRICOT \
            contact files 30).
            """
        ),
        (
            "cli.cleanup.about",
            """
            Deletes what the retention rules no longer allow to keep (retention_days, \
            analytics_retention_days, closed_case_retention_days) and prints what it deleted. \
            tracedesk serve does the same every cleanup_interval_seconds; settings and locks as for \
            tracedesk chunks.
            """
        ),

        ("cli.migrate.summary", "Applies schema migrations."),
        (
            "cli.migrate.about",
            """
            Applies pending schema migrations and prints the schema version. Opening a store migrates \
            it too; this does it on purpose, e.g. before starting several servers.
            """
        ),
        ("cli.store.summary", "Shows the store's adapter, schema version and sizes."),
        (
            "cli.store.info",
            """
            Shows the adapter (SQLite or PostgreSQL, with its version), where the store is, its schema \
            version and its size, table by table.
            """
        ),
        (
            "cli.store.notes.url",
            """
            --store takes an SQLite file path or postgres://USER@HOST:PORT/DATABASE (also \
            postgresql://; libpq's other URL parameters work, e.g. ?sslmode=require or \
            ?options=-csearch_path%3Dtracedesk for a schema of its own). Without it: TRACEDESK_STORE, \
            then the console's default file. A password belongs in ~/.pgpass or PGPASSWORD, not in the \
            URL: TraceDesk never prints it, but your shell history would keep it.
            """
        ),
        ("cli.store.exit.4", "store unavailable"),

        (
            "cli.settings.summary",
            """
            The console's settings in force and where each comes from (an option, the environment, \
            $XDG_CONFIG_HOME/tracedesk/console.json, the default).
            """
        ),
        (
            "cli.settings.about",
            """
            Prints the console's settings in force (server, user, theme, language, export_folder) and \
            where each comes from: an option (--lang before the command for the language), an \
            environment variable (TRACEDESK_USER, XDG_DOCUMENTS_DIR for the export folder), the \
            console's settings file, the locale (LC_ALL, LC_MESSAGES, LANG: only for the language, \
            after the file), or the default.
            """
        ),
        (
            "cli.settings.notes.file",
            """
            The file is $XDG_CONFIG_HOME/tracedesk/console.json (~/.config/tracedesk/console.json), one \
            JSON object, every key optional:
              {"server": "https://desk.example:8081", "user": "rossi",
               "theme": "high-contrast", "language": "it",
               "export_folder": "~/Documents/exports"}

            With a server in it, `tracedesk` opens that server's sign-in (--store or TRACEDESK_STORE \
            still choose a store instead). A problem in the file is printed with its line, here and \
            when the console starts, and that value (or, for broken JSON, the whole file) is ignored.
            """
        ),
        ("cli.settings.exit.0", "ok (also when the file has problems: they are printed)"),

        ("cli.docs.summary", "Writes the man pages, made from the table of commands."),
        (
            "cli.docs.man",
            """
            Writes tracedesk(1) and a page per command family (tracedesk-serve(8), tracedesk-case(1), \
            …) as roff into DIR/man1 and DIR/man8; with --lang it, the Italian pages into DIR/it/man1 \
            and DIR/it/man8, as /usr/share/man keeps them.
            """
        ),
        ("cli.docs.option.out", "the folder to write into (made if missing)"),
        ("cli.docs.option.lang", "the pages' language (default: the run's)"),
        ("cli.docs.exit.1", "a page could not be written (the reason is on stderr)"),

        ("cli.completion.summary", "Prints a shell completion script, made from the table of commands."),
        (
            "cli.completion.bash",
            """
            The bash completion (the Debian package installs it as \
            /usr/share/bash-completion/completions/tracedesk); try it with: source <(tracedesk \
            completion bash)
            """
        ),
        ("cli.completion.zsh", "The zsh completion (_tracedesk in /usr/share/zsh/vendor-completions)."),
        (
            "cli.completion.fish",
            "The fish completion (tracedesk.fish in /usr/share/fish/vendor_completions.d)."
        ),
    ]
}

extension English {
    /// The benchmarks (tracedesk bench).
    static let bench: [(String, String)] = [
        (
            "cli.bench.summary",
            "Benchmarks: rendering, seeding for the load tests, sign-ins, the monitor, APRICOT, the contact-trace lookup, the statistics, follow-ups, indicators and the store's write path."
        ),
        ("cli.bench.render", "Measures render + diff per frame of the authorise screen (build with -c release)."),
        (
            "cli.bench.seed",
            "Authorises N random codes (1 h lifetime) in the store and writes their bearer tokens, one per line, for the upload load test (Benchmarks/http.sh)."
        ),
        (
            "cli.bench.keys",
            "Stores N random keys (uploads of 14 daily keys, all past their embargo) for the publishing job to take."
        ),
        (
            "cli.bench.publish",
            "Seeds a fresh store with that many keys, then times one publishing run (signed, zipped chunks of 10 000 keys) against building the same chunks without a store."
        ),
        (
            "cli.bench.staff",
            "Times the sign-in KDF, and authorisations through the staff API on loopback against the same calls in-process."
        ),
        (
            "cli.bench.apricot",
            "Times APRICOT sign-ins (1 000 pseudo-ids each) and full-day contact files through the phone API on loopback."
        ),
        (
            "cli.bench.monitor",
            "The monitor's keystroke-to-screen time and memory while --rate events a second are written, and how soon a long poll delivers a new event."
        ),
        ("cli.bench.events", "Writes that many events a second into the store (load for the monitor)."),
        (
            "cli.bench.trace",
            "Registers users of 1 000 pseudo-ids and one patient's contact files, then times the contact-trace lookup in LocalDesk, a registration, and the size per user."
        ),
        (
            "cli.bench.stats",
            "Seeds a fortnight of uploads, events, analytics, chunks and lookups, then times the supervisor's statistics: the first call (rolling up) and warm 14 d, 24 h and 1 h calls."
        ),
        (
            "cli.bench.followup",
            "Seeds open cases and follow-ups, then times a tracer's next queue page and opening a case with that many close contacts, in LocalDesk, on SQLite (and PostgreSQL)."
        ),
        ("cli.bench.indicators", "Seeds cases and their follow-ups, then times the tracing indicators over 14 days."),
        (
            "cli.bench.write-raw",
            "The store's limit: the transactions of an authorisation or a 14-key upload run straight through SQLite's C API (the store's own statements, checked against a trace of the store first), on a fresh file, each thread with its own connection (--shared: one connection behind a mutex), until the time or the count is used."
        ),
        (
            "cli.bench.option.store",
            "the store to seed or measure (an SQLite file; where PATH|URL is shown, a postgres:// URL too)"
        ),
        ("cli.bench.option.postgres", "also measure on this PostgreSQL database"),
        (
            "cli.bench.option.postmaster-pid",
            "indicators: a local PostgreSQL server's process, to read its backends' memory too"
        ),
        ("cli.bench.option.width", "the screen's width in columns"),
        ("cli.bench.option.height", "the screen's height in rows"),
        ("cli.bench.option.frames", "render: frames to draw (default 2000)"),
        ("cli.bench.option.count", "how many codes, keys or transactions"),
        ("cli.bench.option.tokens", "seed: the file the bearer tokens go to"),
        ("cli.bench.option.keys", "publish: keys to seed (default 100000)"),
        ("cli.bench.option.hashes", "staff: sign-in hashes to time (default 20)"),
        ("cli.bench.option.authorizations", "staff: authorisations to time (default 200)"),
        ("cli.bench.option.sign-ins", "staff: sign-ins to time (default 10)"),
        ("cli.bench.option.registrations", "apricot: registrations (default 200)"),
        ("cli.bench.option.uploads", "how many uploads to seed or time"),
        ("cli.bench.option.records", "records in a day's contact file (default 28800)"),
        ("cli.bench.option.seconds", "how long to run, in seconds"),
        ("cli.bench.option.rate", "events a second (default 1000)"),
        ("cli.bench.option.polls", "monitor: long polls to time (default 50)"),
        ("cli.bench.option.users", "trace: registered users (default 10000)"),
        ("cli.bench.option.days", "days of data to seed"),
        ("cli.bench.option.runs", "how many timed runs"),
        ("cli.bench.option.events", "stats: events to seed (default 1000000)"),
        ("cli.bench.option.follow-ups", "follow-ups to seed (default 100000)"),
        ("cli.bench.option.cases", "cases to seed (default 10000)"),
        ("cli.bench.option.contacts", "followup: close contacts of the case opened (default 1500)"),
        ("cli.bench.option.pages", "followup: queue pages to time (default 20)"),
        ("cli.bench.option.op", "write-raw: the transaction, authorization (default) or upload"),
        ("cli.bench.option.threads", "write-raw: writing threads (default 1)"),
        ("cli.bench.option.shared", "write-raw: one connection behind a mutex instead of one per thread"),
        ("cli.bench.option.check-only", "write-raw: only check the statements against a trace of the store"),
        (
            "cli.bench.option.trigger-cost",
            "followup: as many cases again, opened in turn without migration 12's indicator-fact triggers (dropped before, made again after), for the ratio"
        ),
        ("cli.bench.option.json", "the results as JSON"),
        (
            "cli.bench.notes.release",
            "Build with -c release for figures that mean something. Each benchmark's own --help (tracedesk bench stats --help, …) says more."
        ),
    ]
}

extension English {
    /// The command line's refusals of what was typed (UsageError), with the "see --help" line.
    static let usage: [(String, String)] = [
        ("cli.usage.unknownOption", "unknown option '{option}' for '{command}'"),
        (
            "cli.usage.beforeCommand",
            "unknown option '--{option}' for '{command}': --{option} goes before the command, as in tracedesk --{option} {value} {command}"
        ),
        ("cli.usage.needsValue", "option --{option} needs a value"),
        ("cli.usage.needsValueOf", "option --{option} needs a value: {allowed}"),
        ("cli.usage.takesNoValue", "option --{option} takes no value"),
        ("cli.usage.wholeNumber", "--{option} must be a whole number from {low} to {high}, got '{value}'"),
        ("cli.usage.oneOf", "--{option} must be one of {allowed}, got '{value}'"),
        ("cli.usage.verbTakesNo", "'{command}' takes no --{option}"),
        ("cli.usage.unknownValue", "unknown {word} '{value}': use {allowed}"),
        ("cli.usage.unknownCommand", "unknown command '{command}'"),
        ("cli.usage.seeHelp", "see 'tracedesk {command}--help'"),
        (
            "cli.usage.otpTTL",
            "TRACEDESK_OTP_TTL_SECONDS must be a whole number of seconds from 10 to 3600, got '{value}'"
        ),
        (
            "cli.usage.busyTimeout",
            "TRACEDESK_BUSY_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000, got '{value}'"
        ),
        ("cli.list.or", "{rest} or {last}"),
    ]
}

extension English {
    static let operating: [(String, String)] = [

        ("cli.otp.sayWhat", "say what to do: check, authorize or status"),
        ("cli.otp.unknownVerb", "unknown command 'otp {verb}': use check, authorize or status"),
        ("cli.otp.codeBoth", "give the code either as CODE or on stdin with --code-stdin, not both"),
        ("cli.otp.stdinEmpty", "--code-stdin: stdin is empty: pipe the code in, on the first line"),
        ("cli.otp.stdinLong", "--code-stdin: the first line is too long for a code: pipe the code alone"),
        ("cli.otp.giveCode", "give the code: tracedesk {command} CODE (or --code-stdin)"),
        ("cli.otp.oneCode", "give one code only (quote it if it has spaces)"),
        ("cli.otp.valid", "valid"),
        ("cli.otp.giveSymptoms", "give the symptom-onset day: --symptoms YYYY-MM-DD"),
        ("cli.otp.authorized", "authorized {tag} until {time} ({seconds} s)"),
        ("cli.otp.alreadyAuthorized", "already authorized {tag} by {by} until {time}: nothing changed"),
        ("cli.otp.status.unknown", "unknown: this code was never authorised here"),
        ("cli.otp.status.authorized", "authorized {tag} by {by}, symptoms {day}, {seconds} s left"),
        ("cli.otp.status.expired", "expired {tag} at {time} without an upload"),
        ("cli.otp.status.consumed", "consumed {tag}: the app uploaded with it"),
        ("cli.person.storeAndServer", "give --store or --server, not both: a server uses its own store"),
        (
            "cli.person.sayWho",
            "say who is acting: --user NAME (or set TRACEDESK_USER); accounts are made with 'tracedesk staff add'"
        ),
        ("cli.person.passwordPrompt", "password for {user}: "),
        ("cli.person.signOutFailed", "could not sign out: {problem}"),
        ("cli.person.passwordStdinEmpty", "--password-stdin: stdin is empty: pipe the password in, one line"),
        (
            "cli.person.passwordTooLong",
            "--password-stdin: the line is longer than {limit} bytes: a password has at most {max} characters"
        ),
        (
            "cli.person.noTerminal",
            "no terminal to ask for the password on: run this in a terminal, or pass --password-stdin and pipe the password in"
        ),
        ("cli.person.newPassword", "new password for {user}: "),
        ("cli.person.passwordAgain", "the same password again: "),
        ("cli.person.passwordsDiffer", "the two passwords differ: nothing changed, try again"),

        ("cli.person.retypePassword", "password (type it again from the start): "),

        (
            "cli.console.noPasswordStdin",
            "the console asks for the password on its sign-in screen: --password-stdin is for otp commands"
        ),
        (
            "cli.console.needsTerminal",
            "the console needs a terminal: run it in one, or use 'tracedesk otp …' in scripts"
        ),
        ("cli.console.stopped", "the console signed out and stopped"),
        ("cli.console.badCopy", "TRACEDESK_COPY must be on or off, got '{value}'"),
        (
            "cli.console.badRefresh",
            "--refresh must be a whole number of seconds from 1 to {high}, or 0 for no automatic refresh, got '{value}'"
        ),
        (
            "cli.console.badIdleLock",
            "TRACEDESK_IDLE_LOCK_SECONDS must be a whole number of seconds from 2 to 86400, got '{value}'"
        ),
        ("cli.docs.sayWhat", "say what to write: man"),
        ("cli.docs.unknownVerb", "unknown command 'docs {verb}': use man"),
        ("cli.docs.giveOut", "give the folder to write into: --out DIR"),
        ("cli.docs.cannotWrite", "cannot write {file}: {problem}"),
        ("cli.completion.sayWhich", "say which shell: bash, zsh or fish"),
        ("cli.completion.unknownShell", "unknown shell '{value}': use bash, zsh or fish"),
    ]
}

extension English {
    static let tracing: [(String, String)] = [

        ("cli.common.csvOrJson", "give --csv or --json, not both"),
        ("cli.trace.phoneBoth", "give the number either as PHONE or on stdin with --phone-stdin, not both"),
        (
            "cli.trace.givePhone",
            "give the patient's phone number: tracedesk trace PHONE --purpose TEXT (or --phone-stdin)"
        ),
        ("cli.trace.onePhone", "give one phone number only (quote it if it has spaces)"),
        (
            "cli.trace.givePurpose",
            "give the purpose or case reference: --purpose \"case 2026-1234\" (every lookup is audited with it)"
        ),
        ("cli.trace.stdinEmpty", "--phone-stdin: stdin is empty: pipe the patient's number in, on the first line"),
        ("cli.trace.stdinLong", "--phone-stdin: the first line is too long for a phone number: pipe the number alone"),
        ("cli.trace.patient", "Patient {phone} · user {user} · registered since {since}"),
        ("cli.trace.purpose", "Purpose: {purpose}"),
        (
            "cli.trace.noUploads",
            "Uploads: none yet. Ask the patient to share their contacts in the app, then look them up again."
        ),
        ("cli.trace.closeMark", " (* = at least {minutes} min on one day)"),
        ("cli.trace.noContacts", "No other registered phone was seen in the uploaded files."),
        ("cli.trace.column.phone", "PHONE"),
        ("cli.trace.column.minutes", "MINUTES"),
        ("cli.trace.column.mostPerDay", "MOST/DAY"),
        ("cli.trace.column.days", "DAYS"),
        ("cli.trace.column.sightings", "SIGHTINGS"),
        ("cli.trace.column.firstSeen", "FIRST SEEN"),
        ("cli.trace.column.lastSeen", "LAST SEEN"),
        ("cli.trace.column.outcome", "OUTCOME"),
        ("cli.trace.noTime", "no time"),
        ("cli.trace.noTimeColumn", "no time            "),
        ("cli.trace.sightingsHeading", "Sightings ({count}, oldest first):"),
        ("cli.trace.unresolved", "unresolved"),
        ("cli.trace.sighting", "{when}  file {day}  {beacon}  {who}"),
        ("cli.trace.uploads.none", "Uploads: none yet"),
        ("cli.trace.uploads.days.one", "Uploads: {count} day"),
        ("cli.trace.uploads.days.other", "Uploads: {count} days"),
        ("cli.trace.uploads.covered.one", "{count} day covered"),
        ("cli.trace.uploads.covered.other", "{count} days covered"),
        ("cli.trace.uploads.skew", "clock skew {skew}"),
        ("cli.trace.counts.sightings.one", "{count} sighting"),
        ("cli.trace.counts.sightings.other", "{count} sightings"),
        ("cli.trace.counts.unresolved.one", "{count} unresolved"),
        ("cli.trace.counts.unresolved.other", "{count} unresolved"),
        ("cli.trace.counts.contacts.one", "{count} contact"),
        ("cli.trace.counts.contacts.other", "{count} contacts"),
        ("cli.trace.counts.close.one", "{count} close"),
        ("cli.trace.counts.close.other", "{count} close"),
        ("cli.case.sayWhat", "say what to do: open, list, show, close or add"),
        ("cli.case.unknownVerb", "unknown command 'case {verb}': use open, list, show, close or add"),
        ("cli.case.givePhone", "give the patient's phone number: {usage} (or --phone-stdin)"),
        (
            "cli.case.giveReference",
            "give the case reference: --reference \"ASL-2026-0412\" (every view of the case is audited with it)"
        ),
        ("cli.case.onsetOrTestDay", "give --onset (symptoms started) or --test-day (no symptoms), not both"),
        (
            "cli.case.open.existing",
            "the patient already has an open case: case {id} ({reference}), opened by {by} at {at}; nothing changed (the reference typed was not used)"
        ),
        ("cli.case.open.opened", "opened case {id} ({reference}) for {phone}, index day {index}"),
        ("cli.case.open.followUps.one", "follow-ups: {count} new"),
        ("cli.case.open.followUps.other", "follow-ups: {count} new"),
        ("cli.case.open.joined.one", "{count} already followed for another open case (joined)"),
        ("cli.case.open.joined.other", "{count} already followed for another open case (joined)"),
        ("cli.case.open.assignedToYou", ", assigned to you"),
        ("cli.case.open.cameFrom", "the patient was a contact of {link}: the two cases are linked"),
        ("cli.case.open.seeIt", "see it with: tracedesk case show {id}; the calls due: tracedesk queue"),
        ("cli.case.closedOrAll", "give --closed or --all, not both (without either: the open cases)"),
        ("cli.common.onlyOptions", "unexpected argument '{argument}': {verb} takes only options"),
        ("cli.common.needsTracer", "--{option} needs a tracer's name"),
        ("cli.case.close.giveReason", "give why the case closes: --reason {reasons}"),
        (
            "cli.case.close.closed",
            "closed case {id} ({reference}): {reason}; its follow-ups that name no other open case have ended"
        ),
        ("cli.case.add.giveIDAndPhone", "give the case number and the person's phone: {usage}"),
        ("cli.case.add.givePhone", "give the person's phone number after the case number: {usage}"),
        ("cli.case.add.giveReason", "say why the person is added: --reason \"household member, no phone seen\""),
        ("cli.case.add.reasonExample", "household member, no phone seen"),
        (
            "cli.case.add.addedByHand",
            "case {id} follows {phone} as follow-up {followUp}, added by hand: {state}, assigned to {assignee}"
        ),
        (
            "cli.case.add.alreadyContact",
            "case {id} follows {phone} as follow-up {followUp}, already a contact of the case: {state}, assigned to {assignee}"
        ),
        ("cli.followup.nobodyYet", "nobody yet"),
        ("cli.queue.oneScope", "give one of --mine, --tracer NAME, --unassigned or --everyone: whose queue to show"),
        (
            "cli.queue.badCursor",
            "--after '{value}' is not a queue cursor: give the one the previous page printed (e.g. 1764662400000-42)"
        ),
        ("cli.queue.moreRowsCSV", "more rows: the next page is tracedesk queue --after {cursor} --csv (same options)"),
        ("cli.input.what.case", "case"),
        ("cli.input.what.follow-up", "follow-up"),
        ("cli.input.notAnID", "'{value}' is not a {what} number: give the number {hint} shows, e.g. 12"),
        ("cli.input.giveID", "give the {what} number: {usage} ({hint} shows them)"),
        ("cli.input.oneID", "give one {what} number only, got also '{value}': {usage}"),
        ("cli.input.giveYesNo", "give --{option} yes or --{option} no: {usage}"),
        ("cli.input.yesOrNo", "--{option} takes yes or no, got '{value}'"),
        ("cli.input.emptyText", "--{option} is empty: say why, e.g. --{option} \"{example}\""),
        ("cli.input.givePhone", "give the phone number: {usage} (or --phone-stdin)"),
        ("cli.input.onePhone", "give one phone number only (quote it if it has spaces): {usage}"),
        ("cli.input.phoneStdinEmpty", "--phone-stdin: stdin is empty: pipe the number in, on the first line"),
        ("cli.input.notADay", "--{option} '{value}' is not a day: write it YYYY-MM-DD, e.g. {example}"),
        ("cli.input.dayInFuture", "--{option} {day} is after today ({today}, UTC): give the day it happened"),
        ("cli.input.dayTooOld", "--{option} {day} is more than {days} days ago: check the day with the patient"),
        ("cli.followup.status.open", "open"),
        ("cli.followup.status.closed", "closed ({reason})"),
        ("cli.followup.link", "case {case} ({reference}) through follow-up {followUp}"),
        ("cli.followup.reason.byHand", "added by hand: {reason}"),
        ("cli.followup.days.one", "{count} day"),
        ("cli.followup.days.other", "{count} days"),
        ("cli.followup.reason.exposure", "{minutes} min over {days} (most {most} on one day), last exposure {last}"),
        ("cli.followup.reason.close", ", close contact"),
        ("cli.followup.short.byHand", "by hand, last {last}"),
        ("cli.followup.short.exposure", "{minutes} min, {days} d, last {last}"),
        ("cli.followup.ended", "ended"),
        ("cli.followup.urgency.overdue", "overdue"),
        ("cli.followup.urgency.due", "due now"),
        ("cli.followup.urgency.later_today", "later today"),
        ("cli.followup.urgency.later", "later"),
        ("cli.followup.next.ended", "the follow-up has ended: {state}"),
        ("cli.followup.next.check.now", "next daily check due now"),
        ("cli.followup.next.check.at", "next daily check due {time}"),
        ("cli.followup.next.call.now", "next call due now"),
        ("cli.followup.next.call.at", "next call due {time}"),
        ("cli.case.list.noOpen", "No open cases. Open one with: tracedesk case open PHONE --reference TEXT"),
        ("cli.case.list.noClosed", "No closed cases."),
        ("cli.case.list.none", "No cases yet. Open one with: tracedesk case open PHONE --reference TEXT"),
        ("cli.case.column.id", "ID"),
        ("cli.case.column.reference", "REFERENCE"),
        ("cli.case.column.patient", "PATIENT"),
        ("cli.case.column.indexDay", "INDEX DAY"),
        ("cli.case.column.openedBy", "OPENED BY"),
        ("cli.case.column.opened", "OPENED"),
        ("cli.case.column.contacts", "CONTACTS"),
        ("cli.case.column.status", "STATUS"),
        ("cli.case.show.title", "Case {id} · {reference} · {status}"),
        ("cli.case.show.patient", "Patient {phone} · user {user} · index day {index}"),
        ("cli.case.show.opened", "Opened by {by} at {at}"),
        ("cli.case.show.closed", " · closed by {by} at {at}: {reason}"),
        ("cli.case.show.contacts.one", "{count} contact"),
        ("cli.case.show.contacts.other", "{count} contacts"),
        ("cli.case.show.cameFrom", "Came from {link}: the patient was that case's contact"),
        ("cli.case.show.ledTo", "Led to {link}: that contact became a case"),
        (
            "cli.case.show.noFollowUps",
            "Follow-ups: none (no close contact in the patient's files; add one with tracedesk case add)"
        ),
        ("cli.case.show.followUps", "Follow-ups ({count}, active first):"),
        ("cli.case.show.history", "History (oldest first):"),
        ("cli.case.show.nothingYet", "(nothing yet)"),
        ("cli.followup.column.id", "ID"),
        ("cli.followup.column.due", "DUE"),
        ("cli.followup.column.phone", "PHONE"),
        ("cli.followup.column.case", "CASE"),
        ("cli.followup.column.state", "STATE"),
        ("cli.followup.column.attempts", "ATTEMPTS"),
        ("cli.followup.column.lastOutcome", "LAST OUTCOME"),
        ("cli.followup.column.assigned", "ASSIGNED"),
        ("cli.followup.column.why", "WHY"),
        ("cli.followup.nobody", "nobody"),
        ("cli.followup.notYet", "not yet"),
        (
            "cli.followup.symptomsMark",
            "(! = symptoms reported at a daily check: tell the supervisor and the case's tracer)"
        ),
        ("cli.followup.show.title", "Follow-up {id} · {phone} · user {user} · {state} · assigned to {assignee}"),
        ("cli.followup.show.due", "Due {due}"),
        ("cli.followup.show.ended", "Ended {at}"),
        ("cli.followup.show.period", " · last exposure {last} · period ends {ends}"),
        ("cli.followup.show.attempts", "Attempts {count}"),
        ("cli.followup.show.lastAttempt", " (last: {outcome} at {at})"),
        ("cli.followup.show.reached", " · reached {at}"),
        ("cli.followup.show.checkedDays.one", "checked on {count} day"),
        ("cli.followup.show.checkedDays.other", "checked on {count} days"),
        (
            "cli.followup.show.symptoms",
            "! Symptoms reported at a daily check: tell the supervisor and the case's tracer"
        ),
        ("cli.followup.show.becameCase", "The person became case {case}."),
        ("cli.followup.show.cases", "Cases:"),
        ("cli.followup.show.case", "case {case} {reference}: {why}"),
        ("cli.followup.show.attemptsHeading", "Attempts (oldest first):"),
        ("cli.followup.show.noAttempts", "none yet: tracedesk followup attempt {id} --outcome reached|no-answer|…"),
        ("cli.followup.show.checksHeading", "Daily checks:"),
        ("cli.followup.show.check", "symptoms {symptoms}, isolating {isolating}"),
        ("cli.followup.show.noneYet", "none yet"),
        ("cli.queue.of", "Queue of {name}"),
        ("cli.queue.unassigned", "Unassigned follow-ups"),
        ("cli.queue.everyone", "Everyone's queue"),
        ("cli.queue.counts", "{overdue} overdue · {due} due now · {laterToday} later today"),
        ("cli.queue.later", " · {count} later"),
        ("cli.queue.laterHint", " ({count} on later days: --later)"),
        ("cli.queue.empty", "Nobody to call: the queue is empty."),
        ("cli.queue.nothingToday", "Nothing due today."),
        ("cli.queue.nothingTodayHint", "Nothing due today: --later shows the days ahead."),
        ("cli.queue.more", "More: tracedesk queue --after {cursor} (with the same options)"),
        ("cli.followup.sayWhat", "say what to do: show, attempt, check or assign"),
        ("cli.followup.giveOutcome", "give what the call came to: --outcome {outcomes}"),
        ("cli.followup.unknownOutcome", "unknown outcome '{value}': use {outcomes}"),
        ("cli.followup.attempt.recorded", "recorded {outcome} for follow-up {id}: {next}"),
        (
            "cli.followup.check.recorded",
            "recorded the daily check of follow-up {id}: symptoms {symptoms}, isolating {isolating}; {next}"
        ),
        ("cli.followup.check.flagged", "symptoms: flagged for the supervisor and the case's tracer; tell them now"),
        ("cli.followup.assign.giveIDs", "give the follow-ups' numbers: {usage} ({hint} shows them)"),
        ("cli.followup.assign.tooMany", "at most {limit} follow-ups at once: assign them in parts"),
        ("cli.followup.assign.toWhom", "say to whom: --to TRACER (a tracer's account name)"),
        ("cli.followup.assign.done.one", "assigned {count} follow-up to {tracer}: {ids}"),
        ("cli.followup.assign.done.other", "assigned {count} follow-ups to {tracer}: {ids}"),
        ("cli.followup.unknownVerb", "unknown command 'followup {verb}': use show, attempt, check or assign"),
    ]
}

extension English {
    static let supervision: [(String, String)] = [

        ("cli.staff.sayWhat", "say what to do: add, list, disable, reset-password or recover"),
        ("cli.staff.listNoNames", "list takes no names"),
        ("cli.staff.disabled", "disabled {name} ({role}); their sessions are ended"),
        ("cli.staff.passwordSet", "new password set for {name}; the account is unlocked and its sessions are ended"),
        ("cli.staff.unknownVerb", "unknown command 'staff {verb}': use add, list, disable, reset-password or recover"),
        ("cli.audit.sayWhat", "say what to do: verify, checkpoint or list"),
        ("cli.common.unexpected", "unexpected argument '{argument}'"),
        (
            "cli.audit.checkpointsAndKey",
            "give --checkpoints FILE and --public-key FILE together: the checkpoints are checked with the audit key's public key"
        ),
        ("cli.audit.broken", "BROKEN at entry {id}: {reason}"),
        ("cli.audit.before", "entries before it verify ({entries}, up to id {head})"),
        ("cli.audit.intact.one", "intact: {entries} entry, head {hash} (entry {head})"),
        ("cli.audit.intact.other", "intact: {entries} entries, head {hash} (entry {head})"),
        ("cli.audit.badDay", "--day takes a date as YYYY-MM-DD, e.g. 2026-11-29"),
        ("cli.audit.badLimit", "--limit takes a whole number from 1 to 1000"),
        ("cli.audit.noEntries", "no entries match"),
        ("cli.audit.unknownVerb", "unknown command 'audit {verb}': use verify, checkpoint or list"),
        ("cli.staff.giveRole", "give the role: --role {roles}"),
        ("cli.staff.unknownRole", "unknown role '{value}': use {roles}"),
        (
            "cli.staff.firstMustBeAdmin",
            "the store has no accounts yet: the first one must be an admin (tracedesk staff add NAME --role admin)"
        ),
        (
            "cli.staff.needsSetupToken",
            "the server has no accounts yet: its first admin needs the setup token tracedesk serve printed at start (also in the setup-token file beside its store): set TRACEDESK_SETUP_TOKEN to it"
        ),
        ("cli.staff.addedFirst", "added {name} ({role}), the first account"),
        ("cli.staff.added", "added {name} ({role})"),
        (
            "cli.staff.recoverOnStore",
            "recover works on the store itself (--store), not through a server: run it where the store is"
        ),
        ("cli.staff.notAName", "not a user name"),
        (
            "cli.staff.disabledForGood",
            "{name} is disabled for good: recover a new name instead (it is added as an admin)"
        ),
        (
            "cli.staff.recoveredPassword",
            "new password set for {name}; the account is unlocked and its sessions are ended (audited as {actor})"
        ),
        ("cli.staff.recoveredAdded", "added {name} ({role}) (audited as {actor})"),
        ("cli.staff.nameTaken", "the name {name} was taken meanwhile: try again"),
        ("cli.staff.giveName", "give the account's name: tracedesk {command} NAME"),
        ("cli.staff.oneName", "give one name"),
        ("cli.staff.noAccounts", "no accounts: add the first admin with 'tracedesk staff add NAME --role admin'"),
        ("cli.staff.column.name", "NAME"),
        ("cli.staff.column.role", "ROLE"),
        ("cli.staff.column.state", "STATE"),
        ("cli.staff.column.failed", "FAILED"),
        ("cli.staff.column.lastSignIn", "LAST SIGN-IN"),
        ("cli.staff.column.createdBy", "CREATED BY"),
        ("cli.staff.never", "never"),
        (
            "cli.audit.giveKey",
            "give the audit key: --key FILE (make one with tracedesk keys generate --audit --out FILE)"
        ),
        ("cli.audit.giveOut", "give the checkpoint file to append to: --out FILE"),
        (
            "cli.audit.notVerified",
            "nothing appended: {file} does not verify against the store (tracedesk audit verify --checkpoints {file} tells more)"
        ),
        ("cli.audit.nothingAppended", "nothing appended: {problem}"),
        (
            "cli.audit.appended.one",
            "checkpoint: {entries} entry, head {hash}, signed by audit key {key}, appended to {file}"
        ),
        (
            "cli.audit.appended.other",
            "checkpoint: {entries} entries, head {hash}, signed by audit key {key}, appended to {file}"
        ),
        ("cli.audit.summary.matched.one", "checkpoints: {matched} of {count} line match"),
        ("cli.audit.summary.matched.other", "checkpoints: {matched} of {count} lines match"),
        ("cli.audit.summary.noneAnchored", "; no entry is anchored"),
        ("cli.audit.summary.anchored", "; entries 1…{last} are anchored"),
        ("cli.audit.summary.breaks", "; the chain breaks at entry {id}: checkpoints past it were not compared"),
        (
            "cli.audit.summary.uncovered",
            "; entries {first}…{last} are after the last matching checkpoint and not covered"
        ),
        (
            "cli.audit.noHashes",
            "the server did not give the chain's hashes at the checkpoints' counts (a TraceDesk older than this one?): update the server, or run this on the store with --store"
        ),
        ("cli.audit.cannotReadKey", "cannot read the public key file {file}: check the path and its permissions"),
        (
            "cli.audit.privateKey",
            "{file} holds a private key: give its public key (tracedesk keys public --key {file} > audit-public.pem), and keep the private key where the checkpoints are made"
        ),
        ("cli.audit.badPublicKey", "{file} is not a usable P-256 public key: {problem}"),
        (
            "cli.audit.noCheckpoints",
            "{file} has no checkpoints: write them with tracedesk audit checkpoint, or the server's audit_checkpoint_path"
        ),
        ("cli.audit.chainIntact.one", "chain intact: {entries} entry, head {hash} (entry {head})"),
        ("cli.audit.chainIntact.other", "chain intact: {entries} entries, head {hash} (entry {head})"),
        ("cli.audit.checkpointProblem", "CHECKPOINTS: {problem}"),
        ("cli.his.sayWhat", "say what to do: add, list or revoke"),
        ("cli.his.badRate", "--rate takes a whole number from {low} to {high} (authorisations a minute)"),
        ("cli.his.added", "added HIS client {name} (actor {actor}, {rate})"),
        ("cli.his.keyOnce", "API key, shown only now: give it to the HIS (Authorization: Bearer KEY)"),
        ("cli.his.revoked", "revoked HIS client {name}: its key and certificate are refused from now on"),
        ("cli.his.unknownVerb", "unknown command 'his {verb}': use add, list or revoke"),
        ("cli.his.giveName", "give the client's name: tracedesk {command} NAME"),
        ("cli.his.rate.one", "{count} authorisation a minute"),
        ("cli.his.rate.other", "{count} authorisations a minute"),
        ("cli.his.serverRate", "the server's rate limit"),
        ("cli.his.none", "no HIS clients: add one with 'tracedesk his add NAME --user ADMIN'"),
        ("cli.his.column.name", "NAME"),
        ("cli.his.column.state", "STATE"),
        ("cli.his.column.rate", "RATE/MIN"),
        ("cli.his.column.created", "CREATED"),
        ("cli.his.column.createdBy", "CREATED BY"),
        ("cli.his.column.revoked", "REVOKED"),
        ("cli.his.defaultRate", "default"),
        ("cli.sms.sayWhat", "say what to do: outbox"),
        ("cli.sms.unknownVerb", "unknown command 'sms {verb}': use outbox"),
        ("cli.sms.empty", "the outbox is empty: no SMS code was asked for yet"),
        ("cli.settings.noArguments", "settings takes no arguments, got '{argument}'"),
        ("cli.settings.title", "Console settings (file {file}):"),
        ("cli.settings.titleNotFound", "Console settings (file {file}, not found):"),
        ("cli.settings.serverNotUsed", " (not used: a store is given, {by})"),
        ("cli.settings.languageNote", " (the server's log stays English)"),
        ("cli.settings.noServer", " (none: the console opens the store, {store})"),
        ("cli.settings.defaultStore", "the default one"),
        ("cli.settings.from", "from {source}"),
        ("cli.settings.fromDefault", "from default"),
        ("cli.settings.fileLine", "{file} line {line}"),
        ("cli.settings.problems", "Problems in the file (those values are ignored):"),

        ("cli.settings.file.unreadable", "{file} cannot be read: it is ignored"),
        ("cli.settings.file.syntax", "{file} line {line}: {reason}; the file is ignored"),
        ("cli.settings.file.notObject", "{file} line 1: the file must hold one JSON object; it is ignored"),
        (
            "cli.settings.file.unknownKey",
            "{file} line {line}: unknown setting \"{key}\" (known: {known}); it is ignored"
        ),
        ("cli.settings.file.notString", "{file} line {line}: {key} must be a string, found {kind}; it is ignored"),
        ("cli.settings.file.badValue", "{file} line {line}: {key} {problem}; it is ignored"),
        ("cli.settings.value.oneOf", "must be one of {allowed}, got '{value}'"),
        ("cli.settings.value.url", "must be an http(s) URL such as https://desk.example:8081"),
        ("cli.settings.value.empty", "is empty"),
    ]
}

extension English {
    static let statistics: [(String, String)] = [

        ("cli.stats.indicatorsLeftOut", "the tracing indicators are left out: {reason}"),
        ("cli.stats.rangeLabel.today", "today"),
        ("cli.stats.rangeLabel.1h", "last hour"),
        ("cli.stats.rangeLabel.24h", "last 24 hours"),
        ("cli.stats.rangeLabel.7d", "last 7 days"),
        ("cli.stats.rangeLabel.14d", "last 14 days"),
        ("cli.stats.unknownBucket", "unknown bucket '{value}': use 5m, hour or day"),
        ("cli.stats.rangeOrFromTo", "give --range or --from/--to, not both: --range counts back from now"),
        ("cli.stats.toNeedsFrom", "--to needs --from: give where the range starts"),
        ("cli.stats.badFrom", "--from '{value}' is not a UTC time: write 2026-11-29T10:00:00Z or 2026-11-29"),
        ("cli.stats.badTo", "--to '{value}' is not a UTC time: write 2026-11-30T10:00:00Z or 2026-11-30"),
        ("cli.stats.emptyRange", "--from must come before --to (or before now without --to): the range is empty"),
        ("cli.stats.heading", "Statistics"),
        ("cli.stats.headingTitled", "Statistics, {title}"),
        ("cli.stats.range", "{heading}: {from} to {to} UTC, {buckets}"),
        ("cli.stats.bucket.5m.one", "{count} 5-minute bucket"),
        ("cli.stats.bucket.5m.other", "{count} 5-minute buckets"),
        ("cli.stats.bucket.hour.one", "{count} hourly bucket"),
        ("cli.stats.bucket.hour.other", "{count} hourly buckets"),
        ("cli.stats.bucket.day.one", "{count} daily bucket"),
        ("cli.stats.bucket.day.other", "{count} daily buckets"),
        ("cli.stats.readAt", "Read at {time} UTC"),
        ("cli.stats.noData", "No data in this range."),
        ("cli.stats.pseudoIDs", "Pseudo-ids: {summary}"),
        ("cli.stats.tile.authorised", "Codes authorised"),
        ("cli.stats.tile.uploads", "Uploads"),
        ("cli.stats.tile.uploadsRefused", "Uploads refused"),
        ("cli.stats.tile.chunks", "Chunks published"),
        ("cli.stats.tile.requests", "Phone requests"),
        ("cli.stats.tile.analytics", "Analytics reports"),
        ("cli.stats.tile.registrations", "APRICOT registrations"),
        ("cli.stats.tile.contactFiles", "APRICOT contact files"),
        ("cli.stats.tile.lookups", "Contact lookups"),
        ("cli.stats.rest.authorised", "checked {checked}{checkedShare}, uploaded {uploaded}{uploadedShare}"),
        ("cli.stats.rest.uploads", "keys accepted {accepted}, dropped {dropped}"),
        ("cli.stats.rest.perUpload", ", {mean} keys per upload"),
        ("cli.stats.rest.chunks", "keys {keys}, padding {padding}"),
        ("cli.stats.rest.perChunk", ", {mean} keys per chunk"),
        ("cli.stats.rest.requests", "real {real}, dummy {dummy}{share}"),
        ("cli.stats.share.dummy", " dummy"),
        ("cli.stats.rest.registrations", "returning sign-ins {count}"),
        ("cli.stats.share.ofAuthorised", " of authorised"),
        ("cli.stats.funnel", "Funnel (codes authorised in the range, by authorisation time):"),
        ("cli.stats.funnel.authorised", "  authorised {count}"),
        ("cli.stats.funnel.checked", "  checked    {count}{share}"),
        ("cli.stats.funnel.uploaded", "  uploaded   {count}{share}"),
        ("cli.stats.funnel.median", "  median time to upload: {duration}"),
        ("cli.stats.funnel.noUpload", "none (no code was uploaded)"),
        ("cli.stats.droppedByReason", "Keys dropped by reason: {reasons}"),
        ("cli.stats.keysPerUpload", "Keys per upload:"),
        ("cli.stats.more", "and {count} more"),
        ("cli.stats.operators", "Top operators (codes authorised, checked, uploaded):"),
        (
            "cli.stats.provinces",
            "Provinces (analytics reports; Bluetooth active, notifications allowed, exposure notifications):"
        ),
        ("cli.stats.notAProvince", "(not a province)"),
        ("cli.stats.tracers", "APRICOT lookups per tracer:"),
        ("cli.stats.column.operator", "OPERATOR"),
        ("cli.stats.column.authorised", "AUTHORISED"),
        ("cli.stats.column.checked", "CHECKED"),
        ("cli.stats.column.uploaded", "UPLOADED"),
        ("cli.stats.column.code", "CODE"),
        ("cli.stats.column.province", "PROVINCE"),
        ("cli.stats.column.reports", "REPORTS"),
        ("cli.stats.column.bluetooth", "BLUETOOTH"),
        ("cli.stats.column.notifications", "NOTIFICATIONS"),
        ("cli.stats.column.exposures", "EXPOSURES"),
        ("cli.stats.column.tracer", "TRACER"),
        ("cli.stats.column.lookups", "LOOKUPS"),
        ("cli.common.noArguments", "{command} takes no arguments, got '{argument}'"),
        ("cli.keys.needsOut", "keys generate needs --out FILE"),
        ("cli.keys.needsKey", "keys public needs --key FILE"),
        ("cli.keys.unknownVerb", "unknown keys command '{verb}': use generate or public"),
        ("cli.keys.sayWhat", "keys needs a command: generate or public"),
        ("cli.keys.exists", "it already exists (a signing key is never overwritten)"),
        ("cli.keys.cannotCreate", "cannot create {file}: {reason}"),
        ("cli.keys.incomplete", "could not write {file} completely; nothing was kept"),
        (
            "cli.keys.wroteAudit",
            "wrote a new P-256 audit key to {file} (mode 0600), key id {id}. Its public key, for tracedesk audit verify --public-key:"
        ),
        ("cli.keys.wroteSigning", "wrote a new P-256 signing key to {file} (mode 0600). Its public key:"),
        ("cli.keys.cannotRead", "cannot read the key file {file}: check the path and its permissions"),
        ("cli.keys.notAKey", "{file} is not a usable P-256 private key: {problem}"),
        ("cli.chunks.settingsProblems", "the settings have problems:"),
        ("cli.chunks.showNeedsOne", "chunks show needs one chunk: an index (1, 2, …) or a .zip file"),
        ("cli.chunks.unknownVerb", "unknown chunks command '{verb}': use publish, list or show"),
        ("cli.chunks.sayWhat", "chunks needs a command: publish, list or show"),
        (
            "cli.chunks.needsSigningKey",
            "needs the signing key: give --signing-key FILE (or set signing_key_path); make one with: tracedesk keys generate --out FILE"
        ),
        ("cli.chunks.publishLocked", "skipped: another server holds the lock (it is publishing now); try again later"),
        ("cli.chunks.published.one", "chunk {index}: {keys} key"),
        ("cli.chunks.published.other", "chunk {index}: {keys} keys"),
        ("cli.chunks.padding", " + {count} padding"),
        ("cli.chunks.window", ", window {from} to {to}"),
        ("cli.chunks.bytes", ", {count} bytes"),
        ("cli.chunks.nothingPublished", "nothing published: no keys past their embargo"),
        ("cli.chunks.stopped", "stopped after chunk {index}: {problem}"),
        (
            "cli.chunks.tooOld.one",
            "{count} key was never published and is now too old to be: publishing did not run in time"
        ),
        (
            "cli.chunks.tooOld.other",
            "{count} keys were never published and are now too old to be: publishing did not run in time"
        ),
        ("cli.chunks.waiting.one", "waiting: {ready} ready, {embargoed} under embargo"),
        ("cli.chunks.waiting.other", "waiting: {ready} ready, {embargoed} under embargo"),
        ("cli.chunks.nextRelease", " (next release {time})"),
        ("cli.chunks.noneYet", "no chunks published yet"),
        ("cli.chunks.noneKept", "no chunks kept (the last index was {last})"),
        ("cli.cleanup.locked", "skipped: another server holds the lock (it is cleaning up now); try again later"),
        ("cli.migrate.noArguments", "migrate takes no arguments, only --store"),
        ("cli.migrate.done", "{location}: schema version {version} (the latest this tracedesk knows)"),
        ("cli.store.noArguments", "store info takes no arguments, only --store and --json"),
        ("cli.store.unknownVerb", "unknown store command '{verb}': use info"),
        ("cli.store.sayWhat", "store needs a command: info"),

        ("cli.store.info.adapter", "adapter"),
        ("cli.store.info.location", "location"),
        ("cli.store.info.schema", "schema version"),
        ("cli.store.info.schemaValue", "{version} (this tracedesk knows up to {known})"),
        ("cli.store.info.size", "size on disk"),
        ("cli.store.info.table", "table"),
        ("cli.store.info.rows", "rows"),
        ("cli.store.info.tableSize", "size"),
    ]
}
