extension Italian {
    /// What the operating commands print for people, in Italian (keys `cli.out.…`, as in
    /// English+CLIOutput.swift): a chunk is a lotto, the store the archivio; GAEN's batch keeps
    /// its name.
    static let cliOutput: [(String, String)] = chunksOutput + serveOutput + settingsHelp + demoOutput + simulateOutput
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
        ("cli.out.chunks.show.chunk.one", "lotto {index}, pubblicato il {time}, {keys} chiave"),
        ("cli.out.chunks.show.chunk.other", "lotto {index}, pubblicato il {time}, {keys} chiavi"),
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
            "cli.out.chunks.show.day.one",
            "  {day}: {count} chiave (rischio {risks}, giorni dall'inizio sintomi {onsets})"
        ),
        (
            "cli.out.chunks.show.day.other",
            "  {day}: {count} chiavi (rischio {risks}, giorni dall'inizio sintomi {onsets})"
        ),
        ("cli.out.chunks.show.column.key", "chiave (base64)"),
        ("cli.out.chunks.show.column.start", "intervallo iniziale (giorno UTC)"),
        ("cli.out.chunks.show.column.period", "periodo"),
        ("cli.out.chunks.show.column.risk", "rischio"),
        ("cli.out.chunks.show.column.report", "referto"),
        ("cli.out.chunks.show.column.onset", "inizio sintomi"),
        ("cli.out.chunks.show.unchecked.one", "{count} presente, non verificata (indicare --public-key FILE)"),
        ("cli.out.chunks.show.unchecked.other", "{count} presenti, non verificate (indicare --public-key FILE)"),
        ("cli.out.chunks.show.verified", "verificata con {source}"),
        ("cli.out.chunks.show.notVerified", "NON SI VERIFICA con {source}"),
        ("cli.out.chunks.show.signingKey", "la chiave di firma {file}"),
        ("cli.out.chunks.show.cannotReadKey", "impossibile leggere la chiave pubblica {file}"),
        ("cli.out.chunks.show.notPublicKey", "{file} non è una chiave pubblica P-256: {problem}"),
        (
            "cli.out.cleanup.done",
            "{summary} (conservati: {days} giorni, dati analitici {analytics} giorni, file dei contatti {contacts} giorni)"
        ),
    ]

    static let serveOutput: [(String, String)] = [
        (
            "cli.out.serve.settings.title",
            "Impostazioni (chiave nel file, variabile d'ambiente, valore attuale, significato):"
        ),
        ("cli.out.serve.settingsProblems", "le impostazioni hanno problemi:"),
    ]

    /// What each setting is for (English+CLIOutput.swift), with the same ranges and values.
    static let settingsHelp: [(String, String)] = [
        ("cli.out.serve.setting.listen", "listener pubblico (telefoni): indirizzo IPv4 e porta"),
        (
            "cli.out.serve.setting.internal_listen",
            "listener interno (POST /v1/otp, la API del personale per le console, /metrics): da tenere privato"
        ),
        (
            "cli.out.serve.setting.store",
            "file dell'archivio SQLite, o postgres://USER@HOST:PORT/DATABASE per PostgreSQL (predefinito: l'archivio della console)"
        ),
        (
            "cli.out.serve.setting.busy_timeout_ms",
            "quanto attendere il blocco di scrittura di un altro processo sull'archivio, o una connessione libera al database (poi 503) [100…600000]"
        ),
        (
            "cli.out.serve.setting.store_pool_size",
            "PostgreSQL: connessioni che questo server tiene aperte al massimo (N server per questo valore sotto max_connections) [1…500]"
        ),
        (
            "cli.out.serve.setting.tls_cert",
            "certificato PEM (catena) per HTTPS su entrambi i listener; richiede tls_key"
        ),
        ("cli.out.serve.setting.tls_key", "chiave privata PEM per HTTPS"),
        ("cli.out.serve.setting.threads", "thread del server per listener [1…256]"),
        ("cli.out.serve.setting.otp_ttl_seconds", "per quanto tempo un codice autorizzato può essere usato [10…3600]"),
        (
            "cli.out.serve.setting.check_delay_mean_ms",
            "media del ritardo casuale su check-otp e sulle richieste fittizie [0…10000]"
        ),
        ("cli.out.serve.setting.check_delay_sd_ms", "deviazione standard di quel ritardo [0…10000]"),
        (
            "cli.out.serve.setting.dummy_error_percent",
            "quota di check-otp fittizie a cui si risponde 401, come ai fallimenti reali [0…100]"
        ),
        (
            "cli.out.serve.setting.max_body_bytes",
            "corpo di richiesta più grande; oltre è rifiutato con 413 senza leggerlo [1024…16777216]"
        ),
        ("cli.out.serve.setting.connection_timeout_seconds", "inattività dopo cui una connessione è chiusa [1…600]"),
        ("cli.out.serve.setting.max_connections", "connessioni simultanee per listener [16…100000]"),
        (
            "cli.out.serve.setting.max_connections_per_address",
            "connessioni simultanee da un indirizzo IP (0: nessun limite; dietro un proxy, 0 o più di max_connections) [0…100000]"
        ),
        (
            "cli.out.serve.setting.head_deadline_seconds",
            "l'intestazione di una richiesta deve essere completa entro questo tempo, per quanto arrivi regolarmente a poco a poco (poi la connessione è chiusa) [1…600]"
        ),
        (
            "cli.out.serve.setting.max_connections_reading_head",
            "connessioni che stanno ancora inviando l'intestazione della richiesta contemporaneamente (oltre, la più vecchia dell'indirizzo più attivo è chiusa) [16…100000]"
        ),
        (
            "cli.out.serve.setting.max_head_bytes",
            "intestazione di richiesta più grande (riga della richiesta e header); oltre è rifiutata con 400 [1024…65536]"
        ),
        (
            "cli.out.serve.setting.linger_seconds",
            "dopo un 413, per quanto tempo il resto del corpo è letto e scartato, perché il client veda la risposta [0…60]"
        ),
        (
            "cli.out.serve.setting.linger_bytes",
            "dopo un 413, quanta parte in più del corpo è letta e scartata (se è più grande: chiusura immediata) [0…67108864]"
        ),
        (
            "cli.out.serve.setting.http_keep_alive",
            "tenere aperte le connessioni tra una richiesta e l'altra (false: chiudere dopo ogni risposta, dietro un proxy che raggruppa i client)"
        ),
        (
            "cli.out.serve.setting.app_settings_file",
            "le impostazioni che le app scaricano (predefinito: config/app-settings.json fornito con tracedesk)"
        ),
        (
            "cli.out.serve.setting.risk_transmission_level",
            "livello di rischio di trasmissione delle chiavi pubblicate [0…8]"
        ),
        (
            "cli.out.serve.setting.risk_report_type",
            "tipo di referto delle chiavi pubblicate (revoked e recursive non sono ammessi tra le chiavi di un lotto) [confirmed_test, confirmed_clinical_diagnosis, self_report]"
        ),
        (
            "cli.out.serve.setting.risk_days_before_symptoms",
            "le chiavi anteriori all'inizio sintomi meno questo numero di giorni non sono pubblicate [0…14]"
        ),
        ("cli.out.serve.setting.max_key_age_days", "le chiavi terminate da più tempo sono scartate [1…30]"),
        (
            "cli.out.serve.setting.clock_skew_flag_seconds",
            "uno scarto dell'orologio del telefono oltre questo valore è segnalato al personale [60…31536000]"
        ),
        (
            "cli.out.serve.setting.apple_device_check_url",
            "URL di base di Apple DeviceCheck (https://api.devicecheck.apple.com); non impostato: i token dei dati analitici di iOS sono rifiutati"
        ),
        ("cli.out.serve.setting.apple_team_id", "id del team sviluppatore Apple per DeviceCheck"),
        ("cli.out.serve.setting.apple_key_id", "id della chiave DeviceCheck"),
        ("cli.out.serve.setting.apple_private_key_file", "chiave privata P-256 di DeviceCheck (PEM)"),
        (
            "cli.out.serve.setting.apple_device_check_wait_seconds",
            "pausa tra i passi di DeviceCheck (Immuni: da 7 a 10 s) [0…60]"
        ),
        (
            "cli.out.serve.setting.google_attestation_root_file",
            "certificato/i radice PEM per le attestazioni SafetyNet; non impostato: i dati analitici Android sono scartati"
        ),
        ("cli.out.serve.setting.google_apk_package_name", "apkPackageName atteso nelle attestazioni"),
        (
            "cli.out.serve.setting.google_apk_certificate_digest",
            "apkCertificateDigestSha256 (base64) atteso nelle attestazioni"
        ),
        ("cli.out.serve.setting.access_log", "una riga per richiesta su stderr (metodo, route, stato, durata)"),
        (
            "cli.out.serve.setting.log_format",
            "il log su stderr: righe di testo, o un oggetto JSON per riga (time, level, event, message, route, status, duration_ms, incident) per un raccoglitore di log [text, json]"
        ),
        (
            "cli.out.serve.setting.shutdown_grace_seconds",
            "a SIGINT/SIGTERM, quanto tempo possono richiedere le richieste in corso [0…300]"
        ),
        (
            "cli.out.serve.setting.signing_key_path",
            "chiave privata P-256 (PEM) che firma i lotti di TEK (crearne una con: tracedesk keys generate --out FILE)"
        ),
        (
            "cli.out.serve.setting.signing_key_required",
            "rifiutare l'avvio senza signing_key_path; false: partire, ma non pubblicare nulla e dirlo"
        ),
        (
            "cli.out.serve.setting.signing_key_id",
            "verification_key_id dei lotti (l'MCC del paese) [lettere, cifre, _ e .; al massimo 64]"
        ),
        (
            "cli.out.serve.setting.signing_key_version",
            "verification_key_version dei lotti [lettere, cifre, _ e .; al massimo 64]"
        ),
        ("cli.out.serve.setting.region", "regione scritta in ogni lotto [lettere, cifre, _ e .; al massimo 64]"),
        (
            "cli.out.serve.setting.app_bundle_id",
            "bundle id dell'app nelle informazioni di firma dei lotti (campo deprecato che Immuni scriveva; vuoto: omesso)"
        ),
        (
            "cli.out.serve.setting.publish_interval_seconds",
            "ogni quanto il server pubblica in un lotto le chiavi oltre il loro embargo [60…86400]"
        ),
        (
            "cli.out.serve.setting.chunk_max_keys",
            "numero massimo di chiavi in un lotto; di più formano più lotti (400 000 tengono export.bin sotto 16 MiB) [100…400000]"
        ),
        (
            "cli.out.serve.setting.chunk_min_keys",
            "riempire i lotti con chiavi casuali fino a questo numero (più una variazione casuale), perché i lotti piccoli non individuino chi ha caricato; 0: disattivato [0…100000]"
        ),
        (
            "cli.out.serve.setting.chunk_padding_jitter",
            "chiavi di riempimento casuali in più, da 0 a questo numero [0…10000]"
        ),
        (
            "cli.out.serve.setting.cleanup_interval_seconds",
            "ogni quanto il server cancella ciò che le regole di conservazione non consentono più di tenere [3600…604800]"
        ),
        (
            "cli.out.serve.setting.stats_rollup_interval_seconds",
            "ogni quanto il server aggrega le statistiche delle ore concluse (il cruscotto le legge) [60…3600]"
        ),
        (
            "cli.out.serve.setting.retention_days",
            "caricamenti, chiavi, lotti, codici e i loro eventi sono conservati per questo numero di giorni [10…30]"
        ),
        (
            "cli.out.serve.setting.analytics_retention_days",
            "le informazioni operative (dati analitici) sono conservate per questo numero di giorni [14…365]"
        ),
        (
            "cli.out.serve.setting.follow_up_period_days",
            "un contatto è seguito per questo numero di giorni dopo la sua ultima esposizione (il periodo dei controlli giornalieri) [1…60]"
        ),
        (
            "cli.out.serve.setting.follow_up_retry_minutes",
            "dopo una mancata risposta o la segreteria, la chiamata successiva a un contatto è dovuta dopo questo numero di minuti [5…1440]"
        ),
        (
            "cli.out.serve.setting.follow_up_attempts_per_day",
            "al massimo questo numero di chiamate a un contatto è previsto in un giorno; la successiva è dovuta il giorno dopo [1…24]"
        ),
        (
            "cli.out.serve.setting.follow_up_lost_after_days",
            "un contatto mai raggiunto dopo questo numero di giorni dall'inizio della sorveglianza è perso alla sorveglianza [1…30]"
        ),
        (
            "cli.out.serve.setting.closed_case_retention_days",
            "i casi chiusi, la loro cronologia e le sorveglianze che non riguardano altri casi sono cancellati dopo questo numero di giorni dalla chiusura del caso [1…3650]"
        ),
        (
            "cli.out.serve.setting.session_idle_minutes",
            "una sessione del personale senza richieste per questo tempo termina (una console lasciata incustodita si blocca) [1…240]"
        ),
        (
            "cli.out.serve.setting.session_hours",
            "una sessione del personale termina questo tempo dopo l'accesso, qualunque cosa accada (un turno) [1…24]"
        ),
        (
            "cli.out.serve.setting.sign_in_failures_before_lock",
            "accessi falliti consecutivi, da tutte le origini insieme, che bloccano un account del personale finché un amministratore non ne reimposta la password (NIST SP 800-63B: al massimo 100); le attese crescono dopo il terzo fallimento di un'origine, solo per quell'origine [3…100]"
        ),
        (
            "cli.out.serve.setting.sign_in_first_wait_seconds",
            "secondi che un indirizzo attende dopo il suo terzo accesso fallito su un account prima che il tentativo successivo sia accettato, raddoppiati a ogni ulteriore fallimento fino a 300; 2 per impostazione predefinita, e mai meno (un'attesa più lunga rallenta solo di più un attaccante) [2…300]"
        ),
        (
            "cli.out.serve.setting.sign_in_places_per_address",
            "accessi che un indirizzo client (un /64 IPv6) può avere contemporaneamente in attesa dell'hash della password, su 16 posti (oltre: 429 con Retry-After; 0: nessun limite) [0…16]"
        ),
        (
            "cli.out.serve.setting.sign_in_per_address_per_minute",
            "accessi al minuto da un indirizzo client, per server (oltre: 429 con Retry-After; successi e attese non contano; 0: nessun limite). Il personale dietro un unico NAT o un proxy condivide un indirizzo [0…100000]"
        ),
        (
            "cli.out.serve.setting.sign_in_burst_per_address",
            "di questi, quanti un indirizzo client può farne insieme prima che si applichi il limite al minuto (i primi secondi di un'ondata non devono riempire la coda degli hash) [1…100000]"
        ),
        (
            "cli.out.serve.setting.sign_in_per_name_per_minute",
            "password errate al minuto per un nome di account da tutti gli indirizzi, per server (oltre: 429 con Retry-After per quel nome; 0: nessun limite) [0…100000]"
        ),
        (
            "cli.out.serve.setting.setup_token_file",
            "dove serve scrive il token di configurazione monouso del primo amministratore (modo 0600) finché non esiste alcun account (predefinito: STORE.setup-token accanto a un archivio SQLite, ./tracedesk-setup-token per PostgreSQL)"
        ),
        (
            "cli.out.serve.setting.num_pseudo_ids",
            "APRICOT NUM_PSEUDO_IDS: pseudo-id creati per ogni utente registrato (i 1000 del progetto: uno per beacon di 5 minuti per circa 3,5 giorni; 2^32 in tutto limitano gli utenti a 2^32 / questo valore) [1…10000]"
        ),
        (
            "cli.out.serve.setting.beacon_change_interval",
            "APRICOT BEACON_CHANGE_INTERVAL, secondi: ogni quanto le app cambiano il beacon che trasmettono (fornito alle app) [10…86400]"
        ),
        (
            "cli.out.serve.setting.beacon_detect_interval",
            "APRICOT BEACON_DETECT_INTERVAL, secondi: ogni quanto le app eseguono la scansione; un record conta come altrettanta prossimità [1…3600]"
        ),
        (
            "cli.out.serve.setting.contact_timestamp_option",
            "APRICOT CONTACT_TIMESTAMP_OPTION: se le app mettono un orario in ogni record (fornito alle app; il server accetta entrambi)"
        ),
        (
            "cli.out.serve.setting.contact_history_max",
            "APRICOT CONTACT_HISTORY_MAX, giorni: i file dei contatti di giorni più vecchi sono rifiutati, e cancellati una volta più vecchi [1…90]"
        ),
        (
            "cli.out.serve.setting.close_contact_minutes",
            "regola APRICOT del contatto stretto: almeno questo numero di minuti di prossimità in un giorno (i 15 dell'ECDC) [1…1440]"
        ),
        (
            "cli.out.serve.setting.default_country_code",
            "aggiunto ai numeri di telefono che il personale scrive senza prefisso internazionale (+ e da 1 a 3 cifre, es. +39)"
        ),
        (
            "cli.out.serve.setting.apricot_uploads_per_hour",
            "caricamenti di file dei contatti che un accesso può fare in un'ora, per server (oltre: 429 con Retry-After) [1…3600]"
        ),
        (
            "cli.out.serve.setting.apricot_otp_per_minute",
            "codici APRICOT (SMS) che questo server invia al minuto, tutti i telefoni insieme (oltre: 429 con Retry-After; 0: nessun limite): limita il costo degli SMS di un'ondata [0…100000]"
        ),
        (
            "cli.out.serve.setting.apricot_otp_per_address_per_hour",
            "codici APRICOT che un indirizzo client (un /64 IPv6) può chiedere in un'ora, per server (oltre: 429 con Retry-After; 0: nessun limite). I telefoni dietro un unico NAT dell'operatore condividono un indirizzo; dietro un reverse proxy ogni telefono ha l'indirizzo del proxy: lì alzarlo o impostare 0 [0…100000]"
        ),
        (
            "cli.out.serve.setting.apricot_code_secret_file",
            "file con il segreto (almeno 32 byte) che fa da chiave all'HMAC dei codici SMS APRICOT; non impostato: accanto a un archivio SQLite, creato al primo avvio; obbligatorio con PostgreSQL (un solo segreto per tutti i server)"
        ),
        (
            "cli.out.serve.setting.sms_gateway",
            "dove vanno i codici SMS APRICOT: outbox li tiene per gli amministratori (tracedesk sms outbox), non si invia nulla; http li invia con POST a sms_http_url [outbox, http]"
        ),
        (
            "cli.out.serve.setting.sms_http_url",
            "l'endpoint del fornitore SMS per sms_gateway http: POST {\"to\",\"text\"} in JSON"
        ),
        (
            "cli.out.serve.setting.sms_http_api_key",
            "la chiave API del fornitore SMS, inviata come Authorization: Bearer CHIAVE (mostrata oscurata)"
        ),
        (
            "cli.out.serve.setting.sms_http_max_attempts",
            "tentativi per SMS in caso di 5xx, 429 o connessione fallita, a 2 s di distanza e raddoppiando, prima che sia segnato come fallito [1…10]"
        ),
        (
            "cli.out.serve.setting.audit_key_path",
            "chiave privata P-256 (PEM) che firma i punti di controllo del registro delle attività; se possibile tenerla fuori dalla macchina dell'archivio (crearne una con: tracedesk keys generate --audit --out FILE); richiede audit_checkpoint_path"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_path",
            "file fuori dall'archivio a cui il server aggiunge i punti di controllo firmati del registro delle attività (una riga JSON ciascuno, modo 0600); non impostato: nessun punto di controllo"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_every_entries",
            "un punto di controllo dopo questo numero di nuove voci del registro delle attività [1…1000000]"
        ),
        (
            "cli.out.serve.setting.audit_checkpoint_interval_seconds",
            "e almeno con questa frequenza mentre si aggiungono voci [10…86400]"
        ),
        (
            "cli.out.serve.setting.his_auth",
            "come POST /v1/otp riconosce il sistema ospedaliero: key (Authorization: Bearer CHIAVE di un client creato con tracedesk his add), certificate (un certificato client TLS verificato con his_ca_file, il cui CN del soggetto nomina il client), none (chiunque raggiunga il listener: solo reti di prova chiuse; avviso a ogni avvio) [key, certificate, none]"
        ),
        (
            "cli.out.serve.setting.his_listen",
            "un listener proprio per POST /v1/otp (indirizzo IPv4 e porta), perché gli ospedali lo raggiungano tramite una rete separata; allora internal_listen non lo serve più (predefinito: non impostato, servito su internal_listen)"
        ),
        (
            "cli.out.serve.setting.his_rate_per_minute",
            "autorizzazioni al minuto che un client HIS può fare su questo server, salvo che il client abbia un limite proprio (tracedesk his add --rate); oltre: 429 con Retry-After. Limita ciò che una chiave rubata può fare prima di essere revocata [1…1000000]"
        ),
        (
            "cli.out.serve.setting.his_ca_file",
            "certificato/i PEM dell'autorità che firma i certificati dei client HIS (his_auth certificate; richiede tls_cert e tls_key)"
        ),
        (
            "cli.out.serve.setting.otp_guess_limit",
            "codici errati che un indirizzo client (un /64 IPv6) può inviare a check-otp e upload in dieci minuti, per server, prima di ricevere 429 con Retry-After (le richieste fittizie non contano mai; 0: nessun limite). I telefoni dietro un unico NAT dell'operatore lo condividono: vedere docs/decisions.md [0…100000]"
        ),
        (
            "cli.out.serve.setting.sms_allowed_prefixes",
            "i numeri a cui si inviano i codici APRICOT: + e cifre, separati da virgole (es. \"+39 3, +378\"); vuoto: default_country_code. Gli altri ricevono 422: i numeri a tariffa speciale, satellitari ed esteri costano un SMS ciascuno. I numeri di prova +999 solo con sms_gateway outbox"
        ),
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
        ("cli.out.demo.intro.hisKey", "   (client HIS {client}: Authorization: Bearer CHIAVE su POST /v1/otp)"),
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
            "cli.out.demo.tracing.done.one",
            "tracciamento: casi aperti {cases} ({followUps} sorveglianza); tentativi del tracciatore simulato {attempts} (raggiunti {reached}), controlli giornalieri {checks}"
        ),
        (
            "cli.out.demo.tracing.done.other",
            "tracciamento: casi aperti {cases} ({followUps} sorveglianze); tentativi del tracciatore simulato {attempts} (raggiunti {reached}), controlli giornalieri {checks}"
        ),
        ("cli.out.demo.tracing.skipped.one", "; {count} paziente senza caso (non registrato)"),
        ("cli.out.demo.tracing.skipped.other", "; {count} pazienti senza caso (non registrati)"),
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
            "simulazione per {seconds} s verso {url}: {rate}, {phones}, seme {seed}"
        ),
        ("cli.out.simulate.citizens.one", "{count} cittadino al minuto"),
        ("cli.out.simulate.citizens.other", "{count} cittadini al minuto"),
        ("cli.out.simulate.phones.one", "{count} telefono APRICOT"),
        ("cli.out.simulate.phones.other", "{count} telefoni APRICOT"),
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
        ("cli.out.simulate.progress", "{elapsed} s di {total} s: {requests}, {errors}"),
        ("cli.out.simulate.requests.one", "{count} richiesta"),
        ("cli.out.simulate.requests.other", "{count} richieste"),
        ("cli.out.simulate.errors.one", "{count} errore"),
        ("cli.out.simulate.errors.other", "{count} errori"),
        (
            "cli.out.simulate.notThisMachine",
            "{option} {host} non è questa macchina: i telefoni simulati producono carico reale e dati dall'aspetto reale; aggiungere --allow-non-loopback se quel server è un server di prova"
        ),
        ("cli.out.simulate.number", "--{option} deve essere un numero da {low} a {high}, non '{value}'"),
    ]
}
