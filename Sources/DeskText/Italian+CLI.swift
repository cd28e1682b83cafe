extension Italian {
    /// L'aiuto, le pagine di manuale, i completamenti e i messaggi della riga di comando in italiano: le stesse
    /// chiavi di English.cli, nel vocabolario del servizio sanitario (codice, operatore,
    /// tracciatore, contatto stretto, sorveglianza, data di inizio sintomi…).
    static let cli: [(String, String)] =
        headings + shared + commands1 + commands2 + commands3 + bench + usage + operating + tracing + supervision
        + statistics
}

extension Italian {
    static let headings: [(String, String)] = [
        ("cli.heading.usage", "Uso:"),
        ("cli.heading.options", "Opzioni:"),
        ("cli.heading.environment", "Variabili d'ambiente:"),
        ("cli.heading.exit", "Stato di uscita:"),
        ("cli.man.name", "NOME"),
        ("cli.man.synopsis", "SINTASSI"),
        ("cli.man.description", "DESCRIZIONE"),
        ("cli.man.commands", "COMANDI"),
        ("cli.man.options", "OPZIONI"),
        ("cli.man.environment", "AMBIENTE"),
        ("cli.man.exit", "STATO DI USCITA"),
        ("cli.man.files", "FILE"),
        ("cli.man.seealso", "VEDERE ANCHE"),
        ("cli.man.tagline", "la console del personale per il tracciamento dei contatti"),
        (
            "cli.main.more",
            "Il --help di ogni comando (tracedesk case --help, …) e la sua pagina di manuale (man tracedesk-case; tracedesk(1) le elenca) dicono di più."
        ),
        ("cli.main.title", "TraceDesk: la console del personale per il tracciamento dei contatti."),
    ]

    static let shared: [(String, String)] = [
        (
            "cli.console.summary",
            """
            Apre la console: accesso, poi le schermate del proprio ruolo (l'operatore autorizza il \
            caricamento di un'app durante una telefonata; il tracciatore cerca i contatti di un \
            paziente; il supervisore segue il cruscotto e il monitor; l'amministratore gestisce il \
            personale e legge il registro delle attività).
            """
        ),
        (
            "cli.console.keys",
            """
            Nella console, ? (F1 mentre si scrive) elenca i tasti del momento, : (o Ctrl-P) apre la \
            tavolozza dei comandi (:monitor, :export, :signout, :quit…), Ctrl-L ridisegna, Ctrl-Z \
            sospende e torna alla shell (fg riprende); docs/operator-guide.md riporta la tabella dei \
            tasti.
            """
        ),
        (
            "cli.option.lang",
            """
            la lingua di schermate, messaggi e aiuto (prima del comando); altrimenti il file delle \
            impostazioni della console, altrimenti LC_ALL, LC_MESSAGES o LANG, altrimenti l'inglese
            """
        ),
        (
            "cli.option.user",
            """
            chi agisce (predefinito TRACEDESK_USER); la password è chiesta senza eco (la console \
            inserisce il nome nella schermata di accesso e la chiede lì)
            """
        ),
        (
            "cli.option.password-stdin",
            "legge le password dallo standard input, una per riga, invece che dal terminale (solo sottocomandi)"
        ),
        (
            "cli.option.server",
            """
            agisce tramite la API del personale di un server (il suo listener interno, ad es. \
            http://127.0.0.1:8081) invece di aprire un archivio
            """
        ),
        (
            "cli.option.store",
            """
            l'archivio SQLite (predefinito $XDG_DATA_HOME/tracedesk/tracedesk.sqlite, cioè \
            ~/.local/share/tracedesk/tracedesk.sqlite; creato al primo avvio), o un URL PostgreSQL \
            postgres://USER@HOST:PORT/DATABASE
            """
        ),
        ("cli.option.json", "stampa la risposta della API del personale (docs/staff-api.yaml), anche sull'archivio"),
        ("cli.option.theme", "un tema da themes/NAME.json: default, high-contrast, monochrome"),
        ("cli.option.no-color", "monocromatico (anche quando NO_COLOR è impostata e non vuota)"),
        ("cli.option.no-mouse", "lascia il mouse al terminale (selezione del testo)"),
        (
            "cli.option.no-copy",
            """
            y non copia nulla (anche con TRACEDESK_COPY=off); altrimenti y copia negli appunti con \
            OSC 52 un numero di telefono (registrato), l'etichetta di un codice o una riga, anche via \
            SSH e in tmux (set -g set-clipboard on)
            """
        ),
        (
            "cli.option.refresh",
            """
            ogni quanto il cruscotto del supervisore rilegge i dati: da 1 a 3600, o 0 solo quando si \
            preme r (predefinito 5); il periodo mostrato (0-4) è conservato per la volta successiva \
            in $XDG_STATE_HOME/tracedesk/dashboard-range (~/.local/state/tracedesk/dashboard-range)
            """
        ),
        (
            "cli.option.config",
            "le impostazioni del server, un file JSON (o TRACEDESK_CONFIG); tracedesk serve --settings le elenca"
        ),
        ("cli.exit.0", "tutto bene"),
        ("cli.exit.1", "dati rifiutati (un codice non valido, una data errata…): il motivo è su stderr"),
        ("cli.exit.2", "errore d'uso"),
        ("cli.exit.3", "già autorizzato (otp authorize: nulla è cambiato)"),
        ("cli.exit.4", "archivio o server non disponibile"),
        ("cli.exit.5", "impossibile mettersi in ascolto (serve)"),
        ("cli.exit.6", "accesso non riuscito o non consentito al ruolo"),
        ("cli.exit.7", "catena del registro delle attività interrotta o non conforme ai suoi punti di controllo"),
        (
            "cli.exit.129",
            "interrotto da SIGHUP (128 + il segnale), dopo l'uscita dalla sessione e il ripristino del terminale"
        ),
        (
            "cli.exit.130",
            "interrotto da SIGINT (Ctrl-C), dopo l'uscita dalla sessione e il ripristino del terminale"
        ),
        ("cli.exit.143", "interrotto da SIGTERM, dopo l'uscita dalla sessione e il ripristino del terminale"),
        ("cli.env.store", "l'archivio quando --store non è indicato"),
        ("cli.env.user", "chi agisce quando --user non è indicato"),
        ("cli.env.no-color", "monocromatico, quando impostata e non vuota"),
        ("cli.env.otp-ttl", "quanto dura un'autorizzazione, da 10 a 3600 secondi (predefinito 150)"),
        ("cli.env.themes", "una cartella di temi in più"),
        (
            "cli.env.busy-timeout",
            """
            quanto attendere il blocco in scrittura di un altro processo o una connessione libera al \
            database, in millisecondi (predefinito 5000)
            """
        ),
        (
            "cli.env.idle-lock",
            """
            blocca la console dopo tanti secondi senza tasti, da 2 a 86400; predefinito e limite \
            massimo: il limite di inattività della sessione, 10 min
            """
        ),
        (
            "cli.env.setup-token",
            "il token di configurazione monouso di un server nuovo, per il suo primo amministratore con staff add --server"
        ),
        ("cli.env.copy", "off: la y della console non copia nulla, come --no-copy"),
        ("cli.env.config", "il file delle impostazioni del server, quando --config non è indicato"),
        (
            "cli.env.setting",
            "un'impostazione del server (ad es. TRACEDESK_OTP_TTL_SECONDS=300): tracedesk serve --settings le elenca"
        ),
        (
            "cli.env.locale",
            "la lingua, quando né --lang né il file delle impostazioni della console ne indicano una"
        ),
        ("cli.file.store", "l'archivio predefinito (~/.local/share/tracedesk/tracedesk.sqlite)"),
        (
            "cli.file.settings",
            "le impostazioni della console: server, utente, tema, lingua, export_folder (tracedesk settings)"
        ),
        ("cli.file.range", "l'ultimo periodo mostrato dal cruscotto del supervisore"),
        ("cli.file.themes", "i temi installati (default, high-contrast, monochrome)"),
    ]
}

extension Italian {
    /// I comandi del personale: otp, trace, case, queue, followup.
    static let commands1: [(String, String)] = [
        (
            "cli.otp.summary",
            "Il lavoro dell'operatore dalla riga di comando: verificare, autorizzare e seguire il codice di un'app."
        ),
        (
            "cli.otp.check",
            """
            Verifica un codice senza rete (alfabeto, lunghezza, carattere di controllo). Stampa \
            "valid" ed esce con 0, oppure stampa il motivo ed esce con 1.
            """
        ),
        (
            "cli.otp.authorize",
            """
            Autorizza l'app che mostra CODE a caricare le sue chiavi per 150 s. Uscita 0 autorizzato, \
            3 già autorizzato (nulla è cambiato), 1 rifiutato (motivo su stderr), 4 archivio o server \
            non disponibile, 6 non consentito.
            """
        ),
        (
            "cli.otp.status",
            """
            Mostra cosa sa l'archivio di CODE: sconosciuto (unknown), autorizzato (authorized), \
            scaduto (expired) o usato (consumed). Uscita 0, 1 per un codice non valido, 4 archivio o \
            server non disponibile, 6 non consentito (un operatore segue solo i codici che ha \
            autorizzato).
            """
        ),
        ("cli.otp.option.symptoms", "obbligatoria per authorize: la data di inizio sintomi (YYYY-MM-DD)"),
        (
            "cli.otp.option.code-stdin",
            """
            legge CODE dalla prima riga dello standard input: un codice tra gli argomenti si vede in \
            `ps` e nella cronologia della shell finché è valido
            """
        ),
        (
            "cli.otp.notes.person",
            """
            authorize e status agiscono per una persona: --user NAME (o TRACEDESK_USER) e la sua \
            password (chiesta senza eco, o la prima riga dello standard input con --password-stdin); \
            authorize richiede il ruolo di operatore, status quello di operatore (per i propri codici) \
            o di supervisore. --server URL fa lo stesso tramite la API del personale di un server \
            invece che su un archivio. Uscita 6: accesso non riuscito o non consentito al ruolo.
            """
        ),
        (
            "cli.otp.notes.code",
            """
            CODE si può scrivere come lo mostra l'app: 9K2-RAY8-UUQ, 9k2 ray8 uuq o 9K2RAY8UUQ. Con \
            --code-stdin e --password-stdin, il codice è la prima riga e la password la seconda:
              printf '%s\\n%s\\n' "$code" "$password" | tracedesk otp authorize --code-stdin \\
                --password-stdin --symptoms 2026-11-27 --user NAME
            """
        ),
        (
            "cli.otp.notes.store",
            """
            L'archivio predefinito è TRACEDESK_STORE, poi $XDG_DATA_HOME/tracedesk/tracedesk.sqlite; \
            --store accetta un percorso SQLite o un URL postgres://USER@HOST:PORT/DATABASE. \
            TRACEDESK_OTP_TTL_SECONDS (10-3600, predefinito 150) fissa la durata di un'autorizzazione.
            """
        ),
        ("cli.otp.exit.1", "rifiutato: un codice non valido, una data errata (il motivo è su stderr)"),
        ("cli.otp.exit.3", "authorize: già autorizzato (nulla è cambiato)"),
        ("cli.otp.exit.6", "accesso non riuscito o non consentito al ruolo"),

        ("cli.trace.summary", "La ricerca del tracciatore: i contatti di un paziente dal numero di telefono."),
        (
            "cli.trace.about",
            """
            Cerca un paziente positivo dal numero di telefono (APRICOT) e stampa il suo riepilogo e una \
            riga per ogni contatto, dal più lungo. PHONE come lo dà il paziente: +39 333 123 4567, \
            0039 333 1234567, o senza prefisso internazionale (si aggiunge quello predefinito, +39 \
            salvo configurazione). Tra virgolette se contiene spazi.
            """
        ),
        (
            "cli.trace.option.purpose",
            """
            obbligatoria: il numero del caso o il motivo, conservato nel registro delle attività con \
            ogni ricerca ed esportazione
            """
        ),
        (
            "cli.trace.option.csv",
            """
            i contatti in CSV, le colonne dell'esportazione della console (contact_user_id, phone, \
            close_contact, minutes, most_minutes_on_one_day, days, sightings, first_seen, last_seen, \
            outcome, outcome_note, outcome_by, outcome_at); con --sightings, invece, i rilevamenti \
            grezzi (time, file_day, beacon, contact_user_id, contact_phone)
            """
        ),
        (
            "cli.trace.option.json",
            "la ricerca come la restituisce la API del personale; con --sightings, si aggiunge una lista \"sightings\""
        ),
        (
            "cli.trace.option.sightings",
            "anche i rilevamenti grezzi dei file del paziente, dal più vecchio (compresi quelli non risolti)"
        ),
        (
            "cli.trace.option.phone-stdin",
            """
            legge il numero del paziente dalla prima riga dello standard input invece che da PHONE: un \
            numero tra gli argomenti si vede in `ps` e nella cronologia della shell. Con anche \
            --password-stdin, il numero è la prima riga e la password la seconda:
              printf '%s\\n%s\\n' "$number" "$password" | tracedesk trace \\
                --phone-stdin --password-stdin --purpose "case 2026-1234" --user NAME
            """
        ),
        (
            "cli.trace.notes.audit",
            """
            Richiede il ruolo di tracciatore. --csv e --json sono esportazioni: annotate nel registro \
            delle attività (con il motivo e il numero di righe: contatti, o rilevamenti con \
            --sightings) prima di stampare qualsiasi cosa. Gli orari sono UTC \
            (2026-11-29T10:00:00.000Z) in CSV e JSON, locali nella tabella. Le opzioni --user, \
            --password-stdin, --store e --server funzionano come per 'tracedesk staff'.
            """
        ),
        ("cli.trace.exit.0", "trovato (anche un paziente senza caricamenti: l'output lo dice)"),
        (
            "cli.trace.exit.1",
            """
            rifiutato (un numero in un formato errato, un numero che nessuno ha registrato, un motivo \
            vuoto: il motivo è su stderr)
            """
        ),
        ("cli.trace.exit.6", "accesso non riuscito o non tracciatore"),

        (
            "cli.case.summary",
            "Il caso di un paziente positivo: i suoi contatti stretti entrano in sorveglianza, affidati ai tracciatori."
        ),
        (
            "cli.case.open",
            """
            Apre un caso per un paziente positivo dal numero di telefono (come per tracedesk trace: \
            +39 333 123 4567, o senza prefisso internazionale). Ogni contatto stretto nei file dei \
            contatti del paziente diventa una sorveglianza del caso (o si unisce a quella che la \
            persona ha già per un altro caso aperto: conta l'esposizione più recente), affidata al \
            tracciatore attivo con meno sorveglianze aperte, o a sé con --mine. Un paziente che ha già \
            un caso aperto: quel caso, invariato (uscita 0, l'output lo dice). Le date sono YYYY-MM-DD \
            (UTC), non nel futuro.
            """
        ),
        (
            "cli.case.list",
            """
            I casi, dal più recente: quelli aperti (predefinito), quelli chiusi, o tutti (al massimo N, \
            da 1 a 1000, predefinito 200). Un tracciatore vede i casi che ha aperto; un supervisore \
            ogni caso, o quelli di un tracciatore con --opened-by.
            """
        ),
        (
            "cli.case.show",
            """
            Un caso: il paziente, la data indice, chi l'ha aperto, lo stato, i casi da cui viene o a \
            cui ha portato, le sue sorveglianze (prima le attive) e la sua storia.
            """
        ),
        (
            "cli.case.close",
            """
            Chiude un caso aperto (un tracciatore i propri, un supervisore qualsiasi). Le sue \
            sorveglianze che non riguardano un altro caso aperto terminano. La nota resta con il caso, \
            non nel registro delle attività.
            """
        ),
        (
            "cli.case.add",
            """
            Aggiunge a mano un contatto (un utente APRICOT registrato) a un caso aperto, con il motivo \
            ("convivente, nessun telefono rilevato"). Una persona già in sorveglianza per il caso: \
            quella sorveglianza, invariata.
            """
        ),
        (
            "cli.case.option.reference",
            """
            obbligatoria per open: il numero del caso dell'azienda sanitaria (al massimo 64 \
            caratteri), conservato nel registro delle attività con ogni consultazione del caso
            """
        ),
        ("cli.case.option.onset", "open: la data di inizio sintomi"),
        (
            "cli.case.option.test-day",
            "open: la data del test positivo, per un paziente senza sintomi; nessuna delle due: oggi, come data del test"
        ),
        ("cli.case.option.mine", "open: affida a sé le sorveglianze"),
        ("cli.case.option.opened-by", "list: i casi di un tracciatore (supervisore)"),
        ("cli.case.option.closed", "list: i casi chiusi"),
        ("cli.case.option.all", "list: tutti i casi, aperti e chiusi"),
        ("cli.case.option.limit", "list: al massimo N casi, da 1 a 1000 (predefinito 200)"),
        (
            "cli.case.option.reason",
            """
            close: il motivo, uno tra recovered (guarito), transferred (trasferito), opened-in-error \
            (aperto per errore), other (altro); add: perché la persona è un contatto, a parole
            """
        ),
        ("cli.case.option.note", "close: al massimo 500 caratteri su una riga, conservati con il caso"),
        (
            "cli.case.option.phone-stdin",
            """
            legge PHONE dalla prima riga dello standard input (un numero tra gli argomenti si vede in \
            `ps` e nella cronologia della shell); con --password-stdin, la password è la riga seguente
            """
        ),
        (
            "cli.case.option.json",
            "la risposta della API del personale (docs/staff-api.yaml, \"Cases and follow-ups\"), anche sull'archivio"
        ),
        (
            "cli.case.notes.roles",
            """
            Richiede il ruolo di tracciatore (list, show e close: anche un supervisore). Ogni \
            consultazione e modifica è registrata (case_opened, follow_up_viewed, case_closed, \
            follow_up_added), con il caso come `case N`, mai un numero di telefono o una nota. Gli \
            orari sono locali nel testo, UTC in JSON. Le opzioni --user, --password-stdin, --store e \
            --server funzionano come per 'tracedesk staff'.
            """
        ),
        (
            "cli.case.exit.1",
            """
            rifiutato (un numero in un formato errato o non registrato, un numero del caso vuoto, un \
            caso chiuso o che non spetta a te modificare: il motivo è su stderr)
            """
        ),
        (
            "cli.case.exit.4",
            "archivio o server non disponibile (anche: questo sistema non ha ancora la sorveglianza dei casi)"
        ),

        ("cli.queue.summary", "Le sorveglianze in scadenza, prima le scadute: chi chiamare adesso."),
        (
            "cli.queue.about",
            """
            Le sorveglianze da chiamare o verificare, prima le più urgenti: scadute e in scadenza ora, \
            poi più tardi oggi (con --later, anche i giorni seguenti), in ordine di scadenza, poi di \
            numero. Ogni riga: il numero della sorveglianza (per tracedesk followup), quando scade, il \
            numero completo della persona, il caso (+N: seguita per altri N casi), lo stato, i \
            tentativi finora, l'ultimo esito e perché la persona è un contatto (minuti, giorni, ultima \
            esposizione). La prima riga conta tutta la coda, non solo la pagina.
            """
        ),
        ("cli.queue.option.mine", "le tue (predefinito per un tracciatore, e sua unica scelta)"),
        ("cli.queue.option.tracer", "quelle di un tracciatore (supervisore)"),
        ("cli.queue.option.unassigned", "le sorveglianze non ancora affidate a un tracciatore (supervisore)"),
        ("cli.queue.option.everyone", "quelle di tutti (supervisore; predefinito per un supervisore)"),
        ("cli.queue.option.later", "anche le sorveglianze in scadenza nei giorni seguenti"),
        (
            "cli.queue.option.search",
            """
            solo quelle il cui numero del caso o numero di telefono contiene TEXT (le cifre di un \
            numero si trovano ovunque compaiano)
            """
        ),
        (
            "cli.queue.option.limit",
            """
            al massimo N righe, da 1 a 500 (predefinito 100); se ce ne sono di più, l'ultima riga dà \
            il --after CURSOR della pagina seguente
            """
        ),
        ("cli.queue.option.after", "la pagina dopo CURSOR (come l'ha stampato la pagina precedente)"),
        (
            "cli.queue.option.json",
            """
            la risposta della API del personale (POST /staff/v1/queue): rows, counts, next (il cursore \
            della pagina seguente, o null), read_at
            """
        ),
        ("cli.queue.option.csv", "le righe in CSV: {columns}"),
        (
            "cli.queue.notes.work",
            """
            Si lavora una riga con: tracedesk followup attempt ID --outcome …, followup check ID …; un \
            supervisore riassegna con tracedesk followup assign ID… --to TRACER.
            """
        ),
        (
            "cli.queue.notes.roles",
            """
            Richiede il ruolo di tracciatore o di supervisore. Ogni pagina letta è registrata \
            (follow_up_viewed, destinazione queue) con quante persone ha mostrato. Gli orari sono \
            locali nella tabella, UTC in CSV e JSON. Le opzioni --user, --password-stdin, --store e \
            --server funzionano come per 'tracedesk staff'.
            """
        ),
        ("cli.queue.exit.0", "tutto bene (anche una coda vuota: l'output lo dice)"),
        ("cli.queue.exit.1", "rifiutato (un tracciatore che non esiste)"),
        (
            "cli.queue.exit.4",
            "archivio o server non disponibile (anche: questo sistema non ha ancora la sorveglianza dei casi)"
        ),
        (
            "cli.queue.exit.6",
            "accesso non riuscito, o non consentito (la coda di un altro tracciatore per un tracciatore)"
        ),

        (
            "cli.followup.summary",
            "Una sorveglianza: le sue chiamate e le verifiche quotidiane; la riassegnazione del supervisore."
        ),
        (
            "cli.followup.show",
            """
            Una sorveglianza: il numero della persona, lo stato, a chi è affidata, quando scade la \
            prossima chiamata o verifica, il periodo, perché la persona è seguita (per caso: i minuti, \
            i giorni e l'ultima esposizione dei dati APRICOT, o il motivo dell'aggiunta a mano), ogni \
            tentativo e ogni verifica quotidiana.
            """
        ),
        (
            "cli.followup.attempt",
            """
            Registra una chiamata alla persona e pianifica il seguito: nessuna risposta o segreteria, \
            un'altra chiamata dopo l'intervallo di riprova (al massimo poche al giorno; mai raggiunta \
            per giorni: persa alla sorveglianza); numero errato o rifiuto chiudono la sorveglianza; \
            raggiunta, iniziano le verifiche quotidiane (quella di oggi è subito dovuta).
            """
        ),
        (
            "cli.followup.check",
            """
            Registra la verifica quotidiana di oggi di una persona raggiunta. I sintomi segnalano la \
            sorveglianza al supervisore e al tracciatore del caso. La verifica seguente è dovuta \
            domani, fino alla fine del periodo.
            """
        ),
        (
            "cli.followup.assign",
            """
            Affida una o più sorveglianze a un tracciatore abilitato (supervisore): nulla cambia se il \
            nome non è di un tracciatore.
            """
        ),
        (
            "cli.followup.option.outcome",
            """
            attempt: l'esito della chiamata: no-answer (nessuna risposta), voicemail (segreteria), \
            wrong-number (numero errato), reached (raggiunta) o refused (rifiuto)
            """
        ),
        ("cli.followup.option.symptoms", "check: se oggi la persona ha sintomi"),
        ("cli.followup.option.isolating", "check: se la persona sta rispettando l'isolamento"),
        ("cli.followup.option.to", "assign: il tracciatore che prende le sorveglianze"),
        (
            "cli.followup.option.note",
            """
            al massimo 500 caratteri su una riga; conservati con il tentativo o la verifica, mai nel \
            registro delle attività
            """
        ),
        (
            "cli.followup.option.json",
            """
            la risposta della API del personale (docs/staff-api.yaml): la sorveglianza dopo la \
            modifica; per show, con i tentativi e le verifiche; per assign, una lista "follow_ups"
            """
        ),
        (
            "cli.followup.notes.id",
            "ID è il numero della sorveglianza, come lo stampano tracedesk queue e tracedesk case show."
        ),
        (
            "cli.followup.notes.roles",
            """
            Richiede il ruolo di tracciatore (tentativi e verifiche: sulle sorveglianze affidate a te), \
            o di supervisore (show, assign). Ogni consultazione e modifica è registrata \
            (follow_up_viewed, follow_up_attempt, follow_up_check, follow_up_assigned) con il numero \
            della sorveglianza, mai un numero di telefono o una nota. Le opzioni --user, \
            --password-stdin, --store e --server funzionano come per 'tracedesk staff'.
            """
        ),
        (
            "cli.followup.exit.1",
            """
            rifiutato (una sorveglianza terminata, una verifica prima di aver raggiunto la persona, un \
            nome che non è di un tracciatore abilitato: il motivo è su stderr)
            """
        ),
        (
            "cli.followup.exit.4",
            "archivio o server non disponibile (anche: questo sistema non ha ancora la sorveglianza dei casi)"
        ),
        (
            "cli.followup.exit.6",
            "accesso non riuscito, o non consentito (la sorveglianza di un altro, il ruolo sbagliato)"
        ),
    ]
}

extension Italian {
    /// I comandi dell'amministratore e del supervisore: staff, audit, his, sms, stats, serve.
    static let commands2: [(String, String)] = [
        (
            "cli.staff.summary",
            """
            Account del personale e ruoli; il primo amministratore si crea qui o dalla console quando \
            l'archivio non ha account.
            """
        ),
        (
            "cli.staff.add",
            """
            Aggiunge un account. Ne chiede la password due volte (senza eco). Se l'archivio non ha \
            ancora account, il primo amministratore si crea così senza --user (il ruolo deve essere \
            admin). Tramite --server, il token di configurazione monouso del server (stampato da \
            tracedesk serve all'avvio) va in TRACEDESK_SETUP_TOKEN.
            """
        ),
        (
            "cli.staff.list",
            """
            Ogni account: nome, ruolo, stato (attivo, bloccato, disabilitato), accessi non riusciti, \
            ultimo accesso, chi l'ha creato.
            """
        ),
        ("cli.staff.disable", "Disabilita un account per sempre (il nome resta occupato) e ne chiude le sessioni."),
        (
            "cli.staff.reset-password",
            "Imposta una nuova password (chiesta due volte), sblocca l'account, ne chiude le sessioni."
        ),
        (
            "cli.staff.recover",
            """
            Accesso d'emergenza, per chi può scrivere direttamente l'archivio (non tramite --server): \
            quando ogni amministratore è bloccato o non c'è più. Dà a NAME una nuova password (chiesta \
            due volte) e lo sblocca, o, se l'account non esiste, aggiunge NAME come amministratore. \
            Registrato con l'autore "store-access:<il tuo utente del sistema>".
            """
        ),
        (
            "cli.staff.option.role",
            """
            add: operator (operatore: autorizza i codici), tracer (tracciatore: tracciamento dei \
            contatti), supervisor (supervisore: controlla tutto), admin (amministratore: account, \
            registro delle attività)
            """
        ),
        (
            "cli.staff.notes.person",
            """
            Ogni comando agisce per la persona indicata da --user (o TRACEDESK_USER) e ne chiede la \
            password sul terminale. --password-stdin legge invece le password dallo standard input, una \
            per riga: prima quella di chi agisce, poi quella nuova (staff add, reset-password). --store \
            PATH|URL sceglie l'archivio incorporato; --server URL agisce invece tramite la API del \
            personale di un server.
            """
        ),
        (
            "cli.staff.notes.rules",
            """
            Nomi: una lettera, poi lettere a-z, cifre, . - _ (al massimo 32). Password: almeno 10 \
            caratteri, senza il nome.
            """
        ),
        ("cli.staff.exit.1", "rifiutato (nome o password non validi, nome già in uso)"),

        (
            "cli.audit.summary",
            """
            Verifica la catena di hash del registro delle attività (con --checkpoints, rispetto a \
            punti di controllo firmati conservati fuori dall'archivio); aggiunge un punto di \
            controllo; elenca le voci.
            """
        ),
        (
            "cli.audit.verify",
            """
            Verifica la catena di hash del registro delle attività dalla prima voce all'ultima. Stampa \
            "integro: N voci, testa <hash>" ed esce con 0, oppure indica la prima voce interrotta e \
            perché, ed esce con 7. La sola catena non può mostrare una riscrittura da parte di chi può \
            scrivere l'archivio e ricalcola ogni hash successivo: con --checkpoints FILE (punti di \
            controllo firmati conservati fuori dall'archivio) e --public-key FILE (la chiave pubblica \
            della chiave del registro), si verificano la firma e l'ordine di ogni punto di controllo, e \
            la catena deve avere l'hash di testa di ogni punto al suo conteggio. Una catena riscritta, \
            riordinata o accorciata esce con 7 e dice tra quali punti di controllo è cambiata; una riga \
            danneggiata o un'altra chiave esce con 1. Le voci dopo l'ultimo punto non sono coperte.
            """
        ),
        (
            "cli.audit.checkpoint",
            """
            Aggiunge a FILE (creato 0600) un punto di controllo firmato (voci, hash di testa, ora, id \
            della chiave) della catena com'è ora, dopo aver verificato che la catena è integra e che i \
            punti di controllo di FILE le corrispondono ancora (altrimenti uscita 7, nulla aggiunto). \
            --key è la chiave del registro (tracedesk keys generate --audit --out FILE). Il server fa \
            lo stesso da sé con audit_key_path e audit_checkpoint_path (docs/admin-guide.md).
            """
        ),
        (
            "cli.audit.list",
            """
            Le voci, dalla più recente (predefinito 50; --day è una data in ora locale; --subject è a \
            chi o a cosa è stato fatto, la destinazione della voce: un account, user 7, un client HIS). \
            Azioni: {actions}.
            """
        ),
        ("cli.audit.option.checkpoints", "verify: i punti di controllo firmati conservati fuori dall'archivio"),
        ("cli.audit.option.public-key", "verify: la chiave pubblica (PEM) della chiave del registro"),
        ("cli.audit.option.key", "checkpoint: la chiave del registro (tracedesk keys generate --audit)"),
        ("cli.audit.option.out", "checkpoint: il file dei punti di controllo a cui aggiungere"),
        ("cli.audit.option.actor", "list: le voci di questa persona"),
        ("cli.audit.option.subject", "list: le voci fatte a questo account, utente o client"),
        ("cli.audit.option.action", "list: le voci di questa azione, una tra {actions}"),
        ("cli.audit.option.day", "list: le voci di questa data (ora locale)"),
        ("cli.audit.option.limit", "list: al massimo N voci (predefinito 50)"),
        (
            "cli.audit.option.json",
            """
            la risposta della API del personale (GET /staff/v1/audit, /audit/verification); con \
            --checkpoints, quella risposta come "chain" accanto all'esito dei punti di controllo
            """
        ),
        (
            "cli.audit.notes.person",
            "Le opzioni --user, --password-stdin, --store e --server funzionano come per 'tracedesk staff'."
        ),
        ("cli.audit.exit.1", "rifiutato (un file di chiave o di punti di controllo inutilizzabile)"),
        ("cli.audit.exit.7", "la catena è interrotta o non corrisponde ai suoi punti di controllo"),

        (
            "cli.his.summary",
            """
            I sistemi ospedalieri che possono autorizzare codici (POST /v1/otp), ciascuno con la sua \
            chiave API (amministratore).
            """
        ),
        (
            "cli.his.add",
            """
            Aggiunge un sistema ospedaliero e ne stampa la chiave API, una sola volta: consegnarla \
            all'HIS, che la invia come "Authorization: Bearer CHIAVE" su POST /v1/otp. L'archivio conserva \
            solo lo SHA-256 della chiave, quindi una chiave persa non si può rivedere: revocare il \
            client e aggiungerne un altro.
            """
        ),
        (
            "cli.his.list",
            "Ogni client: nome, stato (attivo, revocato), limite di frequenza, chi l'ha aggiunto e quando."
        ),
        (
            "cli.his.revoke",
            """
            Revoca un client per sempre (il nome resta occupato): chiave e certificato sono rifiutati \
            dalla richiesta seguente, su ogni server dell'archivio.
            """
        ),
        (
            "cli.his.option.rate",
            """
            add: autorizzazioni al minuto che questo client può fare su ogni server (predefinito: \
            his_rate_per_minute del server)
            """
        ),
        (
            "cli.his.notes.names",
            """
            I nomi seguono le regole dei nomi del personale: una lettera, poi lettere a-z, cifre, . - _ \
            (al massimo 32); eventi, registro delle attività e statistiche chiamano il client \
            "his:NAME". Un client con un certificato TLS (his_auth certificate) è il client indicato dal \
            CN del soggetto del certificato; si aggiunge allo stesso modo (la chiave resta inutilizzata). \
            Le opzioni --user, --password-stdin, --store e --server funzionano come per 'tracedesk \
            staff'.
            """
        ),
        ("cli.his.exit.1", "rifiutato (nome non valido, nome già in uso, client inesistente)"),

        ("cli.sms.summary", "La casella degli SMS in uscita di APRICOT, dal più recente (amministratore)."),
        (
            "cli.sms.outbox",
            """
            Gli SMS più recenti (predefinito 50, al massimo 1000), dal più recente: quando, a chi, il \
            gateway (outbox: tenuti qui, mai inviati; http: inviati al fornitore), lo stato (held, \
            pending, sent, failed), i tentativi, il testo (con il gateway http il codice è mascherato; \
            quando il codice è scaduto, usato o sostituito, il testo è eliminato e la voce dice perché) \
            e l'ultimo dettaglio di consegna. Con sms_gateway outbox (il predefinito) è qui che si \
            leggono i codici di POST /apricot/v1/otp, per formazione e ambienti di prova.
            """
        ),
        ("cli.sms.option.limit", "al massimo N messaggi, da 1 a 1000 (predefinito 50)"),
        ("cli.sms.option.json", "la risposta della API del personale (GET /staff/v1/sms/outbox)"),
        (
            "cli.sms.notes.audit",
            """
            I testi contengono codici di accesso e le righe numeri di telefono: la lettura della \
            casella è registrata (sms_outbox_read). Le opzioni --user, --password-stdin, --store e \
            --server funzionano come per 'tracedesk staff'.
            """
        ),
        ("cli.sms.exit.6", "accesso non riuscito o non amministratore"),

        (
            "cli.stats.summary",
            """
            Le statistiche del supervisore: autorizzazioni, caricamenti, chiavi, lotti, dati \
            analitici per provincia, dati APRICOT, indicatori del tracciamento.
            """
        ),
        (
            "cli.stats.about",
            """
            Le statistiche del supervisore in un periodo di tempo: codici autorizzati per operatore \
            e cosa ne è stato (verificati, caricati, tempo mediano al caricamento), caricamenti e \
            chiavi (accettate, scartate per motivo, chiavi per caricamento), caricamenti rifiutati, \
            lotti pubblicati, richieste reali e fittizie dei telefoni, dati analitici per provincia, \
            registrazioni APRICOT, file dei contatti, ricerche per tracciatore, pseudo-id usati; poi \
            gli indicatori del tracciamento sui casi aperti nel periodo (contatti per caso, \
            contatti stretti raggiunti entro 24 h, tempo al primo contatto raggiunto, verificati ogni \
            giorno, non ancora raggiunti, persi alla sorveglianza, contatti noti, e per tracciatore: \
            affidate, in scadenza, scadute, fatte oggi). docs/supervisor-guide.md spiega cosa conta ogni \
            dato.
            """
        ),
        (
            "cli.stats.option.range",
            """
            le ultime 1h, 24h (predefinito), 7d o 14d, compreso l'intervallo in corso; today: dalla \
            mezzanotte nel fuso locale (TZ), a ore
            """
        ),
        (
            "cli.stats.option.bucket",
            """
            5m, hour o day; predefinito 5m per 1h, hour per today e 24h, day per 7d e 14d (today a \
            giorni si conta a ore) (gli intervalli di 5 minuti coprono al massimo 24 ore)
            """
        ),
        (
            "cli.stats.option.from",
            """
            invece di --range: da TIME (UTC, 2026-11-29T10:00:00Z, 2026-11-29T10:00:00.000Z o una data \
            2026-11-29 per la sua mezzanotte), arrotondato all'inizio del suo intervallo; al massimo 31 \
            giorni
            """
        ),
        (
            "cli.stats.option.to",
            """
            con --from: fino a TIME, escluso (predefinito adesso); senza --bucket l'intervallo è 5m fino \
            a 3 ore, hour fino a 3 giorni, day oltre
            """
        ),
        (
            "cli.stats.option.json",
            """
            i dati come li restituisce la API del personale (serie come array, un valore per \
            intervallo; percentuali escluse: dividere i conteggi), e gli indicatori come membro \
            "tracing"
            """
        ),
        (
            "cli.stats.option.csv",
            """
            l'esportazione CSV del cruscotto: section,figure,key,label,bucket_start,value (gli \
            indicatori nelle sezioni tracing, unreached, tracer_load)
            """
        ),
        (
            "cli.stats.notes.roles",
            """
            Richiede il ruolo di supervisore. Non registrato (solo numeri). Gli intervalli sono UTC; il \
            testo mostra orari UTC. Le opzioni --user, --password-stdin, --store e --server funzionano \
            come per 'tracedesk staff'.
            """
        ),
        ("cli.stats.exit.0", "tutto bene (anche quando il periodo non ha dati: l'output lo dice)"),
        (
            "cli.stats.exit.1",
            "rifiutato (un periodo che l'archivio o il server non sa contare: il motivo è su stderr)"
        ),
        (
            "cli.stats.exit.2",
            """
            errore d'uso (un periodo o un intervallo sconosciuti, --range con --from, --from dopo \
            --to, un periodo troppo lungo)
            """
        ),
        ("cli.stats.exit.4", "archivio o server non disponibile"),
        ("cli.stats.exit.6", "accesso non riuscito o non supervisore"),

        ("cli.serve.summary", "Serve le API di Immuni e APRICOT ai telefoni e ai sistemi ospedalieri."),
        (
            "cli.serve.about",
            """
            Serve la API di Immuni (docs/api.md) e la API di APRICOT (docs/apricot-api.md):
              listener pubblico  telefoni: /v1/settings, /v1/ingestion/*,
                                 /v1/analytics/*, /v1/keys/index e /v1/keys/N
                                 (i lotti pubblicati); app APRICOT:
                                 /apricot/v1/settings, otp, login, contacts/DAY
              listener interno   sistemi ospedalieri e gestione: POST /v1/otp,
                                 GET /metrics, la API del personale (/staff/v1)
                                 per console e CLI
              listener HIS       con --his-listen (his_listen): solo POST /v1/otp,
                                 per ospedali su una rete propria (l'interno
                                 allora non lo serve più)
            Ascoltano su loopback salvo diversa indicazione; mettere quello pubblico dietro un proxy o \
            dare --tls-cert/--tls-key (docs/deployment.md).
            """
        ),
        (
            "cli.serve.option.listen",
            "il listener pubblico, un indirizzo IPv4 e una porta (predefinito 127.0.0.1:8080)"
        ),
        (
            "cli.serve.option.internal-listen",
            "il listener interno, un indirizzo IPv4 e una porta (predefinito 127.0.0.1:8081)"
        ),
        ("cli.serve.option.his-listen", "un listener a parte per POST /v1/otp (his_listen)"),
        ("cli.serve.option.tls-cert", "il certificato TLS (PEM) dei listener; con --tls-key"),
        ("cli.serve.option.tls-key", "la chiave privata TLS (PEM) di --tls-cert"),
        ("cli.serve.option.signing-key", "la chiave P-256 che firma i lotti di TEK (signing_key_path)"),
        (
            "cli.serve.option.log-format",
            "text (predefinito) o json: un oggetto JSON per riga (log_format)"
        ),
        ("cli.serve.option.settings", "elenca ogni impostazione con il suo valore e significato, ed esce"),
        (
            "cli.serve.notes.his",
            """
            I sistemi ospedalieri si autenticano su POST /v1/otp (his_auth): key (predefinito) con \
            "Authorization: Bearer CHIAVE" di un client creato da un amministratore con tracedesk his add; \
            certificate con un certificato client TLS verificato con his_ca_file; none fa entrare \
            chiunque (solo reti di prova chiuse; avvisato a ogni avvio). Senza credenziali valide: 401.
            """
        ),
        (
            "cli.serve.notes.store",
            """
            Archivio: un file SQLite (un server), o postgres://USER@HOST:PORT/DATABASE: un numero \
            qualsiasi di server condivide un database PostgreSQL (docs/deployment.md). Su PostgreSQL un \
            server tiene fino a store_pool_size connessioni; finché il database non è raggiungibile le \
            richieste ricevono 503 con Retry-After, e il server si riconnette da sé quando torna.
            """
        ),
        (
            "cli.serve.notes.jobs",
            """
            Attività periodiche: ogni publish_interval_seconds (1 h) le chiavi oltre l'embargo sono \
            pubblicate in lotti firmati con --signing-key (signing_key_path; crearne una con \
            tracedesk keys generate); ogni cleanup_interval_seconds (1 giorno) si cancellano i dati \
            vecchi; ogni stats_rollup_interval_seconds (5 min) si riassumono le statistiche delle ore \
            chiuse per il cruscotto del supervisore. Tutte e tre girano anche all'avvio. Senza chiave \
            di firma serve non parte, salvo signing_key_required false: allora non pubblica nulla e lo \
            dice nel log e in /metrics. Con più server su un PostgreSQL, ciascuna attività gira su uno \
            alla volta; gli altri scrivono nel log "skipped: another server holds the lock".
            """
        ),
        (
            "cli.serve.notes.checkpoints",
            """
            Punti di controllo del registro: con audit_key_path (tracedesk keys generate --audit) e \
            audit_checkpoint_path, il server aggiunge a quel file un punto di controllo firmato della \
            catena all'avvio, ogni audit_checkpoint_every_entries (1000) nuove voci e ogni ora mentre \
            si aggiungono voci, così chi scrive l'archivio non può riscrivere il registro senza che si \
            veda (tracedesk audit verify --checkpoints; docs/admin-guide.md). Senza, una nota \
            all'avvio lo dice.
            """
        ),
        (
            "cli.serve.notes.sms",
            """
            I codici SMS di APRICOT passano da sms_gateway: outbox (predefinito: tenuti per gli \
            amministratori, si leggono con tracedesk sms outbox; nulla è inviato) o http (sms_http_url, \
            sms_http_api_key). I codici sono conservati come HMAC con un segreto: accanto a un archivio \
            SQLite si crea al primo avvio (STORE.code-secret); con PostgreSQL dare a ogni server lo \
            stesso apricot_code_secret_file, altrimenti APRICOT risponde 503 e lo dice.
            """
        ),
        (
            "cli.serve.notes.setup",
            """
            Finché l'archivio non ha account del personale, serve crea all'avvio un token di \
            configurazione monouso, lo stampa su stdout ("setup token: …", mai nel log) e lo scrive in \
            setup_token_file (predefinito STORE.setup-token, modo 0600): il primo amministratore creato \
            tramite la API del personale deve fornirlo (tracedesk staff add NAME --role admin \
            sull'archivio non ne ha bisogno). Gli accessi arrivano all'hash della password secondo \
            quote per indirizzo del client e per nome (sign_in_*; oltre: 429 con Retry-After). Dopo la \
            terza password errata di un indirizzo su un account, il tentativo seguente attende \
            sign_in_first_wait_seconds (2, e mai meno), raddoppiati a ogni ulteriore errore fino a \
            5 min.
            """
        ),
        (
            "cli.serve.notes.settings",
            """
            Le impostazioni vengono dal file JSON di --config (o TRACEDESK_CONFIG), poi dalle variabili \
            d'ambiente TRACEDESK_<SETTING> (ad es. TRACEDESK_OTP_TTL_SECONDS=300), poi da queste \
            opzioni. --settings elenca ogni impostazione con il suo valore e significato.
            """
        ),
        (
            "cli.serve.notes.http",
            """
            HTTP: sui listener in chiaro l'intestazione di ogni richiesta è letta e verificata prima di \
            servirla (delimitazione rigorosa: 400 per ciò che un proxy potrebbe leggere diversamente; \
            un'intestazione deve essere completa entro head_deadline_seconds; al massimo \
            max_connections_reading_head intestazioni alla volta, comprese le connessioni mantenute \
            inattive); le intestazioni seguenti su una connessione mantenuta sono verificate durante \
            la lettura, e http_keep_alive = false chiude dopo ogni risposta (docs/deployment.md, "Slow \
            clients").
            """
        ),
        (
            "cli.serve.notes.log",
            """
            Il log va su stderr; una riga che non si può scrivere (disco pieno, lettore assente) è \
            scartata e contata in /metrics (tracedesk_log_write_failures_total). --log-format json \
            (log_format) scrive un oggetto JSON per riga per un raccoglitore di log: time, level, \
            event, message, e route, status e duration_ms per le richieste, incident per gli \
            incidenti; il testo resta il predefinito. Nessuno dei due contiene codici, token, chiavi, \
            password o numeri di telefono.
            """
        ),
        (
            "cli.serve.notes.systemd",
            """
            systemd: in un'unità Type=notify (NOTIFY_SOCKET impostata) serve invia READY=1 quando ogni \
            listener è attivo e STOPPING=1 all'arrivo di SIGINT o SIGTERM (docs/deployment.md); un \
            socket non raggiungibile è annotato nel log e il server continua.
            """
        ),
        (
            "cli.serve.notes.signals",
            "SIGINT o SIGTERM: smette di accettare, completa le richieste in corso, esce con 0."
        ),
        ("cli.serve.exit.0", "fermato regolarmente"),
        ("cli.serve.exit.2", "impostazioni errate o errore d'uso"),
        ("cli.serve.exit.4", "archivio non disponibile"),
        (
            "cli.serve.exit.5",
            "impossibile mettersi in ascolto (l'indirizzo di un listener è in uso o non consentito)"
        ),
    ]
}

extension Italian {
    /// La demo, il generatore di carico, chiavi, lotti, archivio, impostazioni, documenti e
    /// completamenti.
    static let commands3: [(String, String)] = [
        (
            "cli.demo.summary",
            """
            L'intero sistema su questa macchina: account dimostrativi (stampati), un server su \
            loopback, telefoni simulati, e la console con l'accesso dell'operatore.
            """
        ),
        (
            "cli.demo.about",
            """
            Avvia l'intero sistema su questa macchina: un archivio dimostrativo nuovo, un account del \
            personale per ruolo (nomi e password stampati), una chiave di firma, un server su \
            127.0.0.1 e telefoni simulati (tracedesk simulate) che vi si collegano, poi apre la console \
            con l'accesso dell'operatore. Uscire dalla console ferma tutto.

            Un cittadino simulato chiama l'operatore: la striscia sopra il piè di pagina della \
            schermata di autorizzazione mostra il codice e la data di inizio sintomi da leggere; \
            autorizzarlo, e il suo telefono verifica il codice e carica da 5 a 20 s dopo (la vista di \
            controllo mostra entrambi), poi arriva il chiamante seguente. Per gli altri ruoli, aprire \
            un secondo terminale:
              tracedesk --server INTERNAL-URL --user supervisor    (o tracer)
            con l'indirizzo e la password stampati.
            """
        ),
        (
            "cli.demo.option.store",
            """
            tiene la demo in questo file SQLite (non deve esistere ancora); predefinito una cartella \
            temporanea leggibile solo da te, cancellata alla fine (anche con SIGINT, SIGTERM o SIGHUP, \
            che fermano la demo: uscita 128 + il segnale)
            """
        ),
        ("cli.demo.option.immuni-rate", "cittadini Immuni reali al minuto, da 0 a 600 (predefinito 6)"),
        ("cli.demo.option.apricot-users", "telefoni APRICOT, da 0 a 2000 (predefinito 40)"),
        ("cli.demo.option.seed", "il seme della simulazione (predefinito 1)"),
        (
            "cli.demo.option.no-console",
            """
            nessuna console (e nessun chiamante simulato): gira per --duration secondi, poi stampa il \
            riepilogo della simulazione (per script e per un primo sguardo)
            """
        ),
        ("cli.demo.option.duration", "con --no-console: secondi di esecuzione, da 1 a 86400 (predefinito 60)"),
        (
            "cli.demo.notes.server",
            """
            Il listener pubblico del server (telefoni) e quello interno (sistemi ospedalieri, la API \
            del personale: tracedesk --server URL …) sono su porte effimere di loopback, stampate \
            all'avvio. Il suo log va in demo.log accanto all'archivio. Pubblica lotti ogni minuto, \
            non limita i codici APRICOT per indirizzo (ogni telefono simulato è su 127.0.0.1), tiene la \
            casella degli SMS in uscita, dove i telefoni simulati leggono i codici, e accetta le \
            attestazioni delle app Android simulate (6 record di informazioni operative al minuto). \
            Non puntarvi mai telefoni reali.
            """
        ),
        ("cli.demo.exit.129", "interrotta da SIGHUP (128 + il segnale), dopo la pulizia"),
        ("cli.demo.exit.130", "interrotta da SIGINT (Ctrl-C), dopo la pulizia"),
        ("cli.demo.exit.143", "interrotta da SIGTERM, dopo la pulizia"),

        (
            "cli.simulate.summary",
            """
            Telefoni simulati e un sistema ospedaliero simulato contro un server, per un tempo \
            limitato, su loopback salvo indicazione: un generatore di carico.
            """
        ),
        (
            "cli.simulate.about",
            """
            Fa girare telefoni simulati contro un `tracedesk serve` per --duration secondi, poi stampa \
            richieste, errori per tipo e percentili di latenza (ms) per endpoint.
            """
        ),
        (
            "cli.simulate.option.server",
            "il listener pubblico del server, dove vanno i telefoni (predefinito http://127.0.0.1:8080)"
        ),
        (
            "cli.simulate.option.internal",
            """
            il suo listener interno, dove il sistema ospedaliero simulato autorizza i codici dei \
            cittadini (POST /v1/otp) e l'amministratore legge la casella degli SMS (predefinito \
            http://127.0.0.1:8081 senza --server; con --server e senza --internal non ci sono \
            cittadini reali: solo traffico fittizio)
            """
        ),
        (
            "cli.simulate.option.his",
            """
            dove va POST /v1/otp quando il server ha un listener HIS a parte (il suo --his-listen; \
            predefinito: --internal)
            """
        ),
        (
            "cli.simulate.option.his-key-file",
            """
            la chiave API di un client HIS (tracedesk his add) per POST /v1/otp, o TRACEDESK_HIS_KEY. \
            Senza, l'ospedale simulato riceve un client suo, simulate-XXXXXX, aggiunto dall'\
            amministratore di --user (tramite --internal) o direttamente in --store, e revocato alla \
            fine
            """
        ),
        (
            "cli.simulate.option.allow-non-loopback",
            """
            consente URL il cui host non è 127.0.0.1, ::1 o localhost: la simulazione genera carico \
            reale e dati dall'aspetto reale; non puntarla mai a un server che serve telefoni reali
            """
        ),
        (
            "cli.simulate.option.immuni-rate",
            "cittadini reali al minuto, da 0 a 6000 (predefinito 6), un processo di Poisson"
        ),
        (
            "cli.simulate.option.dummy-per-real",
            """
            sessioni fittizie (check-otp, poi un caricamento il 95 % delle volte) per cittadino reale, \
            da 0 a 100 (predefinito 4)
            """
        ),
        (
            "cli.simulate.option.immuni-population",
            """
            invece, sessioni fittizie di N app installate, da 1 a 100000000, ciascuna ne avvia una ogni \
            60 giorni in media come fanno le app (1 000 000 di app: circa 12 al minuto)
            """
        ),
        (
            "cli.simulate.option.apricot-users",
            """
            telefoni da registrare, da 0 a 100000 (predefinito 20 quando c'è un modo di leggere i \
            codici, altrimenti 0)
            """
        ),
        (
            "cli.simulate.option.positive-share",
            "la quota di essi che carica, da 0 a 100 (predefinito 10; almeno uno)"
        ),
        ("cli.simulate.option.contact-days", "giorni di file che ciascuno carica, da 1 a 30 (predefinito 2)"),
        (
            "cli.simulate.option.store",
            """
            legge i codici dalla casella degli SMS dell'archivio usato dal server (stessa macchina; \
            sms_gateway del server deve essere outbox, il predefinito); deve indicare l'archivio \
            esistente del server
            """
        ),
        (
            "cli.simulate.option.user",
            """
            oppure li legge tramite la API del personale di --internal, con l'accesso di questo \
            amministratore (ogni lettura è una voce del registro: sms_outbox_read)
            """
        ),
        (
            "cli.simulate.option.duration",
            """
            secondi di esecuzione, da 1 a 86400 (predefinito 60); i telefoni APRICOT si registrano \
            dall'inizio, --max-in-flight alla volta, e si fermano alla fine: quelli che non hanno \
            ancora fatto l'accesso restano fuori (il riepilogo dice quanti l'hanno fatto), quindi per \
            migliaia di telefoni dare qualche minuto
            """
        ),
        ("cli.simulate.option.seed", "ogni estrazione casuale (telefoni, codici, chiavi, incontri), predefinito 1"),
        (
            "cli.simulate.option.max-in-flight",
            """
            sessioni contemporanee, da 1 a 1024 (predefinito 32); una sessione dovuta quando ne girano \
            già tante è saltata e contata nelle note
            """
        ),
        (
            "cli.simulate.notes.immuni",
            """
            Immuni: per ogni cittadino reale l'ospedale autorizza il codice, il telefono lo verifica, \
            poi carica 14 chiavi giornaliere; ogni richiesta di caricamento è riempita fino ai 110 000 \
            byte delle app.
            """
        ),
        (
            "cli.simulate.notes.apricot",
            """
            APRICOT: i telefoni si registrano, leggono il codice che il server ha inviato per SMS, \
            accedono; i pazienti positivi tra loro caricano i file dei contatti degli ultimi \
            --contact-days giorni, costruiti da famiglie, luoghi di lavoro e incontri casuali, poi di \
            nuovo il file di oggi ogni 2 minuti.
            """
        ),
        (
            "cli.simulate.notes.limits",
            """
            I limiti del server valgono per i telefoni simulati come per quelli reali. Tutti i telefoni \
            APRICOT chiedono i codici dall'indirizzo di questa macchina: un server rispetta \
            apricot_otp_per_address_per_hour (predefinito 60) codici l'ora per indirizzo, quindi per più \
            utenti avviarlo con apricot_otp_per_address_per_hour = 0 (`tracedesk demo` lo fa). \
            check_delay_mean_ms (150) è in ogni latenza di Immuni.
            """
        ),
        (
            "cli.simulate.notes.signals",
            """
            SIGINT (Ctrl-C), SIGTERM o SIGHUP: l'esecuzione si ferma prima, si stampa il riepilogo \
            parziale e l'amministratore esce dalla sessione.
            """
        ),
        ("cli.simulate.exit.0", "nessun errore"),
        ("cli.simulate.exit.1", "alcune richieste non sono riuscite (vedere gli errori per tipo)"),
        ("cli.simulate.exit.4", "l'archivio non esiste o non si può aprire"),
        (
            "cli.simulate.exit.6",
            "l'accesso dell'amministratore non è riuscito o l'account non è un amministratore"
        ),
        ("cli.simulate.exit.129", "fermata prima da SIGHUP (128 + il segnale)"),
        ("cli.simulate.exit.130", "fermata prima da SIGINT (Ctrl-C)"),
        ("cli.simulate.exit.143", "fermata prima da SIGTERM"),

        (
            "cli.keys.summary",
            """
            Crea la chiave P-256 che firma i lotti di TEK (o, con --audit, i punti di controllo del \
            registro), o ne stampa la chiave pubblica.
            """
        ),
        (
            "cli.keys.generate",
            """
            Scrive una nuova chiave privata P-256 (PEM PKCS#8, modo 0600) in FILE, senza sovrascriverne \
            una esistente, e ne stampa la chiave pubblica. Consegnare la chiave pubblica ad Apple e \
            Google con l'id e la versione della chiave delle proprie impostazioni (signing_key_id 222 e \
            signing_key_version v1 predefiniti); tenere FILE solo sui server.
            """
        ),
        ("cli.keys.public", "Stampa la chiave pubblica (PEM) della chiave privata in FILE."),
        ("cli.keys.option.out", "generate: il file della nuova chiave"),
        (
            "cli.keys.option.audit",
            """
            generate: la chiave del registro, che firma i punti di controllo (audit_key_path, \
            tracedesk audit checkpoint --key FILE). Tenerla lontana dalla macchina dell'archivio e da \
            chi lo scrive, se possibile; consegnare la chiave pubblica (e il suo id, stampato) a chi \
            verifica (tracedesk audit verify --public-key FILE)
            """
        ),
        ("cli.keys.option.key", "public: il file della chiave privata"),
        ("cli.keys.exit.1", "il file della chiave è rifiutato (esiste, illeggibile, non P-256)"),

        ("cli.chunks.summary", "Pubblica le chiavi in lotti GAEN firmati, li elenca, ne decodifica uno."),
        (
            "cli.chunks.publish",
            """
            Pubblica ogni chiave oltre l'embargo (scadenza + 2 h) in lotti firmati di al massimo \
            chunk_max_keys chiavi, e stampa ogni lotto (indice, chiavi, finestra). tracedesk serve fa \
            lo stesso ogni publish_interval_seconds.
            """
        ),
        (
            "cli.chunks.list",
            "I lotti ancora conservati: indice, pubblicazione, finestra, chiavi, riempimento, dimensione."
        ),
        (
            "cli.chunks.show",
            """
            Decodifica il lotto N dell'archivio (o un file zip di un lotto): finestra, regione, batch GAEN, \
            dati della firma, chiavi; verifica la firma con --public-key FILE, o con la chiave di firma \
            configurata.
            """
        ),
        ("cli.chunks.option.signing-key", "publish: la chiave di firma (signing_key_path)"),
        ("cli.chunks.option.public-key", "show: la chiave pubblica con cui verificare la firma"),
        ("cli.chunks.option.keys", "show: elenca ogni chiave"),
        (
            "cli.chunks.notes.settings",
            """
            Le impostazioni (signing_key_path, signing_key_id, signing_key_version, region, \
            chunk_max_keys, chunk_min_keys, …) vengono da --config FILE (o TRACEDESK_CONFIG) e dalle \
            variabili TRACEDESK_<SETTING>, come per tracedesk serve (tracedesk serve --settings le \
            elenca).
            """
        ),
        (
            "cli.chunks.notes.lock",
            """
            --store accetta un file SQLite o un URL postgres:// (tracedesk store --help). Su \
            PostgreSQL, publish e cleanup prendono lo stesso blocco delle attività dei server: mentre un \
            server pubblica (o fa pulizia), il comando dice "saltato: un altro server detiene il blocco" ed \
            esce con 4.
            """
        ),
        ("cli.chunks.exit.1", "rifiutato (lotto errato, la firma non si verifica, lotto inesistente)"),
        ("cli.chunks.exit.2", "errore d'uso o nelle impostazioni"),
        ("cli.chunks.exit.4", "archivio non disponibile (o il blocco dell'attività è preso altrove)"),
        (
            "cli.cleanup.summary",
            """
            Cancella ciò che le regole di conservazione non consentono più di tenere (14 giorni; dati \
            analitici e file dei contatti APRICOT 30).
            """
        ),
        (
            "cli.cleanup.about",
            """
            Cancella ciò che le regole di conservazione non consentono più di tenere (retention_days, \
            analytics_retention_days, closed_case_retention_days) e stampa cosa ha cancellato. \
            tracedesk serve fa lo stesso ogni cleanup_interval_seconds; impostazioni e blocchi come per \
            tracedesk chunks.
            """
        ),

        ("cli.migrate.summary", "Applica le migrazioni dello schema."),
        (
            "cli.migrate.about",
            """
            Applica le migrazioni dello schema in sospeso e stampa la versione dello schema. Anche \
            l'apertura di un archivio lo migra; questo lo fa apposta, ad es. prima di avviare più \
            server.
            """
        ),
        ("cli.store.summary", "Mostra l'adattatore, la versione dello schema e le dimensioni dell'archivio."),
        (
            "cli.store.info",
            """
            Mostra l'adattatore (SQLite o PostgreSQL, con la sua versione), dove si trova l'archivio, \
            la versione dello schema e la dimensione, tabella per tabella.
            """
        ),
        (
            "cli.store.notes.url",
            """
            --store accetta il percorso di un file SQLite o postgres://USER@HOST:PORT/DATABASE (anche \
            postgresql://; funzionano gli altri parametri URL di libpq, ad es. ?sslmode=require o \
            ?options=-csearch_path%3Dtracedesk per uno schema a parte). Senza: TRACEDESK_STORE, poi il \
            file predefinito della console. La password va in ~/.pgpass o PGPASSWORD, non nell'URL: \
            TraceDesk non la stampa mai, ma la cronologia della shell la terrebbe.
            """
        ),
        ("cli.store.exit.4", "archivio non disponibile"),

        (
            "cli.settings.summary",
            """
            Le impostazioni della console in vigore e da dove viene ciascuna (un'opzione, l'ambiente, \
            $XDG_CONFIG_HOME/tracedesk/console.json, il predefinito).
            """
        ),
        (
            "cli.settings.about",
            """
            Stampa le impostazioni della console in vigore (server, user, theme, language, \
            export_folder) e da dove viene ciascuna: un'opzione (--lang prima del comando per la \
            lingua), una variabile d'ambiente (TRACEDESK_USER, XDG_DOCUMENTS_DIR per la cartella delle \
            esportazioni), il file delle impostazioni della console, la localizzazione (LC_ALL, \
            LC_MESSAGES, LANG: solo per la lingua, dopo il file), o il predefinito.
            """
        ),
        (
            "cli.settings.notes.file",
            """
            Il file è $XDG_CONFIG_HOME/tracedesk/console.json (~/.config/tracedesk/console.json), un \
            oggetto JSON, ogni chiave facoltativa:
              {"server": "https://desk.example:8081", "user": "rossi",
               "theme": "high-contrast", "language": "it",
               "export_folder": "~/Documents/exports"}

            Con un server indicato, `tracedesk` apre l'accesso a quel server (--store o \
            TRACEDESK_STORE scelgono comunque un archivio). Un problema nel file è stampato con la sua \
            riga, qui e all'avvio della console, e quel valore (o, per un JSON rotto, l'intero file) è \
            ignorato.
            """
        ),
        ("cli.settings.exit.0", "tutto bene (anche quando il file ha problemi: sono stampati)"),

        ("cli.docs.summary", "Scrive le pagine di manuale, generate dalla tabella dei comandi."),
        (
            "cli.docs.man",
            """
            Scrive tracedesk(1) e una pagina per famiglia di comandi (tracedesk-serve(8), \
            tracedesk-case(1), …) in roff in DIR/man1 e DIR/man8; con --lang it, le pagine italiane in \
            DIR/it/man1 e DIR/it/man8, come le tiene /usr/share/man.
            """
        ),
        ("cli.docs.option.out", "la cartella in cui scrivere (creata se manca)"),
        ("cli.docs.option.lang", "la lingua delle pagine (predefinito: quella dell'esecuzione)"),
        ("cli.docs.exit.1", "una pagina non si è potuta scrivere (il motivo è su stderr)"),

        (
            "cli.completion.summary",
            "Stampa uno script di completamento per la shell, generato dalla tabella dei comandi."
        ),
        (
            "cli.completion.bash",
            """
            Il completamento per bash (il pacchetto Debian lo installa come \
            /usr/share/bash-completion/completions/tracedesk); per provarlo: source <(tracedesk \
            completion bash)
            """
        ),
        ("cli.completion.zsh", "Il completamento per zsh (_tracedesk in /usr/share/zsh/vendor-completions)."),
        (
            "cli.completion.fish",
            "Il completamento per fish (tracedesk.fish in /usr/share/fish/vendor_completions.d)."
        ),
    ]
}

extension Italian {
    /// I benchmark (tracedesk bench).
    static let bench: [(String, String)] = [
        (
            "cli.bench.summary",
            "Benchmark: disegno, preparazione dei test di carico, accessi, il monitor, APRICOT, la ricerca dei contatti, le statistiche, le sorveglianze, gli indicatori e il percorso di scrittura dell'archivio."
        ),
        (
            "cli.bench.render",
            "Misura disegno + differenze per fotogramma della schermata di autorizzazione (compilare con -c release)."
        ),
        (
            "cli.bench.seed",
            "Autorizza N codici casuali (validi 1 h) nell'archivio e ne scrive i token, uno per riga, per il test di carico dei caricamenti (Benchmarks/http.sh)."
        ),
        (
            "cli.bench.keys",
            "Memorizza N chiavi casuali (caricamenti di 14 chiavi giornaliere, tutte oltre l'embargo) per l'attività di pubblicazione."
        ),
        (
            "cli.bench.publish",
            "Prepara un archivio nuovo con tante chiavi, poi cronometra una pubblicazione (lotti firmati e compressi di 10 000 chiavi) rispetto alla costruzione degli stessi lotti senza archivio."
        ),
        (
            "cli.bench.staff",
            "Cronometra la KDF dell'accesso, e le autorizzazioni tramite la API del personale su loopback rispetto alle stesse chiamate nel processo."
        ),
        (
            "cli.bench.apricot",
            "Cronometra gli accessi APRICOT (1 000 pseudo-id ciascuno) e i file dei contatti di un giorno intero tramite la API dei telefoni su loopback."
        ),
        (
            "cli.bench.monitor",
            "Il tempo dal tasto allo schermo del monitor e la memoria mentre si scrivono --rate eventi al secondo, e quanto presto un long poll consegna un evento nuovo."
        ),
        ("cli.bench.events", "Scrive tanti eventi al secondo nell'archivio (carico per il monitor)."),
        (
            "cli.bench.trace",
            "Registra utenti da 1 000 pseudo-id e i file dei contatti di un paziente, poi cronometra la ricerca dei contatti in LocalDesk, una registrazione, e lo spazio per utente."
        ),
        (
            "cli.bench.stats",
            "Prepara due settimane di caricamenti, eventi, dati analitici, lotti e ricerche, poi cronometra le statistiche del supervisore: la prima chiamata (con il riepilogo) e le chiamate a caldo su 14 d, 24 h e 1 h."
        ),
        (
            "cli.bench.followup",
            "Prepara casi aperti e sorveglianze, poi cronometra la pagina seguente della coda di un tracciatore e l'apertura di un caso con tanti contatti stretti, in LocalDesk, su SQLite (e PostgreSQL)."
        ),
        (
            "cli.bench.indicators",
            "Prepara casi e le loro sorveglianze, poi cronometra gli indicatori del tracciamento su 14 giorni."
        ),
        (
            "cli.bench.write-raw",
            "Il limite dell'archivio: le transazioni di un'autorizzazione o di un caricamento di 14 chiavi eseguite direttamente con la API C di SQLite (le istruzioni dell'archivio stesso, prima confrontate con una traccia dell'archivio), su un file nuovo, ogni thread con la sua connessione (--shared: una connessione dietro un mutex), finché il tempo o il conteggio sono esauriti."
        ),
        (
            "cli.bench.option.store",
            "l'archivio da preparare o misurare (un file SQLite; dove è indicato PATH|URL, anche un URL postgres://)"
        ),
        ("cli.bench.option.postgres", "misura anche su questo database PostgreSQL"),
        (
            "cli.bench.option.postmaster-pid",
            "indicators: il processo di un server PostgreSQL locale, per leggere anche la memoria dei suoi backend"
        ),
        ("cli.bench.option.width", "la larghezza dello schermo in colonne"),
        ("cli.bench.option.height", "l'altezza dello schermo in righe"),
        ("cli.bench.option.frames", "render: fotogrammi da disegnare (predefinito 2000)"),
        ("cli.bench.option.count", "quanti codici, chiavi o transazioni"),
        ("cli.bench.option.tokens", "seed: il file in cui vanno i token"),
        ("cli.bench.option.keys", "publish: chiavi da preparare (predefinito 100000)"),
        ("cli.bench.option.hashes", "staff: hash di accesso da cronometrare (predefinito 20)"),
        ("cli.bench.option.authorizations", "staff: autorizzazioni da cronometrare (predefinito 200)"),
        ("cli.bench.option.sign-ins", "staff: accessi da cronometrare (predefinito 10)"),
        ("cli.bench.option.registrations", "apricot: registrazioni (predefinito 200)"),
        ("cli.bench.option.uploads", "quanti caricamenti preparare o cronometrare"),
        ("cli.bench.option.records", "record nel file dei contatti di un giorno (predefinito 28800)"),
        ("cli.bench.option.seconds", "per quanto tempo, in secondi"),
        ("cli.bench.option.rate", "eventi al secondo (predefinito 1000)"),
        ("cli.bench.option.polls", "monitor: long poll da cronometrare (predefinito 50)"),
        ("cli.bench.option.users", "trace: utenti registrati (predefinito 10000)"),
        ("cli.bench.option.days", "giorni di dati da preparare"),
        ("cli.bench.option.runs", "quante esecuzioni cronometrate"),
        ("cli.bench.option.events", "stats: eventi da preparare (predefinito 1000000)"),
        ("cli.bench.option.follow-ups", "sorveglianze da preparare (predefinito 100000)"),
        ("cli.bench.option.cases", "casi da preparare (predefinito 10000)"),
        ("cli.bench.option.contacts", "followup: contatti stretti del caso aperto (predefinito 1500)"),
        ("cli.bench.option.pages", "followup: pagine della coda da cronometrare (predefinito 20)"),
        ("cli.bench.option.op", "write-raw: la transazione, authorization (predefinito) o upload"),
        ("cli.bench.option.threads", "write-raw: thread di scrittura (predefinito 1)"),
        ("cli.bench.option.shared", "write-raw: una connessione dietro un mutex invece di una per thread"),
        ("cli.bench.option.check-only", "write-raw: confronta soltanto le istruzioni con una traccia dell'archivio"),
        (
            "cli.bench.option.trigger-cost",
            "followup: altrettanti casi, aperti a turno senza i trigger dei fatti degli indicatori della migrazione 12 (tolti prima, ricreati dopo), per il rapporto"
        ),
        ("cli.bench.option.json", "i risultati in JSON"),
        (
            "cli.bench.notes.release",
            "Compilare con -c release per avere numeri significativi. Il --help di ogni benchmark (tracedesk bench stats --help, …) dice di più."
        ),
    ]
}

extension Italian {
    /// I rifiuti di ciò che è stato scritto sulla riga di comando (UsageError), con la riga "vedi --help".
    static let usage: [(String, String)] = [
        ("cli.usage.unknownOption", "opzione sconosciuta '{option}' per '{command}'"),
        (
            "cli.usage.beforeCommand",
            "opzione sconosciuta '--{option}' per '{command}': --{option} va prima del comando, come in tracedesk --{option} {value} {command}"
        ),
        ("cli.usage.needsValue", "l'opzione --{option} richiede un valore"),
        ("cli.usage.needsValueOf", "l'opzione --{option} richiede un valore: {allowed}"),
        ("cli.usage.takesNoValue", "l'opzione --{option} non accetta un valore"),
        ("cli.usage.wholeNumber", "--{option} deve essere un numero intero da {low} a {high}, non '{value}'"),
        ("cli.usage.oneOf", "--{option} deve essere uno tra {allowed}, non '{value}'"),
        ("cli.usage.verbTakesNo", "'{command}' non accetta --{option}"),
        ("cli.usage.unknownValue", "valore sconosciuto per {word}: '{value}'; usare {allowed}"),
        ("cli.usage.unknownCommand", "comando sconosciuto '{command}'"),
        ("cli.usage.seeHelp", "vedere 'tracedesk {command}--help'"),
        (
            "cli.usage.otpTTL",
            "TRACEDESK_OTP_TTL_SECONDS deve essere un numero intero di secondi da 10 a 3600, non '{value}'"
        ),
        (
            "cli.usage.busyTimeout",
            "TRACEDESK_BUSY_TIMEOUT_MS deve essere un numero intero di millisecondi da 100 a 600000, non '{value}'"
        ),
        ("cli.list.or", "{rest} o {last}"),
    ]
}

extension Italian {
    static let operating: [(String, String)] = [

        ("cli.otp.sayWhat", "indicare cosa fare: check, authorize o status"),
        ("cli.otp.unknownVerb", "comando sconosciuto 'otp {verb}': usare check, authorize o status"),
        ("cli.otp.codeBoth", "indicare il codice come CODE oppure su stdin con --code-stdin, non entrambi"),
        ("cli.otp.stdinEmpty", "--code-stdin: stdin è vuoto: passare il codice sulla prima riga"),
        ("cli.otp.stdinLong", "--code-stdin: la prima riga è troppo lunga per un codice: passare soltanto il codice"),
        ("cli.otp.giveCode", "indicare il codice: tracedesk {command} CODE (o --code-stdin)"),
        ("cli.otp.oneCode", "indicare un solo codice (tra virgolette se contiene spazi)"),
        ("cli.otp.valid", "valido"),
        ("cli.otp.giveSymptoms", "indicare la data di inizio sintomi: --symptoms AAAA-MM-GG"),
        ("cli.otp.authorized", "autorizzato {tag} fino alle {time} ({seconds} s)"),
        ("cli.otp.alreadyAuthorized", "già autorizzato {tag} da {by} fino alle {time}: nulla è cambiato"),
        ("cli.otp.status.unknown", "sconosciuto: questo codice non è mai stato autorizzato qui"),
        ("cli.otp.status.authorized", "autorizzato {tag} da {by}, inizio sintomi {day}, {seconds} s rimanenti"),
        ("cli.otp.status.expired", "scaduto {tag} alle {time} senza caricamento"),
        ("cli.otp.status.consumed", "usato {tag}: l'app ha eseguito il caricamento con questo codice"),
        ("cli.person.storeAndServer", "indicare --store o --server, non entrambi: un server usa il proprio archivio"),
        (
            "cli.person.sayWho",
            "indicare chi agisce: --user NOME (o impostare TRACEDESK_USER); gli account si creano con 'tracedesk staff add'"
        ),
        ("cli.person.passwordPrompt", "password di {user}: "),
        ("cli.person.signOutFailed", "uscita non riuscita: {problem}"),
        ("cli.person.passwordStdinEmpty", "--password-stdin: stdin è vuoto: passare la password su una riga"),
        (
            "cli.person.passwordTooLong",
            "--password-stdin: la riga supera {limit} byte: una password ha al massimo {max} caratteri"
        ),
        (
            "cli.person.noTerminal",
            "nessun terminale su cui chiedere la password: eseguire il comando in un terminale, oppure usare --password-stdin e passare la password"
        ),
        ("cli.person.newPassword", "nuova password di {user}: "),
        ("cli.person.passwordAgain", "ripetere la password: "),
        ("cli.person.passwordsDiffer", "le due password sono diverse: nulla è cambiato, riprovare"),

        ("cli.person.retypePassword", "password (riscriverla dall'inizio): "),

        (
            "cli.console.noPasswordStdin",
            "la console chiede la password nella sua schermata di accesso: --password-stdin è per i comandi otp"
        ),
        (
            "cli.console.needsTerminal",
            "la console richiede un terminale: eseguirla in un terminale, o usare 'tracedesk otp …' negli script"
        ),
        ("cli.console.stopped", "la console ha chiuso la sessione e si è fermata"),
        ("cli.console.badCopy", "TRACEDESK_COPY deve essere on o off, non '{value}'"),
        (
            "cli.console.badRefresh",
            "--refresh deve essere un numero intero di secondi da 1 a {high}, o 0 per nessun aggiornamento automatico, non '{value}'"
        ),
        (
            "cli.console.badIdleLock",
            "TRACEDESK_IDLE_LOCK_SECONDS deve essere un numero intero di secondi da 2 a 86400, non '{value}'"
        ),
        ("cli.docs.sayWhat", "indicare cosa scrivere: man"),
        ("cli.docs.unknownVerb", "comando sconosciuto 'docs {verb}': usare man"),
        ("cli.docs.giveOut", "indicare la cartella in cui scrivere: --out DIR"),
        ("cli.docs.cannotWrite", "impossibile scrivere {file}: {problem}"),
        ("cli.completion.sayWhich", "indicare quale shell: bash, zsh o fish"),
        ("cli.completion.unknownShell", "shell sconosciuta '{value}': usare bash, zsh o fish"),
    ]
}

extension Italian {
    static let tracing: [(String, String)] = [

        ("cli.common.csvOrJson", "indicare --csv o --json, non entrambi"),
        ("cli.trace.phoneBoth", "indicare il numero come PHONE oppure su stdin con --phone-stdin, non entrambi"),
        (
            "cli.trace.givePhone",
            "indicare il numero di telefono del paziente: tracedesk trace PHONE --purpose TESTO (o --phone-stdin)"
        ),
        ("cli.trace.onePhone", "indicare un solo numero di telefono (tra virgolette se contiene spazi)"),
        (
            "cli.trace.givePurpose",
            "indicare il motivo o il riferimento del caso: --purpose \"caso 2026-1234\" (ogni ricerca è registrata con esso nel registro delle attività)"
        ),
        ("cli.trace.stdinEmpty", "--phone-stdin: stdin è vuoto: passare il numero del paziente sulla prima riga"),
        (
            "cli.trace.stdinLong",
            "--phone-stdin: la prima riga è troppo lunga per un numero di telefono: passare soltanto il numero"
        ),
        ("cli.trace.patient", "Paziente {phone} · utente {user} · registrato dal {since}"),
        ("cli.trace.purpose", "Motivo: {purpose}"),
        (
            "cli.trace.noUploads",
            "Caricamenti: ancora nessuno. Chiedere al paziente di condividere i contatti nell'app, poi ripetere la ricerca."
        ),
        ("cli.trace.closeMark", " (* = almeno {minutes} min in un giorno)"),
        ("cli.trace.noContacts", "Nessun altro telefono registrato è stato rilevato nei file caricati."),
        ("cli.trace.column.phone", "TELEFONO"),
        ("cli.trace.column.minutes", "MINUTI"),
        ("cli.trace.column.mostPerDay", "MAX/GIORNO"),
        ("cli.trace.column.days", "GIORNI"),
        ("cli.trace.column.sightings", "RILEVAMENTI"),
        ("cli.trace.column.firstSeen", "PRIMA VOLTA"),
        ("cli.trace.column.lastSeen", "ULTIMA VOLTA"),
        ("cli.trace.column.outcome", "ESITO"),
        ("cli.trace.noTime", "senza ora"),
        ("cli.trace.noTimeColumn", "senza ora          "),
        ("cli.trace.sightingsHeading", "Rilevamenti ({count}, dal più vecchio):"),
        ("cli.trace.unresolved", "non risolto"),
        ("cli.trace.sighting", "{when}  file {day}  {beacon}  {who}"),
        ("cli.trace.uploads.none", "Caricamenti: ancora nessuno"),
        ("cli.trace.uploads.days.one", "Caricamenti: {count} giorno"),
        ("cli.trace.uploads.days.other", "Caricamenti: {count} giorni"),
        ("cli.trace.uploads.covered.one", "{count} giorno coperto"),
        ("cli.trace.uploads.covered.other", "{count} giorni coperti"),
        ("cli.trace.uploads.skew", "scarto dell'orologio {skew}"),
        ("cli.trace.counts.sightings.one", "{count} rilevamento"),
        ("cli.trace.counts.sightings.other", "{count} rilevamenti"),
        ("cli.trace.counts.unresolved.one", "{count} non risolto"),
        ("cli.trace.counts.unresolved.other", "{count} non risolti"),
        ("cli.trace.counts.contacts.one", "{count} contatto"),
        ("cli.trace.counts.contacts.other", "{count} contatti"),
        ("cli.trace.counts.close.one", "{count} stretto"),
        ("cli.trace.counts.close.other", "{count} stretti"),
        ("cli.case.sayWhat", "indicare cosa fare: open, list, show, close o add"),
        ("cli.case.unknownVerb", "comando sconosciuto 'case {verb}': usare open, list, show, close o add"),
        ("cli.case.givePhone", "indicare il numero di telefono del paziente: {usage} (o --phone-stdin)"),
        (
            "cli.case.giveReference",
            "indicare il riferimento del caso: --reference \"ASL-2026-0412\" (ogni consultazione del caso è registrata con esso nel registro delle attività)"
        ),
        (
            "cli.case.onsetOrTestDay",
            "indicare --onset (data di inizio sintomi) o --test-day (senza sintomi), non entrambi"
        ),
        (
            "cli.case.open.existing",
            "il paziente ha già un caso aperto: caso {id} ({reference}), aperto da {by} il {at}; nulla è cambiato (il riferimento indicato non è stato usato)"
        ),
        ("cli.case.open.opened", "aperto il caso {id} ({reference}) per {phone}, giorno indice {index}"),
        ("cli.case.open.followUps.one", "sorveglianze: {count} nuova"),
        ("cli.case.open.followUps.other", "sorveglianze: {count} nuove"),
        ("cli.case.open.joined.one", "{count} già in sorveglianza per un altro caso aperto (unita)"),
        ("cli.case.open.joined.other", "{count} già in sorveglianza per un altro caso aperto (unite)"),
        ("cli.case.open.assignedToYou", ", assegnate a te"),
        ("cli.case.open.cameFrom", "il paziente era un contatto di {link}: i due casi sono collegati"),
        ("cli.case.open.seeIt", "per vederlo: tracedesk case show {id}; le chiamate da fare: tracedesk queue"),
        ("cli.case.closedOrAll", "indicare --closed o --all, non entrambi (senza nessuno dei due: i casi aperti)"),
        ("cli.common.onlyOptions", "argomento inatteso '{argument}': {verb} accetta solo opzioni"),
        ("cli.common.needsTracer", "--{option} richiede il nome di un tracciatore"),
        ("cli.case.close.giveReason", "indicare il motivo della chiusura del caso: --reason {reasons}"),
        (
            "cli.case.close.closed",
            "chiuso il caso {id} ({reference}): {reason}; le sue sorveglianze che non riguardano altri casi aperti sono terminate"
        ),
        ("cli.case.add.giveIDAndPhone", "indicare il numero del caso e il telefono della persona: {usage}"),
        ("cli.case.add.givePhone", "indicare il numero di telefono della persona dopo il numero del caso: {usage}"),
        (
            "cli.case.add.giveReason",
            "indicare perché la persona è aggiunta: --reason \"convivente, nessun telefono rilevato\""
        ),
        ("cli.case.add.reasonExample", "convivente, nessun telefono rilevato"),
        (
            "cli.case.add.addedByHand",
            "il caso {id} segue {phone} con la sorveglianza {followUp}, aggiunta a mano: {state}, assegnata a {assignee}"
        ),
        (
            "cli.case.add.alreadyContact",
            "il caso {id} segue {phone} con la sorveglianza {followUp}, già contatto del caso: {state}, assegnata a {assignee}"
        ),
        ("cli.followup.nobodyYet", "ancora nessuno"),
        (
            "cli.queue.oneScope",
            "indicare uno tra --mine, --tracer NOME, --unassigned o --everyone: di chi mostrare la coda"
        ),
        (
            "cli.queue.badCursor",
            "--after '{value}' non è un cursore della coda: indicare quello stampato dalla pagina precedente (es. 1764662400000-42)"
        ),
        (
            "cli.queue.moreRowsCSV",
            "altre righe: la pagina successiva è tracedesk queue --after {cursor} --csv (stesse opzioni)"
        ),
        ("cli.input.what.case", "caso"),
        ("cli.input.what.follow-up", "sorveglianza"),
        ("cli.input.notAnID", "'{value}' non è un numero di {what}: indicare il numero che mostra {hint}, es. 12"),
        ("cli.input.giveID", "indicare il numero di {what}: {usage} ({hint} li mostra)"),
        ("cli.input.oneID", "indicare un solo numero di {what}, ricevuto anche '{value}': {usage}"),
        ("cli.input.giveYesNo", "indicare --{option} yes o --{option} no: {usage}"),
        ("cli.input.yesOrNo", "--{option} accetta yes o no, non '{value}'"),
        ("cli.input.emptyText", "--{option} è vuoto: indicare il motivo, es. --{option} \"{example}\""),
        ("cli.input.givePhone", "indicare il numero di telefono: {usage} (o --phone-stdin)"),
        ("cli.input.onePhone", "indicare un solo numero di telefono (tra virgolette se contiene spazi): {usage}"),
        ("cli.input.phoneStdinEmpty", "--phone-stdin: stdin è vuoto: passare il numero sulla prima riga"),
        ("cli.input.notADay", "--{option} '{value}' non è una data: scriverla AAAA-MM-GG, es. {example}"),
        ("cli.input.dayInFuture", "--{option} {day} è dopo oggi ({today}, UTC): indicare il giorno in cui è avvenuto"),
        ("cli.input.dayTooOld", "--{option} {day} è di più di {days} giorni fa: verificare la data con il paziente"),
        ("cli.followup.status.open", "aperto"),
        ("cli.followup.status.closed", "chiuso ({reason})"),
        ("cli.followup.link", "caso {case} ({reference}) tramite la sorveglianza {followUp}"),
        ("cli.followup.reason.byHand", "aggiunto a mano: {reason}"),
        ("cli.followup.days.one", "{count} giorno"),
        ("cli.followup.days.other", "{count} giorni"),
        (
            "cli.followup.reason.exposure",
            "{minutes} min in {days} (al massimo {most} in un giorno), ultima esposizione {last}"
        ),
        ("cli.followup.reason.close", ", contatto stretto"),
        ("cli.followup.short.byHand", "a mano, ultima {last}"),
        ("cli.followup.short.exposure", "{minutes} min, {days} g, ultima {last}"),
        ("cli.followup.ended", "terminata"),
        ("cli.followup.urgency.overdue", "in ritardo"),
        ("cli.followup.urgency.due", "da fare ora"),
        ("cli.followup.urgency.later_today", "più tardi oggi"),
        ("cli.followup.urgency.later", "più avanti"),
        ("cli.followup.next.ended", "la sorveglianza è terminata: {state}"),
        ("cli.followup.next.check.now", "prossimo controllo giornaliero da fare ora"),
        ("cli.followup.next.check.at", "prossimo controllo giornaliero previsto {time}"),
        ("cli.followup.next.call.now", "prossima chiamata da fare ora"),
        ("cli.followup.next.call.at", "prossima chiamata prevista {time}"),
        ("cli.case.list.noOpen", "Nessun caso aperto. Per aprirne uno: tracedesk case open PHONE --reference TESTO"),
        ("cli.case.list.noClosed", "Nessun caso chiuso."),
        ("cli.case.list.none", "Ancora nessun caso. Per aprirne uno: tracedesk case open PHONE --reference TESTO"),
        ("cli.case.column.id", "ID"),
        ("cli.case.column.reference", "RIFERIMENTO"),
        ("cli.case.column.patient", "PAZIENTE"),
        ("cli.case.column.indexDay", "GIORNO INDICE"),
        ("cli.case.column.openedBy", "APERTO DA"),
        ("cli.case.column.opened", "APERTO"),
        ("cli.case.column.contacts", "CONTATTI"),
        ("cli.case.column.status", "STATO"),
        ("cli.case.show.title", "Caso {id} · {reference} · {status}"),
        ("cli.case.show.patient", "Paziente {phone} · utente {user} · giorno indice {index}"),
        ("cli.case.show.opened", "Aperto da {by} il {at}"),
        ("cli.case.show.closed", " · chiuso da {by} il {at}: {reason}"),
        ("cli.case.show.contacts.one", "{count} contatto"),
        ("cli.case.show.contacts.other", "{count} contatti"),
        ("cli.case.show.cameFrom", "Proviene da {link}: il paziente era un contatto di quel caso"),
        ("cli.case.show.ledTo", "Ha portato a {link}: quel contatto è diventato un caso"),
        (
            "cli.case.show.noFollowUps",
            "Sorveglianze: nessuna (nessun contatto stretto nei file del paziente; aggiungerne una con tracedesk case add)"
        ),
        ("cli.case.show.followUps", "Sorveglianze ({count}, prima le attive):"),
        ("cli.case.show.history", "Storico (dal più vecchio):"),
        ("cli.case.show.nothingYet", "(ancora niente)"),
        ("cli.followup.column.id", "ID"),
        ("cli.followup.column.due", "SCADENZA"),
        ("cli.followup.column.phone", "TELEFONO"),
        ("cli.followup.column.case", "CASO"),
        ("cli.followup.column.state", "STATO"),
        ("cli.followup.column.attempts", "TENTATIVI"),
        ("cli.followup.column.lastOutcome", "ULTIMO ESITO"),
        ("cli.followup.column.assigned", "ASSEGNATA A"),
        ("cli.followup.column.why", "MOTIVO"),
        ("cli.followup.nobody", "nessuno"),
        ("cli.followup.notYet", "non ancora"),
        (
            "cli.followup.symptomsMark",
            "(! = sintomi segnalati a un controllo giornaliero: avvisare il supervisore e il tracciatore del caso)"
        ),
        ("cli.followup.show.title", "Sorveglianza {id} · {phone} · utente {user} · {state} · assegnata a {assignee}"),
        ("cli.followup.show.due", "Scadenza {due}"),
        ("cli.followup.show.ended", "Terminata {at}"),
        ("cli.followup.show.period", " · ultima esposizione {last} · il periodo termina il {ends}"),
        ("cli.followup.show.attempts", "Tentativi {count}"),
        ("cli.followup.show.lastAttempt", " (ultimo: {outcome} il {at})"),
        ("cli.followup.show.reached", " · raggiunto {at}"),
        ("cli.followup.show.checkedDays.one", "controllato in {count} giorno"),
        ("cli.followup.show.checkedDays.other", "controllato in {count} giorni"),
        (
            "cli.followup.show.symptoms",
            "! Sintomi segnalati a un controllo giornaliero: avvisare il supervisore e il tracciatore del caso"
        ),
        ("cli.followup.show.becameCase", "La persona è diventata il caso {case}."),
        ("cli.followup.show.cases", "Casi:"),
        ("cli.followup.show.case", "caso {case} {reference}: {why}"),
        ("cli.followup.show.attemptsHeading", "Tentativi (dal più vecchio):"),
        (
            "cli.followup.show.noAttempts",
            "ancora nessuno: tracedesk followup attempt {id} --outcome reached|no-answer|…"
        ),
        ("cli.followup.show.checksHeading", "Controlli giornalieri:"),
        ("cli.followup.show.check", "sintomi {symptoms}, in isolamento {isolating}"),
        ("cli.followup.show.noneYet", "ancora nessuno"),
        ("cli.queue.of", "Coda di {name}"),
        ("cli.queue.unassigned", "Sorveglianze non assegnate"),
        ("cli.queue.everyone", "Coda di tutti"),
        ("cli.queue.counts", "{overdue} in ritardo · {due} da fare ora · {laterToday} più tardi oggi"),
        ("cli.queue.later", " · {count} più avanti"),
        ("cli.queue.laterHint", " ({count} nei prossimi giorni: --later)"),
        ("cli.queue.empty", "Nessuno da chiamare: la coda è vuota."),
        ("cli.queue.nothingToday", "Niente da fare oggi."),
        ("cli.queue.nothingTodayHint", "Niente da fare oggi: --later mostra i prossimi giorni."),
        ("cli.queue.more", "Altre: tracedesk queue --after {cursor} (con le stesse opzioni)"),
        ("cli.followup.sayWhat", "indicare cosa fare: show, attempt, check o assign"),
        ("cli.followup.giveOutcome", "indicare l'esito della chiamata: --outcome {outcomes}"),
        ("cli.followup.unknownOutcome", "esito sconosciuto '{value}': usare {outcomes}"),
        ("cli.followup.attempt.recorded", "registrato l'esito {outcome} per la sorveglianza {id}: {next}"),
        (
            "cli.followup.check.recorded",
            "registrato il controllo giornaliero della sorveglianza {id}: sintomi {symptoms}, in isolamento {isolating}; {next}"
        ),
        ("cli.followup.check.flagged", "sintomi: segnalati al supervisore e al tracciatore del caso; avvisarli subito"),
        ("cli.followup.assign.giveIDs", "indicare i numeri delle sorveglianze: {usage} ({hint} li mostra)"),
        ("cli.followup.assign.tooMany", "al massimo {limit} sorveglianze per volta: assegnarle in più parti"),
        ("cli.followup.assign.toWhom", "indicare a chi: --to TRACCIATORE (il nome dell'account di un tracciatore)"),
        ("cli.followup.assign.done.one", "assegnata {count} sorveglianza a {tracer}: {ids}"),
        ("cli.followup.assign.done.other", "assegnate {count} sorveglianze a {tracer}: {ids}"),
        ("cli.followup.unknownVerb", "comando sconosciuto 'followup {verb}': usare show, attempt, check o assign"),
    ]
}

extension Italian {
    static let supervision: [(String, String)] = [

        ("cli.staff.sayWhat", "indicare cosa fare: add, list, disable, reset-password o recover"),
        ("cli.staff.listNoNames", "list non accetta nomi"),
        ("cli.staff.disabled", "disattivato {name} ({role}); le sue sessioni sono terminate"),
        (
            "cli.staff.passwordSet",
            "nuova password impostata per {name}; l'account è sbloccato e le sue sessioni sono terminate"
        ),
        (
            "cli.staff.unknownVerb",
            "comando sconosciuto 'staff {verb}': usare add, list, disable, reset-password o recover"
        ),
        ("cli.audit.sayWhat", "indicare cosa fare: verify, checkpoint o list"),
        ("cli.common.unexpected", "argomento inatteso '{argument}'"),
        (
            "cli.audit.checkpointsAndKey",
            "indicare --checkpoints FILE e --public-key FILE insieme: i punti di controllo si verificano con la chiave pubblica della chiave del registro delle attività"
        ),
        ("cli.audit.broken", "INTERROTTO alla voce {id}: {reason}"),
        ("cli.audit.before", "le voci precedenti sono verificate ({entries}, fino all'id {head})"),
        ("cli.audit.intact.one", "integro: {entries} voce, testa {hash} (voce {head})"),
        ("cli.audit.intact.other", "integro: {entries} voci, testa {hash} (voce {head})"),
        ("cli.audit.badDay", "--day accetta una data AAAA-MM-GG, es. 2026-11-29"),
        ("cli.audit.badLimit", "--limit accetta un numero intero da 1 a 1000"),
        ("cli.audit.noEntries", "nessuna voce corrisponde"),
        ("cli.audit.unknownVerb", "comando sconosciuto 'audit {verb}': usare verify, checkpoint o list"),
        ("cli.staff.giveRole", "indicare il ruolo: --role {roles}"),
        ("cli.staff.unknownRole", "ruolo sconosciuto '{value}': usare {roles}"),
        (
            "cli.staff.firstMustBeAdmin",
            "l'archivio non ha ancora account: il primo deve essere un amministratore (tracedesk staff add NOME --role admin)"
        ),
        (
            "cli.staff.needsSetupToken",
            "il server non ha ancora account: il suo primo amministratore richiede il token di configurazione stampato da tracedesk serve all'avvio (anche nel file setup-token accanto al suo archivio): impostarlo in TRACEDESK_SETUP_TOKEN"
        ),
        ("cli.staff.addedFirst", "aggiunto {name} ({role}), il primo account"),
        ("cli.staff.added", "aggiunto {name} ({role})"),
        (
            "cli.staff.recoverOnStore",
            "recover agisce sull'archivio stesso (--store), non tramite un server: eseguirlo dove si trova l'archivio"
        ),
        ("cli.staff.notAName", "non è un nome utente"),
        (
            "cli.staff.disabledForGood",
            "{name} è disattivato definitivamente: recuperare invece un nome nuovo (viene aggiunto come amministratore)"
        ),
        (
            "cli.staff.recoveredPassword",
            "nuova password impostata per {name}; l'account è sbloccato e le sue sessioni sono terminate (registrato come {actor})"
        ),
        ("cli.staff.recoveredAdded", "aggiunto {name} ({role}) (registrato come {actor})"),
        ("cli.staff.nameTaken", "il nome {name} è stato preso nel frattempo: riprovare"),
        ("cli.staff.giveName", "indicare il nome dell'account: tracedesk {command} NOME"),
        ("cli.staff.oneName", "indicare un solo nome"),
        (
            "cli.staff.noAccounts",
            "nessun account: aggiungere il primo amministratore con 'tracedesk staff add NOME --role admin'"
        ),
        ("cli.staff.column.name", "NOME"),
        ("cli.staff.column.role", "RUOLO"),
        ("cli.staff.column.state", "STATO"),
        ("cli.staff.column.failed", "FALLITI"),
        ("cli.staff.column.lastSignIn", "ULTIMO ACCESSO"),
        ("cli.staff.column.createdBy", "CREATO DA"),
        ("cli.staff.never", "mai"),
        (
            "cli.audit.giveKey",
            "indicare la chiave del registro delle attività: --key FILE (crearne una con tracedesk keys generate --audit --out FILE)"
        ),
        ("cli.audit.giveOut", "indicare il file dei punti di controllo a cui aggiungere: --out FILE"),
        (
            "cli.audit.notVerified",
            "nulla aggiunto: {file} non è verificato rispetto all'archivio (tracedesk audit verify --checkpoints {file} dice di più)"
        ),
        ("cli.audit.nothingAppended", "nulla aggiunto: {problem}"),
        (
            "cli.audit.appended.one",
            "punto di controllo: {entries} voce, testa {hash}, firmato con la chiave del registro {key}, aggiunto a {file}"
        ),
        (
            "cli.audit.appended.other",
            "punto di controllo: {entries} voci, testa {hash}, firmato con la chiave del registro {key}, aggiunto a {file}"
        ),
        ("cli.audit.summary.matched.one", "punti di controllo: {matched} di {count} riga corrispondono"),
        ("cli.audit.summary.matched.other", "punti di controllo: {matched} di {count} righe corrispondono"),
        ("cli.audit.summary.noneAnchored", "; nessuna voce è ancorata"),
        ("cli.audit.summary.anchored", "; le voci 1…{last} sono ancorate"),
        (
            "cli.audit.summary.breaks",
            "; la catena si interrompe alla voce {id}: i punti di controllo successivi non sono stati confrontati"
        ),
        (
            "cli.audit.summary.uncovered",
            "; le voci {first}…{last} sono dopo l'ultimo punto di controllo corrispondente e non sono coperte"
        ),
        (
            "cli.audit.noHashes",
            "il server non ha fornito gli hash della catena ai conteggi dei punti di controllo (un TraceDesk più vecchio di questo?): aggiornare il server, o eseguire il comando sull'archivio con --store"
        ),
        (
            "cli.audit.cannotReadKey",
            "impossibile leggere il file della chiave pubblica {file}: verificare il percorso e i permessi"
        ),
        (
            "cli.audit.privateKey",
            "{file} contiene una chiave privata: indicare la sua chiave pubblica (tracedesk keys public --key {file} > audit-public.pem) e tenere la chiave privata dove si creano i punti di controllo"
        ),
        ("cli.audit.badPublicKey", "{file} non è una chiave pubblica P-256 utilizzabile: {problem}"),
        (
            "cli.audit.noCheckpoints",
            "{file} non contiene punti di controllo: scriverli con tracedesk audit checkpoint, o con audit_checkpoint_path del server"
        ),
        ("cli.audit.chainIntact.one", "catena integra: {entries} voce, testa {hash} (voce {head})"),
        ("cli.audit.chainIntact.other", "catena integra: {entries} voci, testa {hash} (voce {head})"),
        ("cli.audit.checkpointProblem", "PUNTI DI CONTROLLO: {problem}"),
        ("cli.his.sayWhat", "indicare cosa fare: add, list o revoke"),
        ("cli.his.badRate", "--rate accetta un numero intero da {low} a {high} (autorizzazioni al minuto)"),
        ("cli.his.added", "aggiunto il client HIS {name} (attore {actor}, {rate})"),
        ("cli.his.keyOnce", "chiave API, mostrata solo ora: consegnarla al sistema HIS (Authorization: Bearer CHIAVE)"),
        (
            "cli.his.revoked",
            "revocato il client HIS {name}: la sua chiave e il suo certificato sono rifiutati da ora in poi"
        ),
        ("cli.his.unknownVerb", "comando sconosciuto 'his {verb}': usare add, list o revoke"),
        ("cli.his.giveName", "indicare il nome del client: tracedesk {command} NOME"),
        ("cli.his.rate.one", "{count} autorizzazione al minuto"),
        ("cli.his.rate.other", "{count} autorizzazioni al minuto"),
        ("cli.his.serverRate", "il limite del server"),
        ("cli.his.none", "nessun client HIS: aggiungerne uno con 'tracedesk his add NOME --user AMMINISTRATORE'"),
        ("cli.his.column.name", "NOME"),
        ("cli.his.column.state", "STATO"),
        ("cli.his.column.rate", "LIMITE/MIN"),
        ("cli.his.column.created", "CREATO"),
        ("cli.his.column.createdBy", "CREATO DA"),
        ("cli.his.column.revoked", "REVOCATO"),
        ("cli.his.defaultRate", "predefinito"),
        ("cli.sms.sayWhat", "indicare cosa fare: outbox"),
        ("cli.sms.unknownVerb", "comando sconosciuto 'sms {verb}': usare outbox"),
        ("cli.sms.empty", "la posta in uscita è vuota: non è stato ancora chiesto nessun codice SMS"),
        ("cli.settings.noArguments", "settings non accetta argomenti, ricevuto '{argument}'"),
        ("cli.settings.title", "Impostazioni della console (file {file}):"),
        ("cli.settings.titleNotFound", "Impostazioni della console (file {file}, non trovato):"),
        ("cli.settings.serverNotUsed", " (non usato: è indicato un archivio, {by})"),
        ("cli.settings.languageNote", " (il log del server resta in inglese)"),
        ("cli.settings.noServer", " (nessuno: la console apre l'archivio, {store})"),
        ("cli.settings.defaultStore", "quello predefinito"),
        ("cli.settings.from", "da {source}"),
        ("cli.settings.fromDefault", "predefinito"),
        ("cli.settings.fileLine", "{file} riga {line}"),
        ("cli.settings.problems", "Problemi nel file (quei valori sono ignorati):"),

        ("cli.settings.file.unreadable", "{file} non può essere letto: è ignorato"),
        ("cli.settings.file.syntax", "{file} riga {line}: {reason}; il file è ignorato"),
        ("cli.settings.file.notObject", "{file} riga 1: il file deve contenere un solo oggetto JSON; è ignorato"),
        (
            "cli.settings.file.unknownKey",
            "{file} riga {line}: impostazione sconosciuta \"{key}\" (note: {known}); è ignorata"
        ),
        (
            "cli.settings.file.notString",
            "{file} riga {line}: {key} deve essere una stringa, trovato {kind}; è ignorato"
        ),
        ("cli.settings.file.badValue", "{file} riga {line}: {key} {problem}; è ignorato"),
        ("cli.settings.value.oneOf", "deve essere uno tra {allowed}, non '{value}'"),
        ("cli.settings.value.url", "deve essere un URL http(s) come https://desk.example:8081"),
        ("cli.settings.value.empty", "è vuoto"),
    ]
}

extension Italian {
    static let statistics: [(String, String)] = [

        ("cli.stats.indicatorsLeftOut", "gli indicatori del tracciamento sono omessi: {reason}"),
        ("cli.stats.rangeLabel.today", "oggi"),
        ("cli.stats.rangeLabel.1h", "ultima ora"),
        ("cli.stats.rangeLabel.24h", "ultime 24 ore"),
        ("cli.stats.rangeLabel.7d", "ultimi 7 giorni"),
        ("cli.stats.rangeLabel.14d", "ultimi 14 giorni"),
        ("cli.stats.unknownBucket", "intervallo sconosciuto '{value}': usare 5m, hour o day"),
        (
            "cli.stats.rangeOrFromTo",
            "indicare --range o --from/--to, non entrambi: --range conta all'indietro da adesso"
        ),
        ("cli.stats.toNeedsFrom", "--to richiede --from: indicare dove inizia il periodo"),
        ("cli.stats.badFrom", "--from '{value}' non è un'ora UTC: scrivere 2026-11-29T10:00:00Z o 2026-11-29"),
        ("cli.stats.badTo", "--to '{value}' non è un'ora UTC: scrivere 2026-11-30T10:00:00Z o 2026-11-30"),
        ("cli.stats.emptyRange", "--from deve precedere --to (o adesso, senza --to): il periodo è vuoto"),
        ("cli.stats.heading", "Statistiche"),
        ("cli.stats.headingTitled", "Statistiche, {title}"),
        ("cli.stats.range", "{heading}: dal {from} al {to} UTC, {buckets}"),
        ("cli.stats.bucket.5m.one", "{count} intervallo di 5 minuti"),
        ("cli.stats.bucket.5m.other", "{count} intervalli di 5 minuti"),
        ("cli.stats.bucket.hour.one", "{count} intervallo orario"),
        ("cli.stats.bucket.hour.other", "{count} intervalli orari"),
        ("cli.stats.bucket.day.one", "{count} intervallo giornaliero"),
        ("cli.stats.bucket.day.other", "{count} intervalli giornalieri"),
        ("cli.stats.readAt", "Letto alle {time} UTC"),
        ("cli.stats.noData", "Nessun dato in questo periodo."),
        ("cli.stats.pseudoIDs", "Pseudo-id: {summary}"),
        ("cli.stats.tile.authorised", "Codici autorizzati"),
        ("cli.stats.tile.uploads", "Caricamenti"),
        ("cli.stats.tile.uploadsRefused", "Caricamenti rifiutati"),
        ("cli.stats.tile.chunks", "Lotti pubblicati"),
        ("cli.stats.tile.requests", "Richieste dei telefoni"),
        ("cli.stats.tile.analytics", "Rapporti dei dati analitici"),
        ("cli.stats.tile.registrations", "Registrazioni APRICOT"),
        ("cli.stats.tile.contactFiles", "File contatti APRICOT"),
        ("cli.stats.tile.lookups", "Ricerche dei contatti"),
        ("cli.stats.rest.authorised", "verificati {checked}{checkedShare}, caricati {uploaded}{uploadedShare}"),
        ("cli.stats.rest.uploads", "chiavi accettate {accepted}, scartate {dropped}"),
        ("cli.stats.rest.perUpload", ", {mean} chiavi per caricamento"),
        ("cli.stats.rest.chunks", "chiavi {keys}, riempimento {padding}"),
        ("cli.stats.rest.perChunk", ", {mean} chiavi per lotto"),
        ("cli.stats.rest.requests", "reali {real}, fittizie {dummy}{share}"),
        ("cli.stats.share.dummy", " fittizie"),
        ("cli.stats.rest.registrations", "accessi ripetuti {count}"),
        ("cli.stats.share.ofAuthorised", " degli autorizzati"),
        ("cli.stats.funnel", "Imbuto (codici autorizzati nel periodo, per ora di autorizzazione):"),
        ("cli.stats.funnel.authorised", "  autorizzati {count}"),
        ("cli.stats.funnel.checked", "  verificati  {count}{share}"),
        ("cli.stats.funnel.uploaded", "  caricati    {count}{share}"),
        ("cli.stats.funnel.median", "  tempo mediano fino al caricamento: {duration}"),
        ("cli.stats.funnel.noUpload", "nessuno (nessun codice è stato caricato)"),
        ("cli.stats.droppedByReason", "Chiavi scartate per motivo: {reasons}"),
        ("cli.stats.keysPerUpload", "Chiavi per caricamento:"),
        ("cli.stats.more", "e altri {count}"),
        ("cli.stats.operators", "Operatori principali (codici autorizzati, verificati, caricati):"),
        (
            "cli.stats.provinces",
            "Province (rapporti dei dati analitici; Bluetooth attivo, notifiche consentite, notifiche di esposizione):"
        ),
        ("cli.stats.notAProvince", "(non è una provincia)"),
        ("cli.stats.tracers", "Ricerche APRICOT per tracciatore:"),
        ("cli.stats.column.operator", "OPERATORE"),
        ("cli.stats.column.authorised", "AUTORIZZATI"),
        ("cli.stats.column.checked", "VERIFICATI"),
        ("cli.stats.column.uploaded", "CARICATI"),
        ("cli.stats.column.code", "CODICE"),
        ("cli.stats.column.province", "PROVINCIA"),
        ("cli.stats.column.reports", "RAPPORTI"),
        ("cli.stats.column.bluetooth", "BLUETOOTH"),
        ("cli.stats.column.notifications", "NOTIFICHE"),
        ("cli.stats.column.exposures", "ESPOSIZIONI"),
        ("cli.stats.column.tracer", "TRACCIATORE"),
        ("cli.stats.column.lookups", "RICERCHE"),
        ("cli.common.noArguments", "{command} non accetta argomenti, ricevuto '{argument}'"),
        ("cli.keys.needsOut", "keys generate richiede --out FILE"),
        ("cli.keys.needsKey", "keys public richiede --key FILE"),
        ("cli.keys.unknownVerb", "comando keys sconosciuto '{verb}': usare generate o public"),
        ("cli.keys.sayWhat", "keys richiede un comando: generate o public"),
        ("cli.keys.exists", "esiste già (una chiave di firma non viene mai sovrascritta)"),
        ("cli.keys.cannotCreate", "impossibile creare {file}: {reason}"),
        ("cli.keys.incomplete", "impossibile scrivere {file} per intero; non è stato conservato nulla"),
        (
            "cli.keys.wroteAudit",
            "scritta una nuova chiave P-256 del registro delle attività in {file} (modo 0600), id chiave {id}. La sua chiave pubblica, per tracedesk audit verify --public-key:"
        ),
        (
            "cli.keys.wroteSigning",
            "scritta una nuova chiave di firma P-256 in {file} (modo 0600). La sua chiave pubblica:"
        ),
        ("cli.keys.cannotRead", "impossibile leggere il file della chiave {file}: verificare il percorso e i permessi"),
        ("cli.keys.notAKey", "{file} non è una chiave privata P-256 utilizzabile: {problem}"),
        ("cli.chunks.settingsProblems", "le impostazioni hanno problemi:"),
        ("cli.chunks.showNeedsOne", "chunks show richiede un lotto: un indice (1, 2, …) o un file .zip"),
        ("cli.chunks.unknownVerb", "comando chunks sconosciuto '{verb}': usare publish, list o show"),
        ("cli.chunks.sayWhat", "chunks richiede un comando: publish, list o show"),
        (
            "cli.chunks.needsSigningKey",
            "serve la chiave di firma: indicare --signing-key FILE (o impostare signing_key_path); crearne una con: tracedesk keys generate --out FILE"
        ),
        (
            "cli.chunks.publishLocked",
            "saltato: un altro server detiene il blocco (sta pubblicando ora); riprovare più tardi"
        ),
        ("cli.chunks.published.one", "lotto {index}: {keys} chiave"),
        ("cli.chunks.published.other", "lotto {index}: {keys} chiavi"),
        ("cli.chunks.padding", " + {count} di riempimento"),
        ("cli.chunks.window", ", finestra dal {from} al {to}"),
        ("cli.chunks.bytes", ", {count} byte"),
        ("cli.chunks.nothingPublished", "nulla pubblicato: nessuna chiave oltre il suo embargo"),
        ("cli.chunks.stopped", "fermato dopo il lotto {index}: {problem}"),
        (
            "cli.chunks.tooOld.one",
            "{count} chiave non è mai stata pubblicata e ora è troppo vecchia per esserlo: la pubblicazione non è stata eseguita in tempo"
        ),
        (
            "cli.chunks.tooOld.other",
            "{count} chiavi non sono mai state pubblicate e ora sono troppo vecchie per esserlo: la pubblicazione non è stata eseguita in tempo"
        ),
        ("cli.chunks.waiting.one", "in attesa: {ready} pronta, {embargoed} sotto embargo"),
        ("cli.chunks.waiting.other", "in attesa: {ready} pronte, {embargoed} sotto embargo"),
        ("cli.chunks.nextRelease", " (prossimo rilascio {time})"),
        ("cli.chunks.noneYet", "ancora nessun lotto pubblicato"),
        ("cli.chunks.noneKept", "nessun lotto conservato (l'ultimo indice era {last})"),
        (
            "cli.cleanup.locked",
            "saltato: un altro server detiene il blocco (sta facendo pulizia ora); riprovare più tardi"
        ),
        ("cli.migrate.noArguments", "migrate non accetta argomenti, solo --store"),
        (
            "cli.migrate.done",
            "{location}: versione dello schema {version} (la più recente che questo tracedesk conosce)"
        ),
        ("cli.store.noArguments", "store info non accetta argomenti, solo --store e --json"),
        ("cli.store.unknownVerb", "comando store sconosciuto '{verb}': usare info"),
        ("cli.store.sayWhat", "store richiede un comando: info"),

        ("cli.store.info.adapter", "adattatore"),
        ("cli.store.info.location", "posizione"),
        ("cli.store.info.schema", "versione dello schema"),
        ("cli.store.info.schemaValue", "{version} (questo tracedesk conosce fino alla {known})"),
        ("cli.store.info.size", "spazio su disco"),
        ("cli.store.info.table", "tabella"),
        ("cli.store.info.rows", "righe"),
        ("cli.store.info.tableSize", "dimensione"),
    ]
}
