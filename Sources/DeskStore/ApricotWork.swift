import CivilCalendar
import DeskCore
import DeskCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SQL of the APRICOT part of the store, written once with `?` placeholders. Lists of
/// pseudo-id suffixes are bound as one text value: `IN_LIST` stands for the dialect's way of
/// reading it (SQLite's `json_each` over `[1,2]`, PostgreSQL's array `{1,2}`).
enum ApricotSQL {
    // SMS codes: one row per code issued, so the hour's count survives a replaced code.
    static let recentCodes = """
        SELECT count(*), coalesce(min(created_at_ms), 0), coalesce(max(created_at_ms), 0) FROM apricot_sms_codes
        WHERE phone = ? AND created_at_ms > ?
        """
    static let retireCodes = "UPDATE apricot_sms_codes SET state = 'replaced' WHERE phone = ? AND state = 'active'"
    static let insertCode = """
        INSERT INTO apricot_sms_codes (phone, code_hmac, created_at_ms, expires_at_ms, attempts, state)
        VALUES (?, ?, ?, ?, 0, 'active')
        """
    static let currentCode = """
        SELECT id, code_hmac, expires_at_ms, attempts FROM apricot_sms_codes
        WHERE phone = ? AND state = 'active' ORDER BY id DESC LIMIT 1
        """
    /// Counts an attempt unless the code has had its share; returns a row when it counted.
    static let countAttempt =
        "UPDATE apricot_sms_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ? RETURNING attempts"
    static let useCode = "UPDATE apricot_sms_codes SET state = 'used' WHERE id = ? AND state = 'active'"

    // Users and pseudo-ids.
    static let userByPhone = "SELECT id, registered_at_ms FROM apricot_users WHERE phone = ?"
    static let insertUser = """
        INSERT INTO apricot_users (phone, app_id, device_id, registered_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (phone) DO NOTHING RETURNING id
        """
    static let suffixesOf = "SELECT suffix FROM pseudo_ids WHERE user_id = ? ORDER BY suffix"
    /// Takes `count` pseudo-ids from the capacity, unless that would pass it (no row changed).
    static let reserve = """
        UPDATE apricot_counters SET value = value + ? WHERE name = 'pseudo_ids' AND value + ? <= ?
        """
    static let release = "UPDATE apricot_counters SET value = value - ? WHERE name = 'pseudo_ids'"
    static let used = "SELECT value FROM apricot_counters WHERE name = 'pseudo_ids'"
    static let insertToken = """
        INSERT INTO apricot_tokens (token_hash, user_id, app_id, device_id, created_at_ms, expires_at_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    static let tokenUser = """
        SELECT user_id FROM apricot_tokens
        WHERE token_hash = ? AND app_id = ? AND device_id = ? AND expires_at_ms > ?
        """

    // Contact files.
    static let ownedAmong = "SELECT suffix FROM pseudo_ids WHERE suffix IN_LIST"
    static let fileExists = "SELECT count(*) FROM contact_files WHERE user_id = ? AND day = ?"
    static let upsertFile = """
        INSERT INTO contact_files (user_id, day, received_at_ms, client_clock_s, skew_s, records, bytes)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id, day) DO UPDATE SET received_at_ms = excluded.received_at_ms,
            client_clock_s = excluded.client_clock_s, skew_s = excluded.skew_s, records = excluded.records,
            bytes = excluded.bytes
        """

    // Tracing.
    static let patient = "SELECT id, phone, registered_at_ms FROM apricot_users WHERE phone = ?"
    static let patientByID = "SELECT id, phone, registered_at_ms FROM apricot_users WHERE id = ?"
    static let files = """
        SELECT day, received_at_ms, skew_s, bytes FROM contact_files WHERE user_id = ? ORDER BY day
        """
    static let owners = "SELECT suffix, user_id FROM pseudo_ids WHERE suffix IN_LIST"
    static let phones = "SELECT id, phone FROM apricot_users WHERE id IN_LIST"
    static let outcomes = """
        SELECT contact_user_id, outcome, note, recorded_by, recorded_at_ms FROM contact_outcomes
        WHERE patient_user_id = ?
        """
    static let upsertOutcome = """
        INSERT INTO contact_outcomes (patient_user_id, contact_user_id, outcome, note, recorded_by, recorded_at_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (patient_user_id, contact_user_id) DO UPDATE SET outcome = excluded.outcome,
            note = excluded.note, recorded_by = excluded.recorded_by, recorded_at_ms = excluded.recorded_at_ms
        """

    // The SMS outbox.
    static let enqueueSms = """
        INSERT INTO sms_messages (phone, text, gateway, status, attempts, detail, created_at_ms, updated_at_ms,
            text_expires_at_ms)
        VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id
        """
    /// A phone's texts written up to now, once its code is used or replaced by a newer one.
    static let dropPhoneTexts = """
        UPDATE sms_messages SET text = '', text_dropped = ?
        WHERE phone = ? AND text_dropped IS NULL AND created_at_ms <= ?
        """
    /// Texts whose code has expired (sms_messages_by_text_expiry).
    static let dropExpiredTexts = """
        UPDATE sms_messages SET text = '', text_dropped = 'expired'
        WHERE text_dropped IS NULL AND text_expires_at_ms <= ?
        """
    static let recordDelivery = """
        UPDATE sms_messages SET status = ?, detail = ?, attempts = attempts + 1, updated_at_ms = ? WHERE id = ?
        """
    static let outbox = """
        SELECT id, phone, text, gateway, status, attempts, detail, created_at_ms, updated_at_ms, text_dropped
        FROM sms_messages ORDER BY id DESC LIMIT ?
        """

    // Retention.
    static let deleteOldFiles = "DELETE FROM contact_files WHERE day < ?"
    /// Expired, and out of the hour the rate limit counts.
    static let deleteOldCodes = "DELETE FROM apricot_sms_codes WHERE expires_at_ms <= ? AND created_at_ms <= ?"
    static let deleteExpiredTokens = "DELETE FROM apricot_tokens WHERE expires_at_ms <= ?"
    /// Outbox messages hold a code and a phone number: kept only for a day.
    static let deleteOldSms = "DELETE FROM sms_messages WHERE created_at_ms <= ?"
}

/// The statements of ``ApricotWork`` in one adapter's dialect.
struct ApricotStatements: Sendable {
    var recentCodes, retireCodes, insertCode, currentCode, countAttempt, useCode: String
    var userByPhone, insertUser, suffixesOf, insertSuffixes, reserve, release, used, insertToken, tokenUser: String
    var ownedAmong, fileExists, upsertFile, patient, patientByID, files, owners, phones, outcomes, upsertOutcome: String
    var enqueueSms, dropPhoneTexts, dropExpiredTexts, recordDelivery, outbox, deleteOldFiles, deleteOldCodes,
        deleteExpiredTokens, deleteOldSms: String
    var insertEvent: String
    /// Serialises the codes of one phone across servers (PostgreSQL's transaction-level advisory
    /// lock, in the one-key space, which never meets the two-key locks of ``PGSQL``). Nil for
    /// SQLite, whose write transaction is exclusive already.
    var lockPhone: String?
    /// A list of suffixes as the text `IN_LIST` reads.
    var listOpen, listClose: String

    static let sqlite = ApricotStatements(.sqlite)
    static let postgres = ApricotStatements(.postgres)

    private init(_ sql: SQLDialect) {
        let dialect = sql.text
        let onSQLite = sql == .sqlite
        let insertSuffixes =
            onSQLite
            ? """
            INSERT INTO pseudo_ids (suffix, user_id) SELECT value, ? FROM json_each(?) WHERE true
            ON CONFLICT DO NOTHING RETURNING suffix
            """
            : """
            INSERT INTO pseudo_ids (suffix, user_id) SELECT s, ? FROM unnest(?::text::bigint[]) AS s
            ON CONFLICT DO NOTHING RETURNING suffix
            """
        let insertEvent = dialect(SQL.insertEvent)
        let lockPhone: String? =
            onSQLite
            ? nil
            : "SELECT pg_advisory_xact_lock(hashtextextended('tracedesk:apricot:' || current_schema() || ':' || ?, 0))"
        let listOpen = onSQLite ? "[" : "{"
        let listClose = onSQLite ? "]" : "}"
        let list = sql.listing
        recentCodes = dialect(ApricotSQL.recentCodes)
        dropPhoneTexts = dialect(ApricotSQL.dropPhoneTexts)
        dropExpiredTexts = dialect(ApricotSQL.dropExpiredTexts)
        retireCodes = dialect(ApricotSQL.retireCodes)
        insertCode = dialect(ApricotSQL.insertCode)
        currentCode = dialect(ApricotSQL.currentCode)
        countAttempt = dialect(ApricotSQL.countAttempt)
        useCode = dialect(ApricotSQL.useCode)
        userByPhone = dialect(ApricotSQL.userByPhone)
        insertUser = dialect(ApricotSQL.insertUser)
        suffixesOf = dialect(ApricotSQL.suffixesOf)
        self.insertSuffixes = dialect(insertSuffixes)
        reserve = dialect(ApricotSQL.reserve)
        release = dialect(ApricotSQL.release)
        used = dialect(ApricotSQL.used)
        insertToken = dialect(ApricotSQL.insertToken)
        tokenUser = dialect(ApricotSQL.tokenUser)
        ownedAmong = list(ApricotSQL.ownedAmong)
        fileExists = dialect(ApricotSQL.fileExists)
        upsertFile = dialect(ApricotSQL.upsertFile)
        patient = dialect(ApricotSQL.patient)
        patientByID = dialect(ApricotSQL.patientByID)
        files = dialect(ApricotSQL.files)
        owners = list(ApricotSQL.owners)
        phones = list(ApricotSQL.phones)
        outcomes = dialect(ApricotSQL.outcomes)
        upsertOutcome = dialect(ApricotSQL.upsertOutcome)
        enqueueSms = dialect(ApricotSQL.enqueueSms)
        recordDelivery = dialect(ApricotSQL.recordDelivery)
        outbox = dialect(ApricotSQL.outbox)
        deleteOldFiles = dialect(ApricotSQL.deleteOldFiles)
        deleteOldCodes = dialect(ApricotSQL.deleteOldCodes)
        deleteExpiredTokens = dialect(ApricotSQL.deleteExpiredTokens)
        deleteOldSms = dialect(ApricotSQL.deleteOldSms)
        self.insertEvent = insertEvent
        self.lockPhone = lockPhone.map(dialect)
        self.listOpen = listOpen
        self.listClose = listClose
    }
}

/// SMS codes, users and pseudo-ids, tokens, contact files, outcomes and the SMS outbox: one
/// implementation for every adapter, run inside the transaction the adapter opened.
///
/// Privacy rule: no phone number, code HMAC or token hash reaches an error, an event or an
/// audit entry; users are named `user N`.
struct ApricotWork<DB: SQLRunning> {
    let db: DB
    let sql: ApricotStatements
    let staff: StaffWork<DB>
    /// How many pseudo-ids may exist (``PseudoID/capacity``, lower in tests).
    let capacity: Int64

    /// Suffixes looked up per statement.
    static var batchSize: Int { 10_000 }
    /// Rounds of new suffixes a registration tries before giving up (each round retries only
    /// the suffixes another user took meanwhile).
    static var suffixRounds: Int { 1_000 }

    // MARK: SMS codes

    /// In a write transaction.
    func issueSmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeIssue {
        let op = "issue SMS code"
        let nowMs = now.unixMilliseconds
        if let lockPhone = sql.lockPhone { _ = try db.query(lockPhone, [.text(phone.e164)], operation: op) { _ in 0 } }
        let windowStart = nowMs - SmsCodeLimit.windowMilliseconds
        let recent = try db.query(sql.recentCodes, [.text(phone.e164), .integer(windowStart)], operation: op) {
            SmsCodeHistory(count: Int($0.integer(0)), oldestAtMs: $0.integer(1), newestAtMs: $0.integer(2))
        }.first
        if let recent, case .wait(let seconds) = SmsCodeLimit.decide(recent, nowMs: nowMs, policy: policy) {
            return .tooSoon(retryAfterSeconds: seconds)
        }
        try db.run(sql.retireCodes, [.text(phone.e164)], operation: op)
        // The replaced code's text, and every text whose code has expired, are dead: drop them.
        try dropTexts(phone: phone, reason: .replaced, nowMs: nowMs, operation: op)
        try db.run(
            sql.insertCode,
            [
                .text(phone.e164), .text(codeHMAC), .integer(nowMs),
                .integer(SmsCodeLimit.expiresAtMs(issuedAtMs: nowMs, policy: policy)),
            ], operation: op)
        return .issued
    }

    /// In a write transaction.
    func verifySmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeCheck {
        let op = "verify SMS code"
        let nowMs = now.unixMilliseconds
        guard
            let code = try db.query(
                sql.currentCode, [.text(phone.e164)], operation: op,
                {
                    (id: $0.integer(0), hmac: $0.text(1), expiresMs: $0.integer(2), attempts: Int($0.integer(3)))
                }
            ).first
        else { return .wrong }
        if SmsCodeLimit.isExpired(expiresAtMs: code.expiresMs, nowMs: nowMs) { return .expired }
        // Counted by a conditional update: attempts racing on several servers each count once.
        let counted = try db.query(
            sql.countAttempt, [.integer(code.id), .integer(Int64(policy.maxAttempts))], operation: op
        ) { $0.integer(0) }
        guard !counted.isEmpty else { return .tooManyAttempts }
        guard ConstantTime.equal(code.hmac, codeHMAC) else { return .wrong }
        guard try db.run(sql.useCode, [.integer(code.id)], operation: op) == 1 else { return .wrong }
        try dropTexts(phone: phone, reason: .used, nowMs: nowMs, operation: op)
        return .verified
    }

    /// Drops the texts of `phone`'s messages so far (their code is `reason`: used or replaced),
    /// and every text whose code has expired (issue 18, point 5: the outbox kept every code's
    /// text for good). The rows stay, so `sms outbox` still lists them, saying why.
    func dropTexts(phone: PhoneNumber, reason: SmsTextDropped, nowMs: Int64, operation: String) throws(StoreError) {
        try db.run(
            sql.dropPhoneTexts, [.text(reason.rawValue), .text(phone.e164), .integer(nowMs)], operation: operation)
        try db.run(sql.dropExpiredTexts, [.integer(nowMs)], operation: operation)
    }

    // MARK: Registration

    /// In a write transaction. The capacity is reserved first by a conditional update of the
    /// counter row (on PostgreSQL that row's lock also orders registrations); suffixes are then
    /// inserted in batches, and those another user holds (the primary key refuses them) are
    /// replaced by new ones until `count` are this user's.
    func login(
        phone: PhoneNumber, appID: String, deviceID: String, tokenHash: String, tokenExpiresAt: Date, now: Date,
        count: Int, nextSuffix: () -> UInt32
    ) throws(StoreError) -> ApricotLogin {
        let op = "sign in an APRICOT app"
        let nowMs = now.unixMilliseconds
        var isNew = false
        var userID = try existingUser(phone, operation: op)
        var suffixes: [UInt32] = []
        if userID == nil {
            let reserved = try db.run(
                sql.reserve, [.integer(Int64(count)), .integer(Int64(count)), .integer(capacity)], operation: op)
            guard reserved == 1 else { return .full(try pseudoIDCapacity()) }
            let inserted = try db.query(
                sql.insertUser, [.text(phone.e164), .text(appID), .text(deviceID), .integer(nowMs)], operation: op
            ) { $0.integer(0) }.first
            if let inserted {
                userID = inserted
                isNew = true
                suffixes = try insertSuffixes(user: inserted, count: count, nextSuffix: nextSuffix, operation: op)
            } else {
                // Registered by another server meanwhile (it committed while this one waited):
                // give the reservation back and sign in as that user.
                try db.run(sql.release, [.integer(Int64(count))], operation: op)
                userID = try existingUser(phone, operation: op)
            }
        }
        guard let userID else {
            throw StoreError.failed(operation: op, reason: "the user vanished while signing in")
        }
        if !isNew {
            suffixes = try db.query(sql.suffixesOf, [.integer(userID)], operation: op) {
                UInt32(truncatingIfNeeded: $0.integer(0))
            }
        }
        try db.run(
            sql.insertToken,
            [
                .text(tokenHash), .integer(userID), .text(appID), .text(deviceID), .integer(nowMs),
                .integer(tokenExpiresAt.unixMilliseconds),
            ], operation: op)
        let detail =
            DeskEvent.Detail.ApricotRegistered(pseudoIDs: suffixes.count, returning: !isNew).json
        try appendEvent(.apricotRegistered, at: nowMs, detail: detail)
        return .signedIn(userID: userID, isNew: isNew, pseudoIDs: suffixes.sorted().map(PseudoID.init(suffix:)))
    }

    private func existingUser(_ phone: PhoneNumber, operation: String) throws(StoreError) -> Int64? {
        try db.query(sql.userByPhone, [.text(phone.e164)], operation: operation) { $0.integer(0) }.first
    }

    private func insertSuffixes(
        user: Int64, count: Int, nextSuffix: () -> UInt32, operation: String
    ) throws(StoreError) -> [UInt32] {
        var mine = Set<UInt32>()
        mine.reserveCapacity(count)
        for _ in 0..<Self.suffixRounds {
            let missing = count - mine.count
            if missing <= 0 { return Array(mine) }
            var candidates = Set<UInt32>()
            while candidates.count < min(missing, Self.batchSize) {
                let suffix = nextSuffix()
                if !mine.contains(suffix) { candidates.insert(suffix) }
            }
            let taken = try db.query(
                sql.insertSuffixes, [.integer(user), .text(list(candidates))], operation: operation
            ) { UInt32(truncatingIfNeeded: $0.integer(0)) }
            mine.formUnion(taken)
        }
        throw StoreError.conflict(operation: operation, reason: "no free pseudo-ids found: the space is too full")
    }

    func apricotUser(tokenHash: String, appID: String, deviceID: String, now: Date) throws(StoreError) -> Int64? {
        try db.query(
            sql.tokenUser, [.text(tokenHash), .text(appID), .text(deviceID), .integer(now.unixMilliseconds)],
            operation: "check an APRICOT token"
        ) { $0.integer(0) }.first
    }

    func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity {
        let used = try db.query(sql.used, operation: "read pseudo-id capacity") { $0.integer(0) }.first ?? 0
        var result = PseudoIDCapacity(used: used)
        result.capacity = capacity
        return result
    }

    // MARK: Contact files

    /// In a write transaction.
    func storeContactFile(
        userID: Int64, day: CivilDay, records: [ContactRecord], receivedAt: Date, clientClock: Int64,
        skewSeconds: Int64
    ) throws(StoreError) -> ContactFileReceipt {
        let op = "store contact file"
        var distinct = Set<[UInt8]>()
        var suffixes = Set<UInt32>()
        for record in records where distinct.insert(record.beacon).inserted {
            if let id = record.pseudoID { suffixes.insert(id.suffix) }
        }
        let owned = try ownedCount(Array(suffixes), operation: op)
        let unknown = distinct.count - owned
        let replaced =
            (try db.query(sql.fileExists, [.integer(userID), .text(day.iso)], operation: op) { $0.integer(0) }.first
                ?? 0) > 0
        let receivedMs = receivedAt.unixMilliseconds
        try db.run(
            sql.upsertFile,
            [
                .integer(userID), .text(day.iso), .integer(receivedMs), .integer(clientClock), .integer(skewSeconds),
                .integer(Int64(records.count)), .blob(ContactFile.encode(records)),
            ], operation: op)
        try appendEvent(
            .contactFileReceived, at: receivedMs,
            detail: DeskEvent.Detail.ContactFileReceived(
                day: day, records: records.count, distinctBeacons: distinct.count, unknownBeacons: unknown,
                clockSkewSeconds: skewSeconds, replaced: replaced
            ).json)
        return ContactFileReceipt(
            records: records.count, distinctBeacons: distinct.count, unknownBeacons: unknown, replaced: replaced)
    }

    private func ownedCount(_ suffixes: [UInt32], operation: String) throws(StoreError) -> Int {
        var owned = 0
        try Self.forEachBatch(suffixes) { batch throws(StoreError) in
            owned += try db.query(sql.ownedAmong, [.text(list(batch))], operation: operation) { _ in 1 }.count
        }
        return owned
    }

    // MARK: Tracing

    /// In one read snapshot.
    func tracePatient(phone: PhoneNumber) throws(StoreError) -> StoredTracePatient? {
        try tracePatient(sql.patient, .text(phone.e164))
    }

    /// In one read snapshot.
    func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient? {
        try tracePatient(sql.patientByID, .integer(userID))
    }

    private func tracePatient(_ statement: String, _ key: SQLValue) throws(StoreError) -> StoredTracePatient? {
        let op = "read a patient"
        guard
            let user = try db.query(
                statement, [key], operation: op,
                { row -> (Int64, PhoneNumber, Int64)? in
                    guard let phone = PhoneNumber(e164: row.text(1)) else { return nil }
                    return (row.integer(0), phone, row.integer(2))
                }
            ).first ?? nil
        else { return nil }
        let own = try db.query(sql.suffixesOf, [.integer(user.0)], operation: op) {
            UInt32(truncatingIfNeeded: $0.integer(0))
        }
        let files = try db.query(sql.files, [.integer(user.0)], operation: op) { row -> StoredTracePatient.File? in
            guard let day = CivilDay(iso: row.text(0)) else { return nil }
            return StoredTracePatient.File(
                day: day, receivedAt: Date(unixMilliseconds: row.integer(1)), skewSeconds: row.integer(2),
                bytes: row.blob(3))
        }.compactMap { $0 }
        return StoredTracePatient(
            userID: user.0, phone: user.1, registeredAt: Date(unixMilliseconds: user.2), ownSuffixes: Set(own),
            files: files)
    }

    /// Two reads: the owner of each suffix (batches of ``batchSize``, in suffix order, so
    /// each batch walks one part of the primary key), then the phone of each distinct owner
    /// (a few hundred, where a join would read one per sighting's pseudo-id).
    func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)] {
        let op = "resolve pseudo-ids"
        var users: [UInt32: Int64] = [:]
        users.reserveCapacity(suffixes.count)
        try Self.forEachBatch(suffixes.sorted()) { batch throws(StoreError) in
            for (suffix, user) in try db.query(
                sql.owners, [.text(list(batch))], operation: op,
                {
                    (UInt32(truncatingIfNeeded: $0.integer(0)), $0.integer(1))
                })
            {
                users[suffix] = user
            }
        }
        var phones: [Int64: PhoneNumber] = [:]
        try Self.forEachBatch(Array(Set(users.values)).sorted()) { batch throws(StoreError) in
            for (id, phone) in try db.query(
                sql.phones, [.text(list(batch))], operation: op,
                {
                    ($0.integer(0), PhoneNumber(e164: $0.text(1)))
                })
            {
                phones[id] = phone
            }
        }
        var found: [UInt32: (userID: Int64, phone: PhoneNumber)] = [:]
        found.reserveCapacity(users.count)
        for (suffix, user) in users {
            if let phone = phones[user] { found[suffix] = (user, phone) }
        }
        return found
    }

    func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] {
        let rows = try db.query(sql.outcomes, [.integer(patientUserID)], operation: "read call outcomes") {
            row -> (Int64, RecordedOutcome)? in
            guard let outcome = ContactOutcome(rawValue: row.text(1)) else { return nil }
            return (
                row.integer(0),
                RecordedOutcome(
                    outcome: outcome, note: row.text(2), by: row.text(3), at: Date(unixMilliseconds: row.integer(4)))
            )
        }
        return Dictionary(rows.compactMap { $0 }, uniquingKeysWith: { _, last in last })
    }

    /// In a write transaction: the outcome and its audit entry commit together.
    func recordContactOutcome(
        patientUserID: Int64, contactUserID: Int64, outcome: RecordedOutcome, purpose: String
    ) throws(StoreError) {
        let op = "record a call outcome"
        // The log's lock before any row (StaffWork's lock order).
        try staff.lockAudit(operation: op)
        let atMs = outcome.at.unixMilliseconds
        try db.run(
            sql.upsertOutcome,
            [
                .integer(patientUserID), .integer(contactUserID), .text(outcome.outcome.rawValue), .text(outcome.note),
                .text(outcome.by), .integer(atMs),
            ], operation: op)
        try staff.appendAudit(
            actor: outcome.by, action: .contactOutcome, target: "user \(contactUserID)",
            detail: AuditEntry.Detail.ContactOutcomeRecorded(
                patient: "user \(patientUserID)", outcome: outcome.outcome.rawValue, purpose: purpose
            ).json,
            at: atMs)
    }

    // MARK: The SMS outbox

    func enqueueSms(
        phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, detail: String, now: Date,
        textExpiresAt: Date?
    ) throws(StoreError) -> Int64 {
        let nowMs = now.unixMilliseconds
        guard
            let id = try db.query(
                sql.enqueueSms,
                [
                    .text(phone.e164), .text(text), .text(gateway), .text(status.rawValue), .text(detail),
                    .integer(nowMs), .integer(nowMs), textExpiresAt.map { .integer($0.unixMilliseconds) } ?? .null,
                ],
                operation: "queue an SMS", { $0.integer(0) }
            ).first
        else { throw StoreError.failed(operation: "queue an SMS", reason: "no id came back") }
        return id
    }

    func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        try db.run(
            sql.recordDelivery, [.text(status.rawValue), .text(detail), .integer(now.unixMilliseconds), .integer(id)],
            operation: "record an SMS delivery")
    }

    func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] {
        try db.query(sql.outbox, [.integer(Int64(max(0, limit)))], operation: "read the SMS outbox") {
            row -> SmsMessage? in
            guard let phone = PhoneNumber(e164: row.text(1)) else { return nil }
            return SmsMessage(
                id: row.integer(0), phone: phone, text: row.text(2), gateway: row.text(3),
                status: SmsDeliveryStatus(rawValue: row.text(4)) ?? .failed, attempts: Int(row.integer(5)),
                detail: row.text(6), createdAt: Date(unixMilliseconds: row.integer(7)),
                updatedAt: Date(unixMilliseconds: row.integer(8)),
                textDropped: row.optionalText(9).flatMap(SmsTextDropped.init(rawValue:)))
        }.compactMap { $0 }
    }

    // MARK: Retention

    /// In the cleanup's transaction: contact files of days the history no longer accepts,
    /// SMS codes expired and out of the rate limit's hour, expired tokens, SMS messages older
    /// than ``RetentionPolicy/smsMessageHours``.
    func cleanup(now: Date, policy: RetentionPolicy, into report: inout CleanupReport) throws(StoreError) {
        let op = "clean up"
        let nowMs = now.unixMilliseconds
        // The oldest day kept is the oldest an upload is accepted for (ContactFile.checkDay).
        let oldestKept = ContactFile.oldestDay(today: now.utcDay, historyDays: policy.contactHistoryDays)
        report.contactFiles = try db.run(sql.deleteOldFiles, [.text(oldestKept.iso)], operation: op)
        report.smsCodes = try db.run(
            sql.deleteOldCodes, [.integer(nowMs), .integer(nowMs - SmsCodeLimit.windowMilliseconds)], operation: op)
        report.apricotTokens = try db.run(sql.deleteExpiredTokens, [.integer(nowMs)], operation: op)
        try db.run(sql.dropExpiredTexts, [.integer(nowMs)], operation: op)
        report.smsMessages = try db.run(
            sql.deleteOldSms, [.integer(nowMs - Int64(policy.smsMessageHours) * 3_600_000)], operation: op)
    }

    // MARK: Internals

    private func appendEvent(_ kind: DeskEvent.Kind, at ms: Int64, detail: String) throws(StoreError) {
        try db.run(
            sql.insertEvent, [.integer(ms), .text(kind.rawValue), .null, .null, .text(detail)],
            operation: "append event")
    }

    /// Numbers as the dialect's list parameter (a JSON array on SQLite, an array literal on PostgreSQL).
    private func list<S: Sequence>(_ numbers: S) -> String where S.Element: BinaryInteger {
        sql.listOpen + numbers.map { String($0) }.joined(separator: ",") + sql.listClose
    }

    /// `items` in slices of ``batchSize``, in order.
    private static func forEachBatch<T>(
        _ items: [T], _ body: (ArraySlice<T>) throws(StoreError) -> Void
    ) throws(StoreError) {
        var start = 0
        while start < items.count {
            try body(items[start..<min(items.count, start + batchSize)])
            start += batchSize
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
