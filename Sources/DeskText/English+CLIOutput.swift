extension English {
    /// What the operating commands print for people (keys `cli.out.<command>.<message>`): the
    /// lines, table headings, refusals and prompts of chunks, cleanup, serve, demo and simulate.
    /// Not their --json, the server's log lines or wire text, which stay as they are. The English
    /// is byte for byte what these commands printed before the catalogue (tests and the e2e
    /// scripts read it).
    static let cliOutput: [(String, String)] = chunksOutput + serveOutput + demoOutput + simulateOutput
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
        ("cli.out.chunks.show.chunk", "chunk {index}, published {time}, {keys} keys"),
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
        ("cli.out.chunks.show.day", "  {day}: {count} keys (risk {risks}, days since onset {onsets})"),
        ("cli.out.chunks.show.column.key", "key (base64)"),
        ("cli.out.chunks.show.column.start", "start interval (UTC day)"),
        ("cli.out.chunks.show.column.period", "period"),
        ("cli.out.chunks.show.column.risk", "risk"),
        ("cli.out.chunks.show.column.report", "report"),
        ("cli.out.chunks.show.column.onset", "onset"),
        ("cli.out.chunks.show.unchecked", "{count} present, not checked (give --public-key FILE)"),
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
            "cli.out.demo.tracing.done",
            "tracing: cases opened {cases} ({followUps} follow-ups); the simulated tracer's attempts {attempts} (reached {reached}), daily checks {checks}"
        ),
        ("cli.out.demo.tracing.skipped", "; {count} patients without a case (not registered)"),
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
            "simulating for {seconds} s against {url}: {rate} citizens a minute, {phones} APRICOT phones, seed {seed}"
        ),
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
        ("cli.out.simulate.progress", "{elapsed} s of {total} s: {requests} requests, {errors} errors"),
        (
            "cli.out.simulate.notThisMachine",
            "{option} {host} is not this machine: simulated phones make real load and real-looking data; add --allow-non-loopback if that server is a test server"
        ),
        ("cli.out.simulate.number", "--{option} must be a number from {low} to {high}, got '{value}'"),
    ]
}
