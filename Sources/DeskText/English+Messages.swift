extension English {
    /// The core's and the store's own messages (`messages.…`), where they reach a person: the
    /// purpose of a lookup, statistics inputs, the SMS outbox, a store that cannot be opened,
    /// the audit log's subjects, the monitor's staff actions.
    static let messages: [(String, String)] = [
        (
            "messages.purpose.empty",
            "type the purpose or case reference (e.g. case 2026-1234): every lookup is audited with it"
        ),
        ("messages.purpose.tooLong", "the purpose has {count} characters, at most {maximum}: shorten it"),
        ("messages.purpose.control", "the purpose may not contain control characters: type it on one line"),
        ("messages.stats.range", "the range must be one of today, 1h, 24h, 7d or 14d"),
        ("messages.stats.empty", "the range is empty: its end must come after its start"),
        ("messages.stats.tooLong", "the range is longer than {days} days: choose a shorter one"),
        ("messages.stats.fiveMinutes", "5-minute buckets cover at most {hours} hours: choose hour or day buckets"),
        ("messages.pseudoIDs.summary.one", "{used} of {capacity} pseudo-ids used ({percent} %)"),
        ("messages.pseudoIDs.summary.other", "{used} of {capacity} pseudo-ids used ({percent} %)"),
        ("messages.sms.dropped.expired", "text dropped: its code expired"),
        ("messages.sms.dropped.used", "text dropped: its code was used"),
        ("messages.sms.dropped.replaced", "text dropped: a newer code replaced it"),
        ("messages.sms.outboxHeld", "kept in the outbox (sms_gateway outbox): no SMS is sent"),
        ("messages.store.cannotOpen", "cannot open the store {path}: {reason}"),
        (
            "messages.store.readOnly",
            "the store {path} is read-only: check its permissions or pass --store with a writable file"
        ),
        (
            "messages.store.locked",
            "the store {path} is locked by another process: wait for it to finish, or close it"
        ),
        (
            "messages.store.corrupt",
            "{path} is not a database or is damaged: restore it from a backup, or pass --store with another file"
        ),
        (
            "messages.store.notTraceDesk",
            "{path} is an SQLite database but not a TraceDesk store: pass --store with a TraceDesk file or a new path"
        ),
        (
            "messages.store.schemaTooNew",
            "the store {path} has schema version {found}, this tracedesk knows up to {known}: use a newer tracedesk"
        ),
        (
            "messages.store.unavailable",
            "cannot reach the database {location}: {reason}; check that PostgreSQL is running and reachable from here, then try again"
        ),
        ("messages.store.conflict", "store conflict during {operation}: {reason}; try again"),
        ("messages.store.failed", "store error during {operation}: {reason}"),
        ("messages.store.noFolder", "the folder {folder} does not exist"),
        ("messages.store.isFolder", "it is a folder: give a file path"),
        ("messages.store.cannotCreateFolder", "cannot create the folder {folder}"),
        ("messages.audit.target.case", "case {id}"),
        ("messages.audit.target.user", "user {id}"),
        ("messages.audit.target.followUp", "follow-up {id}"),
        ("messages.audit.target.cases", "cases"),
        ("messages.audit.target.queue", "queue"),
        ("messages.audit.target.all", "all"),
        ("messages.audit.scope.mine", "mine"),
        ("messages.audit.scope.unassigned", "unassigned"),
        ("messages.audit.scope.everyone", "everyone"),
        ("messages.audit.scope.tracer", "tracer {name}"),
        ("messages.action.phoneCopied", "copied a phone number"),
        ("messages.action.caseOpened", "opened a case"),
        ("messages.action.caseClosed", "closed a case"),
        ("messages.action.followUpViewed", "viewed follow-ups"),
        ("messages.action.followUpAdded", "added a follow-up"),
        ("messages.action.followUpAttempt", "recorded a call attempt"),
        ("messages.action.followUpCheck", "recorded a daily check"),
        ("messages.action.followUpAssigned", "assigned a follow-up"),
        ("messages.file.exists", "{path} exists: choose another file name, or confirm to overwrite it"),
        ("messages.file.isFolder", "{path} is a folder: add a file name, e.g. {example}"),
        (
            "messages.file.nameTooLong",
            "the file name is too long ({bytes} bytes, at most {maximum}): choose a shorter one"
        ),
        ("messages.file.noFolder", "the folder {folder} does not exist: create it first or choose another path"),
        ("messages.file.writeFailed", "writing {path} failed ({reason}); nothing was written"),
        ("messages.file.cannotWriteIn", "cannot write in {folder} ({reason}): choose another folder"),
        (
            "messages.crypto.notAPrivateKeyPEM",
            "No PEM private key found: expected a \"BEGIN PRIVATE KEY\" (PKCS#8) or \"BEGIN EC PRIVATE KEY\" (SEC1) block; export the P-256 key in one of these forms."
        ),
        (
            "messages.crypto.encryptedPrivateKey",
            "The private key is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN) and keep the plain file readable only by the service."
        ),
        (
            "messages.crypto.unreadablePrivateKey",
            "The private key block does not parse; check that the file is complete and was not edited."
        ),
        (
            "messages.crypto.notAPublicKeyPEM",
            "No PEM public key found: expected a \"BEGIN PUBLIC KEY\" block (openssl pkey -in KEY -pubout prints one)."
        ),
        (
            "messages.crypto.unreadablePublicKey",
            "The public key block does not parse; check that the file is complete and was not edited."
        ),
        (
            "messages.crypto.kdfFailed",
            "The password could not be hashed: the system refused scrypt's 32 MiB; try again in a moment."
        ),
        ("messages.crypto.kdfSummary", "scrypt N=2^{logN} r={r} p={p}, {salt}-byte salt, {key}-byte key"),
        (
            "messages.crypto.notP256",
            "The key is {found}, but ECDSA P-256 (prime256v1) is required; generate one with openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256."
        ),
        (
            "messages.crypto.noCertificates",
            "No PEM certificate found: expected at least one \"BEGIN CERTIFICATE\" block."
        ),
        (
            "messages.crypto.unreadableCertificate",
            "Certificate {index} does not parse; check that the PEM file is complete and was not edited."
        ),
        ("messages.crypto.invalidSetting", "Invalid setting: {reason}."),
        ("messages.crypto.found.unknown", "a key of an unknown type"),
        ("messages.crypto.found.a", "a {type} key"),
        ("messages.crypto.found.an", "an {type} key"),
        ("messages.crypto.found.explicitCurve", "an EC key with explicit curve parameters"),
        ("messages.crypto.found.curve", "an EC key on {curve}"),
        ("json.notUTF8", "the text is not valid UTF-8"),
        ("json.trailingText", "unexpected text after the end of the document"),
        ("json.expectedLiteral", "expected “{literal}”"),
        ("json.unexpectedEnd", "unexpected end of the document"),
        ("json.expectedValue", "expected a value (object, list, string, number, true, false or null)"),
        ("json.tooDeep", "nested too deeply"),
        ("json.expectedKey", "expected a quoted key"),
        ("json.expectedColon", "expected “:” after the key “{key}”"),
        ("json.expectedObjectEnd", "expected “,” or “}” after the value of “{key}”"),
        ("json.expectedListEnd", "expected “,” or “]” in a list"),
        ("json.unterminatedString", "unterminated string"),
        ("json.unknownEscape", "unknown escape “{escape}”"),
        ("json.controlCharacter", "control character in a string (write it as an escape)"),
        ("json.unpairedSurrogate", "unpaired surrogate in \\u escape"),
        ("json.invalidSurrogate", "invalid surrogate pair in \\u escape"),
        ("json.invalidEscape", "invalid \\u escape"),
        ("json.unterminatedEscape", "unterminated \\u escape"),
        ("json.expectedHex", "expected four hex digits after \\u"),
        ("json.expectedDigits", "expected digits in a number"),
        ("json.leadingZero", "a number may not start with 0 (write 7, not 07)"),
        ("json.expectedDecimals", "expected digits after the decimal point"),
        ("json.expectedExponent", "expected digits in the exponent"),
        ("json.kind.object", "an object"),
        ("json.kind.list", "a list"),
        ("json.kind.string", "a string"),
        ("json.kind.number", "a number"),
        ("json.kind.bool", "true/false"),
        ("json.kind.null", "null"),
        ("theme.document", "(document)"),
        ("theme.expected.nonEmptyString", "a non-empty string"),
        ("theme.expected.role", "an object like {\"fg\": \"red\"}"),
        ("theme.expected.names", "a list of names"),
        ("theme.expected.colour", "a colour name, \"default\" or 0–255"),
        ("theme.found.listHolding", "a list holding {kind}"),
        ("theme.problem.malformed", "malformed JSON at byte {offset}: {reason}; fix the syntax there"),
        ("theme.problem.wrongType", "“{path}” must be {expected}, not {found}"),
        ("theme.problem.unknownField", "unknown field “{field}”: use {allowed}"),
        ("theme.problem.unknownFieldIn", "unknown field “{field}” in “{path}”: use {allowed}"),
        ("theme.problem.unknownRole", "unknown role “{name}”: roles are {roles}"),
        ("theme.problem.duplicateRole", "role “{name}” is listed twice: keep one entry"),
        (
            "theme.problem.unknownColour",
            "role “{role}”: unknown {field} colour “{value}”: use default, a number 0–255 or one of {names}"
        ),
        ("theme.problem.unknownAttribute", "role “{role}”: unknown attribute “{value}”: use {names}"),
        (
            "theme.problem.missingRoles",
            "missing roles {names}: every role needs an entry (use {} for the terminal's default look)"
        ),
        ("theme.problems", "theme “{theme}” has {count}:"),
        ("theme.problemCount.one", "{count} problem"),
        ("theme.problemCount.other", "{count} problems"),
        ("theme.fileProblems", "theme {path} has problems:"),
        ("theme.notFound", "no theme named '{name}'"),
        ("theme.notFoundAvailable", "no theme named '{name}': available themes are {names}"),
        ("messages.settings.unset", "(unset)"),
        ("messages.settings.redacted", "(set, redacted)"),
        ("messages.simulation.endpoint.dummy", "dummy"),
        ("messages.simulation.endpoint.demoCitizen", "demo citizen"),
        ("messages.simulation.noAnswer", "no answer"),
        ("messages.simulation.notHTTP", "not HTTP"),
        ("messages.simulation.cancelled", "requests cancelled when the run stopped"),
        ("messages.simulation.noInternal", "no internal listener given: dummy Immuni traffic only"),
        ("messages.simulation.noSmsCodes", "no way to read SMS codes given: no APRICOT phones"),
        ("messages.simulation.noPseudoIDs", "apricot login without pseudo-ids"),
        ("messages.simulation.skipped", "session skipped: {count} already in flight"),
        ("audit.line.notCheckpoint", "line {line} is not a checkpoint: {why}"),
        ("audit.line.otherKey", "line {line} was signed by audit key {key}, not by the public key given: not checked"),
        (
            "audit.line.badSignature",
            "line {line}'s signature does not verify with key {key}: the line was changed after it was signed"
        ),
        (
            "audit.line.fewer.one",
            "line {line} anchors {entries} entry, fewer than line {before} before it ({lastEntries}): lines were reordered or removed"
        ),
        (
            "audit.line.fewer.other",
            "line {line} anchors {entries} entries, fewer than line {before} before it ({lastEntries}): lines were reordered or removed"
        ),
        (
            "audit.line.earlier",
            "line {line} was made at {at}, before line {before} ({lastAt}): lines were reordered or removed"
        ),
        (
            "audit.line.otherLog",
            "line {line} is of another audit log: the store's entry 1 has another hash. Either this checkpoint file is another store's (give the right one), or the whole log was rewritten from entry 1"
        ),
        (
            "audit.line.cutOff.one",
            "line {line} anchors {entries} entry (at {at}), but the store has {store}: entries {from}…{entries} were cut off the end"
        ),
        (
            "audit.line.cutOff.other",
            "line {line} anchors {entries} entries (at {at}), but the store has {store}: entries {from}…{entries} were cut off the end"
        ),
        (
            "audit.line.matchesAgain",
            "line {line} matches the store again, though an earlier line does not: it was signed after the chain was changed"
        ),
        (
            "audit.bound.after.one",
            "line {line} ({entries} entry) still matches, so the change is among entries {from}…{to}"
        ),
        (
            "audit.bound.after.other",
            "line {line} ({entries} entries) still matches, so the change is among entries {from}…{to}"
        ),
        ("audit.bound.all", "the change is among entries 1…{to}"),
        (
            "audit.line.mismatch.one",
            "the store's chain does not match line {line} ({entries} entry, at {at}): an entry was rewritten, removed or reordered and the later hashes recomputed; {bound}"
        ),
        (
            "audit.line.mismatch.other",
            "the store's chain does not match line {line} ({entries} entries, at {at}): an entry was rewritten, removed or reordered and the later hashes recomputed; {bound}"
        ),
        ("audit.laterMismatches.one", "(and {count} later line does not match either)"),
        ("audit.laterMismatches.other", "(and {count} later lines do not match either)"),
        (
            "audit.noLineSigned.one",
            "no line was signed by the public key given (the file's key: {keys}): give the public key of the audit key that wrote this file (tracedesk keys public --key AUDIT-KEY)"
        ),
        (
            "audit.noLineSigned.other",
            "no line was signed by the public key given (the file's keys: {keys}): give the public key of the audit key that wrote this file (tracedesk keys public --key AUDIT-KEY)"
        ),
        (
            "audit.append.broken",
            "the audit chain is broken at entry {id} ({reason}): a checkpoint is never written for a broken chain"
        ),
        (
            "audit.append.otherLog",
            "the file's checkpoints are of another audit log (the store's entry 1 differs): give a checkpoint file of this store, or a new file"
        ),
        (
            "audit.append.cutOff.one",
            "the file's last checkpoint anchors {entries} entry, the store has {store}: entries were cut off the end"
        ),
        (
            "audit.append.cutOff.other",
            "the file's last checkpoint anchors {entries} entries, the store has {store}: entries were cut off the end"
        ),
        (
            "audit.append.rewritten.one",
            "the store's chain no longer matches the file's last checkpoint ({entries} entry): an entry up to {entries} was rewritten"
        ),
        (
            "audit.append.rewritten.other",
            "the store's chain no longer matches the file's last checkpoint ({entries} entries): an entry up to {entries} was rewritten"
        ),
        ("audit.parse.notJSON", "not JSON ({reason} at byte {offset})"),
        ("audit.parse.notObject", "not a JSON object"),
        ("audit.parse.unknownMember", "unknown member \"{member}\""),
        ("audit.parse.twice", "member \"{member}\" given twice"),
        ("audit.parse.missing", "member \"{member}\" is missing"),
        ("audit.parse.format", "format is not {format} (made by another program or a newer TraceDesk)"),
        ("audit.parse.entries", "entries is not a whole number of entries"),
        ("audit.parse.headHash", "head_hash is not 64 lowercase hex digits"),
        ("audit.parse.firstHash", "first_hash is not 64 lowercase hex digits"),
        ("audit.parse.at", "at is not a UTC time as 2026-12-01T17:00:00.000Z"),
        ("audit.parse.keyID", "key_id is not 16 lowercase hex digits"),
        ("audit.parse.signature", "signature is missing or too long"),
        ("audit.break.missing", "entries {from}…{to} are missing: deleted from the log"),
        ("audit.break.outOfOrder", "id {id} is out of order after {after}"),
        (
            "audit.break.firstNotStart",
            "the first entry does not start the chain: entries before it were removed or it was edited"
        ),
        (
            "audit.break.previousMismatch",
            "its previous-hash does not match entry {previous}: entry {previous} was edited or replaced"
        ),
        (
            "audit.break.contentsMismatch",
            "its contents do not match its hash: the entry was edited after it was written"
        ),
    ]
}
