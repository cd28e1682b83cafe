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
        ("cli.bench.seed.done", "{count} codici preparati in {store}; token in {tokens}"),
        ("cli.bench.keys.done", "{count} chiavi pronte per la pubblicazione memorizzate in {store}"),
        ("cli.bench.publish.published", "{keys} chiavi pubblicate in {chunks} blocchi ({bytes} byte di zip)"),
        ("cli.bench.publish.run", "  pubblicazione (archivio + costruzione): {seconds} s"),
        ("cli.bench.publish.build", "  costruzione degli stessi blocchi da sola: {seconds} s"),
        ("cli.bench.publish.ratio", "  rapporto: {ratio}"),
        ("cli.bench.render.title", "disegno + differenze, {width}×{height}, {frames} fotogrammi"),
        (
            "cli.bench.render.full",
            "  ridisegno completo (da vuoto):   mediana {median} ms, p90 {p90} ms, {cells} celle"
        ),
        ("cli.bench.render.tick", "  scatto del conto alla rovescia: mediana {median} ms, p90 {p90} ms, {cells} celle"),
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
        ("cli.bench.write-raw.sqliteOnly", "indicare --store PATH: un file SQLite nuovo (viene creato)"),
        ("cli.bench.write-raw.exists", "{path} esiste già: il benchmark grezzo scrive un archivio nuovo"),
        ("cli.bench.indicators.kept", "fatti conservati"),
        ("cli.bench.indicators.joined", "dalle coppie (prima)"),
        (
            "cli.bench.indicators.timed",
            "  {label}, 14 g, {runs} esecuzioni: mediana {median} ms, p95 {p95} ms; CPU per chiamata: questo processo {client} ms"
        ),
        ("cli.bench.indicators.serverCPU", ", i backend del server {server} ms"),
        (
            "cli.bench.indicators.figures",
            "  {cases} casi, {open} sorveglianze attive affidate, perse {lost} %, verificate ogni giorno {checked} %"
        ),
        (
            "cli.bench.monitor.residentSixths",
            "  memoria residente dopo ogni sesto dell'esecuzione: {samples} MiB (la cache di pagine dell'archivio è 16 MiB)"
        ),
        (
            "cli.bench.apricot.notEmpty",
            "{store} non è vuoto ({tables} contengono righe): il benchmark scrive utenti e file dei contatti che sembrano veri; indicare un database vuoto (o nessun --store: un file SQLite nuovo)"
        ),
        ("cli.bench.staff.signInKdf", "KDF dell'accesso, {summary}, {hashes} hash:"),
        ("cli.bench.staff.medianKdfmedianMs", "  mediana {kdfMedian} ms, p95 {kdfP95} ms"),
        (
            "cli.bench.staff.authoriseAFresh",
            "autorizzare un codice valido nuovo, {authorizations} volte, archivio SQLite:"
        ),
        (
            "cli.bench.staff.remotedeskStaffApi",
            "  RemoteDesk → API del personale su 127.0.0.1: mediana {remoteMedian} ms, p95 {remoteP95} ms"
        ),
        (
            "cli.bench.staff.localdeskInProcess",
            "  LocalDesk nel processo:                     mediana {localMedian} ms, p95 {localP95} ms"
        ),
        ("cli.bench.staff.remoteSignIn", "accesso remoto (KDF sul server + HTTP), {signIns} volte:"),
        ("cli.bench.staff.medianSigninmedianMs", "  mediana {signInMedian} ms, p95 {signInP95} ms"),
        ("cli.bench.apricot.storeLocation", "archivio {location}"),
        (
            "cli.bench.apricot.codeRequestPost",
            "richiesta del codice (POST /apricot/v1/otp, gateway outbox), {registrations} telefoni:"
        ),
        ("cli.bench.apricot.medianCodeMs", "  mediana {code0} ms, p95 {code1} ms"),
        (
            "cli.bench.apricot.registrationPostApricot",
            "registrazione (POST /apricot/v1/login, un utente nuovo con i suoi pseudo-id), {registrations} telefoni:"
        ),
        (
            "cli.bench.apricot.medianLoginMs",
            "  mediana {login0} ms, p95 {login1} ms (obiettivo < 50 ms: p95 al {value} %)"
        ),
        (
            "cli.bench.apricot.inProcessApricotdesk",
            "  nel processo (ApricotDesk, senza HTTP), {localLoginTimesCount} telefoni: mediana {localLogin0} ms, p95 {localLogin1} ms"
        ),
        (
            "cli.bench.apricot.storeGrowthBytesperuser",
            "  crescita dell'archivio: {bytesPerUser} byte per utente registrato"
        ),
        (
            "cli.bench.apricot.contactFileOf",
            "file dei contatti di {recordCount} record ({bytes} byte), {uploads} caricamenti (ognuno sostituisce il precedente):"
        ),
        (
            "cli.bench.apricot.medianUploadMs",
            "  mediana {upload0} ms, p95 {upload1} ms (obiettivo < 200 ms: p95 al {value} %)"
        ),
        (
            "cli.bench.apricot.inProcessApricotdesk2",
            "  nel processo (ApricotDesk, senza HTTP): mediana {localUpload0} ms, p95 {localUpload1} ms"
        ),
        (
            "cli.bench.followup.sqliteSeedingFollowups",
            "SQLite: preparazione di {followUps} sorveglianze su {cases} casi…"
        ),
        (
            "cli.bench.followup.postgresqlSeedingFollowups",
            "PostgreSQL: preparazione di {followUps} sorveglianze su {cases} casi…"
        ),
        (
            "cli.bench.followup.adapterFollowupsFollow",
            "{adapter}: {followUps} sorveglianze su {cases} casi, la coda di oggi del tracciatore {queued}"
        ),
        (
            "cli.bench.followup.queuePageOf",
            "  pagina di 100 della coda in LocalDesk: prima {first} ms; pagine seguenti ({nextCount}): mediana {value} ms, p95 {value2} ms, max {value3} ms (solo archivio: mediana {value4} ms)"
        ),
        (
            "cli.bench.followup.openACase",
            "  aprire un caso con {contacts} contatti stretti in LocalDesk ({opensCount} esecuzioni): mediana {withMedian} ms, max {value} ms"
        ),
        (
            "cli.bench.followup.theSameWithout",
            "  lo stesso senza i trigger dei fatti degli indicatori ({bareOpensCount} esecuzioni, a turno): mediana {bareMedian} ms, max {value} ms; con/senza {value2}"
        ),
        (
            "cli.bench.indicators.nameSeedingCases",
            "{name}: preparazione di {cases} casi, {followUps} sorveglianze su {days} giorni…"
        ),
        ("cli.bench.indicators.seededInSeedseconds", "  preparati in {seedSeconds} s"),
        (
            "cli.bench.indicators.keptBeforeWall",
            "  conservati / prima: mediana del tempo reale × {ratio}, CPU × {cpuRatio}"
        ),
        ("cli.bench.monitor.monitorAtWidth", "monitor a {width}×{height}, supervisore, archivio SQLite, {seconds} s:"),
        (
            "cli.bench.monitor.eventsWrittenEventswritten",
            "  eventi scritti: {eventsWritten} ({written} al secondo; richiesti {rate}); il flusso è arrivato alla posizione {feedCursor} di {latest}"
        ),
        (
            "cli.bench.monitor.keystrokeScreenKeyscount",
            "  tasto → schermo ({keysCount} tasti, ↓/↑): mediana {value} ms, p95 {value2} ms, max {value3} ms"
        ),
        (
            "cli.bench.monitor.longestStepA",
            "  passo più lungo (un tasto può doverlo attendere): p99 {value} ms, max {value2} ms"
        ),
        (
            "cli.bench.monitor.memoryResidentRssbefore",
            "  memoria: residente {rssBefore} MiB prima, {rssAfter} MiB dopo; finestra di {windowRows} righe"
        ),
        ("cli.bench.monitor.aNewEvent", "un evento nuovo consegnato a un flusso in attesa, {polls} volte:"),
        (
            "cli.bench.monitor.remotedeskLongPoll",
            "  long poll di RemoteDesk (API del personale su 127.0.0.1): mediana {value} ms, p95 {value2} ms, max {value3} ms"
        ),
        (
            "cli.bench.monitor.localdeskWaitStore",
            "  attesa di LocalDesk (interrogazione dell'archivio):    mediana {value} ms, p95 {value2} ms"
        ),
        ("cli.bench.monitor.wroteWrittenEvents", "scritti {written} eventi in {seconds} s"),
        (
            "cli.bench.stats.adapterSeedS",
            "archivio  prep. s  fredda ms  14g/giorno med  p95   24h/ora med  p95   1h/5m med  p95"
        ),
        (
            "cli.bench.stats.postgresqlSqliteWarm",
            "PostgreSQL ÷ SQLite (mediane a caldo): 14g {value}×, 24h {value2}×, 1h {value3}×; a freddo {value4}×"
        ),
        (
            "cli.bench.stats.nameSeedingUploads",
            "{name}: preparazione di {uploads} caricamenti, circa {events} eventi su {days} giorni…"
        ),
        ("cli.bench.stats.seededInSeedseconds", "  preparati in {seedSeconds} s"),
        (
            "cli.bench.stats.firstCallRolling",
            "  prima chiamata (con il riepilogo): {coldMs} ms; {rolled} ore ancora da riepilogare dopo"
        ),
        (
            "cli.bench.stats.rawvalueInLabel",
            "  {rawValue} a intervalli di {label}, {runs} esecuzioni: mediana {value} ms, p95 {value2} ms"
        ),
        (
            "cli.bench.stats.dTotalAuthorised",
            "  14 g: {total} autorizzati, {total2} caricamenti, {total3} richieste reali, {total4} dati analitici, {total5} ricerche"
        ),
        (
            "cli.bench.trace.registeringUsersUsers",
            "registrazione di {users} utenti da {pseudoIDsPerUser} pseudo-id in {location}…"
        ),
        ("cli.bench.trace.indexUsersValue", "  {index} utenti, {value} s"),
        ("cli.bench.trace.freshNewValue", "  {fresh} nuovi, {value} di nuovo in accesso: {seedSeconds} s"),
        (
            "cli.bench.trace.storingDaysContact",
            "memorizzazione di {days} file dei contatti da {records} record per il paziente…"
        ),
        ("cli.bench.trace.adapterRegisteredUsers", "{adapter}, {registered} utenti, {value} pseudo-id"),
        (
            "cli.bench.trace.patientDaysFiles",
            "paziente: {days} file, {sightings} avvistamenti, {distinct} pseudo-id distinti ricevuti → {contacts} contatti ({close} stretti), {value} non risolti"
        ),
        (
            "cli.bench.trace.lookupInLocaldesk",
            "ricerca in LocalDesk, {runs} esecuzioni: mediana {lookupMedian} ms (min {value}, max {value2})"
        ),
        (
            "cli.bench.trace.ofWhichThe",
            "  di cui l'archivio: lettura del paziente {value} ms, risoluzione dei titolari {value2} ms"
        ),
        (
            "cli.bench.trace.registrationWithPseudoidsperuser",
            "registrazione con {pseudoIDsPerUser} pseudo-id nell'archivio pieno: mediana {value} ms, p95 {value2} ms"
        ),
        (
            "cli.bench.trace.storeADay",
            "memorizzare il file di un giorno ({records} record) al livello dell'archivio: mediana {value} ms"
        ),
        (
            "cli.bench.trace.sizePeruserBytes",
            "spazio: {perUser} byte per utente registrato (utenti, pseudo-id, token con gli indici); file dei contatti {fileBytes} byte; archivio {totalBytes} byte"
        ),
        (
            "cli.bench.write-raw.theRawBenchmark",
            "le istruzioni del benchmark grezzo non sono quelle dell'archivio: {mismatch}"
        ),
        (
            "cli.bench.write-raw.statementsMatchThe",
            "le istruzioni coincidono con quelle dell'archivio: autorizzazione e caricamento di 14 chiavi"
        ),
    ]
}
