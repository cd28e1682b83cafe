import CivilCalendar
import DeskContract
import DeskCore
import DeskStore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Contact tracing over the store (APRICOT): a patient by phone number, their kept contact
// files parsed and resolved to contact persons, call outcomes, exports; and the SMS outbox.
//
// Every call needs the tracer role and a purpose; lookups, exports and outcomes are audited
// with it. Privacy rule: a phone number never reaches an error or an audit entry (users are
// `user N` there).
extension LocalDesk {
    public func traceLookup(_ session: StaffSession, phone: String, purpose: String) async throws(ServiceError)
        -> TraceLookup
    {
        let person = try authenticate(session, for: .traceContacts)
        let purpose = try Self.checkedPurpose(purpose)
        let number: PhoneNumber
        do {
            number = try PhoneNumber.normalize(phone, defaultCountryCode: apricot.defaultCountryCode)
        } catch {
            throw .invalid(error.message)
        }
        guard let stored = try storeCall({ () throws(StoreError) in try store.tracePatient(phone: number) }) else {
            // Audited too (without the number): trying numbers to learn who uses the app leaves a trace.
            try audit(
                person.user, .traceLookup, target: nil,
                detail: AuditEntry.Detail.TraceLookup(purpose: purpose, read: .notFound).json, now: clock.now())
            throw .invalid(ServiceChecks.unknownPatient)
        }
        let now = clock.now()
        let resolved = try resolve(stored, today: now.utcDay)
        let summaries = ContactAggregation.summarize(resolved.sightings, phones: resolved.phones, settings: apricot)
        let outcomes = try storeCall { () throws(StoreError) in
            try store.contactOutcomes(patientUserID: stored.userID)
        }
        let contacts = summaries.map { TraceContact(summary: $0, outcome: outcomes[$0.userID]) }
        let total = resolved.sightings.count
        let unresolved = resolved.sightings.reduce(0) { $0 + ($1.contactUserID == nil ? 1 : 0) }
        let latest = resolved.files.max { $0.receivedAt < $1.receivedAt }
        let patient = TracePatient(
            userID: stored.userID, phone: stored.phone, registeredAt: stored.registeredAt,
            daysUploaded: resolved.files.count, records: total, skewSeconds: latest?.skewSeconds ?? 0,
            firstDay: resolved.files.first?.day, lastDay: resolved.files.last?.day, lastUploadAt: latest?.receivedAt)
        let close = contacts.reduce(0) { $0 + ($1.summary.isCloseContact ? 1 : 0) }
        try audit(
            person.user, .traceLookup, target: "user \(stored.userID)",
            detail: AuditEntry.Detail.TraceLookup(
                purpose: purpose,
                read: .patient(
                    days: resolved.files.count, sightings: total, contacts: contacts.count, closeContacts: close,
                    unresolved: unresolved)
            ).json,
            now: now)
        return TraceLookup(
            patient: patient, contacts: contacts, unresolved: unresolved, totalSightings: total,
            closeContactMinutes: apricot.closeContactMinutes, purpose: purpose,
            lookedUpAt: Date(unixMilliseconds: now.unixMilliseconds))
    }

    /// Every page is audited, as a `trace_lookup` with `"view":"sightings"`, its offset and how
    /// many sightings it returned: any read of raw sightings leaves an entry, whatever offset a
    /// client asks for (docs/decisions.md).
    public func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage {
        let person = try authenticate(session, for: .traceContacts)
        let purpose = try Self.checkedPurpose(purpose)
        guard (1...TraceSightingsPage.maximumLimit).contains(limit) else {
            throw .invalid(tr("errors.trace.sightingsPage", ["max": String(TraceSightingsPage.maximumLimit)]))
        }
        guard offset >= 0 else { throw .invalid(tr("errors.trace.offset")) }
        let stored = try patient(userID: patientUserID)
        let now = clock.now()
        let resolved = try resolve(stored, today: now.utcDay)
        var matching = resolved.sightings
        if let contactUserID { matching = matching.filter { $0.contactUserID == contactUserID } }
        let start = min(offset, matching.count)
        let end = min(matching.count, start + limit)
        let whose = contactUserID.map { "user \($0)" } ?? "all"
        try audit(
            person.user, .traceLookup, target: "user \(patientUserID)",
            detail: AuditEntry.Detail.TraceLookup(
                purpose: purpose, read: .sightings(of: whose, offset: offset, count: end - start, total: matching.count)
            ).json,
            now: now)
        return TraceSightingsPage(
            sightings: Array(matching[start..<end]), total: matching.count,
            nextOffset: end < matching.count ? end : nil)
    }

    public func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome {
        let person = try authenticate(session, for: .traceContacts)
        let purpose = try Self.checkedPurpose(purpose)
        if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
        let stored = try patient(userID: patientUserID)
        let now = clock.now()
        // A contact of this patient: one of the persons their kept files resolve to.
        let resolved = try resolve(stored, today: now.utcDay)
        guard contactUserID != patientUserID, resolved.phones[contactUserID] != nil else {
            throw .invalid(
                tr("errors.trace.notAContact", ["contact": String(contactUserID), "patient": String(patientUserID)]))
        }
        let recorded = RecordedOutcome(
            outcome: outcome, note: note, by: person.user, at: Date(unixMilliseconds: now.unixMilliseconds))
        try storeCall { () throws(StoreError) in
            try store.recordContactOutcome(
                patientUserID: patientUserID, contactUserID: contactUserID, outcome: recorded, purpose: purpose)
        }
        return recorded
    }

    public func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError) {
        let person = try authenticate(session, for: .traceContacts)
        let purpose = try Self.checkedPurpose(purpose)
        guard ServiceChecks.exportKinds.contains(kind) else {
            throw .invalid(
                tr("errors.trace.exportKind", ["kinds": ServiceChecks.exportKinds.sorted().joined(separator: ", ")]))
        }
        guard rows >= 0 else { throw .invalid(tr("errors.trace.exportRows")) }
        _ = try patient(userID: patientUserID)  // an export names a patient who exists
        try audit(
            person.user, .traceExport, target: "user \(patientUserID)",
            detail: AuditEntry.Detail.TraceExport(purpose: purpose, kind: kind, rows: rows).json, now: clock.now())
    }

    public func recordPhoneCopy(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, purpose: String
    ) async throws(ServiceError) {
        let person = try authenticate(session, for: .traceContacts)
        let purpose = try Self.checkedPurpose(purpose)
        let stored = try patient(userID: patientUserID)
        let now = clock.now()
        if contactUserID != patientUserID {
            // A contact of this patient, as for an outcome: one the lookup showed.
            let resolved = try resolve(stored, today: now.utcDay)
            guard resolved.phones[contactUserID] != nil else {
                throw .invalid(
                    tr(
                        "errors.trace.notAContact",
                        ["contact": String(contactUserID), "patient": String(patientUserID)]))
            }
        }
        try audit(
            person.user, .phoneCopied, target: "user \(contactUserID)",
            detail: AuditEntry.Detail.PhoneCopied(patient: "user \(patientUserID)", purpose: purpose).json, now: now)
    }

    public func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage] {
        let person = try authenticate(session, for: .readSmsOutbox)
        guard (1...ServiceChecks.maximumOutboxPage).contains(limit) else {
            throw .invalid(tr("errors.trace.outboxPage", ["max": String(ServiceChecks.maximumOutboxPage)]))
        }
        let messages = try storeCall { () throws(StoreError) in try store.smsOutbox(limit: limit) }
        // The messages hold codes and phone numbers: reading them is audited (after the read,
        // with how many were shown; a failed entry withholds them).
        try audit(
            person.user, .smsOutboxRead, target: nil,
            detail: AuditEntry.Detail.SmsOutboxRead(messages: messages.count).json,
            now: clock.now())
        return messages
    }

    // MARK: Rules (the limits and messages both desks use are ServiceChecks, in the contract)

    static func checkedPurpose(_ text: String) throws(ServiceError) -> String {
        switch TracePurpose.check(text) {
        case .success(let purpose): return purpose
        case .failure(let problem): throw .invalid(problem.message)
        }
    }

    // MARK: Internals

    /// Sightings of a patient's kept files with their owners, and the phones of those owners.
    struct Resolved {
        /// Files within the contact history, oldest day first.
        var files: [StoredTracePatient.File]
        /// File order, then record order.
        var sightings: [Sighting]
        var phones: [Int64: PhoneNumber]
    }

    /// Walks the files the contact history keeps (older ones wait for the cleanup, and are not
    /// shown), resolves every pseudo-id heard in batches, and leaves unresolved the foreign
    /// beacons, the pseudo-ids nobody owns and the patient's own. Records are walked in place
    /// (``ContactFile/scan(_:_:)``), and the sightings of one pseudo-id share one beacon array:
    /// 864 000 records make 85 000 arrays, not 864 000.
    func resolve(_ stored: StoredTracePatient, today: CivilDay) throws(ServiceError) -> Resolved {
        let oldest = ContactFile.oldestDay(today: today, historyDays: apricot.contactHistoryDays)
        let files = stored.files.filter { $0.day >= oldest && ContactFile.checkLength($0.bytes.count) == nil }
        let own = stored.ownSuffixes
        var heard = Set<UInt32>()
        var records = 0
        for file in files {
            records += file.bytes.count / ContactFile.recordSize
            ContactFile.scan(file.bytes) { _, suffix, _ in
                if let suffix, !own.contains(suffix) { heard.insert(suffix) }
            }
        }
        let owners = try storeCall { () throws(StoreError) in try store.owners(ofSuffixes: heard.sorted()) }
        var phones: [Int64: PhoneNumber] = [:]
        var contacts: [UInt32: Int64] = [:]
        contacts.reserveCapacity(owners.count)
        for (suffix, owner) in owners where owner.userID != stored.userID {
            contacts[suffix] = owner.userID
            phones[owner.userID] = owner.phone
        }
        var beacons: [UInt32: [UInt8]] = [:]
        var sightings: [Sighting] = []
        sightings.reserveCapacity(records)
        for file in files {
            let bytes = file.bytes
            ContactFile.scan(bytes) { offset, suffix, time in
                let beacon: [UInt8]
                var contact: Int64?
                if let suffix {
                    if let shared = beacons[suffix] {
                        beacon = shared
                    } else {
                        beacon = Array(bytes[offset..<offset + PseudoID.byteCount])
                        beacons[suffix] = beacon
                    }
                    if !own.contains(suffix) { contact = contacts[suffix] }
                } else {
                    beacon = Array(bytes[offset..<offset + PseudoID.byteCount])
                }
                sightings.append(Sighting(time: Int64(time), fileDay: file.day, beacon: beacon, contactUserID: contact))
            }
        }
        return Resolved(files: files, sightings: sightings, phones: phones)
    }

    func patient(userID: Int64) throws(ServiceError) -> StoredTracePatient {
        guard let stored = try storeCall({ () throws(StoreError) in try store.tracePatient(userID: userID) }) else {
            throw .invalid(tr("errors.trace.noUser", ["user": String(userID)]))
        }
        return stored
    }

    func audit(
        _ actor: String, _ action: AuditAction, target: String?, detail: String, now: Date
    ) throws(ServiceError) {
        _ = try storeCall { () throws(StoreError) in
            try store.appendAudit(actor: actor, action: action, target: target, detail: detail, now: now)
        }
    }
}
