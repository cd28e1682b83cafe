import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// A lookup made by hand for the screen's tests: patient user 7, contacts with minutes, days
/// and last-seen times that sort differently each way.
extension ConsoleApp.State {
    /// The same console showing `trace` (to read a long line on a wide terminal).
    func withTrace(_ trace: TraceScreen.State) -> ConsoleApp.State {
        var state = self
        state.trace = trace
        return state
    }
}

enum TraceFixture {
    static let patientPhone = PhoneNumber(e164: "+393331234567")!
    static let purpose = "case 2026-1234"

    static func phone(_ n: Int) -> PhoneNumber { PhoneNumber(e164: "+3934700\(String(format: "%05d", n))")! }

    static func hours(_ pairs: [Int: Int]) -> [Int] {
        var hours = Array(repeating: 0, count: 24)
        for (hour, minutes) in pairs { hours[hour] = minutes }
        return hours
    }

    /// Ana: 42 min over 2 days (close), last seen 28th 18:40; Bruno: 9 min over 3 days, last
    /// seen 29th 09:15; Carla: 16 min on 1 day (close), last seen 27th 12:00, reached; Dario:
    /// no timed sighting, 1 min.
    static func contacts() -> [TraceContact] {
        let day28 = CivilDay(iso: "2026-11-28")!
        let day27 = CivilDay(iso: "2026-11-27")!
        let day29 = CivilDay(iso: "2026-11-29")!
        let base = Fixture.now.timeIntervalSince1970  // 29th 14:02
        func at(_ hoursAgo: Double) -> Date { Date(timeIntervalSince1970: base - hoursAgo * 3600) }
        return [
            TraceContact(
                summary: ContactSummary(
                    userID: 11, phone: phone(11), firstSeen: at(30), lastSeen: at(19.4), sightings: 50, minutes: 42,
                    days: 2, mostMinutesOnOneDay: 30, isCloseContact: true,
                    timeline: [
                        DayHours(day: day28, minutesByHour: hours([8: 12, 9: 13, 18: 5]), minutes: 30),
                        DayHours(day: day27, minutesByHour: hours([20: 10]), untimed: 2, minutes: 12),
                    ]), outcome: nil),
            TraceContact(
                summary: ContactSummary(
                    userID: 12, phone: phone(12), firstSeen: at(60), lastSeen: at(4.8), sightings: 11, minutes: 9,
                    days: 3, mostMinutesOnOneDay: 4, isCloseContact: false,
                    timeline: [DayHours(day: day29, minutesByHour: hours([9: 4]), minutes: 4)]), outcome: nil),
            TraceContact(
                summary: ContactSummary(
                    userID: 13, phone: phone(13), firstSeen: at(50.5), lastSeen: at(50), sightings: 20, minutes: 16,
                    days: 1, mostMinutesOnOneDay: 16, isCloseContact: true,
                    timeline: [DayHours(day: day27, minutesByHour: hours([11: 10, 12: 6]), minutes: 16)]),
                outcome: RecordedOutcome(
                    outcome: .reachedIsolating, note: "isolating, calls back Tue", by: "tina", at: at(1))),
            TraceContact(
                summary: ContactSummary(
                    userID: 14, phone: phone(14), firstSeen: nil, lastSeen: nil, sightings: 1, minutes: 1, days: 1,
                    mostMinutesOnOneDay: 1, isCloseContact: false,
                    timeline: [DayHours(day: day28, untimed: 1, minutes: 1)]), outcome: nil),
        ]
    }

    static func lookup(contacts: [TraceContact] = contacts(), daysUploaded: Int = 3) -> TraceLookup {
        TraceLookup(
            patient: TracePatient(
                userID: 7, phone: patientPhone, registeredAt: Date(timeIntervalSince1970: 1_794_000_000),
                daysUploaded: daysUploaded, records: daysUploaded == 0 ? 0 : 2_345, skewSeconds: 3,
                firstDay: daysUploaded == 0 ? nil : CivilDay(iso: "2026-11-27"),
                lastDay: daysUploaded == 0 ? nil : CivilDay(iso: "2026-11-29"),
                lastUploadAt: daysUploaded == 0 ? nil : Fixture.now.addingTimeInterval(-3600)),
            contacts: contacts, unresolved: daysUploaded == 0 ? 0 : 120,
            totalSightings: daysUploaded == 0 ? 0 : 2_345, closeContactMinutes: 15, purpose: purpose,
            lookedUpAt: Fixture.now)
    }

    static let tracer = Fixture.session("tina", role: .tracer)

    /// The tracer's console, signed in (the contact-trace screen).
    static func app(width: Int = 80, height: Int = 24, ascii: Bool = false) -> ConsoleApp.State {
        var state = ConsoleApp.State(
            size: TerminalSize(width: width, height: height), location: Fixture.location, now: Fixture.now,
            timeZone: Fixture.utc, ascii: ascii)
        _ = ConsoleApp.update(&state, .signedIn(tracer))
        // The tracer's home is the call queue; the lookup is on the trace screen (F2).
        _ = ConsoleApp.update(&state, .keyPressed(.function(2)))
        return state
    }

    /// Types a number and a purpose, and answers the lookup with `lookup`.
    static func looked(
        width: Int = 80, height: Int = 24, ascii: Bool = false, _ lookup: TraceLookup = lookup()
    ) -> ConsoleApp.State {
        var state = app(width: width, height: height, ascii: ascii)
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type(purpose, into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(lookup)))
        return state
    }

    static func sightings(_ contact: Int64, count: Int, from: Int = 0) -> [Sighting] {
        (from..<from + count).map { i in
            Sighting(
                time: 1_795_860_000 + Int64(i * 60), fileDay: CivilDay(iso: "2026-11-28")!,
                beacon: PseudoID(suffix: UInt32(0xab00_0000 + Int(contact))).bytes, contactUserID: contact)
        }
    }

    static func phones(_ state: ConsoleApp.State) -> [Int64] {
        state.trace.order.map { state.trace.lookup!.contacts[$0].summary.userID }
    }
}

@Suite("Contact-trace screen")
struct TraceScreenTests {
    @Test("a tracer starts on the contact-trace screen, on the phone number")
    func start() {
        let state = TraceFixture.app()
        #expect(state.page == .trace)
        #expect(state.trace.phase == .phone)
        // The empty number is not being typed yet: `?` is help there (TraceCallLoopTests).
        #expect(!state.isTypingText)
        #expect(Fixture.prose(state).contains("Look up a patient"))
    }

    @Test("a number in a wrong format is refused inline with what to type; the purpose is asked next")
    func phoneErrors() {
        var state = TraceFixture.app()
        Fixture.type("333-abc", into: &state)
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(state.trace.phase == .phone)
        #expect(state.trace.phoneError == PhoneNumberError.notADigit.message)
        #expect(Fixture.prose(state).contains("✗ a phone number has only digits"))
        // Typing again clears the message; a good number shows its normalised form.
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("0039 333 123 4567", into: &state)
        #expect(state.trace.phoneError == nil)
        #expect(Fixture.prose(state).contains("✓ +39 333 123 4567"))
        _ = Fixture.press(.enter, into: &state)
        #expect(state.trace.phase == .purpose)

        var empty = TraceFixture.app()
        _ = Fixture.press(.enter, into: &empty)
        #expect(empty.trace.phoneError == PhoneNumberError.empty.message)
    }

    @Test("the desk's country code, from the session, is the one the preview adds")
    func countryCodeFromSession() {
        var session = TraceFixture.tracer
        session.phoneCountryCode = "+41"
        var state = Fixture.onTrace(Fixture.app(session: session))
        #expect(state.trace.defaultCountryCode == "+41")
        #expect(Fixture.prose(state).contains("or without +41"))
        Fixture.type("79 111 0001", into: &state)
        #expect(Fixture.prose(state).contains("✓ +41 791 110 001"))
    }

    @Test(
        "the index day: Tab to it, the date keys move it, Space switches symptom onset / test day; sent with the case")
    func indexDay() {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("ASL-1", into: &state)
        _ = Fixture.press(.tab, .char("y"), .left, into: &state)
        #expect(state.trace.indexDay.value == Fixture.now.utcDay.adding(days: -2))
        #expect(Fixture.prose(state).contains("symptom onset"))
        _ = Fixture.press(.char(" "), into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            commands == [
                .trace(
                    .openCase(
                        phone: "333 123 4567", reference: "ASL-1", indexDay: Fixture.now.utcDay.adding(days: -2),
                        kind: .testDay))
            ])
    }

    @Test(
        "the patient's open case: said so, its reference is the purpose; a case the desk could not open is no look-up"
    )
    func existingCase() {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("typed ref", into: &state)
        _ = Fixture.press(.enter, into: &state)
        let trace = TraceCase(
            id: 2, reference: "ASL-2026-0400", patientUserID: 7, phone: TraceFixture.patientPhone,
            indexDay: Fixture.now.utcDay.adding(days: -3), indexKind: .symptomOnset, openedBy: "toni",
            openedAt: Fixture.now.addingTimeInterval(-86_400), status: .open, contacts: 4,
            cameFrom: [CaseLink(caseID: 1, reference: "ASL-2026-0390", followUpID: 9)])
        let next = ConsoleApp.update(
            &state,
            .trace(.caseOpened(CaseOpening(trace: trace, existing: true, followUpsCreated: 0, followUpsJoined: 0))))
        #expect(next == [.trace(.lookup(phone: "333 123 4567", purpose: "ASL-2026-0400"))])
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        let text = Fixture.prose(TraceFixture.app(width: 200, height: 40).withTrace(state.trace))
        #expect(
            text.contains(
                "Case ASL-2026-0400 (case 2) is already open for this patient, opened by toni 2026-11-28 14:02"))
        #expect(text.contains("came from case ASL-2026-0390"))
        #expect(state.trace.lookupPurpose == "ASL-2026-0400")

        var bare = TraceFixture.app()
        Fixture.type("333 123 4567", into: &bare)
        _ = Fixture.press(.enter, into: &bare)
        Fixture.type("case 9", into: &bare)
        _ = Fixture.press(.enter, into: &bare)
        // A case the desk could not open (the store busy): no look-up without it, the desk's
        // message, the number and the reference kept to try again.
        let failed = ConsoleApp.update(
            &bare, .trace(.lookupFailed("storage is busy or unreachable (incident 7); retry in a few seconds")))
        #expect(failed.isEmpty)
        #expect(bare.trace.phase == .phone)
        #expect(bare.trace.phoneError == "storage is busy or unreachable (incident 7); retry in a few seconds")
        #expect(bare.trace.purpose.text == "case 9")
        #expect(bare.trace.openedCase == nil)
    }

    @Test("the case reference is required; with one, the case is opened with the number as typed, then looked up")
    func purpose() {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(
            state.trace.purposeError
                == "a case reference is required: type the authority's case number, e.g. ASL-2026-0412")
        Fixture.type("  case 9 ", into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            commands == [.trace(.openCase(phone: "333 123 4567", reference: "case 9", indexDay: nil, kind: .testDay))])
        #expect(state.trace.phase == .loading)
        let trace = TraceCase(
            id: 3, reference: "case 9", patientUserID: 7, phone: TraceFixture.patientPhone,
            indexDay: Fixture.now.utcDay,
            indexKind: .testDay, openedBy: "tina", openedAt: Fixture.now, status: .open, contacts: 2)
        let next = ConsoleApp.update(
            &state,
            .trace(.caseOpened(CaseOpening(trace: trace, existing: false, followUpsCreated: 2, followUpsJoined: 0))))
        #expect(next == [.trace(.lookup(phone: "333 123 4567", purpose: "case 9"))])
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        #expect(
            Fixture.prose(state).contains("Case case 9 (case 3) opened: 2 contacts to follow, in the call queue (F3)"))
        // Esc on the purpose goes back to the number.
        var back = TraceFixture.app()
        Fixture.type("333 123 4567", into: &back)
        _ = Fixture.press(.enter, .escape, into: &back)
        #expect(back.trace.phase == .phone)
    }

    @Test("an unknown number comes back as the desk's message on the number, with the purpose kept")
    func unknown() {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("case 9", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupFailed(ServiceChecks.unknownPatient)))
        #expect(state.trace.phase == .phone)
        #expect(state.trace.phoneError == ServiceChecks.unknownPatient)
        #expect(state.trace.purpose.text == "case 9")
    }

    @Test("the table sorts by minutes, last seen and days (s cycles, m l d choose)")
    func sorting() {
        var state = TraceFixture.looked()
        #expect(TraceFixture.phones(state) == [11, 13, 12, 14])
        _ = Fixture.press(.char("s"), into: &state)
        #expect(state.trace.sort == .lastSeen)
        #expect(TraceFixture.phones(state) == [12, 11, 13, 14])
        _ = Fixture.press(.char("s"), into: &state)
        #expect(state.trace.sort == .days)
        #expect(TraceFixture.phones(state) == [12, 11, 13, 14])
        _ = Fixture.press(.char("m"), into: &state)
        #expect(TraceFixture.phones(state) == [11, 13, 12, 14])
        _ = Fixture.press(.char("d"), .char("s"), into: &state)
        #expect(state.trace.sort == .minutes)
        // The selection stays on its contact when the order changes.
        _ = Fixture.press(.down, into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 13)
        _ = Fixture.press(.char("l"), into: &state)
        #expect(state.trace.selectedContact?.summary.userID == 13)
    }

    @Test("/ filters as you type: phone digits (with separators) or outcome words")
    func filtering() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("/"), into: &state)
        #expect(state.isTypingText)
        Fixture.type("00 012", into: &state)
        #expect(TraceFixture.phones(state) == [12])
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("isolating", into: &state)
        #expect(TraceFixture.phones(state) == [13])
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("not yet", into: &state)
        #expect(TraceFixture.phones(state) == [11, 12, 14])
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("close", into: &state)
        #expect(TraceFixture.phones(state) == [11, 13])
        _ = Fixture.press(.enter, into: &state)
        #expect(!state.trace.filtering)
        _ = Fixture.press(.char("/"), .ctrl("u"), into: &state)
        // A leading 00 is the +: "0039 347" finds every +39 347 number.
        Fixture.type("0039 347", into: &state)
        #expect(TraceFixture.phones(state) == [11, 13, 12, 14])
        _ = Fixture.press(.ctrl("u"), into: &state)
        // Whole words, or the start of one from three letters: "no" is not "not yet called".
        Fixture.type("no", into: &state)
        #expect(TraceFixture.phones(state).isEmpty)
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("iso", into: &state)
        #expect(TraceFixture.phones(state) == [13])
        // The contacts that are not close.
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("far", into: &state)
        #expect(TraceFixture.phones(state) == [12, 14])
        _ = Fixture.press(.ctrl("u"), into: &state)
        Fixture.type("!close", into: &state)
        #expect(TraceFixture.phones(state) == [12, 14])
        _ = Fixture.press(.enter, into: &state)
        _ = Fixture.press(.escape, into: &state)
        #expect(TraceFixture.phones(state).count == 4)
    }

    @Test("Enter opens the detail and reads the contact's sightings a page at a time as it scrolls")
    func detail() {
        var state = TraceFixture.looked()
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            commands == [
                .trace(
                    .sightings(
                        patientUserID: 7, contactUserID: 11, purpose: TraceFixture.purpose, offset: 0,
                        limit: TraceScreen.sightingsPage))
            ])
        let page = TraceFixture.sightings(11, count: TraceScreen.sightingsPage)
        _ = ConsoleApp.update(
            &state,
            .trace(
                .sightingsLoaded(
                    TraceSightingsPage(sightings: page, total: 600, nextOffset: TraceScreen.sightingsPage),
                    patient: 7, contact: 11, offset: 0)))
        #expect(state.trace.detail?.sightings.count == TraceScreen.sightingsPage)
        // Scrolling near the end of what was read asks for the next page, once.
        var asked: [ConsoleApp.Command] = []
        for _ in 0..<45 { asked += Fixture.press(.pageDown, into: &state) }
        #expect(
            asked == [
                .trace(
                    .sightings(
                        patientUserID: 7, contactUserID: 11, purpose: TraceFixture.purpose,
                        offset: TraceScreen.sightingsPage, limit: TraceScreen.sightingsPage))
            ])
        _ = ConsoleApp.update(
            &state,
            .trace(
                .sightingsLoaded(
                    TraceSightingsPage(
                        sightings: TraceFixture.sightings(11, count: 100, from: 500), total: 600, nextOffset: nil),
                    patient: 7, contact: 11, offset: TraceScreen.sightingsPage)))
        #expect(state.trace.detail?.sightings.count == 600)
        #expect(state.trace.detail?.nextOffset == nil)
        #expect(Fixture.press(.end, into: &state).isEmpty)
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.detail == nil)
    }

    @Test("an outcome is chosen from the five, with a note, sent, and shown in the table")
    func outcome() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("o"), into: &state)
        #expect(state.trace.outcomeForm?.choice == .notYetCalled)
        #expect(state.isTypingText)
        _ = Fixture.press(.down, .down, into: &state)
        Fixture.type("q? back Monday", into: &state)
        let commands = Fixture.press(.enter, into: &state)
        #expect(
            commands == [
                .trace(
                    .recordOutcome(
                        patientUserID: 7, contactUserID: 11, outcome: .reachedIsolating, note: "q? back Monday",
                        purpose: TraceFixture.purpose))
            ])
        let recorded = RecordedOutcome(outcome: .reachedIsolating, note: "q? back Monday", by: "tina", at: Fixture.now)
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: 7, contact: 11)))
        #expect(state.trace.outcomeForm == nil)
        #expect(state.trace.lookup?.contacts[0].outcome == recorded)
        #expect(Fixture.prose(state).contains("✓ outcome recorded: reached, isolating"))
        // A refusal stays in the form.
        _ = Fixture.press(.char("o"), .enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.outcomeFailed("the note is too long", patient: 7, contact: 11)))
        #expect(state.trace.outcomeForm?.error == "the note is too long")
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.outcomeForm == nil)
    }

    @Test("e exports the table as shown to a typed path; an existing file is overwritten only when confirmed")
    func export() throws {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("/"), into: &state)
        Fixture.type("close", into: &state)
        _ = Fixture.press(.enter, .char("e"), into: &state)
        #expect(state.trace.export?.path.text == "~/trace-7-2026-11-29.csv")
        let commands = Fixture.press(.enter, into: &state)
        let csv = TraceCSV.contacts([state.trace.lookup!.contacts[0], state.trace.lookup!.contacts[2]])
        #expect(
            commands == [
                .trace(
                    .export(
                        path: "~/trace-7-2026-11-29.csv", csv: csv, patientUserID: 7, purpose: TraceFixture.purpose,
                        rows: 2, overwrite: false))
            ])
        _ = ConsoleApp.update(&state, .trace(.exportExists("~/trace-7-2026-11-29.csv")))
        #expect(state.trace.export?.confirm != nil)
        #expect(!state.isTypingText)
        let confirmed = Fixture.press(.char("y"), into: &state)
        guard case .trace(.export(_, _, _, _, _, let overwrite))? = confirmed.first else {
            Issue.record("no export after the confirmation")
            return
        }
        #expect(overwrite)
        _ = ConsoleApp.update(&state, .trace(.exported(path: "~/trace-7-2026-11-29.csv", rows: 2)))
        #expect(state.trace.export == nil)
        #expect(Fixture.prose(state).contains("✓ exported 2 contacts to ~/trace-7-2026-11-29.csv"))

        // Declining keeps the file and the prompt.
        _ = Fixture.press(.char("e"), .enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.exportExists("~/trace-7-2026-11-29.csv")))
        #expect(Fixture.press(.char("n"), into: &state).isEmpty)
        #expect(state.trace.export?.confirm == nil)
        #expect(state.trace.export?.error?.hasPrefix("kept the existing file") == true)
    }

    @Test("n starts a new lookup; r looks the same patient up again")
    func newLookup() {
        var state = TraceFixture.looked()
        #expect(
            Fixture.press(.char("r"), into: &state) == [
                .trace(.lookup(phone: "+393331234567", purpose: TraceFixture.purpose))
            ])
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        _ = Fixture.press(.char("n"), into: &state)
        #expect(state.trace.phase == .phone)
        #expect(state.trace.phone.text.isEmpty)
        // Esc goes back to the last result.
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.phase == .result)
    }

    @Test("n, another number and purpose, Esc back, r: the shown patient is looked up again, with its purpose")
    func againAfterNewLookup() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.char("n"), into: &state)
        Fixture.type("347 000 0012", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("another case", into: &state)
        _ = Fixture.press(.escape, .escape, into: &state)
        #expect(state.trace.phase == .result)
        #expect(state.trace.phone.text == TraceFixture.patientPhone.spaced)
        #expect(state.trace.purpose.text == TraceFixture.purpose)
        #expect(
            Fixture.press(.char("r"), into: &state) == [
                .trace(.lookup(phone: "+393331234567", purpose: TraceFixture.purpose))
            ])
        // A new lookup that fails leaves the shown one with its own purpose.
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        _ = Fixture.press(.char("n"), into: &state)
        Fixture.type("347 000 0099", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("other purpose", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupFailed("nobody registered this number")))
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.lookupPurpose == TraceFixture.purpose)
        #expect(
            Fixture.press(.char("r"), into: &state) == [
                .trace(.lookup(phone: "+393331234567", purpose: TraceFixture.purpose))
            ])
    }

    @Test("each timeline day ends in its minutes as the table counts them, untimed sightings included")
    func timelineMinutes() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.enter, into: &state)
        let screen = Fixture.render(state).text
        #expect(screen.contains("timed minutes per UTC hour (█ = 60 min)"))
        #expect(screen.contains(" 30 min"))
        // 10 timed minutes in the bars, 12 for the day: the 2 untimed sightings count.
        #expect(screen.contains(" 12 min (2 untimed)"))
    }

    @Test("80 columns: a 30-day history with a large clock skew keeps the skew; a long note wraps with …")
    func narrowSummary() {
        var lookup = TraceFixture.lookup()
        lookup.patient.daysUploaded = 30
        lookup.patient.firstDay = CivilDay(iso: "2026-10-31")
        lookup.patient.skewSeconds = -8_000
        let note = String(repeating: "call back after the test result ", count: 12)
        lookup.contacts[0].outcome = RecordedOutcome(outcome: .noAnswer, note: note, by: "tina", at: Fixture.now)
        var state = TraceFixture.looked(lookup)
        let screen = Fixture.render(state).text
        #expect(screen.contains("Uploads: 30 days, 2026-10-31 – 2026-11-29 · clock skew −2 h 13 min"))
        // 160 columns have room for the days covered too.
        let wide = Fixture.render(TraceFixture.looked(width: 160, height: 48, lookup)).text
        #expect(wide.contains("(30 days covered) · clock skew −2 h 13 min"))
        _ = Fixture.press(.enter, into: &state)
        let lines = Fixture.render(state).lines
        let first = lines.firstIndex { $0.contains("Outcome: no answer") } ?? 0
        #expect(lines[first + 1].contains("call back"))
        #expect(lines[first + 2].contains("…"))
        #expect(!lines[first + 3].contains("call back"))
    }

    @Test("footers come from the key maps and keep help, sign-out and quit at 80 columns; help lists what works")
    func footersAndHelp() {
        var state = TraceFixture.app()
        func footer() -> String { Fixture.render(state).lines.last ?? "" }
        #expect(footer().hasPrefix("Enter Next  ^U Clear"))
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(footer().hasPrefix("Enter Open case  Esc Back"))
        Fixture.type(TraceFixture.purpose, into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(state.trace.phase == .loading)
        _ = Fixture.press(.char("?"), into: &state)
        let loadingHelp = Fixture.prose(state)
        #expect(loadingHelp.contains("looking up"))
        #expect(!loadingHelp.contains("editing text"))
        #expect(!loadingHelp.contains("Go on"))
        _ = Fixture.press(.escape, into: &state)
        _ = ConsoleApp.update(&state, .trace(.lookupLoaded(TraceFixture.lookup())))
        #expect(footer().contains("Enter Detail"))
        #expect(footer().hasSuffix("^C Quit"))
        _ = Fixture.press(.char("n"), into: &state)
        #expect(footer().hasPrefix("Enter Next  Esc Back"))
        _ = Fixture.press(.escape, into: &state)
        // 160 columns have room for every hint.
        var wide = TraceFixture.looked(width: 160, height: 48)
        #expect(Fixture.render(wide).lines.last?.contains("s Sort") == true)
        // The detail: End shows the last screenful, the last sighting selected at the bottom.
        _ = Fixture.press(.enter, into: &wide)
        _ = ConsoleApp.update(
            &wide,
            .trace(
                .sightingsLoaded(
                    TraceSightingsPage(sightings: TraceFixture.sightings(11, count: 80), total: 80, nextOffset: nil),
                    patient: 7, contact: 11, offset: 0)))
        _ = Fixture.press(.end, into: &wide)
        let lines = Fixture.render(wide).lines
        let sightingRows = lines.filter { $0.contains("beacon …ab00000b") }
        #expect(sightingRows.count > 10)
        #expect(sightingRows.last?.contains("2026-11-28 11:19:00") == true)
    }

    @Test("answers for another patient's contact (asked before a new lookup) are dropped")
    func staleAnswers() {
        var state = TraceFixture.looked()
        _ = Fixture.press(.enter, into: &state)
        _ = Fixture.press(.char("o"), .enter, into: &state)
        // The same contact id under another patient (user 8): none of it is shown here.
        let other = Int64(8)
        let page = TraceSightingsPage(sightings: TraceFixture.sightings(11, count: 3), total: 3, nextOffset: nil)
        _ = ConsoleApp.update(&state, .trace(.sightingsLoaded(page, patient: other, contact: 11, offset: 0)))
        #expect(state.trace.detail?.sightings.isEmpty == true)
        _ = ConsoleApp.update(&state, .trace(.sightingsFailed("refused", patient: other, contact: 11)))
        #expect(state.trace.detail?.error == nil)
        _ = ConsoleApp.update(&state, .trace(.outcomeFailed("refused", patient: other, contact: 11)))
        #expect(state.trace.outcomeForm?.error == nil)
        let recorded = RecordedOutcome(outcome: .reachedRefused, note: "", by: "tina", at: Fixture.now)
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: other, contact: 11)))
        #expect(state.trace.lookup?.contacts[0].outcome == nil)
        #expect(state.trace.outcomeForm != nil)
        // The shown patient's answers are taken.
        _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: 7, contact: 11)))
        #expect(state.trace.lookup?.contacts[0].outcome == recorded)
        _ = ConsoleApp.update(&state, .trace(.sightingsLoaded(page, patient: 7, contact: 11, offset: 0)))
        #expect(state.trace.detail?.sightings.count == 3)
    }

    @Test("a patient without uploads gets a message that says what to do")
    func noUploads() {
        let state = TraceFixture.looked(TraceFixture.lookup(contacts: [], daysUploaded: 0))
        let prose = Fixture.prose(state)
        #expect(prose.contains("uploaded no contact files yet"))
        #expect(prose.contains("press r to look again"))
    }

    @Test("50 000 contacts: the table asks only for the rows in view, sorting and filtering stay whole")
    func large() {
        let many = (0..<50_000).map { i in
            TraceContact(
                summary: ContactSummary(
                    userID: Int64(100 + i), phone: TraceFixture.phone(i), firstSeen: nil,
                    lastSeen: Date(timeIntervalSince1970: Double(1_795_000_000 + i)), sightings: i % 97,
                    minutes: i % 61, days: i % 7 + 1, mostMinutesOnOneDay: i % 61, isCloseContact: i % 61 >= 15,
                    timeline: []), outcome: nil)
        }
        var state = TraceFixture.looked(TraceFixture.lookup(contacts: many))
        #expect(state.trace.order.count == 50_000)
        _ = Fixture.press(.char("l"), .char("g"), into: &state)
        let latest: Int64? = state.trace.selectedContact?.summary.userID
        #expect(latest == Int64(50_099))
        _ = Fixture.press(.char("/"), into: &state)
        Fixture.type("4999", into: &state)
        let expected = many.filter { $0.summary.phone.e164.contains("4999") }.count
        #expect(expected > 0 && state.trace.order.count == expected)
        _ = Fixture.press(.escape, into: &state)
        var asked = Set<Int>()
        var buffer = Buffer(width: 80, height: 20)
        let table = TraceScreen.table(state.trace, width: 80)
        table.render(into: &buffer, area: Rect(x: 0, y: 0, width: 80, height: 20)) { position in
            asked.insert(position)
            return []
        }
        #expect(asked.count == 19)
    }
}
