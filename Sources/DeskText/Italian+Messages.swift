extension Italian {
    /// The same keys as English.messages.
    static let messages: [(String, String)] = [
        (
            "messages.purpose.empty",
            "scrivi il motivo o il riferimento del caso (es. caso 2026-1234): ogni consultazione è registrata con esso"
        ),
        ("messages.purpose.tooLong", "il motivo ha {count} caratteri, al massimo {maximum}: accorcialo"),
        ("messages.purpose.control", "il motivo non può contenere caratteri di controllo: scrivilo su una riga"),
        ("messages.stats.range", "l'intervallo deve essere uno tra today, 1h, 24h, 7d e 14d"),
        ("messages.stats.empty", "l'intervallo è vuoto: la fine deve venire dopo l'inizio"),
        ("messages.stats.tooLong", "l'intervallo supera i {days} giorni: scegline uno più breve"),
        (
            "messages.stats.fiveMinutes",
            "gli intervalli di 5 minuti coprono al massimo {hours} ore: scegli intervalli di un'ora o di un giorno"
        ),
        ("messages.pseudoIDs.summary.one", "{used} pseudo-id usato su {capacity} ({percent} %)"),
        ("messages.pseudoIDs.summary.other", "{used} pseudo-id usati su {capacity} ({percent} %)"),
        ("messages.sms.dropped.expired", "testo eliminato: il suo codice è scaduto"),
        ("messages.sms.dropped.used", "testo eliminato: il suo codice è stato usato"),
        ("messages.sms.dropped.replaced", "testo eliminato: un codice più recente lo ha sostituito"),
        ("messages.sms.outboxHeld", "tenuto nella coda in uscita (sms_gateway outbox): nessun SMS viene inviato"),
        ("messages.store.cannotOpen", "impossibile aprire l'archivio {path}: {reason}"),
        (
            "messages.store.readOnly",
            "l'archivio {path} è in sola lettura: controlla i permessi o indica con --store un file scrivibile"
        ),
        (
            "messages.store.locked",
            "l'archivio {path} è bloccato da un altro processo: attendi che finisca, o chiudilo"
        ),
        (
            "messages.store.corrupt",
            "{path} non è un database o è danneggiato: ripristinalo da una copia di sicurezza, o indica con --store un altro file"
        ),
        (
            "messages.store.notTraceDesk",
            "{path} è un database SQLite ma non un archivio TraceDesk: indica con --store un file TraceDesk o un nuovo percorso"
        ),
        (
            "messages.store.schemaTooNew",
            "l'archivio {path} ha lo schema versione {found}, questo tracedesk conosce fino alla {known}: usa un tracedesk più recente"
        ),
        (
            "messages.store.unavailable",
            "impossibile raggiungere il database {location}: {reason}; controlla che PostgreSQL sia in funzione e raggiungibile da qui, poi riprova"
        ),
        ("messages.store.conflict", "conflitto nell'archivio durante {operation}: {reason}; riprova"),
        ("messages.store.failed", "errore dell'archivio durante {operation}: {reason}"),
        ("messages.store.noFolder", "la cartella {folder} non esiste"),
        ("messages.store.isFolder", "è una cartella: indica il percorso di un file"),
        ("messages.store.cannotCreateFolder", "impossibile creare la cartella {folder}"),
        ("messages.audit.target.case", "caso {id}"),
        ("messages.audit.target.user", "utente {id}"),
        ("messages.audit.target.followUp", "sorveglianza {id}"),
        ("messages.audit.target.cases", "casi"),
        ("messages.audit.target.queue", "coda"),
        ("messages.audit.target.all", "tutti"),
        ("messages.audit.scope.mine", "i miei"),
        ("messages.audit.scope.unassigned", "non assegnati"),
        ("messages.audit.scope.everyone", "tutti"),
        ("messages.audit.scope.tracer", "tracciatore {name}"),
        ("messages.action.phoneCopied", "ha copiato un numero di telefono"),
        ("messages.action.caseOpened", "ha aperto un caso"),
        ("messages.action.caseClosed", "ha chiuso un caso"),
        ("messages.action.followUpViewed", "ha consultato le sorveglianze"),
        ("messages.action.followUpAdded", "ha aggiunto una sorveglianza"),
        ("messages.action.followUpAttempt", "ha registrato un tentativo di chiamata"),
        ("messages.action.followUpCheck", "ha registrato un controllo giornaliero"),
        ("messages.action.followUpAssigned", "ha assegnato una sorveglianza"),
        ("messages.file.exists", "{path} esiste già: scegli un altro nome di file, o conferma per sovrascriverlo"),
        ("messages.file.isFolder", "{path} è una cartella: aggiungi il nome di un file, es. {example}"),
        (
            "messages.file.nameTooLong",
            "il nome del file è troppo lungo ({bytes} byte, al massimo {maximum}): scegline uno più corto"
        ),
        ("messages.file.noFolder", "la cartella {folder} non esiste: creala prima o scegli un altro percorso"),
        ("messages.file.writeFailed", "scrittura di {path} non riuscita ({reason}); non è stato scritto nulla"),
        ("messages.file.cannotWriteIn", "impossibile scrivere in {folder} ({reason}): scegli un'altra cartella"),
        (
            "messages.crypto.notAPrivateKeyPEM",
            "Nessuna chiave privata PEM trovata: serve un blocco \"BEGIN PRIVATE KEY\" (PKCS#8) o \"BEGIN EC PRIVATE KEY\" (SEC1); esporta la chiave P-256 in una di queste forme."
        ),
        (
            "messages.crypto.encryptedPrivateKey",
            "La chiave privata è cifrata; decifrala prima (openssl pkey -in KEY -out PLAIN) e lascia il file in chiaro leggibile solo dal servizio."
        ),
        (
            "messages.crypto.unreadablePrivateKey",
            "Il blocco della chiave privata non si legge; controlla che il file sia completo e non modificato."
        ),
        (
            "messages.crypto.notAPublicKeyPEM",
            "Nessuna chiave pubblica PEM trovata: serve un blocco \"BEGIN PUBLIC KEY\" (openssl pkey -in KEY -pubout ne stampa uno)."
        ),
        (
            "messages.crypto.unreadablePublicKey",
            "Il blocco della chiave pubblica non si legge; controlla che il file sia completo e non modificato."
        ),
        (
            "messages.crypto.kdfFailed",
            "Impossibile calcolare l'hash della password: il sistema ha rifiutato i 32 MiB di scrypt; riprova tra un momento."
        ),
        ("messages.crypto.kdfSummary", "scrypt N=2^{logN} r={r} p={p}, sale di {salt} byte, chiave di {key} byte"),
        (
            "messages.crypto.notP256",
            "La chiave è {found}, ma serve ECDSA P-256 (prime256v1); creane una con openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256."
        ),
        (
            "messages.crypto.noCertificates",
            "Nessun certificato PEM trovato: serve almeno un blocco \"BEGIN CERTIFICATE\"."
        ),
        (
            "messages.crypto.unreadableCertificate",
            "Il certificato {index} non si legge; controlla che il file PEM sia completo e non modificato."
        ),
        ("messages.crypto.invalidSetting", "Impostazione non valida: {reason}."),
        ("messages.crypto.found.unknown", "una chiave di tipo sconosciuto"),
        ("messages.crypto.found.a", "una chiave {type}"),
        ("messages.crypto.found.an", "una chiave {type}"),
        ("messages.crypto.found.explicitCurve", "una chiave EC con parametri di curva espliciti"),
        ("messages.crypto.found.curve", "una chiave EC sulla curva {curve}"),
        ("json.notUTF8", "il testo non è UTF-8 valido"),
        ("json.trailingText", "testo inatteso dopo la fine del documento"),
        ("json.expectedLiteral", "atteso “{literal}”"),
        ("json.unexpectedEnd", "fine inattesa del documento"),
        ("json.expectedValue", "atteso un valore (oggetto, lista, stringa, numero, true, false o null)"),
        ("json.tooDeep", "annidato troppo in profondità"),
        ("json.expectedKey", "attesa una chiave tra virgolette"),
        ("json.expectedColon", "atteso “:” dopo la chiave “{key}”"),
        ("json.expectedObjectEnd", "atteso “,” o “}” dopo il valore di “{key}”"),
        ("json.expectedListEnd", "atteso “,” o “]” in una lista"),
        ("json.unterminatedString", "stringa non terminata"),
        ("json.unknownEscape", "sequenza di escape sconosciuta “{escape}”"),
        ("json.controlCharacter", "carattere di controllo in una stringa (scrivilo come escape)"),
        ("json.unpairedSurrogate", "surrogato spaiato in un escape \\u"),
        ("json.invalidSurrogate", "coppia di surrogati non valida in un escape \\u"),
        ("json.invalidEscape", "escape \\u non valido"),
        ("json.unterminatedEscape", "escape \\u non terminato"),
        ("json.expectedHex", "attese quattro cifre esadecimali dopo \\u"),
        ("json.expectedDigits", "attese cifre in un numero"),
        ("json.leadingZero", "un numero non può iniziare con 0 (scrivi 7, non 07)"),
        ("json.expectedDecimals", "attese cifre dopo il punto decimale"),
        ("json.expectedExponent", "attese cifre nell'esponente"),
        ("json.kind.object", "un oggetto"),
        ("json.kind.list", "una lista"),
        ("json.kind.string", "una stringa"),
        ("json.kind.number", "un numero"),
        ("json.kind.bool", "true/false"),
        ("json.kind.null", "null"),
        ("theme.document", "(documento)"),
        ("theme.expected.nonEmptyString", "una stringa non vuota"),
        ("theme.expected.role", "un oggetto come {\"fg\": \"red\"}"),
        ("theme.expected.names", "una lista di nomi"),
        ("theme.expected.colour", "il nome di un colore, \"default\" o 0–255"),
        ("theme.found.listHolding", "una lista che contiene {kind}"),
        ("theme.problem.malformed", "JSON non valido al byte {offset}: {reason}; correggi la sintassi lì"),
        ("theme.problem.wrongType", "“{path}” deve essere {expected}, non {found}"),
        ("theme.problem.unknownField", "campo sconosciuto “{field}”: usa {allowed}"),
        ("theme.problem.unknownFieldIn", "campo sconosciuto “{field}” in “{path}”: usa {allowed}"),
        ("theme.problem.unknownRole", "ruolo sconosciuto “{name}”: i ruoli sono {roles}"),
        ("theme.problem.duplicateRole", "il ruolo “{name}” compare due volte: tienine una sola voce"),
        (
            "theme.problem.unknownColour",
            "ruolo “{role}”: colore {field} sconosciuto “{value}”: usa default, un numero 0–255 o uno tra {names}"
        ),
        ("theme.problem.unknownAttribute", "ruolo “{role}”: attributo sconosciuto “{value}”: usa {names}"),
        (
            "theme.problem.missingRoles",
            "ruoli mancanti {names}: ogni ruolo ha bisogno di una voce (usa {} per l'aspetto predefinito del terminale)"
        ),
        ("theme.problems", "il tema “{theme}” ha {count}:"),
        ("theme.problemCount.one", "{count} problema"),
        ("theme.problemCount.other", "{count} problemi"),
        ("theme.fileProblems", "il tema {path} ha dei problemi:"),
        ("theme.notFound", "nessun tema chiamato '{name}'"),
        ("theme.notFoundAvailable", "nessun tema chiamato '{name}': i temi disponibili sono {names}"),
        ("messages.settings.unset", "(non impostato)"),
        ("messages.settings.redacted", "(impostato, nascosto)"),
        ("messages.simulation.endpoint.dummy", "fittizio"),
        ("messages.simulation.endpoint.demoCitizen", "cittadino della demo"),
        ("messages.simulation.noAnswer", "nessuna risposta"),
        ("messages.simulation.notHTTP", "non HTTP"),
        ("messages.simulation.cancelled", "richieste annullate quando la simulazione si è fermata"),
        (
            "messages.simulation.noInternal",
            "nessun listener interno indicato: solo traffico fittizio di Immuni"
        ),
        ("messages.simulation.noSmsCodes", "nessun modo di leggere i codici SMS indicato: nessun telefono APRICOT"),
        ("messages.simulation.noPseudoIDs", "accesso APRICOT senza pseudo-id"),
        ("messages.simulation.skipped", "sessione saltata: già {count} in corso"),
        ("audit.line.notCheckpoint", "la riga {line} non è un punto di controllo: {why}"),
        (
            "audit.line.otherKey",
            "la riga {line} è firmata dalla chiave del registro {key}, non dalla chiave pubblica indicata: non verificata"
        ),
        (
            "audit.line.badSignature",
            "la firma della riga {line} non si verifica con la chiave {key}: la riga è stata modificata dopo la firma"
        ),
        (
            "audit.line.fewer.one",
            "la riga {line} copre {entries} voce, meno della riga {before} che la precede ({lastEntries}): righe riordinate o rimosse"
        ),
        (
            "audit.line.fewer.other",
            "la riga {line} copre {entries} voci, meno della riga {before} che la precede ({lastEntries}): righe riordinate o rimosse"
        ),
        (
            "audit.line.earlier",
            "la riga {line} è stata creata alle {at}, prima della riga {before} ({lastAt}): righe riordinate o rimosse"
        ),
        (
            "audit.line.otherLog",
            "la riga {line} è di un altro registro delle attività: la voce 1 dell'archivio ha un altro hash. O questo file dei punti di controllo è di un altro archivio (indica quello giusto), o l'intero registro è stato riscritto dalla voce 1"
        ),
        (
            "audit.line.cutOff.one",
            "la riga {line} copre {entries} voce (alle {at}), ma l'archivio ne ha {store}: le voci {from}…{entries} sono state tagliate dalla fine"
        ),
        (
            "audit.line.cutOff.other",
            "la riga {line} copre {entries} voci (alle {at}), ma l'archivio ne ha {store}: le voci {from}…{entries} sono state tagliate dalla fine"
        ),
        (
            "audit.line.matchesAgain",
            "la riga {line} corrisponde di nuovo all'archivio, anche se una riga precedente no: è stata firmata dopo la modifica della catena"
        ),
        (
            "audit.bound.after.one",
            "la riga {line} ({entries} voce) corrisponde ancora, quindi la modifica è tra le voci {from}…{to}"
        ),
        (
            "audit.bound.after.other",
            "la riga {line} ({entries} voci) corrisponde ancora, quindi la modifica è tra le voci {from}…{to}"
        ),
        ("audit.bound.all", "la modifica è tra le voci 1…{to}"),
        (
            "audit.line.mismatch.one",
            "la catena dell'archivio non corrisponde alla riga {line} ({entries} voce, alle {at}): una voce è stata riscritta, rimossa o riordinata e gli hash successivi ricalcolati; {bound}"
        ),
        (
            "audit.line.mismatch.other",
            "la catena dell'archivio non corrisponde alla riga {line} ({entries} voci, alle {at}): una voce è stata riscritta, rimossa o riordinata e gli hash successivi ricalcolati; {bound}"
        ),
        ("audit.laterMismatches.one", "(e nemmeno {count} riga successiva corrisponde)"),
        ("audit.laterMismatches.other", "(e nemmeno {count} righe successive corrispondono)"),
        (
            "audit.noLineSigned.one",
            "nessuna riga è firmata dalla chiave pubblica indicata (la chiave del file: {keys}): indica la chiave pubblica della chiave del registro che ha scritto questo file (tracedesk keys public --key AUDIT-KEY)"
        ),
        (
            "audit.noLineSigned.other",
            "nessuna riga è firmata dalla chiave pubblica indicata (le chiavi del file: {keys}): indica la chiave pubblica della chiave del registro che ha scritto questo file (tracedesk keys public --key AUDIT-KEY)"
        ),
        (
            "audit.append.broken",
            "la catena del registro è interrotta alla voce {id} ({reason}): non si scrive mai un punto di controllo per una catena interrotta"
        ),
        (
            "audit.append.otherLog",
            "i punti di controllo del file sono di un altro registro (la voce 1 dell'archivio è diversa): indica un file dei punti di controllo di questo archivio, o un file nuovo"
        ),
        (
            "audit.append.cutOff.one",
            "l'ultimo punto di controllo del file copre {entries} voce, l'archivio ne ha {store}: sono state tagliate voci dalla fine"
        ),
        (
            "audit.append.cutOff.other",
            "l'ultimo punto di controllo del file copre {entries} voci, l'archivio ne ha {store}: sono state tagliate voci dalla fine"
        ),
        (
            "audit.append.rewritten.one",
            "la catena dell'archivio non corrisponde più all'ultimo punto di controllo del file ({entries} voce): una voce fino alla {entries} è stata riscritta"
        ),
        (
            "audit.append.rewritten.other",
            "la catena dell'archivio non corrisponde più all'ultimo punto di controllo del file ({entries} voci): una voce fino alla {entries} è stata riscritta"
        ),
        ("audit.parse.notJSON", "non è JSON ({reason} al byte {offset})"),
        ("audit.parse.notObject", "non è un oggetto JSON"),
        ("audit.parse.unknownMember", "membro sconosciuto \"{member}\""),
        ("audit.parse.twice", "membro \"{member}\" indicato due volte"),
        ("audit.parse.missing", "manca il membro \"{member}\""),
        ("audit.parse.format", "format non è {format} (scritto da un altro programma o da un TraceDesk più recente)"),
        ("audit.parse.entries", "entries non è un numero intero di voci"),
        ("audit.parse.headHash", "head_hash non è di 64 cifre esadecimali minuscole"),
        ("audit.parse.firstHash", "first_hash non è di 64 cifre esadecimali minuscole"),
        ("audit.parse.at", "at non è un'ora UTC come 2026-12-01T17:00:00.000Z"),
        ("audit.parse.keyID", "key_id non è di 16 cifre esadecimali minuscole"),
        ("audit.parse.signature", "signature manca o è troppo lunga"),
        ("audit.break.missing", "mancano le voci {from}…{to}: cancellate dal registro"),
        ("audit.break.outOfOrder", "l'id {id} è fuori ordine dopo {after}"),
        (
            "audit.break.firstNotStart",
            "la prima voce non apre la catena: voci precedenti sono state rimosse o è stata modificata"
        ),
        (
            "audit.break.previousMismatch",
            "il suo hash precedente non corrisponde alla voce {previous}: la voce {previous} è stata modificata o sostituita"
        ),
        (
            "audit.break.contentsMismatch",
            "il contenuto non corrisponde al suo hash: la voce è stata modificata dopo essere stata scritta"
        ),
    ]
}
