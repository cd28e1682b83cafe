extension English {
    /// The refusals of the desks (local and remote) and of the staff rules, in English (keys
    /// `errors.…`): what the console and the command line show when a staff request cannot be
    /// done. A staff API server answers them in the language its client asks for
    /// (Accept-Language); the phones' and hospitals' APIs keep their own English texts.
    static let errors: [(String, String)] = [
        ("errors.signIn.typePassword", "type your password"),
        ("errors.signIn.busy", "sign-ins with this name are being checked: try again in a moment"),
        (
            "errors.signIn.wait.local",
            "too many failed sign-ins with this name on this computer: wait {seconds} s, then try again"
        ),
        (
            "errors.signIn.wait.remote",
            "too many failed sign-ins with this name from this address: wait {seconds} s, then try again"
        ),
        ("errors.staff.nameTaken", "the name {name} is taken (disabled accounts keep their names): choose another"),
        ("errors.staff.disableSelf", "you cannot disable your own account: ask another admin"),
        ("errors.staff.noAccount", "there is no account named {name}: see the staff list"),
        ("errors.audit.tooManyCounts", "at most {count} counts can be asked at once: ask for fewer checkpoints"),
        ("errors.session.none", "not signed in: sign in first"),
        ("errors.session.unknown", "this session is not known here: sign in again"),
        ("errors.session.ended", "this session has ended (signed out, or the password was reset): sign in again"),
        ("errors.session.disabled", "the account {user} is disabled: ask an admin"),
        ("errors.session.expired", "your session ended {duration} after sign-in: sign in again"),
        ("errors.session.idle", "your session ended after {duration} without activity: sign in again"),
        ("errors.setup.tokenFile", " (also in {file}, mode 0600)"),
        (
            "errors.setup.tokenRefused",
            "the first admin of a server needs the one-time setup token that tracedesk serve printed at start{file}: give it, or run tracedesk staff add NAME --role admin on the store"
        ),
        ("errors.setup.accountsExist", "staff accounts exist already: sign in, or ask an admin for an account"),
        (
            "errors.code.anotherOperator",
            "this code was authorised by another operator: only they and supervisors can follow it"
        ),
        (
            "errors.signIn.wrong",
            "wrong user name or password: check both and try again (if it keeps failing, ask an admin: the account may be locked or disabled)"
        ),
        ("errors.trace.sightingsPage", "a page holds 1 to {max} sightings: ask for fewer"),
        ("errors.trace.offset", "a page starts at offset 0 or later"),
        (
            "errors.trace.notAContact",
            "user {contact} is not a contact of user {patient}: look the patient up again and pick a row of the contacts table"
        ),
        ("errors.trace.exportKind", "unknown export kind: use one of {kinds}"),
        ("errors.trace.exportRows", "an export has 0 rows or more"),
        ("errors.trace.outboxPage", "the outbox shows 1 to {max} messages: ask for fewer"),
        ("errors.trace.noUser", "no APRICOT user {user}: look the patient up by phone number first"),
        ("errors.monitor.noEvent", "there is no event {id}: retention may have deleted it"),
        ("errors.monitor.notAboutACode", "event {id} is not about a code"),
        ("errors.monitor.notYourEvent", "you can watch only events about codes you authorised"),
        ("errors.monitor.noAuthorization", "no authorisation for this code: check the code the citizen reads out"),
        (
            "errors.his.rate",
            "a client's rate limit is {min} to {max} authorisations a minute: give another, or none for the server's setting"
        ),
        (
            "errors.his.nameTaken",
            "the HIS client name {name} is taken (revoked clients keep their names): choose another"
        ),
        ("errors.his.noClient", "there is no HIS client named {name}: see tracedesk his list"),
        ("errors.monitor.pageSize", "ask for 1 to {max} events per page (not {limit})"),
        ("errors.monitor.position", "an event position is 0 or more: start from 0"),
        ("errors.monitor.negativeWait", "a wait cannot be negative: give 0 to 60 seconds"),
        ("errors.role.forbidden", "your role ({role}) cannot {action}: that needs the {allowed} role"),
        ("errors.role.or", " or "),
        (
            "errors.trace.unknownPatient",
            "no APRICOT user has this number: check it with the patient, or ask them to register in the app"
        ),
        ("errors.note.tooLong", "the note has {count} characters, at most {max}: shorten it"),
        ("errors.note.control", "the note may not contain control characters (line breaks, tabs): type it on one line"),
        ("errors.useCase.authorize_code", "authorise codes"),
        ("errors.useCase.code_status", "see the status of codes"),
        ("errors.useCase.list_staff", "list staff accounts"),
        ("errors.useCase.add_staff", "add staff accounts"),
        ("errors.useCase.disable_staff", "disable staff accounts"),
        ("errors.useCase.reset_password", "reset passwords"),
        ("errors.useCase.read_audit", "read the audit log"),
        ("errors.useCase.verify_audit", "verify the audit log"),
        ("errors.useCase.monitor_events", "watch the activity feed"),
        ("errors.useCase.watch_code", "watch codes"),
        ("errors.useCase.trace_contacts", "trace contacts"),
        ("errors.useCase.read_sms_outbox", "read the SMS outbox"),
        ("errors.useCase.read_statistics", "read the statistics"),
        ("errors.useCase.manage_his_clients", "manage hospital systems (HIS clients)"),
        ("errors.useCase.manage_cases", "open and close cases"),
        ("errors.useCase.work_follow_ups", "record calls and checks of follow-ups"),
        ("errors.useCase.read_follow_ups", "read cases and follow-ups"),
        ("errors.useCase.assign_follow_ups", "assign follow-ups to tracers"),
        (
            "errors.case.indexDayFuture",
            "the index day {day} is after today ({today}): type the day symptoms started or the test was taken"
        ),
        ("errors.case.listSize", "a case list holds 1 to {max} cases: ask for fewer"),
        (
            "errors.case.notYours",
            "case {id} was opened by {opener} and none of its follow-ups is yours: ask {opener} or a supervisor"
        ),
        ("errors.case.closeNotYours", "case {id} was opened by {opener}: only they or a supervisor can close it"),
        ("errors.case.closedAlready", "case {id} ({reference}) is closed already: nothing to do"),
        (
            "errors.case.reasonNeeded",
            "say why the person is followed (e.g. “household member”): a contact added by hand needs a reason"
        ),
        ("errors.case.addNotYours", "case {id} was opened by {opener}: ask them to add the contact"),
        (
            "errors.case.unknownContact",
            "no APRICOT user has this number: only a registered app user can be followed; check the number with the patient"
        ),
        ("errors.case.closedNoMore", "case {id} ({reference}) is closed: open a new case to follow more contacts"),
        ("errors.case.isPatient", "this number is the case's patient: a patient is not their own contact"),
        ("errors.queue.pageSize", "a queue page holds 1 to {max} persons: ask for fewer"),
        ("errors.queue.onlyOwn", "a tracer sees only their own queue: ask a supervisor for {name}'s"),
        ("errors.queue.onlyOwnAll", "a tracer sees only their own queue: ask a supervisor for everyone's"),
        ("errors.queue.searchLong", "a queue search has at most 64 characters: shorten it"),
        ("errors.assign.none", "no follow-up to assign: mark one or more first"),
        ("errors.assign.tooMany", "at most {max} follow-ups are assigned at once: mark fewer"),
        ("errors.assign.badName", "“{name}” is not an account name: type the tracer's name as the staff list shows it"),
        (
            "errors.assign.notATracer",
            "{name} is not an enabled tracer's account: assign to a tracer from the staff list"
        ),
        ("errors.assign.notFound", "no {list}: check the ids in the queue; nothing was assigned"),
        ("errors.assign.ended", "{list} ended already: only active follow-ups are assigned; nothing was assigned"),
        ("errors.followUp.noSuch", "no follow-up {id}: check the id in the queue"),
        (
            "errors.followUp.notYoursAssigned",
            "follow-up {id} is assigned to {tracer} and of no case you opened: ask a supervisor"
        ),
        (
            "errors.followUp.notYoursUnassigned",
            "follow-up {id} is not assigned to anyone and of no case you opened: ask a supervisor"
        ),
        (
            "errors.followUp.assignedOther",
            "follow-up {id} is assigned to {tracer}: nothing recorded; ask a supervisor to reassign it to you"
        ),
        (
            "errors.followUp.unassigned",
            "follow-up {id} is not assigned to anyone yet: nothing recorded; ask a supervisor to assign it to you"
        ),
        ("errors.case.noSuch", "no case {id}: check the number in the case list"),
        ("errors.followUp.listOne", "follow-up {ids}"),
        ("errors.followUp.listMany", "follow-ups {ids}"),
        ("errors.reason.tooLong", "the reason has {count} characters, at most {max}: shorten it"),
        (
            "errors.reason.control",
            "the reason may not contain control characters (line breaks, tabs): type it on one line"
        ),
        ("errors.name.user.empty", "type a user name"),
        ("errors.name.user.tooLong", "a user name has at most {max} characters"),
        ("errors.name.user.firstLetter", "a user name starts with a letter (a-z)"),
        ("errors.name.user.characters", "a user name has only letters a-z, digits and . - _ (no spaces)"),
        ("errors.name.client.empty", "type a client name"),
        ("errors.name.client.tooLong", "a client name has at most {max} characters"),
        ("errors.name.client.firstLetter", "a client name starts with a letter (a-z)"),
        ("errors.name.client.characters", "a client name has only letters a-z, digits and . - _ (no spaces)"),
        ("errors.password.tooShort", "a password has at least {min} characters"),
        ("errors.password.tooLong", "a password has at most {max} characters"),
        ("errors.password.hasName", "the password must not contain the user name"),
        ("errors.password.variety", "the password needs at least 4 different characters"),
        (
            "errors.reference.required",
            "a case reference is required: type the authority's case number, e.g. ASL-2026-0412"
        ),
        ("errors.reference.tooLong", "a case reference has at most {max} characters: shorten it"),
        ("errors.reference.control", "a case reference cannot hold control characters: type it again"),
        (
            "errors.followUp.endedNoCall",
            "follow-up {id} has ended ({state}): nothing more to call; open the queue for the next person"
        ),
        (
            "errors.followUp.notReached",
            "follow-up {id} has not been reached yet: record the call as reached first, then the check"
        ),
        ("errors.followUp.endedNoCheck", "follow-up {id} has ended ({state}): no more checks are due"),
        ("errors.remote.title.retrying", "server unreachable, retrying"),
        ("errors.remote.title.unreachable", "server unreachable"),
        ("errors.remote.title.busyRetrying", "server unavailable, retrying"),
        ("errors.remote.title.unavailable", "server unavailable"),
        ("errors.remote.title.wrongServer", "not a TraceDesk server"),
        ("errors.remote.title.tls", "TLS failed"),
        ("errors.remote.withPath", "the server URL {location} cannot be combined with a path"),
        ("errors.remote.reason.refused", "connection refused"),
        ("errors.remote.reason.unknownHost", "its host name is not known"),
        ("errors.remote.reason.noRoute", "this machine has no route to it"),
        ("errors.remote.reason.connectFailed", "the connection failed"),
        ("errors.remote.reason.closedEarly", "the connection closed before an answer came"),
        ("errors.remote.reason.cancelled", "the request was cancelled"),
        ("errors.remote.reason.noConnection", "no connection within {seconds} s"),
        ("errors.remote.reason.noAnswer", "no complete answer within {seconds} s"),
        (
            "errors.remote.reason.closedTLS",
            "it closed the connection without answering; if the server uses TLS, the URL must start with https://"
        ),
        (
            "errors.remote.tls",
            "a TLS connection to {location} could not be made ({reason}): check https:// against http:// and the port; a server serves https only when given tls_cert and tls_key"
        ),
        ("errors.remote.reason.tooLarge", "it answered more than {bytes} bytes, more than any staff API answer"),
        ("errors.remote.reason.notHTTP", "its answer is not HTTP that this client can read"),
        ("errors.remote.reason.failed", "the request failed: {detail}"),
        (
            "errors.remote.unavailableHTTP",
            "the TraceDesk server at {location} is unavailable (HTTP {status}): try again in a few seconds"
        ),
        (
            "errors.remote.storage",
            "the TraceDesk server at {location} cannot reach its storage now ({detail}): try again in a few seconds"
        ),
        (
            "errors.remote.serverFailed",
            "the TraceDesk server at {location} failed on the {what} ({detail}): tell its administrator"
        ),
        (
            "errors.remote.unreachable",
            "the TraceDesk server at {location} cannot be reached ({reason}): check that it is running and that the URL and port are right, then try again"
        ),
        (
            "errors.remote.notTraceDesk",
            "{location} is not a TraceDesk server ({why}): check the URL and port; the staff API is on the internal listener"
        ),
        ("errors.remote.url.notURL", "'{text}' is not a URL: give one such as http://127.0.0.1:8081"),
        (
            "errors.remote.url.scheme",
            "the server URL must start with http:// or https://, such as http://127.0.0.1:8081"
        ),
        ("errors.remote.url.host", "the server URL has no host: give one such as http://127.0.0.1:8081"),
        ("errors.remote.url.user", "the server URL must not carry a user or password: sign in with --user instead"),
        ("errors.remote.url.query", "the server URL must not have a ?query or #fragment: give scheme, host and port"),
        (
            "errors.remote.version",
            "the TraceDesk server at {location} speaks staff API version {server}, this console version {console}: use matching versions"
        ),
        ("history.opened", "opened ({kind} {day}): {created}, {joined} of other cases joined"),
        ("history.newFollowUps.one", "{count} new follow-up"),
        ("history.newFollowUps.other", "{count} new follow-ups"),
        ("history.followUps.one", "{count} follow-up"),
        ("history.followUps.other", "{count} follow-ups"),
        ("history.cameFrom", "the patient was follow-up {followUp} of {cases}"),
        ("history.case", "case {id}"),
        ("history.becameCase", "follow-up {followUp} became case {case}"),
        ("history.closed", "closed ({reason}): {ended} ended"),
        ("history.added", "follow-up {followUp} added by hand"),
        ("history.attempt", "follow-up {followUp}: {outcome}"),
        ("history.check", "follow-up {followUp}: checked, {symptoms}, {isolating}"),
        ("history.symptoms", "symptoms"),
        ("history.noSymptoms", "no symptoms"),
        ("history.isolating", "isolating"),
        ("history.notIsolating", "not isolating"),
        ("history.assigned", "follow-up {followUp} assigned to {tracer}"),
        ("history.settled", "follow-up {followUp}: {state}"),
        ("cleanup.skipped", "skipped: another server holds the lock"),
        ("cleanup.nothing", "nothing to delete"),
        ("cleanup.deleted", "deleted {what}"),
        ("cleanup.uploads.one", "{count} upload"),
        ("cleanup.uploads.other", "{count} uploads"),
        ("cleanup.keys.one", "{count} key"),
        ("cleanup.keys.other", "{count} keys"),
        ("cleanup.chunks.one", "{count} chunk"),
        ("cleanup.chunks.other", "{count} chunks"),
        ("cleanup.authorizations.one", "{count} authorisation"),
        ("cleanup.authorizations.other", "{count} authorisations"),
        ("cleanup.events.one", "{count} event"),
        ("cleanup.events.other", "{count} events"),
        ("cleanup.analytics.one", "{count} analytics record"),
        ("cleanup.analytics.other", "{count} analytics records"),
        ("cleanup.contactFiles.one", "{count} contact file"),
        ("cleanup.contactFiles.other", "{count} contact files"),
        ("cleanup.smsCodes.one", "{count} SMS code"),
        ("cleanup.smsCodes.other", "{count} SMS codes"),
        ("cleanup.appTokens.one", "{count} app token"),
        ("cleanup.appTokens.other", "{count} app tokens"),
        ("cleanup.smsMessages.one", "{count} SMS message"),
        ("cleanup.smsMessages.other", "{count} SMS messages"),
        ("cleanup.closedCases.one", "{count} closed case"),
        ("cleanup.closedCases.other", "{count} closed cases"),
        ("cleanup.other.one", "{count} other record"),
        ("cleanup.other.other", "{count} other records"),
        ("config.countryCode", "must be + and 1 to 3 digits, not starting with 0, such as +39"),
        ("config.countryCodeString", "must be a string such as \"+39\""),
        ("config.hisListen", "must be an IPv4 address and port, such as 127.0.0.1:8082"),
        ("config.hisListenString", "must be a string such as \"127.0.0.1:8082\""),
        ("config.prefix", "each prefix must be + and 1 to 15 digits, not starting with 0 (\"{part}\" is not)"),
        ("config.prefixesString", "must be a string such as \"+39\" or \"+39 3, +378\""),
        ("config.unknownSetting", "{file}: unknown setting \"{name}\"{suggestion}"),
        ("config.notJSON", "{file} is not valid JSON at byte {offset}: {reason}"),
        ("config.unreadable", "config file {file} cannot be read: check the path given to --config"),
        ("config.tlsTogether", "tls_cert and tls_key must be given together"),
        (
            "config.auditTogether",
            "audit_key_path and audit_checkpoint_path must be given together (the key signs, the file keeps the checkpoints)"
        ),
        ("config.listenDiffer", "listen and internal_listen must differ ({listen})"),
        (
            "config.appleTogether",
            "apple_device_check_url, apple_team_id, apple_key_id and apple_private_key_file must be given together"
        ),
        ("config.googleDigest", "google_attestation_root_file needs google_apk_certificate_digest"),
        (
            "config.idleExceeds",
            "session_idle_minutes ({idle}) must not exceed session_hours ({hours}) in minutes: the idle limit would never apply"
        ),
        ("config.smsURLNeeded", "sms_gateway http needs sms_http_url (the provider's endpoint)"),
        ("config.smsURL", "sms_http_url must be an http(s) URL such as https://sms.example.org/v1/messages"),
        (
            "config.smsHTTPS",
            "sms_http_url must use https (the API key and every code cross the network): plain http is allowed only to 127.0.0.1, ::1 or localhost"
        ),
        ("config.smsKey", "sms_gateway http needs sms_http_api_key"),
        ("config.hisDiffer", "his_listen must differ from listen and internal_listen ({listen})"),
        (
            "config.hisCA",
            "his_auth certificate needs his_ca_file (the authority that signs the hospitals' client certificates)"
        ),
        ("config.hisTLS", "his_auth certificate needs tls_cert and tls_key: client certificates come only over TLS"),
        (
            "config.chunkFit",
            "chunk_min_keys ({min}) plus chunk_padding_jitter ({jitter}) must not exceed chunk_max_keys ({max}): a padded chunk would not fit"
        ),
        ("config.suggestion", " (did you mean \"{near}\"?)"),
        ("config.wholeNumber", "must be a whole number from {min} to {max}"),
        ("config.boolean", "must be true or false"),
        ("config.string", "must be a string"),
        ("config.nonEmpty", "must be a non-empty string"),
        ("config.oneOf", "must be one of {choices}"),
        ("config.name", "must be 1 to 64 letters, digits, _ or ."),
        ("config.nameString", "must be a string of letters, digits, _ or ."),
        ("config.listen", "must be an IPv4 address and port, such as 127.0.0.1:8080"),
        ("config.listenString", "must be a string such as \"127.0.0.1:8080\""),
        ("config.option.listen", "{option} must be an IPv4 address and port, such as {example}"),
        (
            "config.appSettingsMissing",
            "the app settings file config/app-settings.json was not found: set app_settings_file"
        ),
        ("config.cannotRead", "{setting} {file} cannot be read"),
        ("config.cannotReadCheck", "{setting} {file} cannot be read: check the path and that this user may read it"),
        (
            "config.noSigningKey",
            "no signing key: chunks of keys cannot be signed. Make one with `tracedesk keys generate --out signing-key.pem` and give it with --signing-key FILE (or signing_key_path), or set signing_key_required to false to run without publishing"
        ),
        ("config.signingKeyUnusable", "signing_key_path {file} is not a usable P-256 signing key: {problem}"),
        (
            "config.auditKeyUnusable",
            "audit_key_path {file} is not a usable P-256 key: {problem} (make one with tracedesk keys generate --audit --out FILE)"
        ),
        ("config.appleURL", "apple_device_check_url must be an http(s) URL such as https://api.devicecheck.apple.com"),
    ]
}
