extension Italian {
    /// `tracedesk bench` in Italian (see English.benchRun).
    static let benchRun: [(String, String)] = [
        ("cli.bench.help.range", ", da {low} a {high}"),
        ("cli.bench.help.default", " (predefinito {value})"),
        ("cli.bench.usage.needs", "'{command}' richiede {option}"),
        ("cli.bench.usage.unknown", "benchmark sconosciuto '{name}': usare {benchmarks}"),
        ("cli.bench.usage.postgresURL", "--postgres vuole un URL postgres://"),
        ("cli.bench.usage.postmasterPID", "--postmaster-pid vuole l'id di processo del server PostgreSQL"),
        ("cli.bench.about.width", "la larghezza dello schermo in colonne"),
        ("cli.bench.about.height", "l'altezza dello schermo in righe"),
        ("cli.bench.about.frames", "fotogrammi da disegnare"),
        ("cli.bench.about.count.codes", "codici da autorizzare"),
        ("cli.bench.about.count.keys", "chiavi da memorizzare"),
        ("cli.bench.about.count.transactions", "transazioni al massimo"),
        ("cli.bench.about.keys", "chiavi da preparare"),
        ("cli.bench.about.hashes", "hash di accesso da cronometrare"),
        ("cli.bench.about.authorizations", "autorizzazioni da cronometrare"),
        ("cli.bench.about.sign-ins", "accessi da cronometrare"),
        ("cli.bench.about.registrations", "telefoni che si registrano"),
        ("cli.bench.about.uploads.files", "caricamenti di file dei contatti da cronometrare"),
        ("cli.bench.about.uploads", "caricamenti da preparare"),
        ("cli.bench.about.records", "record nel file dei contatti di un giorno"),
        ("cli.bench.about.seconds", "per quanto tempo, in secondi"),
        ("cli.bench.about.rate", "eventi scritti al secondo"),
        ("cli.bench.about.polls", "long poll da cronometrare"),
        ("cli.bench.about.users", "utenti da registrare"),
        ("cli.bench.about.days.files", "i giorni di file dei contatti del paziente"),
        ("cli.bench.about.days", "giorni di dati da preparare"),
        ("cli.bench.about.runs", "esecuzioni cronometrate"),
        ("cli.bench.about.events", "eventi da preparare"),
        ("cli.bench.about.follow-ups", "sorveglianze da preparare"),
        ("cli.bench.about.cases", "casi da preparare"),
        ("cli.bench.about.contacts", "contatti stretti del caso aperto"),
        ("cli.bench.about.pages", "pagine della coda da cronometrare"),
        ("cli.bench.about.threads", "thread che scrivono"),
        ("cli.bench.about.store.new", "un file SQLite nuovo (viene creato; non deve esistere)"),
        ("cli.bench.staff.more", "La KDF è scrypt ai valori predefiniti. Compilare con -c release."),
        (
            "cli.bench.apricot.more",
            "Un utente nuovo ha 1 000 pseudo-id; il file di un giorno intero ha 28 800 record. Senza --store si usa un file SQLite nuovo; un --store PATH o URL deve indicare un archivio vuoto (uno che contiene qualcosa è rifiutato)."
        ),
        (
            "cli.bench.events.more",
            "Gli eventi sono verifiche dell'app sui codici che autorizza (6 × rate, almeno 100, perché le verifiche di un codice fanno un evento ogni 5 s): carico per osservare il monitor in un terminale vero."
        ),
        ("cli.bench.trace.more", "Senza --store, un file SQLite nuovo nella cartella temporanea (rimosso alla fine)."),
        (
            "cli.bench.stats.more",
            "SQLite in un file nuovo, a meno che --store indichi un archivio vuoto; anche PostgreSQL quando --postgres indica un database (o uno schema) vuoto."
        ),
        (
            "cli.bench.followup.more",
            "SQLite in un file temporaneo nuovo; anche PostgreSQL con --postgres (un database vuoto). --trigger-cost: altrettanti casi, aperti a turno senza i trigger dei fatti degli indicatori della migrazione 12 (tolti prima, ricreati dopo), per il rapporto."
        ),
        (
            "cli.bench.indicators.more",
            "SQLite in un file nuovo, a meno che --store indichi un archivio vuoto; anche PostgreSQL quando --postgres indica un database (o uno schema) vuoto. Ogni esecuzione legge due volte, a turno: dai fatti che l'archivio conserva (migrazione 12) e contando ogni coppia caso-sorveglianza come prima di essi, e fallisce se i due non concordano. Oltre al tempo reale, il tempo di CPU per chiamata: di questo processo e, con --postmaster-pid (di un server locale), anche dei suoi backend, letto da /proc: su una macchina carica il tempo reale è soprattutto attesa di un core."
        ),
        ("cli.bench.seed.cannotWrite", "impossibile scrivere {file}"),
        ("cli.bench.seed.done", "{count} in {store}; token in {tokens}"),
        ("cli.bench.keys.done", "{count} in {store}"),
        ("cli.bench.publish.published", "{keys} in {chunks} ({bytes} byte di zip)"),
        ("cli.bench.publish.run", "  pubblicazione (archivio + costruzione): {seconds} s"),
        ("cli.bench.publish.build", "  costruzione degli stessi lotti da sola: {seconds} s"),
        ("cli.bench.publish.ratio", "  rapporto: {ratio}"),
        ("cli.bench.render.title", "disegno + differenze, {width}×{height}, {frames}"),
        (
            "cli.bench.render.full",
            "  ridisegno completo (da vuoto):   mediana {median} ms, p90 {p90} ms, {cells}"
        ),
        ("cli.bench.render.tick", "  scatto del conto alla rovescia: mediana {median} ms, p90 {p90} ms, {cells}"),
        ("cli.bench.render.budget", "  budget 2 ms: il ridisegno completo ne usa il {percent}%"),
        (
            "cli.bench.render.ncurses",
            "  tramite ncurses, schermata ↔ riquadro d'aiuto a ogni fotogramma: mediana {median} ms, p90 {p90} ms"
        ),
        (
            "cli.bench.render.raw",
            "  riferimento, ridisegno ncurses grezzo (mvaddwstr per riga): mediana {median} ms, p90 {p90} ms"
        ),
        ("cli.bench.render.ratio", "  rapporto percorso / grezzo: {ratio}"),
        (
            "cli.bench.write-raw.result",
            "scrittura grezza {operation}: thread {threads}, connessione condivisa {shared}, transazioni {ops}, secondi {seconds}, al secondo {rate}"
        ),
        ("cli.bench.write-raw.sqliteOnly", "indicare --store PATH: un file SQLite nuovo (viene creato)"),
        ("cli.bench.write-raw.exists", "{path} esiste già: il benchmark grezzo scrive un archivio nuovo"),
        ("cli.bench.indicators.kept", "fatti conservati"),
        ("cli.bench.indicators.joined", "dalle coppie (prima)"),
        (
            "cli.bench.indicators.timed",
            "  {label}, 14 g, {runs}: mediana {median} ms, p95 {p95} ms; CPU per chiamata: questo processo {client} ms"
        ),
        ("cli.bench.indicators.serverCPU", ", i backend del server {server} ms"),
        (
            "cli.bench.indicators.figures",
            "  {cases}, {open}, perse {lost} %, verificate ogni giorno {checked} %"
        ),
        (
            "cli.bench.monitor.residentSixths",
            "  memoria residente dopo ogni sesto dell'esecuzione: {samples} MiB (la cache di pagine dell'archivio è 16 MiB)"
        ),
        (
            "cli.bench.apricot.notEmpty",
            "{store} non è vuoto ({tables} contengono righe): il benchmark scrive utenti e file dei contatti che sembrano veri; indicare un database vuoto (o nessun --store: un file SQLite nuovo)"
        ),
        ("cli.bench.staff.kdf", "KDF dell'accesso, {summary}, {hashes}:"),
        ("cli.bench.staff.kdfTimes", "  mediana {median} ms, p95 {p95} ms"),
        (
            "cli.bench.staff.authorize",
            "autorizzare un codice valido nuovo, {authorizations}, archivio SQLite:"
        ),
        (
            "cli.bench.staff.authorizeRemote",
            "  RemoteDesk → API del personale su 127.0.0.1: mediana {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.staff.authorizeLocal",
            "  LocalDesk nel processo:                     mediana {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.staff.signIn", "accesso remoto (KDF sul server + HTTP), {signIns}:"),
        ("cli.bench.staff.signInTimes", "  mediana {median} ms, p95 {p95} ms"),
        ("cli.bench.apricot.store", "archivio {location}"),
        (
            "cli.bench.apricot.codeRequest",
            "richiesta del codice (POST /apricot/v1/otp, gateway outbox), {registrations} telefoni:"
        ),
        ("cli.bench.apricot.codeTimes", "  mediana {median} ms, p95 {p95} ms"),
        (
            "cli.bench.apricot.registration",
            "registrazione (POST /apricot/v1/login, un utente nuovo con i suoi pseudo-id), {registrations} telefoni:"
        ),
        (
            "cli.bench.apricot.registrationTimes",
            "  mediana {median} ms, p95 {p95} ms (obiettivo < 50 ms: p95 al {percent} %)"
        ),
        (
            "cli.bench.apricot.registrationLocal",
            "  nel processo (ApricotDesk, senza HTTP), {phones}: mediana {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.apricot.growth",
            "  crescita dell'archivio: {bytes} byte per utente registrato"
        ),
        (
            "cli.bench.apricot.upload",
            "file dei contatti di {records} ({bytes} byte), {uploads} (ognuno sostituisce il precedente):"
        ),
        (
            "cli.bench.apricot.uploadTimes",
            "  mediana {median} ms, p95 {p95} ms (obiettivo < 200 ms: p95 al {percent} %)"
        ),
        (
            "cli.bench.apricot.uploadLocal",
            "  nel processo (ApricotDesk, senza HTTP): mediana {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.followup.seedingSQLite",
            "SQLite: preparazione di {followUps} su {cases}…"
        ),
        (
            "cli.bench.followup.seedingPostgreSQL",
            "PostgreSQL: preparazione di {followUps} su {cases}…"
        ),
        (
            "cli.bench.followup.seeded",
            "{adapter}: {followUps} su {cases}, la coda di oggi del tracciatore {queued}"
        ),
        (
            "cli.bench.followup.queuePage",
            "  pagina di 100 della coda in LocalDesk: prima {first} ms; pagine seguenti ({pages}): mediana {median} ms, p95 {p95} ms, max {max} ms (solo archivio: mediana {storeMedian} ms)"
        ),
        (
            "cli.bench.followup.openCase",
            "  aprire un caso con {contacts} in LocalDesk ({runs}): mediana {median} ms, max {max} ms"
        ),
        (
            "cli.bench.followup.openCaseBare",
            "  lo stesso senza i trigger dei fatti degli indicatori ({runs}, a turno): mediana {median} ms, max {max} ms; con/senza {ratio}"
        ),
        (
            "cli.bench.indicators.seeding",
            "{name}: preparazione di {cases}, {followUps} su {days}…"
        ),
        ("cli.bench.indicators.seeded", "  preparati in {seconds} s"),
        (
            "cli.bench.indicators.ratio",
            "  conservati / prima: mediana del tempo reale × {ratio}, CPU × {cpuRatio}"
        ),
        ("cli.bench.monitor.title", "monitor a {width}×{height}, supervisore, archivio SQLite, {seconds} s:"),
        (
            "cli.bench.monitor.events",
            "  eventi scritti: {count} ({perSecond} al secondo; richiesti {rate}); il flusso è arrivato alla posizione {feedCursor} di {latest}"
        ),
        (
            "cli.bench.monitor.keystrokes",
            "  tasto → schermo ({keys} tasti, ↓/↑): mediana {median} ms, p95 {p95} ms, max {max} ms"
        ),
        (
            "cli.bench.monitor.longestStep",
            "  passo più lungo (un tasto può doverlo attendere): p99 {p99} ms, max {max} ms"
        ),
        (
            "cli.bench.monitor.memory",
            "  memoria: residente {before} MiB prima, {after} MiB dopo; finestra di {rows} righe"
        ),
        ("cli.bench.monitor.delivery", "un evento nuovo consegnato a un flusso in attesa, {polls}:"),
        (
            "cli.bench.monitor.deliveryRemote",
            "  long poll di RemoteDesk (API del personale su 127.0.0.1): mediana {median} ms, p95 {p95} ms, max {max} ms"
        ),
        (
            "cli.bench.monitor.deliveryLocal",
            "  attesa di LocalDesk (interrogazione dell'archivio):    mediana {median} ms, p95 {p95} ms"
        ),
        ("cli.bench.events.written", "{written} in {seconds} s"),
        (
            "cli.bench.stats.tableHeader",
            "archivio  prep. s  fredda ms  14g/giorno med  p95   24h/ora med  p95   1h/5m med  p95"
        ),
        (
            "cli.bench.stats.ratios",
            "PostgreSQL ÷ SQLite (mediane a caldo): 14g {fortnight}×, 24h {day}×, 1h {hour}×; a freddo {cold}×"
        ),
        (
            "cli.bench.stats.seeding",
            "{name}: preparazione di {uploads} caricamenti, circa {events} eventi su {days}…"
        ),
        ("cli.bench.stats.seeded", "  preparati in {seconds} s"),
        (
            "cli.bench.stats.cold",
            "  prima chiamata (con il riepilogo): {coldMs} ms; {rolled} ancora da riepilogare dopo"
        ),
        (
            "cli.bench.stats.warm",
            "  {range} a intervalli di {bucket}, {runs}: mediana {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.stats.totals",
            "  14 g: {authorized}, {uploads}, {requests}, {analytics}, {lookups}"
        ),
        (
            "cli.bench.trace.registering",
            "registrazione di {users} utenti da {pseudoIDsPerUser} pseudo-id in {location}…"
        ),
        ("cli.bench.trace.progress", "  {users} utenti, {seconds} s"),
        ("cli.bench.trace.registered", "  {fresh}, {again} di nuovo in accesso: {seconds} s"),
        (
            "cli.bench.trace.storingFiles",
            "memorizzazione di {days} da {records} per il paziente…"
        ),
        ("cli.bench.trace.store", "{adapter}, {users} utenti, {pseudoIDs} pseudo-id"),
        (
            "cli.bench.trace.patient",
            "paziente: {days}, {sightings}, {distinct} → {contacts} ({close}), {unresolved}"
        ),
        (
            "cli.bench.trace.lookup",
            "ricerca in LocalDesk, {runs}: mediana {median} ms (min {min}, max {max})"
        ),
        (
            "cli.bench.trace.lookupStore",
            "  di cui l'archivio: lettura del paziente {read} ms, risoluzione dei titolari {owners} ms"
        ),
        (
            "cli.bench.trace.registration",
            "registrazione con {pseudoIDsPerUser} pseudo-id nell'archivio pieno: mediana {median} ms, p95 {p95} ms"
        ),
        (
            "cli.bench.trace.storeFile",
            "memorizzare il file di un giorno ({records}) al livello dell'archivio: mediana {median} ms"
        ),
        (
            "cli.bench.trace.size",
            "spazio: {perUser} byte per utente registrato (utenti, pseudo-id, token con gli indici); file dei contatti {fileBytes} byte; archivio {totalBytes} byte"
        ),
        (
            "cli.bench.write-raw.mismatch",
            "le istruzioni del benchmark grezzo non sono quelle dell'archivio: {mismatch}"
        ),
        (
            "cli.bench.write-raw.statementsMatch",
            "le istruzioni coincidono con quelle dell'archivio: autorizzazione e caricamento di 14 chiavi"
        ),
        // Un numero con il suo nome, per le righe qui sopra (ognuno con il suo plurale).
        ("cli.bench.count.runs.one", "{count} esecuzione"),
        ("cli.bench.count.runs.other", "{count} esecuzioni"),
        ("cli.bench.count.chunks.one", "{count} lotto"),
        ("cli.bench.count.chunks.other", "{count} lotti"),
        ("cli.bench.count.frames.one", "{count} fotogramma"),
        ("cli.bench.count.frames.other", "{count} fotogrammi"),
        ("cli.bench.count.cells.one", "{count} cella"),
        ("cli.bench.count.cells.other", "{count} celle"),
        ("cli.bench.count.cases.one", "{count} caso"),
        ("cli.bench.count.cases.other", "{count} casi"),
        ("cli.bench.count.followUps.one", "{count} sorveglianza"),
        ("cli.bench.count.followUps.other", "{count} sorveglianze"),
        ("cli.bench.count.closeContacts.one", "{count} contatto stretto"),
        ("cli.bench.count.closeContacts.other", "{count} contatti stretti"),
        ("cli.bench.count.days.one", "{count} giorno"),
        ("cli.bench.count.days.other", "{count} giorni"),
        ("cli.bench.count.hours.one", "{count} ora"),
        ("cli.bench.count.hours.other", "{count} ore"),
        ("cli.bench.count.hashes.one", "{count} hash"),
        ("cli.bench.count.hashes.other", "{count} hash"),
        ("cli.bench.count.times.one", "{count} volta"),
        ("cli.bench.count.times.other", "{count} volte"),
        ("cli.bench.count.records.one", "{count} record"),
        ("cli.bench.count.records.other", "{count} record"),
        ("cli.bench.count.uploads.one", "{count} caricamento"),
        ("cli.bench.count.uploads.other", "{count} caricamenti"),
        ("cli.bench.count.contactFiles.one", "{count} file dei contatti"),
        ("cli.bench.count.contactFiles.other", "{count} file dei contatti"),
        ("cli.bench.count.files.one", "{count} file"),
        ("cli.bench.count.files.other", "{count} file"),
        ("cli.bench.count.sightings.one", "{count} avvistamento"),
        ("cli.bench.count.sightings.other", "{count} avvistamenti"),
        ("cli.bench.count.contacts.one", "{count} contatto"),
        ("cli.bench.count.contacts.other", "{count} contatti"),
        ("cli.bench.count.phones.one", "{count} telefono"),
        ("cli.bench.count.phones.other", "{count} telefoni"),
        ("cli.bench.count.lookups.one", "{count} ricerca"),
        ("cli.bench.count.lookups.other", "{count} ricerche"),
        ("cli.bench.seed.codes.one", "{count} codice preparato"),
        ("cli.bench.seed.codes.other", "{count} codici preparati"),
        ("cli.bench.keys.stored.one", "{count} chiave pronta per la pubblicazione memorizzata"),
        ("cli.bench.keys.stored.other", "{count} chiavi pronte per la pubblicazione memorizzate"),
        ("cli.bench.publish.keys.one", "{count} chiave pubblicata"),
        ("cli.bench.publish.keys.other", "{count} chiavi pubblicate"),
        ("cli.bench.indicators.activeAssigned.one", "{count} sorveglianza attiva affidata"),
        ("cli.bench.indicators.activeAssigned.other", "{count} sorveglianze attive affidate"),
        ("cli.bench.events.count.one", "{count} evento scritto"),
        ("cli.bench.events.count.other", "{count} eventi scritti"),
        ("cli.bench.stats.authorized.one", "{count} autorizzato"),
        ("cli.bench.stats.authorized.other", "{count} autorizzati"),
        ("cli.bench.stats.requests.one", "{count} richiesta reale"),
        ("cli.bench.stats.requests.other", "{count} richieste reali"),
        ("cli.bench.stats.analytics.one", "{count} dato analitico"),
        ("cli.bench.stats.analytics.other", "{count} dati analitici"),
        ("cli.bench.trace.distinct.one", "{count} pseudo-id distinto ricevuto"),
        ("cli.bench.trace.distinct.other", "{count} pseudo-id distinti ricevuti"),
        ("cli.bench.trace.close.one", "{count} stretto"),
        ("cli.bench.trace.close.other", "{count} stretti"),
        ("cli.bench.trace.unresolved.one", "{count} non risolto"),
        ("cli.bench.trace.unresolved.other", "{count} non risolti"),
        ("cli.bench.trace.fresh.one", "{count} nuovo"),
        ("cli.bench.trace.fresh.other", "{count} nuovi"),
    ]
}
