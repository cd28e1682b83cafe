import CivilCalendar
import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The contact tracer's JSON and the SMS outbox (docs/staff-api.yaml, "Contact tracing").
///
/// Privacy rule: phone numbers travel only in bodies (requests and answers), never in a URL or
/// a query, so the access log (method and route template) never sees one. Beacons travel as
/// 40 lowercase hex characters.
extension StaffWire {
    // MARK: Request bodies (written by RemoteDesk, read by StaffRequests)

    /// `POST /staff/v1/trace/lookup`: `{"phone": "...", "purpose": "..."}`, the phone as typed.
    public static func traceLookupRequest(phone: String, purpose: String) -> JSONValue {
        object([("phone", .string(phone)), ("purpose", .string(purpose))])
    }

    /// `POST /staff/v1/trace/sightings`.
    public static func traceSightingsRequest(_ request: StaffRequests.TraceSightings) -> JSONValue {
        var members: [(String, JSONValue)] = [("patient_user_id", number(request.patientUserID))]
        if let contact = request.contactUserID { members.append(("contact_user_id", number(contact))) }
        members += [
            ("purpose", .string(request.purpose)), ("offset", number(request.offset)), ("limit", number(request.limit)),
        ]
        return object(members)
    }

    /// `POST /staff/v1/trace/outcome`.
    public static func traceOutcomeRequest(_ request: StaffRequests.TraceOutcome) -> JSONValue {
        object([
            ("patient_user_id", number(request.patientUserID)), ("contact_user_id", number(request.contactUserID)),
            ("outcome", .string(request.outcome.rawValue)), ("note", .string(request.note)),
            ("purpose", .string(request.purpose)),
        ])
    }

    /// `POST /staff/v1/trace/export`.
    public static func traceExportRequest(_ request: StaffRequests.TraceExport) -> JSONValue {
        object([
            ("patient_user_id", number(request.patientUserID)), ("purpose", .string(request.purpose)),
            ("kind", .string(request.kind)), ("rows", number(request.rows)),
        ])
    }

    /// `POST /staff/v1/trace/phone-copy`.
    public static func tracePhoneCopyRequest(_ request: StaffRequests.TracePhoneCopy) -> JSONValue {
        object([
            ("patient_user_id", number(request.patientUserID)), ("contact_user_id", number(request.contactUserID)),
            ("purpose", .string(request.purpose)),
        ])
    }

    // MARK: Answers

    /// `POST /staff/v1/trace/lookup`. A contact's timeline lists only the hours with minutes,
    /// as `[hour, minutes]` pairs: about 300 bytes a contact plus 50 a day seen.
    public static func traceLookup(_ lookup: TraceLookup) -> JSONValue {
        let patient = lookup.patient
        return object([
            (
                "patient",
                object([
                    ("user_id", number(patient.userID)), ("phone", .string(patient.phone.e164)),
                    ("registered_at", .string(time(patient.registeredAt))),
                    ("days_uploaded", number(patient.daysUploaded)), ("records", number(patient.records)),
                    ("skew_seconds", number(patient.skewSeconds)),
                    ("first_day", patient.firstDay.map { .string($0.iso) } ?? .null),
                    ("last_day", patient.lastDay.map { .string($0.iso) } ?? .null),
                    ("last_upload_at", optionalTime(patient.lastUploadAt)),
                ])
            ),
            ("contacts", .array(lookup.contacts.map(traceContact))),
            ("unresolved", number(lookup.unresolved)), ("total_sightings", number(lookup.totalSightings)),
            ("close_contact_minutes", number(lookup.closeContactMinutes)), ("purpose", .string(lookup.purpose)),
            ("looked_up_at", .string(time(lookup.lookedUpAt))),
        ])
    }

    static func traceContact(_ contact: TraceContact) -> JSONValue {
        let summary = contact.summary
        return object([
            ("user_id", number(summary.userID)), ("phone", .string(summary.phone.e164)),
            ("first_seen", optionalTime(summary.firstSeen)), ("last_seen", optionalTime(summary.lastSeen)),
            ("sightings", number(summary.sightings)), ("minutes", number(summary.minutes)),
            ("days", number(summary.days)), ("most_minutes_on_one_day", number(summary.mostMinutesOnOneDay)),
            ("close_contact", .bool(summary.isCloseContact)),
            (
                "timeline",
                .array(
                    summary.timeline.map { day in
                        object([
                            ("day", .string(day.day.iso)),
                            (
                                "hours",
                                .array(
                                    day.minutesByHour.enumerated().filter { $0.element != 0 }.map {
                                        .array([number($0.offset), number($0.element)])
                                    })
                            ),
                            ("untimed", number(day.untimed)),
                            ("minutes", number(day.minutes)),
                        ])
                    })
            ),
            ("outcome", contact.outcome.map(recordedOutcome) ?? .null),
        ])
    }

    /// `POST /staff/v1/trace/outcome` (and each contact's `outcome`).
    public static func recordedOutcome(_ outcome: RecordedOutcome) -> JSONValue {
        object([
            ("outcome", .string(outcome.outcome.rawValue)), ("note", .string(outcome.note)),
            ("by", .string(outcome.by)), ("at", .string(time(outcome.at))),
        ])
    }

    /// `POST /staff/v1/trace/sightings`: a page of sightings, how many match in all, and where
    /// the next page starts (nil after the last).
    public static func sightingsPage(_ sightings: [Sighting], total: Int, nextOffset: Int?) -> JSONValue {
        object([
            (
                "sightings",
                .array(
                    sightings.map { sighting in
                        object([
                            ("time", number(sighting.time)), ("file_day", .string(sighting.fileDay.iso)),
                            ("beacon", .string(hex(sighting.beacon))),
                            ("contact_user_id", sighting.contactUserID.map { number($0) } ?? .null),
                        ])
                    })
            ),
            ("total", number(total)), ("next_offset", nextOffset.map { number($0) } ?? .null),
        ])
    }

    /// `GET /staff/v1/sms/outbox`: the messages with their text (admin only; the text holds the code).
    public static func smsOutbox(_ messages: [SmsMessage]) -> JSONValue {
        object([
            (
                "messages",
                .array(
                    messages.map { message in
                        object([
                            ("id", number(message.id)), ("phone", .string(message.phone.e164)),
                            ("text", .string(message.text)), ("gateway", .string(message.gateway)),
                            ("status", .string(message.status.rawValue)), ("attempts", number(message.attempts)),
                            ("detail", .string(message.detail)), ("created_at", .string(time(message.createdAt))),
                            ("updated_at", .string(time(message.updatedAt))),
                            ("text_dropped", message.textDropped.map { .string($0.rawValue) } ?? .null),
                        ])
                    })
            )
        ])
    }

    /// Lowercase hex, two digits a byte: a beacon's form on the wire (``Hex/lowercase(_:)``).
    public static func hex(_ bytes: [UInt8]) -> String { Hex.lowercase(bytes) }

    static func unhex(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x61...0x66: return byte - 0x61 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            guard let high = value(bytes[index]), let low = value(bytes[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    // MARK: Reading answers

    static func phone(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> PhoneNumber {
        guard let phone = PhoneNumber(e164: try reader.string(key)!) else {
            throw FieldProblem("\(reader.name(key)) is not a phone number in E.164 form")
        }
        return phone
    }

    static func day(_ reader: ObjectReader, _ key: String, required: Bool = true) throws(FieldProblem) -> CivilDay? {
        guard let text = try reader.string(key, required: required, allowNull: !required) else { return nil }
        guard let day = CivilDay(iso: text) else {
            throw FieldProblem("\(reader.name(key)) is not a day such as 2026-11-29")
        }
        return day
    }

    static func count(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Int {
        Int(try reader.integer(key, in: 0...Int64(Int.max))!)
    }

    public static func readTraceLookup(_ bytes: [UInt8]) throws(FieldProblem) -> TraceLookup {
        let reader = try document(bytes)
        let p = try nested(reader, "patient")
        let patient = TracePatient(
            userID: try int(p, "user_id"), phone: try phone(p, "phone"),
            registeredAt: try requiredTime(p, "registered_at"), daysUploaded: try count(p, "days_uploaded"),
            records: try count(p, "records"), skewSeconds: try int(p, "skew_seconds"),
            firstDay: try day(p, "first_day", required: false), lastDay: try day(p, "last_day", required: false),
            lastUploadAt: try optionalTime(p, "last_upload_at"))
        var contacts: [TraceContact] = []
        let items = try reader.array("contacts")!
        contacts.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            contacts.append(try traceContact(try ObjectReader(item, path: "contacts[\(i)]")))
        }
        return TraceLookup(
            patient: patient, contacts: contacts, unresolved: try count(reader, "unresolved"),
            totalSightings: try count(reader, "total_sightings"),
            closeContactMinutes: try count(reader, "close_contact_minutes"),
            purpose: try reader.string("purpose")!, lookedUpAt: try requiredTime(reader, "looked_up_at"))
    }

    static func traceContact(_ c: ObjectReader) throws(FieldProblem) -> TraceContact {
        var timeline: [DayHours] = []
        for (i, item) in try c.array("timeline")!.enumerated() {
            let entry = try ObjectReader(item, path: c.name("timeline") + "[\(i)]")
            var hours = DayHours(
                day: try day(entry, "day")!, untimed: try count(entry, "untimed"), minutes: try count(entry, "minutes"))
            for (j, pair) in try entry.array("hours")!.enumerated() {
                let name = entry.name("hours") + "[\(j)]"
                guard case .array(let values) = pair, values.count == 2 else {
                    throw FieldProblem("\(name) must be a pair [hour, minutes]")
                }
                let hour = try Fields.integer(values[0], name: name, in: 0...23)
                hours.minutesByHour[Int(hour)] = Int(try Fields.integer(values[1], name: name, in: 0...60))
            }
            timeline.append(hours)
        }
        var outcome: RecordedOutcome?
        if let value = try c.optional("outcome", allowNull: true) {
            outcome = try recordedOutcome(try ObjectReader(value, path: c.name("outcome")))
        }
        let summary = ContactSummary(
            userID: try int(c, "user_id"), phone: try phone(c, "phone"), firstSeen: try optionalTime(c, "first_seen"),
            lastSeen: try optionalTime(c, "last_seen"), sightings: try count(c, "sightings"),
            minutes: try count(c, "minutes"), days: try count(c, "days"),
            mostMinutesOnOneDay: try count(c, "most_minutes_on_one_day"), isCloseContact: try bool(c, "close_contact"),
            timeline: timeline)
        return TraceContact(summary: summary, outcome: outcome)
    }

    static func recordedOutcome(_ reader: ObjectReader) throws(FieldProblem) -> RecordedOutcome {
        guard let outcome = ContactOutcome(rawValue: try reader.string("outcome")!) else {
            throw FieldProblem("\(reader.name("outcome")) is not an outcome this version knows")
        }
        return RecordedOutcome(
            outcome: outcome, note: try reader.string("note")!, by: try reader.string("by")!,
            at: try requiredTime(reader, "at"))
    }

    public static func readRecordedOutcome(_ bytes: [UInt8]) throws(FieldProblem) -> RecordedOutcome {
        try recordedOutcome(try document(bytes))
    }

    public static func readSightingsPage(_ bytes: [UInt8]) throws(FieldProblem) -> TraceSightingsPage {
        let reader = try document(bytes)
        var sightings: [Sighting] = []
        let items = try reader.array("sightings")!
        sightings.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let entry = try ObjectReader(item, path: "sightings[\(i)]")
            guard let beacon = unhex(try entry.string("beacon")!), beacon.count == 20 else {
                throw FieldProblem("\(entry.name("beacon")) is not 40 lowercase hex characters")
            }
            sightings.append(
                Sighting(
                    time: try int(entry, "time"), fileDay: try day(entry, "file_day")!, beacon: beacon,
                    contactUserID: try entry.optional("contact_user_id", allowNull: true) == nil
                        ? nil : try int(entry, "contact_user_id")))
        }
        let next: Int? =
            try reader.optional("next_offset", allowNull: true) == nil ? nil : Int(try int(reader, "next_offset"))
        return TraceSightingsPage(sightings: sightings, total: try count(reader, "total"), nextOffset: next)
    }

    public static func readSmsOutbox(_ bytes: [UInt8]) throws(FieldProblem) -> [SmsMessage] {
        let reader = try document(bytes)
        var messages: [SmsMessage] = []
        for (i, item) in try reader.array("messages")!.enumerated() {
            let entry = try ObjectReader(item, path: "messages[\(i)]")
            guard let status = SmsDeliveryStatus(rawValue: try entry.string("status")!) else {
                throw FieldProblem("\(entry.name("status")) is not a delivery status this version knows")
            }
            messages.append(
                SmsMessage(
                    id: try int(entry, "id"), phone: try phone(entry, "phone"), text: try entry.string("text")!,
                    gateway: try entry.string("gateway")!, status: status, attempts: try count(entry, "attempts"),
                    detail: try entry.string("detail")!, createdAt: try requiredTime(entry, "created_at"),
                    updatedAt: try requiredTime(entry, "updated_at"),
                    textDropped: try entry.string("text_dropped", required: false, allowNull: true).flatMap(
                        SmsTextDropped.init(rawValue:))))
        }
        return messages
    }
}

extension StaffRequests {
    /// `{phone, purpose}` of `POST /staff/v1/trace/lookup`.
    public struct TraceLookup: Hashable, Sendable {
        public var phone: String
        public var purpose: String
        public init(phone: String, purpose: String) {
            self.phone = phone
            self.purpose = purpose
        }
    }

    /// `POST /staff/v1/trace/sightings`.
    public struct TraceSightings: Hashable, Sendable {
        public var patientUserID: Int64
        public var contactUserID: Int64?
        public var purpose: String
        public var offset: Int
        public var limit: Int
        public init(patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int) {
            self.patientUserID = patientUserID
            self.contactUserID = contactUserID
            self.purpose = purpose
            self.offset = offset
            self.limit = limit
        }
    }

    /// `POST /staff/v1/trace/outcome`.
    public struct TraceOutcome: Hashable, Sendable {
        public var patientUserID: Int64
        public var contactUserID: Int64
        public var outcome: ContactOutcome
        public var note: String
        public var purpose: String
        public init(patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String, purpose: String)
        {
            self.patientUserID = patientUserID
            self.contactUserID = contactUserID
            self.outcome = outcome
            self.note = note
            self.purpose = purpose
        }
    }

    /// `POST /staff/v1/trace/export`.
    public struct TraceExport: Hashable, Sendable {
        public var patientUserID: Int64
        public var purpose: String
        public var kind: String
        public var rows: Int
        public init(patientUserID: Int64, purpose: String, kind: String, rows: Int) {
            self.patientUserID = patientUserID
            self.purpose = purpose
            self.kind = kind
            self.rows = rows
        }
    }

    /// `POST /staff/v1/trace/phone-copy`.
    public struct TracePhoneCopy: Hashable, Sendable {
        public var patientUserID: Int64
        public var contactUserID: Int64
        public var purpose: String
        public init(patientUserID: Int64, contactUserID: Int64, purpose: String) {
            self.patientUserID = patientUserID
            self.contactUserID = contactUserID
            self.purpose = purpose
        }
    }

    /// Numbers the desk judges (offsets, limits, row counts) are read whole, so a value out of
    /// its range gets the desk's own message, the same locally and remotely.
    static let anyInt = Int64(Int32.min)...Int64(Int32.max)

    public static func traceLookup(_ request: HTTPRequest) -> Result<TraceLookup, APIError> {
        read(request, allowed: ["phone", "purpose"]) { fields throws(FieldProblem) in
            TraceLookup(phone: try fields.string("phone")!, purpose: try fields.string("purpose")!)
        }
    }

    public static func traceSightings(_ request: HTTPRequest) -> Result<TraceSightings, APIError> {
        read(request, allowed: ["patient_user_id", "contact_user_id", "purpose", "offset", "limit"]) {
            fields throws(FieldProblem) in
            TraceSightings(
                patientUserID: try fields.integer("patient_user_id", in: Int64.min...Int64.max)!,
                contactUserID: try fields.integer("contact_user_id", in: Int64.min...Int64.max, required: false),
                purpose: try fields.string("purpose")!,
                offset: Int(try fields.integer("offset", in: anyInt, required: false) ?? 0),
                limit: Int(try fields.integer("limit", in: anyInt)!))
        }
    }

    public static func traceOutcome(_ request: HTTPRequest) -> Result<TraceOutcome, APIError> {
        read(request, allowed: ["patient_user_id", "contact_user_id", "outcome", "note", "purpose"]) {
            fields throws(FieldProblem) in
            guard let outcome = ContactOutcome(rawValue: try fields.string("outcome")!) else {
                throw FieldProblem(
                    "outcome must be one of \(ContactOutcome.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return TraceOutcome(
                patientUserID: try fields.integer("patient_user_id", in: Int64.min...Int64.max)!,
                contactUserID: try fields.integer("contact_user_id", in: Int64.min...Int64.max)!, outcome: outcome,
                note: try fields.string("note", required: false) ?? "", purpose: try fields.string("purpose")!)
        }
    }

    public static func traceExport(_ request: HTTPRequest) -> Result<TraceExport, APIError> {
        read(request, allowed: ["patient_user_id", "purpose", "kind", "rows"]) { fields throws(FieldProblem) in
            TraceExport(
                patientUserID: try fields.integer("patient_user_id", in: Int64.min...Int64.max)!,
                purpose: try fields.string("purpose")!, kind: try fields.string("kind")!,
                rows: Int(try fields.integer("rows", in: anyInt)!))
        }
    }

    public static func tracePhoneCopy(_ request: HTTPRequest) -> Result<TracePhoneCopy, APIError> {
        read(request, allowed: ["patient_user_id", "contact_user_id", "purpose"]) { fields throws(FieldProblem) in
            TracePhoneCopy(
                patientUserID: try fields.integer("patient_user_id", in: Int64.min...Int64.max)!,
                contactUserID: try fields.integer("contact_user_id", in: Int64.min...Int64.max)!,
                purpose: try fields.string("purpose")!)
        }
    }

    /// `?limit=` of `GET /staff/v1/sms/outbox` (default 50; the desk judges the range).
    public static func smsOutboxLimit(_ request: HTTPRequest) -> Result<Int, APIError> {
        if let extra = request.query.first(where: { $0.name != "limit" }) {
            return .failure(
                .invalidRequest("\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: limit)"))
        }
        let values = request.queryValues("limit")
        if values.count > 1 { return .failure(.invalidRequest("limit may be given once")) }
        guard let text = values.first, !text.isEmpty else { return .success(50) }
        guard let limit = Fields.parseInteger(text), anyInt.contains(limit) else {
            return .failure(.invalidRequest("limit must be a whole number, such as 50"))
        }
        return .success(Int(limit))
    }
}
