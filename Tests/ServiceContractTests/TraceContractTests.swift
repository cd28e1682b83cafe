import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import Foundation
import Testing

/// A small APRICOT case, seeded straight into the fixture's store, whose answer is computed
/// by hand (below): a patient, two contacts, an unregistered phone, and a file of yesterday.
struct TraceCase {
    static let patientPhone = PhoneNumber(e164: "+393331000001")!
    static let annaPhone = PhoneNumber(e164: "+393331000002")!
    static let brunoPhone = PhoneNumber(e164: "+393331000003")!
    static let idlePhone = PhoneNumber(e164: "+393331000004")!
    /// 2026-11-28 10:00:00 UTC: the day before the fixture's today.
    static let tenOClock: UInt32 = 1_795_860_000
    static let day = CivilDay(iso: "2026-11-28")!
    static let purpose = "case 2026-1234"

    var patient: Int64
    var anna: Int64
    var bruno: Int64
    var idle: Int64

    /// The file holds:
    /// - Anna's pseudo-id 21 times: every minute from 10:00 to 10:19, and 10:00:30 again (the same
    ///   minute counts once): 20 minutes, close (≥ 15 on one day), all in hour 10;
    /// - Bruno's 3 times, at 12:00, 12:05, 12:10: 3 minutes, not close;
    /// - a foreign beacon, the patient's own pseudo-id and a pseudo-id nobody owns: 3 unresolved.
    /// 27 sightings in all.
    static func seed(_ store: any Store, now: Date) throws -> TraceCase {
        var next: UInt32 = 0x1000
        func register(_ phone: PhoneNumber, _ name: String) throws -> (Int64, [PseudoID]) {
            let login = try store.login(
                phone: phone, appID: "it.test.apricot", deviceID: "device-\(name)", tokenHash: "hash-\(name)",
                tokenExpiresAt: now.addingTimeInterval(86_400), now: now, count: 3,
                nextSuffix: {
                    next += 1
                    return next
                })
            guard case .signedIn(let user, _, let ids) = login else { throw TraceCaseError() }
            return (user, ids)
        }
        let (patient, own) = try register(patientPhone, "patient")
        let (anna, annaIDs) = try register(annaPhone, "anna")
        let (bruno, brunoIDs) = try register(brunoPhone, "bruno")
        let (idle, _) = try register(idlePhone, "idle")
        var records: [ContactRecord] = []
        for minute in 0..<20 {
            records.append(ContactRecord(beacon: annaIDs[0].bytes, time: tenOClock + UInt32(minute * 60)))
        }
        records.append(ContactRecord(beacon: annaIDs[1].bytes, time: tenOClock + 30))
        for minutes in [120, 125, 130] {
            records.append(ContactRecord(beacon: brunoIDs[0].bytes, time: tenOClock + UInt32(minutes * 60)))
        }
        records.append(ContactRecord(beacon: [UInt8](repeating: 0x42, count: 20), time: tenOClock + 600))
        records.append(ContactRecord(beacon: own[0].bytes, time: tenOClock + 700))
        records.append(ContactRecord(beacon: PseudoID(suffix: 0xdead_beef).bytes, time: tenOClock + 800))
        _ = try store.storeContactFile(
            userID: patient, day: day, records: records, receivedAt: now, clientClock: Int64(now.timeIntervalSince1970),
            skewSeconds: 0)
        return TraceCase(patient: patient, anna: anna, bruno: bruno, idle: idle)
    }
}

struct TraceCaseError: Error {}

@Suite struct TraceContractTests {
    func tracer(_ f: ContractFixture) async throws -> (admin: StaffSession, tracer: StaffSession) {
        let admin = try await f.admin()
        return (admin, try await f.person("tina", .tracer, by: admin))
    }

    @Test("a lookup answers the case computed by hand, and is audited with its purpose", arguments: DeskKind.allCases)
    func lookup(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            // Typed as a tracer would: national form, spaces.
            let lookup = try await f.desk.traceLookup(tina, phone: "333 100 0001", purpose: "  case 2026-1234 ")

            #expect(lookup.patient.userID == ids.patient)
            #expect(lookup.patient.phone == TraceCase.patientPhone)
            #expect(lookup.patient.daysUploaded == 1)
            #expect(lookup.patient.records == 27)
            #expect(lookup.patient.firstDay == TraceCase.day && lookup.patient.lastDay == TraceCase.day)
            #expect(lookup.totalSightings == 27)
            #expect(lookup.unresolved == 3)
            #expect(lookup.purpose == TraceCase.purpose)
            #expect(lookup.closeContactMinutes == 15)
            #expect(lookup.contacts.map(\.summary.userID) == [ids.anna, ids.bruno])
            let anna = try #require(lookup.contacts.first).summary
            #expect(anna.phone == TraceCase.annaPhone)
            #expect(anna.sightings == 21)
            #expect(anna.minutes == 20)
            #expect(anna.days == 1)
            #expect(anna.mostMinutesOnOneDay == 20)
            #expect(anna.isCloseContact)
            #expect(anna.firstSeen == Date(timeIntervalSince1970: Double(TraceCase.tenOClock)))
            #expect(anna.lastSeen == Date(timeIntervalSince1970: Double(TraceCase.tenOClock + 19 * 60)))
            var hours = Array(repeating: 0, count: 24)
            hours[10] = 20
            #expect(anna.timeline == [DayHours(day: TraceCase.day, minutesByHour: hours, minutes: 20)])
            let bruno = lookup.contacts[1].summary
            #expect(bruno.minutes == 3 && bruno.sightings == 3 && !bruno.isCloseContact)
            #expect(lookup.contacts.allSatisfy { $0.outcome == nil })

            let entry = try #require(try f.auditTrail().last)
            #expect(entry.action == .traceLookup)
            #expect(entry.actor == "tina")
            #expect(entry.target == "user \(ids.patient)")
            #expect(entry.detail.contains(#""purpose":"case 2026-1234""#))
            #expect(!entry.detail.contains("3331000001"))
        }
    }

    @Test("a session says which country code the desk adds to a number typed without one", arguments: DeskKind.allCases)
    func sessionCountryCode(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            #expect(tina.phoneCountryCode == "+39")
        }
    }

    @Test(
        "bad lookups say what to do: a wrong format, an unknown number, an empty purpose; no uploads is an answer",
        arguments: DeskKind.allCases)
    func lookupRefusals(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            let before = try f.auditTrail().count

            let format = await failure { () async throws(ServiceError) in
                try await f.desk.traceLookup(tina, phone: "333-abc", purpose: TraceCase.purpose)
            }
            #expect(format == .invalid(PhoneNumberError.notADigit.message))
            let unknown = await failure { () async throws(ServiceError) in
                try await f.desk.traceLookup(tina, phone: "+39 333 999 9999", purpose: TraceCase.purpose)
            }
            #expect(unknown == .invalid(ServiceChecks.unknownPatient))
            #expect(!(unknown?.message.contains("9999") ?? true))
            let empty = await failure { () async throws(ServiceError) in
                try await f.desk.traceLookup(tina, phone: TraceCase.patientPhone.e164, purpose: "   ")
            }
            #expect(empty == .invalid(TracePurposeError.empty.message))
            // A refused request is not a lookup; the unknown number was looked up, and is audited
            // without a target and never with the number.
            let refused = try f.auditTrail().dropFirst(before)
            #expect(refused.map(\.action) == [.traceLookup])
            #expect(refused.first?.target == nil)
            #expect(refused.first?.detail.contains(#""found":false"#) == true)
            #expect(refused.first?.detail.contains("9999") == false)

            let idle = try await f.desk.traceLookup(tina, phone: TraceCase.idlePhone.e164, purpose: TraceCase.purpose)
            #expect(idle.patient.userID == ids.idle)
            #expect(idle.patient.daysUploaded == 0)
            #expect(idle.contacts.isEmpty && idle.totalSightings == 0)
        }
    }

    @Test("raw sightings come in pages, of one contact or all, oldest first", arguments: DeskKind.allCases)
    func sightings(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            let first = try await f.desk.traceSightings(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, purpose: TraceCase.purpose, offset: 0,
                limit: 15)
            #expect(first.total == 21)
            #expect(first.sightings.count == 15)
            #expect(first.nextOffset == 15)
            #expect(first.sightings.allSatisfy { $0.contactUserID == ids.anna && $0.fileDay == TraceCase.day })
            #expect(first.sightings.first?.time == Int64(TraceCase.tenOClock))
            let second = try await f.desk.traceSightings(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, purpose: TraceCase.purpose, offset: 15,
                limit: 15)
            #expect(second.sightings.count == 6)
            #expect(second.nextOffset == nil)

            let all = try await f.desk.traceSightings(
                tina, patientUserID: ids.patient, contactUserID: nil, purpose: TraceCase.purpose, offset: 0,
                limit: 1_000)
            #expect(all.total == 27)
            #expect(all.sightings.filter { $0.contactUserID == nil }.count == 3)
            #expect(all.sightings.contains { $0.beacon == [UInt8](repeating: 0x42, count: 20) })

            let tooMany = await failure { () async throws(ServiceError) in
                try await f.desk.traceSightings(
                    tina, patientUserID: ids.patient, contactUserID: nil, purpose: TraceCase.purpose, offset: 0,
                    limit: 50_001)
            }
            #expect(tooMany.map { if case .invalid = $0 { true } else { false } } == true)
            let noPurpose = await failure { () async throws(ServiceError) in
                try await f.desk.traceSightings(
                    tina, patientUserID: ids.patient, contactUserID: nil, purpose: "", offset: 0, limit: 10)
            }
            #expect(noPurpose == .invalid(TracePurposeError.empty.message))
        }
    }

    @Test("an outcome is recorded, shown by the next lookup and audited without its note", arguments: DeskKind.allCases)
    func outcome(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            let recorded = try await f.desk.recordOutcome(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, outcome: .reachedIsolating,
                note: "isolating until 12-05, \"fine\"", purpose: TraceCase.purpose)
            #expect(recorded.outcome == .reachedIsolating)
            #expect(recorded.by == "tina")
            #expect(recorded.at == ContractFixture.start)
            #expect(recorded.note == "isolating until 12-05, \"fine\"")

            let entry = try #require(try f.auditTrail().last)
            #expect(entry.action == .contactOutcome)
            #expect(!entry.detail.contains("isolating until"))

            let lookup = try await f.desk.traceLookup(
                tina, phone: TraceCase.patientPhone.e164, purpose: TraceCase.purpose)
            #expect(lookup.contacts.first { $0.summary.userID == ids.anna }?.outcome == recorded)
            #expect(lookup.contacts.first { $0.summary.userID == ids.bruno }?.currentOutcome == .notYetCalled)

            let notContact = await failure { () async throws(ServiceError) in
                try await f.desk.recordOutcome(
                    tina, patientUserID: ids.patient, contactUserID: ids.idle, outcome: .noAnswer, note: "",
                    purpose: TraceCase.purpose)
            }
            #expect(notContact.map { if case .invalid = $0 { true } else { false } } == true)
            let longNote = await failure { () async throws(ServiceError) in
                try await f.desk.recordOutcome(
                    tina, patientUserID: ids.patient, contactUserID: ids.anna, outcome: .noAnswer,
                    note: String(repeating: "x", count: 501), purpose: TraceCase.purpose)
            }
            #expect(longNote == .invalid(ServiceChecks.noteProblem(String(repeating: "x", count: 501))!))
        }
    }

    @Test("an export is audited with its kind and rows; an unknown kind is refused", arguments: DeskKind.allCases)
    func export(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (_, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            try await f.desk.recordTraceExport(
                tina, patientUserID: ids.patient, purpose: TraceCase.purpose, kind: "contacts_csv", rows: 2)
            let entry = try #require(try f.auditTrail().last)
            #expect(entry.action == .traceExport)
            #expect(entry.detail.contains(#""kind":"contacts_csv""#) && entry.detail.contains(#""rows":2"#))
            let unknown = await failure { () async throws(ServiceError) in
                try await f.desk.recordTraceExport(
                    tina, patientUserID: ids.patient, purpose: TraceCase.purpose, kind: "pdf", rows: 2)
            }
            #expect(unknown.map { if case .invalid = $0 { true } else { false } } == true)
        }
    }

    @Test(
        "copying a contact's number is audited like a view: copy_phone, the contact as target, never the number",
        arguments: DeskKind.allCases)
    func phoneCopy(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, tina) = try await tracer(f)
            let ids = try TraceCase.seed(f.store, now: ContractFixture.start)
            try await f.desk.recordPhoneCopy(
                tina, patientUserID: ids.patient, contactUserID: ids.anna, purpose: TraceCase.purpose)
            let entry = try #require(try f.auditTrail().last)
            #expect(entry.action == .phoneCopied)
            #expect(entry.actor == "tina")
            #expect(entry.target == "user \(ids.anna)")
            #expect(
                entry.detail
                    == AuditEntry.Detail.PhoneCopied(patient: "user \(ids.patient)", purpose: TraceCase.purpose).json)
            for phone in [TraceCase.annaPhone, TraceCase.patientPhone] {
                #expect(!entry.detail.contains(String(phone.e164.dropFirst())))
                #expect(!(entry.target ?? "").contains(String(phone.e164.dropFirst())))
            }
            // The admin finds it by the person acted upon.
            let bySubject = try await f.desk.audit(admin, query: AuditQuery(subject: "user \(ids.anna)", limit: 10))
            #expect(bySubject.map(\.action) == [.phoneCopied])
            // Not a contact of this patient: refused, nothing audited.
            let before = try f.auditTrail().count
            let notContact = await failure { () async throws(ServiceError) in
                try await f.desk.recordPhoneCopy(
                    tina, patientUserID: ids.patient, contactUserID: ids.idle, purpose: TraceCase.purpose)
            }
            #expect(notContact.map { if case .invalid = $0 { true } else { false } } == true)
            let noPurpose = await failure { () async throws(ServiceError) in
                try await f.desk.recordPhoneCopy(
                    tina, patientUserID: ids.patient, contactUserID: ids.anna, purpose: " ")
            }
            #expect(noPurpose.map { if case .invalid = $0 { true } else { false } } == true)
            let forbidden = await failure { () async throws(ServiceError) in
                try await f.desk.recordPhoneCopy(
                    admin, patientUserID: ids.patient, contactUserID: ids.anna, purpose: TraceCase.purpose)
            }
            #expect(forbidden?.isForbidden == true)
            #expect(try f.auditTrail().count == before)
        }
    }

    @Test("the SMS outbox: admins read it (audited), newest first; tracers may not", arguments: DeskKind.allCases)
    func outbox(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let (admin, tina) = try await tracer(f)
            _ = try f.store.enqueueSms(
                phone: TraceCase.annaPhone, text: "Your code: 123456", gateway: "outbox", status: .held, detail: "",
                now: ContractFixture.start)
            _ = try f.store.enqueueSms(
                phone: TraceCase.brunoPhone, text: "Your code: 654321", gateway: "outbox", status: .held, detail: "",
                now: ContractFixture.start.addingTimeInterval(1))
            let messages = try await f.desk.smsOutbox(admin, limit: 10)
            #expect(messages.map(\.phone) == [TraceCase.brunoPhone, TraceCase.annaPhone])
            #expect(messages.first?.text == "Your code: 654321")
            #expect(messages.first?.gateway == "outbox")
            #expect(try f.auditTrail().last?.action == .smsOutboxRead)
            let forbidden = await failure { () async throws(ServiceError) in try await f.desk.smsOutbox(tina, limit: 10)
            }
            #expect(forbidden?.isForbidden == true)
            let zero = await failure { () async throws(ServiceError) in try await f.desk.smsOutbox(admin, limit: 0) }
            #expect(zero.map { if case .invalid = $0 { true } else { false } } == true)
        }
    }
}
