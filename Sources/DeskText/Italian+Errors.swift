extension Italian {
    /// The desks' refusals in Italian: the same keys as English.errors, in the vocabulary of the
    /// Italian health service (codice, operatore, tracciatore, sorveglianza, archivio…).
    static let errors: [(String, String)] = [
        ("errors.signIn.typePassword", "scrivi la tua password"),
        ("errors.signIn.busy", "gli accessi con questo nome sono in verifica: riprova tra un momento"),
        (
            "errors.signIn.wait.local",
            "troppi accessi non riusciti con questo nome da questo computer: attendi {seconds} s, poi riprova"
        ),
        (
            "errors.signIn.wait.remote",
            "troppi accessi non riusciti con questo nome da questo indirizzo: attendi {seconds} s, poi riprova"
        ),
        (
            "errors.staff.nameTaken",
            "il nome {name} è già in uso (gli account disattivati conservano il nome): scegline un altro"
        ),
        ("errors.staff.disableSelf", "non puoi disattivare il tuo account: chiedi a un altro amministratore"),
        ("errors.staff.noAccount", "non esiste un account di nome {name}: vedi l'elenco del personale"),
        (
            "errors.audit.tooManyCounts",
            "si possono chiedere al massimo {count} conteggi alla volta: chiedi meno punti di controllo"
        ),
        ("errors.session.none", "accesso non effettuato: accedi prima"),
        ("errors.session.unknown", "questa sessione qui non è nota: accedi di nuovo"),
        (
            "errors.session.ended",
            "questa sessione è terminata (disconnessione, o la password è stata reimpostata): accedi di nuovo"
        ),
        ("errors.session.disabled", "l'account {user} è disattivato: rivolgiti a un amministratore"),
        ("errors.session.expired", "la tua sessione è terminata {duration} dopo l'accesso: accedi di nuovo"),
        ("errors.session.idle", "la tua sessione è terminata dopo {duration} di inattività: accedi di nuovo"),
        ("errors.setup.tokenFile", " (anche in {file}, modo 0600)"),
        (
            "errors.setup.tokenRefused",
            "il primo amministratore di un server richiede il token di configurazione monouso che tracedesk serve ha stampato all'avvio{file}: indicalo, oppure esegui tracedesk staff add NOME --role admin sull'archivio"
        ),
        (
            "errors.setup.accountsExist",
            "esistono già account del personale: accedi, o chiedi un account a un amministratore"
        ),
        (
            "errors.code.anotherOperator",
            "questo codice è stato autorizzato da un altro operatore: possono seguirlo solo lui e i supervisori"
        ),
        (
            "errors.signIn.wrong",
            "nome utente o password errati: controlla entrambi e riprova (se continua a non riuscire, rivolgiti a un amministratore: l'account potrebbe essere bloccato o disattivato)"
        ),
        ("errors.trace.sightingsPage", "una pagina contiene da 1 a {max} avvistamenti: chiedine meno"),
        ("errors.trace.offset", "una pagina inizia dalla posizione 0 o successiva"),
        (
            "errors.trace.notAContact",
            "l'utente {contact} non è un contatto dell'utente {patient}: cerca di nuovo il paziente e scegli una riga della tabella dei contatti"
        ),
        ("errors.trace.exportKind", "tipo di esportazione sconosciuto: usa uno tra {kinds}"),
        ("errors.trace.exportRows", "un'esportazione ha 0 righe o più"),
        ("errors.trace.outboxPage", "la casella in uscita mostra da 1 a {max} messaggi: chiedine meno"),
        ("errors.trace.noUser", "nessun utente APRICOT {user}: cerca prima il paziente per numero di telefono"),
        ("errors.monitor.noEvent", "non esiste l'evento {id}: la conservazione potrebbe averlo cancellato"),
        ("errors.monitor.notAboutACode", "l'evento {id} non riguarda un codice"),
        ("errors.monitor.notYourEvent", "puoi seguire solo eventi sui codici che hai autorizzato"),
        (
            "errors.monitor.noAuthorization",
            "nessuna autorizzazione per questo codice: controlla il codice che il cittadino legge"
        ),
        (
            "errors.his.rate",
            "il limite di un client va da {min} a {max} autorizzazioni al minuto: indicane un altro, o nessuno per l'impostazione del server"
        ),
        (
            "errors.his.nameTaken",
            "il nome di client HIS {name} è già in uso (i client revocati conservano il nome): scegline un altro"
        ),
        ("errors.his.noClient", "non esiste un client HIS di nome {name}: vedi tracedesk his list"),
        ("errors.monitor.pageSize", "chiedi da 1 a {max} eventi per pagina (non {limit})"),
        ("errors.monitor.position", "la posizione di un evento è 0 o più: parti da 0"),
        ("errors.monitor.negativeWait", "un'attesa non può essere negativa: indica da 0 a 60 secondi"),
        ("errors.role.forbidden", "il tuo ruolo ({role}) non può {action}: serve il ruolo {allowed}"),
        ("errors.role.or", " o "),
        (
            "errors.trace.unknownPatient",
            "nessun utente APRICOT ha questo numero: verificalo con il paziente, o chiedigli di registrarsi nell'app"
        ),
        ("errors.note.tooLong", "la nota ha {count} caratteri, al massimo {max}: accorciala"),
        (
            "errors.note.control",
            "la nota non può contenere caratteri di controllo (a capo, tabulazioni): scrivila su una riga"
        ),
        ("errors.useCase.authorize_code", "autorizzare codici"),
        ("errors.useCase.code_status", "vedere lo stato dei codici"),
        ("errors.useCase.list_staff", "elencare gli account del personale"),
        ("errors.useCase.add_staff", "aggiungere account del personale"),
        ("errors.useCase.disable_staff", "disattivare account del personale"),
        ("errors.useCase.reset_password", "reimpostare password"),
        ("errors.useCase.read_audit", "leggere il registro di audit"),
        ("errors.useCase.verify_audit", "verificare il registro di audit"),
        ("errors.useCase.monitor_events", "seguire il flusso delle attività"),
        ("errors.useCase.watch_code", "seguire codici"),
        ("errors.useCase.trace_contacts", "tracciare i contatti"),
        ("errors.useCase.read_sms_outbox", "leggere la casella degli SMS in uscita"),
        ("errors.useCase.read_statistics", "leggere le statistiche"),
        ("errors.useCase.manage_his_clients", "gestire i sistemi ospedalieri (client HIS)"),
        ("errors.useCase.manage_cases", "aprire e chiudere casi"),
        ("errors.useCase.work_follow_ups", "registrare chiamate e verifiche delle sorveglianze"),
        ("errors.useCase.read_follow_ups", "leggere casi e sorveglianze"),
        ("errors.useCase.assign_follow_ups", "affidare sorveglianze ai tracciatori"),
        (
            "errors.case.indexDayFuture",
            "il giorno indice {day} è dopo oggi ({today}): scrivi il giorno di inizio sintomi o del test"
        ),
        ("errors.case.listSize", "un elenco di casi contiene da 1 a {max} casi: chiedine meno"),
        (
            "errors.case.notYours",
            "il caso {id} è stato aperto da {opener} e nessuna delle sue sorveglianze è tua: chiedi a {opener} o a un supervisore"
        ),
        (
            "errors.case.closeNotYours",
            "il caso {id} è stato aperto da {opener}: possono chiuderlo solo chi l'ha aperto o un supervisore"
        ),
        ("errors.case.closedAlready", "il caso {id} ({reference}) è già chiuso: nulla da fare"),
        (
            "errors.case.reasonNeeded",
            "indica perché la persona è in sorveglianza (per esempio «convivente»): un contatto aggiunto a mano richiede un motivo"
        ),
        ("errors.case.addNotYours", "il caso {id} è stato aperto da {opener}: chiedigli di aggiungere il contatto"),
        (
            "errors.case.unknownContact",
            "nessun utente APRICOT ha questo numero: si può seguire solo un utente registrato nell'app; verifica il numero con il paziente"
        ),
        (
            "errors.case.closedNoMore",
            "il caso {id} ({reference}) è chiuso: apri un nuovo caso per seguire altri contatti"
        ),
        ("errors.case.isPatient", "questo numero è del paziente del caso: un paziente non è contatto di sé stesso"),
        ("errors.queue.pageSize", "una pagina della coda contiene da 1 a {max} persone: chiedine meno"),
        ("errors.queue.onlyOwn", "un tracciatore vede solo la propria coda: chiedi a un supervisore quella di {name}"),
        (
            "errors.queue.onlyOwnAll",
            "un tracciatore vede solo la propria coda: chiedi a un supervisore quella di tutti"
        ),
        ("errors.queue.searchLong", "una ricerca nella coda ha al massimo 64 caratteri: accorciala"),
        ("errors.assign.none", "nessuna sorveglianza da affidare: prima segnane una o più"),
        ("errors.assign.tooMany", "si affidano al massimo {max} sorveglianze alla volta: segnane meno"),
        (
            "errors.assign.badName",
            "«{name}» non è un nome di account: scrivi il nome del tracciatore come lo mostra l'elenco del personale"
        ),
        (
            "errors.assign.notATracer",
            "{name} non è l'account di un tracciatore attivo: affida a un tracciatore dell'elenco del personale"
        ),
        ("errors.assign.notFound", "non trovate: {list}; controlla i numeri nella coda; nulla è stato affidato"),
        ("errors.assign.ended", "già concluse: {list}; si affidano solo sorveglianze attive; nulla è stato affidato"),
        ("errors.followUp.noSuch", "nessuna sorveglianza {id}: controlla il numero nella coda"),
        (
            "errors.followUp.notYoursAssigned",
            "la sorveglianza {id} è affidata a {tracer} e non è di un caso che hai aperto: rivolgiti a un supervisore"
        ),
        (
            "errors.followUp.notYoursUnassigned",
            "la sorveglianza {id} non è affidata a nessuno e non è di un caso che hai aperto: rivolgiti a un supervisore"
        ),
        (
            "errors.followUp.assignedOther",
            "la sorveglianza {id} è affidata a {tracer}: nulla registrato; chiedi a un supervisore di riaffidarla a te"
        ),
        (
            "errors.followUp.unassigned",
            "la sorveglianza {id} non è ancora affidata a nessuno: nulla registrato; chiedi a un supervisore di affidarla a te"
        ),
        ("errors.case.noSuch", "nessun caso {id}: controlla il numero nell'elenco dei casi"),
        ("errors.followUp.listOne", "sorveglianza {ids}"),
        ("errors.followUp.listMany", "sorveglianze {ids}"),
        ("errors.reason.tooLong", "il motivo ha {count} caratteri, al massimo {max}: accorcialo"),
        (
            "errors.reason.control",
            "il motivo non può contenere caratteri di controllo (a capo, tabulazioni): scrivilo su una riga"
        ),
        ("errors.name.user.empty", "scrivi un nome utente"),
        ("errors.name.user.tooLong", "un nome utente ha al massimo {max} caratteri"),
        ("errors.name.user.firstLetter", "un nome utente inizia con una lettera (a-z)"),
        ("errors.name.user.characters", "un nome utente ha solo lettere a-z, cifre e . - _ (niente spazi)"),
        ("errors.name.client.empty", "scrivi un nome di client"),
        ("errors.name.client.tooLong", "un nome di client ha al massimo {max} caratteri"),
        ("errors.name.client.firstLetter", "un nome di client inizia con una lettera (a-z)"),
        ("errors.name.client.characters", "un nome di client ha solo lettere a-z, cifre e . - _ (niente spazi)"),
        ("errors.password.tooShort", "una password ha almeno {min} caratteri"),
        ("errors.password.tooLong", "una password ha al massimo {max} caratteri"),
        ("errors.password.hasName", "la password non deve contenere il nome utente"),
        ("errors.password.variety", "la password richiede almeno 4 caratteri diversi"),
        (
            "errors.reference.required",
            "serve un riferimento del caso: scrivi il numero di caso dell'azienda sanitaria, per esempio ASL-2026-0412"
        ),
        ("errors.reference.tooLong", "un riferimento del caso ha al massimo {max} caratteri: accorcialo"),
        (
            "errors.reference.control",
            "un riferimento del caso non può contenere caratteri di controllo: scrivilo di nuovo"
        ),
        (
            "errors.followUp.endedNoCall",
            "la sorveglianza {id} è terminata ({state}): non ci sono altre chiamate; apri la coda per la persona successiva"
        ),
        (
            "errors.followUp.notReached",
            "la sorveglianza {id} non è ancora stata raggiunta: registra prima la chiamata come raggiunta, poi la verifica"
        ),
        ("errors.followUp.endedNoCheck", "la sorveglianza {id} è terminata ({state}): non sono dovute altre verifiche"),
        ("errors.remote.title.retrying", "server irraggiungibile, nuovo tentativo"),
        ("errors.remote.title.unreachable", "server irraggiungibile"),
        ("errors.remote.title.busyRetrying", "server non disponibile, nuovo tentativo"),
        ("errors.remote.title.unavailable", "server non disponibile"),
        ("errors.remote.title.wrongServer", "non è un server TraceDesk"),
        ("errors.remote.title.tls", "TLS non riuscito"),
        ("errors.remote.withPath", "l'URL del server {location} non si può combinare con un percorso"),
        ("errors.remote.reason.refused", "connessione rifiutata"),
        ("errors.remote.reason.unknownHost", "il nome dell'host non è noto"),
        ("errors.remote.reason.noRoute", "questa macchina non ha una via per raggiungerlo"),
        ("errors.remote.reason.connectFailed", "la connessione non è riuscita"),
        ("errors.remote.reason.closedEarly", "la connessione si è chiusa prima della risposta"),
        ("errors.remote.reason.cancelled", "la richiesta è stata annullata"),
        ("errors.remote.reason.noConnection", "nessuna connessione entro {seconds} s"),
        ("errors.remote.reason.noAnswer", "nessuna risposta completa entro {seconds} s"),
        (
            "errors.remote.reason.closedTLS",
            "ha chiuso la connessione senza rispondere; se il server usa TLS, l'URL deve iniziare con https://"
        ),
        (
            "errors.remote.tls",
            "non è stato possibile stabilire una connessione TLS con {location} ({reason}): controlla https:// rispetto a http:// e la porta; un server offre https solo con tls_cert e tls_key"
        ),
        (
            "errors.remote.reason.tooLarge",
            "ha risposto con più di {bytes} byte, più di qualsiasi risposta della API del personale"
        ),
        ("errors.remote.reason.notHTTP", "la sua risposta non è HTTP leggibile da questo client"),
        ("errors.remote.reason.failed", "la richiesta non è riuscita: {detail}"),
        (
            "errors.remote.unavailableHTTP",
            "il server TraceDesk su {location} non è disponibile (HTTP {status}): riprova tra qualche secondo"
        ),
        (
            "errors.remote.storage",
            "il server TraceDesk su {location} ora non raggiunge il suo archivio ({detail}): riprova tra qualche secondo"
        ),
        (
            "errors.remote.serverFailed",
            "il server TraceDesk su {location} non è riuscito a eseguire: {what} ({detail}); avvisa il suo amministratore"
        ),
        (
            "errors.remote.unreachable",
            "il server TraceDesk su {location} non è raggiungibile ({reason}): controlla che sia in funzione e che URL e porta siano giusti, poi riprova"
        ),
        (
            "errors.remote.notTraceDesk",
            "{location} non è un server TraceDesk ({why}): controlla URL e porta; la API del personale è sull'ascolto interno"
        ),
        ("errors.remote.url.notURL", "'{text}' non è un URL: indicane uno come http://127.0.0.1:8081"),
        (
            "errors.remote.url.scheme",
            "l'URL del server deve iniziare con http:// o https://, come http://127.0.0.1:8081"
        ),
        ("errors.remote.url.host", "l'URL del server non ha un host: indicane uno come http://127.0.0.1:8081"),
        ("errors.remote.url.user", "l'URL del server non deve contenere utente o password: accedi invece con --user"),
        ("errors.remote.url.query", "l'URL del server non deve avere ?query o #frammento: indica schema, host e porta"),
        (
            "errors.remote.version",
            "il server TraceDesk su {location} parla la versione {server} della API del personale, questa console la versione {console}: usa versioni corrispondenti"
        ),
        ("history.opened", "aperto ({kind} {day}): {created}; unite di altri casi: {joined}"),
        ("history.newFollowUps.one", "{count} sorveglianza nuova"),
        ("history.newFollowUps.other", "{count} sorveglianze nuove"),
        ("history.followUps.one", "{count} sorveglianza"),
        ("history.followUps.other", "{count} sorveglianze"),
        ("history.cameFrom", "il paziente era la sorveglianza {followUp} di {cases}"),
        ("history.case", "caso {id}"),
        ("history.becameCase", "la sorveglianza {followUp} è diventata il caso {case}"),
        ("history.closed", "chiuso ({reason}), terminate: {ended}"),
        ("history.added", "sorveglianza {followUp} aggiunta a mano"),
        ("history.attempt", "sorveglianza {followUp}: {outcome}"),
        ("history.check", "sorveglianza {followUp}: verificata, {symptoms}, {isolating}"),
        ("history.symptoms", "con sintomi"),
        ("history.noSymptoms", "senza sintomi"),
        ("history.isolating", "in isolamento"),
        ("history.notIsolating", "non in isolamento"),
        ("history.assigned", "sorveglianza {followUp} affidata a {tracer}"),
        ("history.settled", "sorveglianza {followUp}: {state}"),
        ("cleanup.skipped", "saltata: un altro server detiene il blocco"),
        ("cleanup.nothing", "nulla da cancellare"),
        ("cleanup.deleted", "cancellati: {what}"),
        ("cleanup.uploads.one", "{count} caricamento"),
        ("cleanup.uploads.other", "{count} caricamenti"),
        ("cleanup.keys.one", "{count} chiave"),
        ("cleanup.keys.other", "{count} chiavi"),
        ("cleanup.chunks.one", "{count} lotto"),
        ("cleanup.chunks.other", "{count} lotti"),
        ("cleanup.authorizations.one", "{count} autorizzazione"),
        ("cleanup.authorizations.other", "{count} autorizzazioni"),
        ("cleanup.events.one", "{count} evento"),
        ("cleanup.events.other", "{count} eventi"),
        ("cleanup.analytics.one", "{count} dato analitico"),
        ("cleanup.analytics.other", "{count} dati analitici"),
        ("cleanup.contactFiles.one", "{count} file di contatti"),
        ("cleanup.contactFiles.other", "{count} file di contatti"),
        ("cleanup.smsCodes.one", "{count} codice SMS"),
        ("cleanup.smsCodes.other", "{count} codici SMS"),
        ("cleanup.appTokens.one", "{count} token dell'app"),
        ("cleanup.appTokens.other", "{count} token dell'app"),
        ("cleanup.smsMessages.one", "{count} messaggio SMS"),
        ("cleanup.smsMessages.other", "{count} messaggi SMS"),
        ("cleanup.closedCases.one", "{count} caso chiuso"),
        ("cleanup.closedCases.other", "{count} casi chiusi"),
        ("cleanup.other.one", "{count} altro record"),
        ("cleanup.other.other", "{count} altri record"),
        ("config.countryCode", "deve essere + e da 1 a 3 cifre, senza iniziare con 0, come +39"),
        ("config.countryCodeString", "deve essere una stringa come \"+39\""),
        ("config.hisListen", "deve essere un indirizzo IPv4 con porta, come 127.0.0.1:8082"),
        ("config.hisListenString", "deve essere una stringa come \"127.0.0.1:8082\""),
        ("config.prefix", "ogni prefisso deve essere + e da 1 a 15 cifre, senza iniziare con 0 (\"{part}\" non lo è)"),
        ("config.prefixesString", "deve essere una stringa come \"+39\" o \"+39 3, +378\""),
        ("config.unknownSetting", "{file}: impostazione sconosciuta \"{name}\"{suggestion}"),
        ("config.notJSON", "{file} non è JSON valido al byte {offset}: {reason}"),
        (
            "config.unreadable",
            "impossibile leggere il file di configurazione {file}: controlla il percorso dato a --config"
        ),
        ("config.tlsTogether", "tls_cert e tls_key vanno indicati insieme"),
        (
            "config.auditTogether",
            "audit_key_path e audit_checkpoint_path vanno indicati insieme (la chiave firma, il file conserva i punti di controllo)"
        ),
        ("config.listenDiffer", "listen e internal_listen devono essere diversi ({listen})"),
        (
            "config.appleTogether",
            "apple_device_check_url, apple_team_id, apple_key_id e apple_private_key_file vanno indicati insieme"
        ),
        ("config.googleDigest", "google_attestation_root_file richiede google_apk_certificate_digest"),
        (
            "config.idleExceeds",
            "session_idle_minutes ({idle}) non deve superare session_hours ({hours}) in minuti: il limite di inattività non si applicherebbe mai"
        ),
        ("config.smsURLNeeded", "sms_gateway http richiede sms_http_url (l'endpoint del fornitore)"),
        ("config.smsURL", "sms_http_url deve essere un URL http(s) come https://sms.example.org/v1/messages"),
        (
            "config.smsHTTPS",
            "sms_http_url deve usare https (la chiave API e ogni codice attraversano la rete): http semplice è ammesso solo verso 127.0.0.1, ::1 o localhost"
        ),
        ("config.smsKey", "sms_gateway http richiede sms_http_api_key"),
        ("config.hisDiffer", "his_listen deve essere diverso da listen e internal_listen ({listen})"),
        (
            "config.hisCA",
            "his_auth certificate richiede his_ca_file (l'autorità che firma i certificati client degli ospedali)"
        ),
        (
            "config.hisTLS",
            "his_auth certificate richiede tls_cert e tls_key: i certificati client arrivano solo su TLS"
        ),
        (
            "config.chunkFit",
            "chunk_min_keys ({min}) più chunk_padding_jitter ({jitter}) non deve superare chunk_max_keys ({max}): un lotto con riempimento non ci starebbe"
        ),
        ("config.suggestion", " (forse \"{near}\"?)"),
        ("config.wholeNumber", "deve essere un numero intero da {min} a {max}"),
        ("config.boolean", "deve essere true o false"),
        ("config.string", "deve essere una stringa"),
        ("config.nonEmpty", "deve essere una stringa non vuota"),
        ("config.oneOf", "deve essere uno tra {choices}"),
        ("config.name", "deve avere da 1 a 64 lettere, cifre, _ o ."),
        ("config.nameString", "deve essere una stringa di lettere, cifre, _ o ."),
        ("config.listen", "deve essere un indirizzo IPv4 con porta, come 127.0.0.1:8080"),
        ("config.listenString", "deve essere una stringa come \"127.0.0.1:8080\""),
        ("config.option.listen", "{option} deve essere un indirizzo IPv4 con porta, come {example}"),
        (
            "config.appSettingsMissing",
            "il file delle impostazioni dell'app config/app-settings.json non è stato trovato: imposta app_settings_file"
        ),
        ("config.cannotRead", "impossibile leggere {setting} {file}"),
        (
            "config.cannotReadCheck",
            "impossibile leggere {setting} {file}: controlla il percorso e che questo utente possa leggerlo"
        ),
        (
            "config.noSigningKey",
            "nessuna chiave di firma: i lotti di chiavi non si possono firmare. Creane una con `tracedesk keys generate --out signing-key.pem` e indicala con --signing-key FILE (o signing_key_path), oppure imposta signing_key_required a false per funzionare senza pubblicare"
        ),
        (
            "config.signingKeyUnusable",
            "signing_key_path {file} non è una chiave di firma P-256 utilizzabile: {problem}"
        ),
        (
            "config.auditKeyUnusable",
            "audit_key_path {file} non è una chiave P-256 utilizzabile: {problem} (creane una con tracedesk keys generate --audit --out FILE)"
        ),
        ("config.appleURL", "apple_device_check_url deve essere un URL http(s) come https://api.devicecheck.apple.com"),
    ]
}
