import CivilCalendar
import DeskAPI
import DeskCore
import Foundation
import JSONText
import Testing

/// The tracer's JSON: a lookup, a page of sightings, an outcome and the outbox read back equal;
/// request bodies read by the server are what the client wrote; bad ones name the field.
@Suite struct TraceWireTests {
    static func bytes(_ value: JSONValue) -> [UInt8] { Array(value.serialized.utf8) }

    static func request(_ value: JSONValue, query: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/", headers: [("Content-Type", "application/json")],
            query: query.map { (name: $0.0, value: $0.1) }, body: bytes(value))
    }

    static func raw(_ body: String) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    static let at = Date(unixMilliseconds: 1_795_946_400_123)

    static func lookup() -> TraceLookup {
        var hours = Array(repeating: 0, count: 24)
        hours[0] = 3
        hours[23] = 60
        let contacts = [
            TraceContact(
                summary: ContactSummary(
                    userID: 11, phone: PhoneNumber(e164: "+393331000002")!,
                    firstSeen: Date(timeIntervalSince1970: 1_795_860_000),
                    lastSeen: Date(timeIntervalSince1970: 1_795_861_140), sightings: 21, minutes: 63, days: 1,
                    mostMinutesOnOneDay: 63, isCloseContact: true,
                    timeline: [DayHours(day: CivilDay(iso: "2026-11-28")!, minutesByHour: hours, untimed: 2)]),
                outcome: RecordedOutcome(outcome: .wrongNumber, note: "\"x\", ü", by: "tina", at: at)),
            TraceContact(
                summary: ContactSummary(
                    userID: 12, phone: PhoneNumber(e164: "+12025550123")!, firstSeen: nil, lastSeen: nil, sightings: 1,
                    minutes: 1, days: 1, mostMinutesOnOneDay: 1, isCloseContact: false,
                    timeline: [DayHours(day: CivilDay(iso: "2026-11-27")!, untimed: 1)]),
                outcome: nil),
        ]
        return TraceLookup(
            patient: TracePatient(
                userID: 7, phone: PhoneNumber(e164: "+393331000001")!, registeredAt: at, daysUploaded: 2, records: 30,
                skewSeconds: -4, firstDay: CivilDay(iso: "2026-11-27"), lastDay: CivilDay(iso: "2026-11-28"),
                lastUploadAt: at),
            contacts: contacts, unresolved: 8, totalSightings: 30, closeContactMinutes: 15, purpose: "case 1",
            lookedUpAt: at)
    }

    @Test("a lookup reads back equal: summaries, sparse timelines, outcomes, a patient without uploads")
    func lookupRoundTrip() throws {
        let lookup = Self.lookup()
        #expect(try StaffWire.readTraceLookup(Self.bytes(StaffWire.traceLookup(lookup))) == lookup)
        var empty = lookup
        empty.contacts = []
        empty.patient.daysUploaded = 0
        empty.patient.firstDay = nil
        empty.patient.lastDay = nil
        empty.patient.lastUploadAt = nil
        #expect(try StaffWire.readTraceLookup(Self.bytes(StaffWire.traceLookup(empty))) == empty)
        // Only hours with minutes travel.
        #expect(StaffWire.traceLookup(lookup).serialized.contains(#""hours":[[0,3],[23,60]]"#))
    }

    @Test("sightings, outcomes and the outbox read back equal")
    func others() throws {
        let sightings = [
            Sighting(
                time: 1_795_860_000, fileDay: CivilDay(iso: "2026-11-28")!, beacon: PseudoID(suffix: 0xdead_beef).bytes,
                contactUserID: 11),
            Sighting(
                time: 0, fileDay: CivilDay(iso: "2026-11-28")!, beacon: Array(repeating: 0x42, count: 20),
                contactUserID: nil),
        ]
        let page = try StaffWire.readSightingsPage(
            Self.bytes(StaffWire.sightingsPage(sightings, total: 9, nextOffset: 2)))
        #expect(page.sightings == sightings && page.total == 9 && page.nextOffset == 2)
        let last = try StaffWire.readSightingsPage(Self.bytes(StaffWire.sightingsPage([], total: 0, nextOffset: nil)))
        #expect(last.sightings.isEmpty && last.nextOffset == nil)
        let outcome = RecordedOutcome(outcome: .reachedRefused, note: "", by: "tina", at: Self.at)
        #expect(try StaffWire.readRecordedOutcome(Self.bytes(StaffWire.recordedOutcome(outcome))) == outcome)
        let message = SmsMessage(
            id: 3, phone: PhoneNumber(e164: "+393331000001")!, text: "Your code: 123456", gateway: "outbox",
            status: .held, attempts: 0, detail: "", createdAt: Self.at, updatedAt: Self.at)
        #expect(try StaffWire.readSmsOutbox(Self.bytes(StaffWire.smsOutbox([message]))) == [message])
    }

    @Test("request bodies read by the server are what the client wrote")
    func requests() throws {
        let lookup = try StaffRequests.traceLookup(
            Self.request(StaffWire.traceLookupRequest(phone: "+39 333 (100) 0001", purpose: "case \"1\""))
        ).get()
        #expect(lookup == StaffRequests.TraceLookup(phone: "+39 333 (100) 0001", purpose: "case \"1\""))
        for contact in [Int64(11), nil] {
            let sent = StaffRequests.TraceSightings(
                patientUserID: 7, contactUserID: contact, purpose: "p", offset: 500, limit: 500)
            #expect(try StaffRequests.traceSightings(Self.request(StaffWire.traceSightingsRequest(sent))).get() == sent)
        }
        let outcome = StaffRequests.TraceOutcome(
            patientUserID: 7, contactUserID: 11, outcome: .noAnswer, note: "later", purpose: "p")
        #expect(try StaffRequests.traceOutcome(Self.request(StaffWire.traceOutcomeRequest(outcome))).get() == outcome)
        let export = StaffRequests.TraceExport(patientUserID: 7, purpose: "p", kind: "contacts_csv", rows: 3)
        #expect(try StaffRequests.traceExport(Self.request(StaffWire.traceExportRequest(export))).get() == export)
        let copy = StaffRequests.TracePhoneCopy(patientUserID: 7, contactUserID: 11, purpose: "p")
        #expect(try StaffRequests.tracePhoneCopy(Self.request(StaffWire.tracePhoneCopyRequest(copy))).get() == copy)
        #expect(try StaffRequests.smsOutboxLimit(Self.request(.null, query: [("limit", "7")])).get() == 7)
        #expect(try StaffRequests.smsOutboxLimit(Self.request(.null)).get() == 50)
    }

    @Test("bad bodies name the field and never repeat what was sent")
    func badRequests() {
        func detail(_ result: Result<some Any, APIError>) -> String? {
            if case .failure(let error) = result { return error.detail }
            return nil
        }
        #expect(detail(StaffRequests.traceLookup(Self.raw(#"{"phone":"+393331000001"}"#))) == "purpose is required")
        let extra = detail(StaffRequests.traceLookup(Self.raw(#"{"phone":"+393331000001","purpose":"p","x":1}"#)))
        #expect(extra?.hasPrefix("x is not a field of this request") == true)
        let outcome = detail(
            StaffRequests.traceOutcome(
                Self.raw(#"{"patient_user_id":7,"contact_user_id":11,"outcome":"dead","purpose":"p"}"#)))
        #expect(outcome?.hasPrefix("outcome must be one of not_yet_called, no_answer") == true)
        let phone = detail(StaffRequests.traceLookup(Self.raw(#"{"phone":3331000001,"purpose":"p"}"#)))
        #expect(phone == "phone must be a string, not a number")
        #expect(!(phone ?? "").contains("3331000001"))
        #expect(detail(StaffRequests.smsOutboxLimit(Self.request(.null, query: [("limit", "many")]))) != nil)
    }
}
