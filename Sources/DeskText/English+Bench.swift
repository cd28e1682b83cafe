extension English {
    /// `tracedesk bench`: its options' descriptions in the table of commands (`cli.bench.about.…`:
    /// DeskCLI adds each range and default from the table), its refusals and its report lines.
    /// Not here: --json output (Benchmarks/write-path.sh reads write-raw's).
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
        ("cli.bench.seed.done", "seeded {count} into {store}; tokens in {tokens}"),
        ("cli.bench.keys.done", "stored {count} in {store}"),
        ("cli.bench.publish.published", "published {keys} in {chunks} ({bytes} bytes of zip)"),
        ("cli.bench.publish.run", "  publishing run (store + build): {seconds} s"),
        ("cli.bench.publish.build", "  building the same chunks alone: {seconds} s"),
        ("cli.bench.publish.ratio", "  ratio: {ratio}"),
        ("cli.bench.render.title", "render + diff, {width}×{height}, {frames}"),
        ("cli.bench.render.full", "  full repaint (vs blank):     median {median} ms, p90 {p90} ms, {cells}"),
        ("cli.bench.render.tick", "  countdown tick (vs previous): median {median} ms, p90 {p90} ms, {cells}"),
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
        (
            "cli.bench.write-raw.result",
            "raw {operation} threads={threads} shared={shared} ops={ops} seconds={seconds} rate={rate}"
        ),
        ("cli.bench.write-raw.sqliteOnly", "give --store PATH: a new SQLite file (it is created)"),
        ("cli.bench.write-raw.exists", "{path} exists: the raw benchmark writes a fresh store"),
        ("cli.bench.indicators.kept", "kept facts"),
        ("cli.bench.indicators.joined", "from the pairs (before)"),
        (
            "cli.bench.indicators.timed",
            "  {label}, 14 d, {runs}: median {median} ms, p95 {p95} ms; CPU per call: this process {client} ms"
        ),
        ("cli.bench.indicators.serverCPU", ", the server's backends {server} ms"),
        (
            "cli.bench.indicators.figures",
            "  {cases}, {open}, lost {lost} %, checked every day {checked} %"
        ),
        (
            "cli.bench.monitor.residentSixths",
            "  resident after each sixth of the run: {samples} MiB (the store's page cache is 16 MiB)"
        ),
        (
            "cli.bench.apricot.notEmpty",
            "{store} is not empty ({tables} hold rows): the bench writes users and contact files that look real; give it an empty database (or no --store: a fresh SQLite file)"
        ),
        ("cli.bench.staff.kdf", "sign-in KDF, {summary}, {hashes}:"),
        ("cli.bench.staff.kdfTimes", "  median {median} ms, p95 {p95} ms"),
        ("cli.bench.staff.authorize", "authorise a fresh valid code, {authorizations}, SQLite store:"),
        (
            "cli.bench.staff.authorizeRemote",
            "  RemoteDesk → staff API on 127.0.0.1: median {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.staff.authorizeLocal",
            "  LocalDesk in-process:               median {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.staff.signIn", "remote sign-in (KDF on the server + HTTP), {signIns}:"),
        ("cli.bench.staff.signInTimes", "  median {median} ms, p95 {p95} ms"),
        ("cli.bench.apricot.store", "store {location}"),
        (
            "cli.bench.apricot.codeRequest",
            "code request (POST /apricot/v1/otp, outbox gateway), {registrations} phones:"
        ),
        ("cli.bench.apricot.codeTimes", "  median {median} ms, p95 {p95} ms"),
        (
            "cli.bench.apricot.registration",
            "registration (POST /apricot/v1/login, a new user with its pseudo-ids), {registrations} phones:"
        ),
        (
            "cli.bench.apricot.registrationTimes",
            "  median {median} ms, p95 {p95} ms (target < 50 ms: p95 at {percent} % of it)"
        ),
        (
            "cli.bench.apricot.registrationLocal",
            "  in-process (ApricotDesk, no HTTP), {phones}: median {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.apricot.growth", "  store growth: {bytes} bytes per registered user"),
        (
            "cli.bench.apricot.upload",
            "contact file of {records} ({bytes} bytes), {uploads} (each replaces the last):"
        ),
        (
            "cli.bench.apricot.uploadTimes",
            "  median {median} ms, p95 {p95} ms (target < 200 ms: p95 at {percent} % of it)"
        ),
        (
            "cli.bench.apricot.uploadLocal",
            "  in-process (ApricotDesk, no HTTP): median {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.followup.seedingSQLite", "SQLite: seeding {followUps} over {cases}…"),
        (
            "cli.bench.followup.seedingPostgreSQL",
            "PostgreSQL: seeding {followUps} over {cases}…"
        ),
        (
            "cli.bench.followup.seeded",
            "{adapter}: {followUps} over {cases}, the tracer's queue today {queued}"
        ),
        (
            "cli.bench.followup.queuePage",
            "  queue page of 100 in LocalDesk: first {first} ms; next pages ({pages}): median {median} ms, p95 {p95} ms, max {max} ms (store alone: median {storeMedian} ms)"
        ),
        (
            "cli.bench.followup.openCase",
            "  open a case with {contacts} in LocalDesk ({runs}): median {median} ms, max {max} ms"
        ),
        (
            "cli.bench.followup.openCaseBare",
            "  the same without the indicator-fact triggers ({runs}, in turn): median {median} ms, max {max} ms; with/without {ratio}"
        ),
        (
            "cli.bench.indicators.seeding",
            "{name}: seeding {cases}, {followUps} over {days}…"
        ),
        ("cli.bench.indicators.seeded", "  seeded in {seconds} s"),
        ("cli.bench.indicators.ratio", "  kept / before: wall median × {ratio}, CPU × {cpuRatio}"),
        ("cli.bench.monitor.title", "monitor at {width}×{height}, supervisor, SQLite store, {seconds} s:"),
        (
            "cli.bench.monitor.events",
            "  events written: {count} ({perSecond} a second; asked {rate}); the feed reached position {feedCursor} of {latest}"
        ),
        (
            "cli.bench.monitor.keystrokes",
            "  keystroke → screen ({keys} keys, ↓/↑): median {median} ms, p95 {p95} ms, max {max} ms"
        ),
        ("cli.bench.monitor.longestStep", "  longest step (a key may wait for it): p99 {p99} ms, max {max} ms"),
        (
            "cli.bench.monitor.memory",
            "  memory: resident {before} MiB before, {after} MiB after; window {rows} rows"
        ),
        ("cli.bench.monitor.delivery", "a new event delivered to a waiting feed, {polls}:"),
        (
            "cli.bench.monitor.deliveryRemote",
            "  RemoteDesk long poll (staff API on 127.0.0.1): median {median} ms, p95 {p95} ms, max {max} ms"
        ),
        (
            "cli.bench.monitor.deliveryLocal",
            "  LocalDesk wait (store poll):                  median {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.events.written", "wrote {written} in {seconds} s"),
        (
            "cli.bench.stats.tableHeader",
            "adapter     seed s  cold ms  14d/day med  p95   24h/hour med  p95   1h/5m med  p95"
        ),
        (
            "cli.bench.stats.ratios",
            "PostgreSQL ÷ SQLite (warm medians): 14d {fortnight}×, 24h {day}×, 1h {hour}×; cold {cold}×"
        ),
        (
            "cli.bench.stats.seeding",
            "{name}: seeding {uploads} uploads, about {events} events over {days}…"
        ),
        ("cli.bench.stats.seeded", "  seeded in {seconds} s"),
        (
            "cli.bench.stats.cold",
            "  first call (rolling up): {coldMs} ms; {rolled} left to roll up after it"
        ),
        (
            "cli.bench.stats.warm",
            "  {range} in {bucket} buckets, {runs}: median {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.stats.totals",
            "  14 d: {authorized}, {uploads}, {requests}, {analytics}, {lookups}"
        ),
        (
            "cli.bench.trace.registering",
            "registering {users} users of {pseudoIDsPerUser} pseudo-ids in {location}…"
        ),
        ("cli.bench.trace.progress", "  {users} users, {seconds} s"),
        ("cli.bench.trace.registered", "  {fresh}, {again} signing in again: {seconds} s"),
        ("cli.bench.trace.storingFiles", "storing {days} of {records} for the patient…"),
        ("cli.bench.trace.store", "{adapter}, {users} users, {pseudoIDs} pseudo-ids"),
        (
            "cli.bench.trace.patient",
            "patient: {days}, {sightings}, {distinct} → {contacts} ({close}), {unresolved}"
        ),
        (
            "cli.bench.trace.lookup",
            "lookup in LocalDesk, {runs}: median {median} ms (min {min}, max {max})"
        ),
        ("cli.bench.trace.lookupStore", "  of which the store: read the patient {read} ms, resolve owners {owners} ms"),
        (
            "cli.bench.trace.registration",
            "registration with {pseudoIDsPerUser} pseudo-ids in the full store: median {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.trace.storeFile", "store a day's file ({records}) at the store level: median {median} ms"),
        (
            "cli.bench.trace.size",
            "size: {perUser} bytes per registered user (users, pseudo-ids, tokens with indexes); contact files {fileBytes} bytes; store {totalBytes} bytes"
        ),
        ("cli.bench.write-raw.mismatch", "the raw benchmark's statements are not the store's: {mismatch}"),
        ("cli.bench.write-raw.statementsMatch", "statements match the store's: authorization and 14-key upload"),
        // A count and its noun, for the report lines above (each count its own plural).
        ("cli.bench.count.runs.one", "{count} run"),
        ("cli.bench.count.runs.other", "{count} runs"),
        ("cli.bench.count.chunks.one", "{count} chunk"),
        ("cli.bench.count.chunks.other", "{count} chunks"),
        ("cli.bench.count.frames.one", "{count} frame"),
        ("cli.bench.count.frames.other", "{count} frames"),
        ("cli.bench.count.cells.one", "{count} cell"),
        ("cli.bench.count.cells.other", "{count} cells"),
        ("cli.bench.count.cases.one", "{count} case"),
        ("cli.bench.count.cases.other", "{count} cases"),
        ("cli.bench.count.followUps.one", "{count} follow-up"),
        ("cli.bench.count.followUps.other", "{count} follow-ups"),
        ("cli.bench.count.closeContacts.one", "{count} close contact"),
        ("cli.bench.count.closeContacts.other", "{count} close contacts"),
        ("cli.bench.count.days.one", "{count} day"),
        ("cli.bench.count.days.other", "{count} days"),
        ("cli.bench.count.hours.one", "{count} hour"),
        ("cli.bench.count.hours.other", "{count} hours"),
        ("cli.bench.count.hashes.one", "{count} hash"),
        ("cli.bench.count.hashes.other", "{count} hashes"),
        ("cli.bench.count.times.one", "{count} time"),
        ("cli.bench.count.times.other", "{count} times"),
        ("cli.bench.count.records.one", "{count} record"),
        ("cli.bench.count.records.other", "{count} records"),
        ("cli.bench.count.uploads.one", "{count} upload"),
        ("cli.bench.count.uploads.other", "{count} uploads"),
        ("cli.bench.count.contactFiles.one", "{count} contact file"),
        ("cli.bench.count.contactFiles.other", "{count} contact files"),
        ("cli.bench.count.files.one", "{count} file"),
        ("cli.bench.count.files.other", "{count} files"),
        ("cli.bench.count.sightings.one", "{count} sighting"),
        ("cli.bench.count.sightings.other", "{count} sightings"),
        ("cli.bench.count.contacts.one", "{count} contact"),
        ("cli.bench.count.contacts.other", "{count} contacts"),
        ("cli.bench.count.phones.one", "{count} phone"),
        ("cli.bench.count.phones.other", "{count} phones"),
        ("cli.bench.count.lookups.one", "{count} lookup"),
        ("cli.bench.count.lookups.other", "{count} lookups"),
        ("cli.bench.seed.codes.one", "{count} code"),
        ("cli.bench.seed.codes.other", "{count} codes"),
        ("cli.bench.keys.stored.one", "{count} key ready for publishing"),
        ("cli.bench.keys.stored.other", "{count} keys ready for publishing"),
        ("cli.bench.publish.keys.one", "{count} key"),
        ("cli.bench.publish.keys.other", "{count} keys"),
        ("cli.bench.indicators.activeAssigned.one", "{count} active follow-up assigned"),
        ("cli.bench.indicators.activeAssigned.other", "{count} active follow-ups assigned"),
        ("cli.bench.events.count.one", "{count} event"),
        ("cli.bench.events.count.other", "{count} events"),
        ("cli.bench.stats.authorized.one", "{count} authorised"),
        ("cli.bench.stats.authorized.other", "{count} authorised"),
        ("cli.bench.stats.requests.one", "{count} real request"),
        ("cli.bench.stats.requests.other", "{count} real requests"),
        ("cli.bench.stats.analytics.one", "{count} analytics"),
        ("cli.bench.stats.analytics.other", "{count} analytics"),
        ("cli.bench.trace.distinct.one", "{count} distinct pseudo-id heard"),
        ("cli.bench.trace.distinct.other", "{count} distinct pseudo-ids heard"),
        ("cli.bench.trace.close.one", "{count} close"),
        ("cli.bench.trace.close.other", "{count} close"),
        ("cli.bench.trace.unresolved.one", "{count} unresolved"),
        ("cli.bench.trace.unresolved.other", "{count} unresolved"),
        ("cli.bench.trace.fresh.one", "{count} new"),
        ("cli.bench.trace.fresh.other", "{count} new"),
    ]
}
