extension English {
    /// `tracedesk bench`: its options' descriptions in the table of commands (`cli.bench.about.…`:
    /// DeskCLI adds each range and default from the table), its refusals and its report lines.
    /// Not here: --json output, and write-raw's `key=value` line (Benchmarks/write-path.sh reads it).
    static let benchRun: [(String, String)] = [
        ("cli.bench.help.range", ", {low} to {high}"),
        ("cli.bench.help.default", " (default {value})"),
        ("cli.bench.usage.needs", "'{command}' needs {option}"),
        ("cli.bench.usage.unknown", "unknown benchmark '{name}': use {benchmarks}"),
        ("cli.bench.usage.postgresURL", "--postgres takes a postgres:// URL"),
        ("cli.bench.usage.postmasterPID", "--postmaster-pid takes the PostgreSQL server's process id"),
        ("cli.bench.about.width", "the screen's width in columns"),
        ("cli.bench.about.height", "the screen's height in rows"),
        ("cli.bench.about.frames", "frames to draw"),
        ("cli.bench.about.count.codes", "codes to authorise"),
        ("cli.bench.about.count.keys", "keys to store"),
        ("cli.bench.about.count.transactions", "transactions at most"),
        ("cli.bench.about.keys", "keys to seed"),
        ("cli.bench.about.hashes", "sign-in hashes to time"),
        ("cli.bench.about.authorizations", "authorisations to time"),
        ("cli.bench.about.sign-ins", "sign-ins to time"),
        ("cli.bench.about.registrations", "phones that register"),
        ("cli.bench.about.uploads.files", "contact-file uploads to time"),
        ("cli.bench.about.uploads", "uploads to seed"),
        ("cli.bench.about.records", "records in a day's contact file"),
        ("cli.bench.about.seconds", "how long to run, in seconds"),
        ("cli.bench.about.rate", "events written a second"),
        ("cli.bench.about.polls", "long polls to time"),
        ("cli.bench.about.users", "users to register"),
        ("cli.bench.about.days.files", "the patient's days of contact files"),
        ("cli.bench.about.days", "days of data to seed"),
        ("cli.bench.about.runs", "timed runs"),
        ("cli.bench.about.events", "events to seed"),
        ("cli.bench.about.follow-ups", "follow-ups to seed"),
        ("cli.bench.about.cases", "cases to seed"),
        ("cli.bench.about.contacts", "close contacts of the case opened"),
        ("cli.bench.about.pages", "queue pages to time"),
        ("cli.bench.about.threads", "writing threads"),
        ("cli.bench.about.store.new", "a new SQLite file (it is created; it must not exist)"),
        ("cli.bench.staff.more", "The KDF is scrypt at the defaults. Build with -c release."),
        (
            "cli.bench.apricot.more",
            "A new user has 1 000 pseudo-ids; a full day's file is 28 800 records. Without --store a fresh SQLite file is used; a --store PATH or URL must name an empty store (one that holds anything is refused)."
        ),
        (
            "cli.bench.events.more",
            "The events are app checks of the codes it authorises (6 × rate of them, at least 100, since checks of one code make one event every 5 s): load for watching the monitor in a real terminal."
        ),
        ("cli.bench.trace.more", "Without --store, a fresh SQLite file in the temporary folder (removed afterwards)."),
        (
            "cli.bench.stats.more",
            "SQLite in a fresh file unless --store names an empty one; PostgreSQL too when --postgres names an empty database (or schema)."
        ),
        (
            "cli.bench.followup.more",
            "SQLite in a fresh temporary file; PostgreSQL too with --postgres (an empty database). --trigger-cost: as many cases again, opened in turn without migration 12's indicator-fact triggers (dropped before, made again after), for the ratio."
        ),
        (
            "cli.bench.indicators.more",
            "SQLite in a fresh file unless --store names an empty one; PostgreSQL too when --postgres names an empty database (or schema). Each run reads twice, in turn: from the facts the store keeps (migration 12) and counted from every case-follow-up pair as before them, and fails unless both agree. Besides the wall time, the CPU time per call: this process's, and with --postmaster-pid (a local server's) its backends' too, read from /proc: on a busy machine the wall time is mostly waiting for a core."
        ),
        ("cli.bench.seed.cannotWrite", "cannot write {file}"),
        ("cli.bench.seed.done", "seeded {count} codes into {store}; tokens in {tokens}"),
        ("cli.bench.keys.done", "stored {count} keys ready for publishing in {store}"),
        ("cli.bench.publish.published", "published {keys} keys in {chunks} chunks ({bytes} bytes of zip)"),
        ("cli.bench.publish.run", "  publishing run (store + build): {seconds} s"),
        ("cli.bench.publish.build", "  building the same chunks alone: {seconds} s"),
        ("cli.bench.publish.ratio", "  ratio: {ratio}"),
        ("cli.bench.render.title", "render + diff, {width}×{height}, {frames} frames"),
        ("cli.bench.render.full", "  full repaint (vs blank):     median {median} ms, p90 {p90} ms, {cells} cells"),
        ("cli.bench.render.tick", "  countdown tick (vs previous): median {median} ms, p90 {p90} ms, {cells} cells"),
        ("cli.bench.render.budget", "  budget 2 ms: full repaint uses {percent}% of it"),
        (
            "cli.bench.render.ncurses",
            "  through ncurses, screen ↔ help overlay each frame: median {median} ms, p90 {p90} ms"
        ),
        (
            "cli.bench.render.raw",
            "  baseline, raw ncurses repaint (mvaddwstr per row): median {median} ms, p90 {p90} ms"
        ),
        ("cli.bench.render.ratio", "  ratio pipeline / raw: {ratio}"),
        ("cli.bench.write-raw.sqliteOnly", "give --store PATH: a new SQLite file (it is created)"),
        ("cli.bench.write-raw.exists", "{path} exists: the raw benchmark writes a fresh store"),
        ("cli.bench.indicators.kept", "kept facts"),
        ("cli.bench.indicators.joined", "from the pairs (before)"),
        (
            "cli.bench.indicators.timed",
            "  {label}, 14 d, {runs} runs: median {median} ms, p95 {p95} ms; CPU per call: this process {client} ms"
        ),
        ("cli.bench.indicators.serverCPU", ", the server's backends {server} ms"),
        (
            "cli.bench.indicators.figures",
            "  {cases} cases, {open} active follow-ups assigned, lost {lost} %, checked every day {checked} %"
        ),
        (
            "cli.bench.monitor.residentSixths",
            "  resident after each sixth of the run: {samples} MiB (the store's page cache is 16 MiB)"
        ),
        (
            "cli.bench.apricot.notEmpty",
            "{store} is not empty ({tables} hold rows): the bench writes users and contact files that look real; give it an empty database (or no --store: a fresh SQLite file)"
        ),
        ("cli.bench.staff.signInKdf", "sign-in KDF, {summary}, {hashes} hashes:"),
        ("cli.bench.staff.medianKdfmedianMs", "  median {kdfMedian} ms, p95 {kdfP95} ms"),
        ("cli.bench.staff.authoriseAFresh", "authorise a fresh valid code, {authorizations} times, SQLite store:"),
        (
            "cli.bench.staff.remotedeskStaffApi",
            "  RemoteDesk → staff API on 127.0.0.1: median {remoteMedian} ms, p95 {remoteP95} ms"
        ),
        (
            "cli.bench.staff.localdeskInProcess",
            "  LocalDesk in-process:               median {localMedian} ms, p95 {localP95} ms"
        ),
        ("cli.bench.staff.remoteSignIn", "remote sign-in (KDF on the server + HTTP), {signIns} times:"),
        ("cli.bench.staff.medianSigninmedianMs", "  median {signInMedian} ms, p95 {signInP95} ms"),
        ("cli.bench.apricot.storeLocation", "store {location}"),
        (
            "cli.bench.apricot.codeRequestPost",
            "code request (POST /apricot/v1/otp, outbox gateway), {registrations} phones:"
        ),
        ("cli.bench.apricot.medianCodeMs", "  median {code0} ms, p95 {code1} ms"),
        (
            "cli.bench.apricot.registrationPostApricot",
            "registration (POST /apricot/v1/login, a new user with its pseudo-ids), {registrations} phones:"
        ),
        (
            "cli.bench.apricot.medianLoginMs",
            "  median {login0} ms, p95 {login1} ms (target < 50 ms: p95 at {value} % of it)"
        ),
        (
            "cli.bench.apricot.inProcessApricotdesk",
            "  in-process (ApricotDesk, no HTTP), {localLoginTimesCount} phones: median {localLogin0} ms, p95 {localLogin1} ms"
        ),
        ("cli.bench.apricot.storeGrowthBytesperuser", "  store growth: {bytesPerUser} bytes per registered user"),
        (
            "cli.bench.apricot.contactFileOf",
            "contact file of {recordCount} records ({bytes} bytes), {uploads} uploads (each replaces the last):"
        ),
        (
            "cli.bench.apricot.medianUploadMs",
            "  median {upload0} ms, p95 {upload1} ms (target < 200 ms: p95 at {value} % of it)"
        ),
        (
            "cli.bench.apricot.inProcessApricotdesk2",
            "  in-process (ApricotDesk, no HTTP): median {localUpload0} ms, p95 {localUpload1} ms"
        ),
        ("cli.bench.followup.sqliteSeedingFollowups", "SQLite: seeding {followUps} follow-ups over {cases} cases…"),
        (
            "cli.bench.followup.postgresqlSeedingFollowups",
            "PostgreSQL: seeding {followUps} follow-ups over {cases} cases…"
        ),
        (
            "cli.bench.followup.adapterFollowupsFollow",
            "{adapter}: {followUps} follow-ups over {cases} cases, the tracer's queue today {queued}"
        ),
        (
            "cli.bench.followup.queuePageOf",
            "  queue page of 100 in LocalDesk: first {first} ms; next pages ({nextCount}): median {value} ms, p95 {value2} ms, max {value3} ms (store alone: median {value4} ms)"
        ),
        (
            "cli.bench.followup.openACase",
            "  open a case with {contacts} close contacts in LocalDesk ({opensCount} runs): median {withMedian} ms, max {value} ms"
        ),
        (
            "cli.bench.followup.theSameWithout",
            "  the same without the indicator-fact triggers ({bareOpensCount} runs, in turn): median {bareMedian} ms, max {value} ms; with/without {value2}"
        ),
        (
            "cli.bench.indicators.nameSeedingCases",
            "{name}: seeding {cases} cases, {followUps} follow-ups over {days} days…"
        ),
        ("cli.bench.indicators.seededInSeedseconds", "  seeded in {seedSeconds} s"),
        ("cli.bench.indicators.keptBeforeWall", "  kept / before: wall median × {ratio}, CPU × {cpuRatio}"),
        ("cli.bench.monitor.monitorAtWidth", "monitor at {width}×{height}, supervisor, SQLite store, {seconds} s:"),
        (
            "cli.bench.monitor.eventsWrittenEventswritten",
            "  events written: {eventsWritten} ({written} a second; asked {rate}); the feed reached position {feedCursor} of {latest}"
        ),
        (
            "cli.bench.monitor.keystrokeScreenKeyscount",
            "  keystroke → screen ({keysCount} keys, ↓/↑): median {value} ms, p95 {value2} ms, max {value3} ms"
        ),
        ("cli.bench.monitor.longestStepA", "  longest step (a key may wait for it): p99 {value} ms, max {value2} ms"),
        (
            "cli.bench.monitor.memoryResidentRssbefore",
            "  memory: resident {rssBefore} MiB before, {rssAfter} MiB after; window {windowRows} rows"
        ),
        ("cli.bench.monitor.aNewEvent", "a new event delivered to a waiting feed, {polls} times:"),
        (
            "cli.bench.monitor.remotedeskLongPoll",
            "  RemoteDesk long poll (staff API on 127.0.0.1): median {value} ms, p95 {value2} ms, max {value3} ms"
        ),
        (
            "cli.bench.monitor.localdeskWaitStore",
            "  LocalDesk wait (store poll):                  median {value} ms, p95 {value2} ms"
        ),
        ("cli.bench.monitor.wroteWrittenEvents", "wrote {written} events in {seconds} s"),
        (
            "cli.bench.stats.adapterSeedS",
            "adapter     seed s  cold ms  14d/day med  p95   24h/hour med  p95   1h/5m med  p95"
        ),
        (
            "cli.bench.stats.postgresqlSqliteWarm",
            "PostgreSQL ÷ SQLite (warm medians): 14d {value}×, 24h {value2}×, 1h {value3}×; cold {value4}×"
        ),
        (
            "cli.bench.stats.nameSeedingUploads",
            "{name}: seeding {uploads} uploads, about {events} events over {days} days…"
        ),
        ("cli.bench.stats.seededInSeedseconds", "  seeded in {seedSeconds} s"),
        (
            "cli.bench.stats.firstCallRolling",
            "  first call (rolling up): {coldMs} ms; {rolled} hours left to roll up after it"
        ),
        (
            "cli.bench.stats.rawvalueInLabel",
            "  {rawValue} in {label} buckets, {runs} runs: median {value} ms, p95 {value2} ms"
        ),
        (
            "cli.bench.stats.dTotalAuthorised",
            "  14 d: {total} authorised, {total2} uploads, {total3} real requests, {total4} analytics, {total5} lookups"
        ),
        (
            "cli.bench.trace.registeringUsersUsers",
            "registering {users} users of {pseudoIDsPerUser} pseudo-ids in {location}…"
        ),
        ("cli.bench.trace.indexUsersValue", "  {index} users, {value} s"),
        ("cli.bench.trace.freshNewValue", "  {fresh} new, {value} signing in again: {seedSeconds} s"),
        ("cli.bench.trace.storingDaysContact", "storing {days} contact files of {records} records for the patient…"),
        ("cli.bench.trace.adapterRegisteredUsers", "{adapter}, {registered} users, {value} pseudo-ids"),
        (
            "cli.bench.trace.patientDaysFiles",
            "patient: {days} files, {sightings} sightings, {distinct} distinct pseudo-ids heard → {contacts} contacts ({close} close), {value} unresolved"
        ),
        (
            "cli.bench.trace.lookupInLocaldesk",
            "lookup in LocalDesk, {runs} runs: median {lookupMedian} ms (min {value}, max {value2})"
        ),
        ("cli.bench.trace.ofWhichThe", "  of which the store: read the patient {value} ms, resolve owners {value2} ms"),
        (
            "cli.bench.trace.registrationWithPseudoidsperuser",
            "registration with {pseudoIDsPerUser} pseudo-ids in the full store: median {value} ms, p95 {value2} ms"
        ),
        ("cli.bench.trace.storeADay", "store a day's file ({records} records) at the store level: median {value} ms"),
        (
            "cli.bench.trace.sizePeruserBytes",
            "size: {perUser} bytes per registered user (users, pseudo-ids, tokens with indexes); contact files {fileBytes} bytes; store {totalBytes} bytes"
        ),
        ("cli.bench.write-raw.theRawBenchmark", "the raw benchmark's statements are not the store's: {mismatch}"),
        ("cli.bench.write-raw.statementsMatchThe", "statements match the store's: authorization and 14-key upload"),
    ]
}
