extension Italian {
    /// What the operating commands print for people, in Italian (keys `cli.out.…`, as in
    /// English+CLIOutput.swift): a chunk is a lotto, the store the archivio; GAEN's batch keeps
    /// its name.
    static let cliOutput: [(String, String)] = chunksOutput + serveOutput + demoOutput + simulateOutput
}

extension Italian {
    static let chunksOutput: [(String, String)] = [
        ("cli.out.chunks.list.column.index", "indice"),
        ("cli.out.chunks.list.column.published", "pubblicato"),
        ("cli.out.chunks.list.column.window", "finestra (UTC)"),
        ("cli.out.chunks.list.column.keys", "chiavi"),
        ("cli.out.chunks.list.column.padding", "riempimento"),
        ("cli.out.chunks.list.column.bytes", "byte"),
        ("cli.out.chunks.window", "{from} – {to}"),
        ("cli.out.chunks.list.notOffered", "(non più offerto)"),
        ("cli.out.chunks.show.noneYet", "ancora nessun lotto pubblicato"),
        ("cli.out.chunks.show.beyondNewest", "il lotto {index} non esiste: il più recente è il {last}"),
        (
            "cli.out.chunks.show.notKept",
            "il lotto {index} non è più conservato (la conservazione cancella i lotti dopo {days} giorni)"
        ),
        ("cli.out.chunks.show.chunk", "lotto {index}, pubblicato il {time}, {keys} chiavi"),
        ("cli.out.chunks.show.padding", " + {count} di riempimento"),
        ("cli.out.chunks.show.bytes", ", {count} byte"),
        ("cli.out.chunks.show.file", "file {file}, {count} byte"),
        ("cli.out.chunks.show.cannotRead", "impossibile leggere {file}"),
        ("cli.out.chunks.show.neither", "'{value}' non è né l'indice di un lotto (1, 2, …) né un file"),
        ("cli.out.chunks.show.label.window", "finestra"),
        ("cli.out.chunks.show.label.region", "regione"),
        ("cli.out.chunks.show.label.batch", "batch"),
        ("cli.out.chunks.show.label.signedBy", "firmato da"),
        ("cli.out.chunks.show.label.keys", "chiavi"),
        ("cli.out.chunks.show.label.signature", "firma"),
        ("cli.out.chunks.show.batch", "{number} di {size}"),
        ("cli.out.chunks.show.signedBy", "id chiave {id}, versione {version}, algoritmo {algorithm}"),
        ("cli.out.chunks.show.app", ", app {app}"),
        ("cli.out.chunks.show.revised", ", revisionate {count}"),
        (
            "cli.out.chunks.show.day",
            "  {day}: {count} chiavi (rischio {risks}, giorni dall'inizio sintomi {onsets})"
        ),
        ("cli.out.chunks.show.column.key", "chiave (base64)"),
        ("cli.out.chunks.show.column.start", "intervallo iniziale (giorno UTC)"),
        ("cli.out.chunks.show.column.period", "periodo"),
        ("cli.out.chunks.show.column.risk", "rischio"),
        ("cli.out.chunks.show.column.report", "referto"),
        ("cli.out.chunks.show.column.onset", "inizio sintomi"),
        ("cli.out.chunks.show.unchecked", "{count} presenti, non verificate (indicare --public-key FILE)"),
        ("cli.out.chunks.show.verified", "verificata con {source}"),
        ("cli.out.chunks.show.notVerified", "NON SI VERIFICA con {source}"),
        ("cli.out.chunks.show.signingKey", "la chiave di firma {file}"),
        ("cli.out.chunks.show.cannotReadKey", "impossibile leggere la chiave pubblica {file}"),
        ("cli.out.chunks.show.notPublicKey", "{file} non è una chiave pubblica P-256: {problem}"),
        (
            "cli.out.cleanup.done",
            "{summary} (conservati: {days} giorni, analytics {analytics} giorni, file dei contatti {contacts} giorni)"
        ),
    ]

    static let serveOutput: [(String, String)] = [
        (
            "cli.out.serve.settings.title",
            "Impostazioni (chiave nel file, variabile d'ambiente, valore attuale, significato):"
        ),
        ("cli.out.serve.settingsProblems", "le impostazioni hanno problemi:"),
    ]

    static let demoOutput: [(String, String)] = [
        ("cli.out.demo.noArgument", "demo non accetta l'argomento '{argument}'"),
        (
            "cli.out.demo.durationWithConsole",
            "--duration va con --no-console: con la console, uscire dalla console per fermare"
        ),
        (
            "cli.out.demo.needsTerminal",
            "la console della demo richiede un terminale: eseguirla in un terminale, o indicare --no-console"
        ),
        (
            "cli.out.demo.storeExists",
            "{file} esiste: la demo crea un archivio nuovo con account dimostrativi e persone simulate; indicare un percorso che non esiste ancora"
        ),
        ("cli.out.demo.cannotStart", "la demo non è partita: {problem}"),
        ("cli.out.demo.intro.title", "Demo di TraceDesk (telefoni simulati; non puntarvi mai telefoni reali)"),
        ("cli.out.demo.intro.label.store", "archivio"),
        ("cli.out.demo.intro.label.phones", "telefoni"),
        ("cli.out.demo.intro.label.internal", "interno"),
        ("cli.out.demo.intro.label.hisKey", "chiave HIS"),
        ("cli.out.demo.intro.label.log", "log del server"),
        ("cli.out.demo.intro.deleted", " (cancellato alla fine)"),
        ("cli.out.demo.intro.phones", "   (API Immuni e APRICOT)"),
        ("cli.out.demo.intro.internal", "   (POST /v1/otp, API del personale: tracedesk --server {url} …)"),
        ("cli.out.demo.intro.hisKey", "   (client HIS {client}: Authorization: Bearer KEY su POST /v1/otp)"),
        ("cli.out.demo.intro.accounts", "  account (nome / password):"),
        ("cli.out.demo.intro.patients", "  pazienti positivi, per la ricerca del tracciatore: {phones}"),
        (
            "cli.out.demo.intro.cases.all",
            "  casi: {tracer} apre un caso per ciascuno quando i suoi file dei contatti sono arrivati (DEMO-{seed}-1…); i loro contatti sono divisi tra tracer e {tracer}, che lavora la propria coda"
        ),
        (
            "cli.out.demo.intro.cases.allButLast",
            "  casi: {tracer} apre un caso per ciascuno tranne l'ultimo quando i suoi file dei contatti sono arrivati (DEMO-{seed}-1…); i loro contatti sono divisi tra tracer e {tracer}, che lavora la propria coda"
        ),
        (
            "cli.out.demo.intro.openLast",
            "  il caso dell'ultimo va aperto a mano, come tracer: tracedesk case open {phone} --reference TESTO"
        ),
        (
            "cli.out.demo.intro.written",
            "  scritto in {file} (modo 0600); nella console, F8 o ? li mostra"
        ),
        (
            "cli.out.demo.summary",
            "cittadini {citizens}, caricamenti accettati {uploads}; telefoni APRICOT registrati {registered}, positivi {positives}, file dei contatti accettati {files}; record di informazioni operative {records}"
        ),
        ("cli.out.demo.stoppedEarly", "{signal}: la demo si è fermata prima (il riepilogo qui sopra è parziale)"),
    ]

    static let simulateOutput: [(String, String)] = [
        ("cli.out.simulation.totals", "richieste {requests}, errori {errors}"),
        ("cli.out.simulation.column.endpoint", "endpoint"),
        ("cli.out.simulation.column.requests", "richieste"),
        ("cli.out.simulation.column.p50", "p50 ms"),
        ("cli.out.simulation.column.p95", "p95 ms"),
        ("cli.out.simulation.column.p99", "p99 ms"),
        ("cli.out.simulation.errorsByKind", "errori per tipo:"),
        ("cli.out.simulation.notes", "note:"),
        ("cli.out.demo.tracing.none", "tracciamento: nessun caso aperto ({problem})"),
        (
            "cli.out.demo.tracing.done",
            "tracciamento: casi aperti {cases} ({followUps} sorveglianze); tentativi del tracciatore simulato {attempts} (raggiunti {reached}), controlli giornalieri {checks}"
        ),
        ("cli.out.demo.tracing.skipped", "; {count} pazienti senza caso (non registrati)"),
        ("cli.out.demo.tracing.stopped", "; fermato: {problem}"),
        (
            "cli.out.simulate.serverBefore",
            "mettere --server dopo 'simulate': per simulate indica il listener pubblico del server (quello dei telefoni), non la sua API del personale"
        ),
        ("cli.out.simulate.noArgument", "simulate non accetta l'argomento '{argument}'"),
        (
            "cli.out.simulate.storeOrUser",
            "indicare --store o --user, non entrambi: sono due modi di leggere i codici SMS"
        ),
        (
            "cli.out.simulate.dummyOrPopulation",
            "indicare --dummy-per-real o --immuni-population, non entrambi: ciascuno fissa il traffico fittizio"
        ),
        (
            "cli.out.simulate.apricotNeedsCodes",
            "i telefoni APRICOT hanno bisogno del loro codice SMS: indicare --store (l'archivio del server) o --user ADMIN (letto tramite la API del personale di --internal)"
        ),
        (
            "cli.out.simulate.noStore",
            "--store {store}: lì non c'è un archivio; indicare l'archivio che usa il server (il suo --store o TRACEDESK_STORE)"
        ),
        (
            "cli.out.simulate.userNeedsInternal",
            "--user legge i codici tramite la API del personale: indicare anche --internal URL"
        ),
        (
            "cli.out.simulate.notAdmin",
            "{user} ha il ruolo {role}: solo un amministratore può leggere la casella degli SMS in uscita; indicare --user con un account amministratore, o --store"
        ),
        (
            "cli.out.simulate.noHISKey",
            "nessuna chiave HIS: POST /v1/otp sarà rifiutato salvo his_auth none sul server; indicare --his-key-file FILE, --user ADMIN o --store"
        ),
        ("cli.out.simulate.hospital", "l'ospedale simulato è il client HIS {client} (revocato alla fine)"),
        (
            "cli.out.simulate.starting",
            "simulazione per {seconds} s verso {url}: {rate} cittadini al minuto, {phones} telefoni APRICOT, seme {seed}"
        ),
        ("cli.out.simulate.dummyOnly", "nessun --internal: nessun cittadino reale, solo traffico Immuni fittizio"),
        (
            "cli.out.simulate.summary",
            "cittadini {citizens}, caricamenti accettati {uploads}; telefoni APRICOT registrati {registered}, positivi {positives}, file dei contatti accettati {files}"
        ),
        (
            "cli.out.simulate.stoppedEarly",
            "{signal}: la simulazione si è fermata prima (il riepilogo qui sopra è parziale)"
        ),
        ("cli.out.simulate.hisKeyUnreadable", "--his-key-file {file}: impossibile leggerlo"),
        (
            "cli.out.simulate.notHISKey",
            "--his-key-file {file} non contiene una chiave API HIS (tdh_…, come la stampa tracedesk his add)"
        ),
        ("cli.out.simulate.hospitalFailed", "impossibile aggiungere il client HIS dell'ospedale simulato: {problem}"),
        ("cli.out.simulate.progress", "{elapsed} s di {total} s: {requests} richieste, {errors} errori"),
        (
            "cli.out.simulate.notThisMachine",
            "{option} {host} non è questa macchina: i telefoni simulati producono carico reale e dati dall'aspetto reale; aggiungere --allow-non-loopback se quel server è un server di prova"
        ),
        ("cli.out.simulate.number", "--{option} deve essere un numero da {low} a {high}, non '{value}'"),
    ]
}
