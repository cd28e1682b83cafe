import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import Foundation
import Testing

/// Contact tracing through `LocalDesk` over a real SQLite store: users registered and files
/// stored through the store, as the APRICOT endpoints do.
@Suite struct LocalDeskTraceTests {
    static let nov28: Int64 = 1_795_824_000  // 2026-11-28 00:00 UTC
    static let nov29: Int64 = 1_795_910_400
    static let day28 = CivilDay(iso: "2026-11-28")!
    static let day29 = CivilDay(iso: "2026-11-29")!
    static let patientPhone = PhoneNumber(e164: "+393331110001")!
    static let phoneA = PhoneNumber(e164: "+393331110002")!
    static let phoneB = PhoneNumber(e164: "+393331110003")!
    static let phoneC = PhoneNumber(e164: "+393331110004")!

    struct Case {
        var fixture: DeskFixture
        var tracer: StaffSession
        var patient: Int64
        var a: Int64
        var b: Int64
        var c: Int64
    }

    static func register(_ store: SQLiteStore, _ phone: PhoneNumber, first: UInt32) throws -> Int64 {
        var next = first
        let outcome = try store.login(
            phone: phone, appID: "it.test", deviceID: "d", tokenHash: "token-\(first)",
            tokenExpiresAt: DeskFixture.start + 86_400, now: DeskFixture.start, count: 10,
            nextSuffix: {
                defer { next += 1 }
                return next
            })
        guard case .signedIn(let user, _, _) = outcome else { throw ServiceError.failed("no sign-in") }
        return user
    }

    static func at(_ suffix: UInt32, _ time: Int64) -> ContactRecord {
        ContactRecord(beacon: PseudoID(suffix: suffix).bytes, time: UInt32(time))
    }

    /// The hand-computed case. The patient (suffixes 1…10), A (11…20), B (21…30), C (31…40,
    /// never heard).
    ///
    /// - 11-28 file (received 09:59, skew +5 s): A every minute 09:00…09:15 (16 records), B every
    ///   minute 10:00…10:04 (5), a foreign beacon twice, the patient's own pseudo-id 3 once,
    ///   pseudo-id 9999 (nobody's) once: 25 records.
    /// - 11-29 file (received 10:00, skew −3 s): A twice without a time, B at 08:00: 3 records.
    /// - 10-29 file: 31 days back, past the 30-day history and its day of slack (not yet cleaned
    ///   up): not shown.
    ///
    /// Sightings 28, unresolved 2 + 1 + 1 = 4. A: 18 sightings, 16 + 2 = 18 minutes over 2 days,
    /// most 16 on 11-28 (close), first 11-28 09:00, last 11-28 09:15. B: 6 sightings, 5 + 1 = 6
    /// minutes over 2 days, most 5 (not close), first 11-28 10:00, last 11-29 08:00.
    static func with(_ body: (Case) async throws -> Void) async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.addStaff(
                fixture.admin, name: "tina", role: .tracer, password: DeskFixture.password)
            let tracer = try await fixture.desk.signIn(name: "tina", password: DeskFixture.password)
            let store = fixture.store
            let patient = try register(store, patientPhone, first: 1)
            let a = try register(store, phoneA, first: 11)
            let b = try register(store, phoneB, first: 21)
            let c = try register(store, phoneC, first: 31)
            let foreign = ContactRecord(beacon: Array(repeating: 0x42, count: 20), time: UInt32(nov28 + 3600))
            var first: [ContactRecord] = (0...15).map { at(11, nov28 + 9 * 3600 + Int64($0) * 60) }
            first += (0...4).map { at(21, nov28 + 10 * 3600 + Int64($0) * 60) }
            first += [foreign, foreign, at(3, nov28 + 7200), at(9999, nov28 + 7200)]
            _ = try store.storeContactFile(
                userID: patient, day: day28, records: first, receivedAt: DeskFixture.start - 60,
                clientClock: 1_795_946_335, skewSeconds: 5)
            _ = try store.storeContactFile(
                userID: patient, day: day29, records: [at(11, 0), at(11, 0), at(21, nov29 + 8 * 3600)],
                receivedAt: DeskFixture.start, clientClock: 1_795_946_403, skewSeconds: -3)
            _ = try store.storeContactFile(
                userID: patient, day: day29.adding(days: -31), records: [at(11, nov29 - 31 * 86_400 + 60)],
                receivedAt: DeskFixture.start - 31 * 86_400, clientClock: 0, skewSeconds: 0)
            try await body(Case(fixture: fixture, tracer: tracer, patient: patient, a: a, b: b, c: c))
        }
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: Double(seconds)) }

    @Test("a desk set to another country adds its code to numbers typed without one, and says so at sign-in")
    func otherCountry() async throws {
        try await Self.with { t in
            var swiss = ApricotSettings()
            swiss.defaultCountryCode = "+41"
            let desk = LocalDesk(
                store: t.fixture.store, clock: t.fixture.clock, hasher: t.fixture.desk.hasher, apricot: swiss)
            let tracer = try await desk.signIn(name: "tina", password: DeskFixture.password)
            #expect(tracer.phoneCountryCode == "+41")
            let swissPatient = PhoneNumber(e164: "+41791110001")!
            _ = try Self.register(t.fixture.store, swissPatient, first: 41)
            let lookup = try await desk.traceLookup(tracer, phone: "79 111 0001", purpose: "case ch-1")
            #expect(lookup.patient.phone == swissPatient)
        }
    }

    @Test("a lookup answers the hand-computed case, every column, and is audited with its purpose")
    func lookup() async throws {
        try await Self.with { t in
            let lookup = try await t.fixture.desk.traceLookup(t.tracer, phone: "333 111 0001", purpose: " case 2026-1 ")
            #expect(
                lookup.patient
                    == TracePatient(
                        userID: t.patient, phone: Self.patientPhone, registeredAt: DeskFixture.start, daysUploaded: 2,
                        records: 28, skewSeconds: -3, firstDay: Self.day28, lastDay: Self.day29,
                        lastUploadAt: DeskFixture.start))
            #expect(lookup.totalSightings == 28)
            #expect(lookup.unresolved == 4)
            #expect(lookup.closeContactMinutes == 15)
            #expect(lookup.purpose == "case 2026-1")
            #expect(lookup.lookedUpAt == DeskFixture.start)
            #expect(lookup.contacts.map(\.summary.userID) == [t.a, t.b])
            let a = lookup.contacts[0].summary
            #expect(a.phone == Self.phoneA)
            #expect((a.sightings, a.minutes, a.days, a.mostMinutesOnOneDay, a.isCloseContact) == (18, 18, 2, 16, true))
            #expect(a.firstSeen == Self.date(Self.nov28 + 9 * 3600))
            #expect(a.lastSeen == Self.date(Self.nov28 + 9 * 3600 + 15 * 60))
            var hours = Array(repeating: 0, count: 24)
            hours[9] = 16
            #expect(
                a.timeline == [
                    DayHours(day: Self.day29, untimed: 2, minutes: 2),
                    DayHours(day: Self.day28, minutesByHour: hours, minutes: 16),
                ])
            let b = lookup.contacts[1].summary
            #expect(b.phone == Self.phoneB)
            #expect((b.sightings, b.minutes, b.days, b.mostMinutesOnOneDay, b.isCloseContact) == (6, 6, 2, 5, false))
            #expect(b.firstSeen == Self.date(Self.nov28 + 10 * 3600))
            #expect(b.lastSeen == Self.date(Self.nov29 + 8 * 3600))
            #expect(lookup.contacts.allSatisfy { $0.outcome == nil && $0.currentOutcome == .notYetCalled })

            let entry = try #require(t.fixture.store.auditEntries(after: 0, limit: 100).last)
            #expect(entry.action == .traceLookup)
            #expect(entry.actor == "tina")
            #expect(entry.target == "user \(t.patient)")
            #expect(
                entry.detail
                    == #"{"purpose":"case 2026-1","days":2,"sightings":28,"contacts":2,"close_contacts":1,"unresolved":4}"#
            )
        }
    }

    @Test("outcomes: recorded for a contact, shown by the next lookup, audited; refused for anyone else")
    func outcomes() async throws {
        try await Self.with { t in
            let desk = t.fixture.desk
            t.fixture.clock.advance(seconds: 60)
            let recorded = try await desk.recordOutcome(
                t.tracer, patientUserID: t.patient, contactUserID: t.a, outcome: .reachedIsolating,
                note: "isolating at home", purpose: "case 2026-1")
            #expect(
                recorded
                    == RecordedOutcome(
                        outcome: .reachedIsolating, note: "isolating at home", by: "tina", at: DeskFixture.start + 60))
            let lookup = try await desk.traceLookup(t.tracer, phone: "+39 333 111 0001", purpose: "case 2026-1")
            #expect(lookup.contacts[0].outcome == recorded)
            #expect(lookup.contacts[1].outcome == nil)
            let entries = try t.fixture.store.auditEntries(matching: AuditQuery(action: .contactOutcome))
            #expect(entries.count == 1)
            #expect(entries.first?.target == "user \(t.a)")
            #expect(
                entries.first?.detail
                    == #"{"patient":"user \#(t.patient)","outcome":"reached_isolating","purpose":"case 2026-1"}"#)
            #expect(try LocalDesk.verifyChain(t.fixture.store).firstBroken == nil)

            for (contact, note) in [(t.c, "x"), (t.patient, "x"), (Int64(999), "x")] {
                await #expect(
                    throws: ServiceError.invalid(
                        "user \(contact) is not a contact of user \(t.patient): look the patient up again and pick a row of the contacts table"
                    )
                ) {
                    try await desk.recordOutcome(
                        t.tracer, patientUserID: t.patient, contactUserID: contact, outcome: .noAnswer, note: note,
                        purpose: "case 2026-1")
                }
            }
            await #expect(
                throws: ServiceError.invalid("the note has 501 characters, at most 500: shorten it")
            ) {
                try await desk.recordOutcome(
                    t.tracer, patientUserID: t.patient, contactUserID: t.a, outcome: .noAnswer,
                    note: String(repeating: "n", count: 501), purpose: "case 2026-1")
            }
            await #expect(
                throws: ServiceError.invalid(
                    "the note may not contain control characters (line breaks, tabs): type it on one line")
            ) {
                try await desk.recordOutcome(
                    t.tracer, patientUserID: t.patient, contactUserID: t.a, outcome: .noAnswer, note: "a\nb",
                    purpose: "case 2026-1")
            }
            await #expect(throws: ServiceError.invalid(TracePurposeError.empty.message)) {
                try await desk.recordOutcome(
                    t.tracer, patientUserID: t.patient, contactUserID: t.a, outcome: .noAnswer, note: "", purpose: " ")
            }
            await #expect(
                throws: ServiceError.invalid("no APRICOT user 999: look the patient up by phone number first")
            ) {
                try await desk.recordOutcome(
                    t.tracer, patientUserID: 999, contactUserID: t.a, outcome: .noAnswer, note: "", purpose: "p")
            }
            #expect(try t.fixture.store.auditEntries(matching: AuditQuery(action: .contactOutcome)).count == 1)
        }
    }

    @Test("raw sightings page through every record, or one contact's; every page is audited")
    func sightings() async throws {
        try await Self.with { t in
            let desk = t.fixture.desk
            let before = try t.fixture.store.auditEntries(after: 0, limit: 1_000).count
            let first = try await desk.traceSightings(
                t.tracer, patientUserID: t.patient, contactUserID: nil, purpose: "case 2026-1", offset: 0, limit: 10)
            #expect(first.total == 28)
            #expect(first.sightings.count == 10)
            #expect(first.nextOffset == 10)
            #expect(
                first.sightings[0]
                    == Sighting(
                        time: Self.nov28 + 9 * 3600, fileDay: Self.day28, beacon: PseudoID(suffix: 11).bytes,
                        contactUserID: t.a))
            let last = try await desk.traceSightings(
                t.tracer, patientUserID: t.patient, contactUserID: nil, purpose: "case 2026-1", offset: 20, limit: 10)
            #expect(last.sightings.count == 8)
            #expect(last.nextOffset == nil)
            #expect(last.sightings.filter { $0.contactUserID == nil }.count == 4)
            let ofB = try await desk.traceSightings(
                t.tracer, patientUserID: t.patient, contactUserID: t.b, purpose: "case 2026-1", offset: 0,
                limit: 50_000)
            #expect(ofB.total == 6 && ofB.sightings.allSatisfy { $0.contactUserID == t.b })
            let entries = try t.fixture.store.auditEntries(after: 0, limit: 1_000).dropFirst(before)
            #expect(
                entries.map(\.detail) == [
                    #"{"purpose":"case 2026-1","view":"sightings","of":"all","offset":0,"sightings":10,"total":28}"#,
                    #"{"purpose":"case 2026-1","view":"sightings","of":"all","offset":20,"sightings":8,"total":28}"#,
                    #"{"purpose":"case 2026-1","view":"sightings","of":"user \#(t.b)","offset":0,"sightings":6,"total":6}"#,
                ])
            for limit in [0, 50_001] {
                await #expect(throws: ServiceError.invalid("a page holds 1 to 50000 sightings: ask for fewer")) {
                    try await desk.traceSightings(
                        t.tracer, patientUserID: t.patient, contactUserID: nil, purpose: "p", offset: 0, limit: limit)
                }
            }
        }
    }

    @Test("exports are audited with their purpose, kind and rows")
    func exports() async throws {
        try await Self.with { t in
            try await t.fixture.desk.recordTraceExport(
                t.tracer, patientUserID: t.patient, purpose: "case 2026-1", kind: "contacts_csv", rows: 2)
            let entry = try #require(t.fixture.store.auditEntries(after: 0, limit: 100).last)
            #expect(entry.action == .traceExport && entry.actor == "tina" && entry.target == "user \(t.patient)")
            #expect(entry.detail == #"{"purpose":"case 2026-1","kind":"contacts_csv","rows":2}"#)
            await #expect(
                throws: ServiceError.invalid("unknown export kind: use one of contacts_csv, json, sightings_csv")
            ) {
                try await t.fixture.desk.recordTraceExport(
                    t.tracer, patientUserID: t.patient, purpose: "case 2026-1", kind: "pdf", rows: 2)
            }
            await #expect(throws: ServiceError.invalid(TracePurposeError.empty.message)) {
                try await t.fixture.desk.recordTraceExport(
                    t.tracer, patientUserID: t.patient, purpose: "", kind: "json", rows: 2)
            }
        }
    }

    @Test(
        "bad input: an unknown number, a wrong format, an empty purpose; each says what to do, none repeats the number")
    func badInput() async throws {
        try await Self.with { t in
            let desk = t.fixture.desk
            let before = try t.fixture.store.auditEntries(after: 0, limit: 1_000).count
            await #expect(throws: ServiceError.invalid(ServiceChecks.unknownPatient)) {
                try await desk.traceLookup(t.tracer, phone: "333 999 8877", purpose: "case 2026-1")
            }
            #expect(!ServiceChecks.unknownPatient.contains("999"))
            await #expect(throws: ServiceError.invalid(PhoneNumberError.notADigit.message)) {
                try await desk.traceLookup(t.tracer, phone: "333 abc", purpose: "case 2026-1")
            }
            await #expect(throws: ServiceError.invalid(PhoneNumberError.tooShort(digits: 5).message)) {
                try await desk.traceLookup(t.tracer, phone: "+39 123", purpose: "case 2026-1")
            }
            await #expect(throws: ServiceError.invalid(PhoneNumberError.empty.message)) {
                try await desk.traceLookup(t.tracer, phone: "  ", purpose: "case 2026-1")
            }
            await #expect(throws: ServiceError.invalid(TracePurposeError.empty.message)) {
                try await desk.traceLookup(t.tracer, phone: "333 111 0001", purpose: "  ")
            }
            // Only the unknown number was looked up: audited without a target, never the number.
            let entries = try t.fixture.store.auditEntries(after: 0, limit: 1_000).dropFirst(before)
            #expect(entries.map(\.action) == [.traceLookup])
            #expect(entries.first?.target == nil)
            #expect(entries.first?.detail == #"{"purpose":"case 2026-1","found":false}"#)
        }
    }

    @Test("a patient without uploads is an answer with no contacts (audited)")
    func noUploads() async throws {
        try await Self.with { t in
            let lookup = try await t.fixture.desk.traceLookup(t.tracer, phone: "+393331110004", purpose: "case 7")
            #expect(lookup.patient.userID == t.c)
            #expect(lookup.patient.daysUploaded == 0 && lookup.patient.records == 0)
            #expect(lookup.patient.firstDay == nil && lookup.patient.lastUploadAt == nil)
            #expect(lookup.contacts.isEmpty && lookup.totalSightings == 0 && lookup.unresolved == 0)
            let entry = try #require(t.fixture.store.auditEntries(after: 0, limit: 100).last)
            #expect(entry.action == .traceLookup && entry.target == "user \(t.c)")
        }
    }

    @Test("only tracers trace; only admins read the SMS outbox, and that read is audited")
    func roles() async throws {
        try await Self.with { t in
            let desk = t.fixture.desk
            for session in [t.fixture.rossi, t.fixture.supervisor, t.fixture.admin] {
                let error = await failure { () async throws(ServiceError) in
                    _ = try await desk.traceLookup(session, phone: "333 111 0001", purpose: "case 2026-1")
                }
                #expect(
                    error
                        == .forbidden(
                            "your role (\(session.role.rawValue)) cannot trace contacts: that needs the tracer role"))
            }
            await #expect(
                throws: ServiceError.forbidden(
                    "your role (tracer) cannot read the SMS outbox: that needs the admin role")
            ) {
                try await desk.smsOutbox(t.tracer, limit: 10)
            }
            _ = try t.fixture.store.enqueueSms(
                phone: Self.phoneA, text: "APRICOT code 123456", gateway: "outbox", status: .held, detail: "",
                now: DeskFixture.start)
            let messages = try await desk.smsOutbox(t.fixture.admin, limit: 10)
            #expect(messages.map(\.text) == ["APRICOT code 123456"])
            let entry = try #require(t.fixture.store.auditEntries(after: 0, limit: 100).last)
            #expect(entry.action == .smsOutboxRead && entry.actor == "admin" && entry.detail == #"{"messages":1}"#)
            await #expect(throws: ServiceError.invalid("the outbox shows 1 to 1000 messages: ask for fewer")) {
                try await desk.smsOutbox(t.fixture.admin, limit: 0)
            }
        }
    }

    @Test("an unreachable store is reported as such")
    func unreachable() async throws {
        let desk = LocalDesk(store: UnreachableStore(error: .unavailable(location: "db", reason: "down")))
        let error = await failure { () async throws(ServiceError) in
            _ = try await desk.traceLookup(DeskFixture.strangerSession, phone: "333 111 0001", purpose: "p")
        }
        #expect(error != nil)
    }
}

/// The error a call throws; nil when it succeeds.
private func failure(_ body: () async throws(ServiceError) -> Void) async -> ServiceError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
