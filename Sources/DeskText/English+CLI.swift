extension English {
    /// The command line's help, man pages and completions in English (keys `cli.…`: the table of
    /// commands in DeskCLI names them). A blank line parts paragraphs; a line that starts with a
    /// space is kept as it is.
    static let cli: [(String, String)] = headings + shared + commands1 + commands2 + commands3 + bench
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
