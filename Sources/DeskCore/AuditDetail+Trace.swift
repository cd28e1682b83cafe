/// The audit details of contact tracing, the SMS outbox and HIS clients.
extension AuditEntry.Detail {
    /// A tracer's lookup: the purpose they typed, and what they read (a patient's summary, one
    /// page of raw sightings, or nothing: a number no app user has).
    public struct TraceLookup: Hashable, Sendable {
        public enum Key {
            public static let purpose = "purpose"
            public static let found = "found"
            public static let days = "days"
            public static let sightings = "sightings"
            public static let contacts = "contacts"
            public static let closeContacts = "close_contacts"
            public static let unresolved = "unresolved"
            public static let view = "view"
            public static let of = "of"
            public static let offset = "offset"
            public static let total = "total"
        }
        /// The `view` of a page of sightings.
        public static let sightingsView = "sightings"

        public enum Read: Hashable, Sendable {
            /// No app user has the number.
            case notFound
            /// The patient's summary: days of files, sightings, contacts (close ones), sightings
            /// whose owner was not found.
            case patient(days: Int, sightings: Int, contacts: Int, closeContacts: Int, unresolved: Int)
            /// One page of sightings: whose (`user N` or `all`), from which offset, how many of how many.
            case sightings(of: String, offset: Int, count: Int, total: Int)
        }

        public var purpose: String
        public var read: Read

        public init(purpose: String, read: Read) {
            self.purpose = purpose
            self.read = read
        }

        init?(_ r: DetailReader) {
            guard let purpose = r.string(Key.purpose) else { return nil }
            if r.bool(Key.found) == false {
                self.init(purpose: purpose, read: .notFound)
            } else if r.string(Key.view) == Self.sightingsView {
                guard let of = r.string(Key.of), let offset = r.int(Key.offset), let count = r.int(Key.sightings),
                    let total = r.int(Key.total)
                else { return nil }
                self.init(purpose: purpose, read: .sightings(of: of, offset: offset, count: count, total: total))
            } else {
                guard let days = r.int(Key.days), let sightings = r.int(Key.sightings),
                    let contacts = r.int(Key.contacts), let close = r.int(Key.closeContacts),
                    let unresolved = r.int(Key.unresolved)
                else { return nil }
                self.init(
                    purpose: purpose,
                    read: .patient(
                        days: days, sightings: sightings, contacts: contacts, closeContacts: close,
                        unresolved: unresolved))
            }
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.purpose, purpose)
            switch read {
            case .notFound:
                w.add(Key.found, false)
            case .patient(let days, let sightings, let contacts, let close, let unresolved):
                w.add(Key.days, days)
                w.add(Key.sightings, sightings)
                w.add(Key.contacts, contacts)
                w.add(Key.closeContacts, close)
                w.add(Key.unresolved, unresolved)
            case .sightings(let of, let offset, let count, let total):
                w.add(Key.view, Self.sightingsView)
                w.add(Key.of, of)
                w.add(Key.offset, offset)
                w.add(Key.sightings, count)
                w.add(Key.total, total)
            }
            return w.json
        }
    }

    /// A tracer's export of a lookup: purpose, kind (contacts_csv, sightings_csv, json) and rows.
    public struct TraceExport: Hashable, Sendable {
        public enum Key {
            public static let purpose = "purpose"
            public static let kind = "kind"
            public static let rows = "rows"
        }
        public var purpose: String
        public var kind: String
        public var rows: Int

        public init(purpose: String, kind: String, rows: Int) {
            self.purpose = purpose
            self.kind = kind
            self.rows = rows
        }

        init?(_ r: DetailReader) {
            guard let purpose = r.string(Key.purpose), let kind = r.string(Key.kind), let rows = r.int(Key.rows)
            else { return nil }
            self.init(purpose: purpose, kind: kind, rows: rows)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.purpose, purpose)
            w.add(Key.kind, kind)
            w.add(Key.rows, rows)
            return w.json
        }
    }

    /// A call outcome recorded: the patient (`user N`), the outcome and the purpose; never the note.
    public struct ContactOutcomeRecorded: Hashable, Sendable {
        public enum Key {
            public static let patient = "patient"
            public static let outcome = "outcome"
            public static let purpose = "purpose"
        }
        public var patient: String
        /// A ``ContactOutcome`` raw value.
        public var outcome: String
        public var purpose: String

        public init(patient: String, outcome: String, purpose: String) {
            self.patient = patient
            self.outcome = outcome
            self.purpose = purpose
        }

        init?(_ r: DetailReader) {
            guard let patient = r.string(Key.patient), let outcome = r.string(Key.outcome),
                let purpose = r.string(Key.purpose)
            else { return nil }
            self.init(patient: patient, outcome: outcome, purpose: purpose)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.patient, patient)
            w.add(Key.outcome, outcome)
            w.add(Key.purpose, purpose)
            return w.json
        }
    }

    /// A tracer copied a contact's phone number (the entry's target is the contact's `user N`):
    /// whose contact, and the purpose. Never the number: a copy is audited as a view is.
    public struct PhoneCopied: Hashable, Sendable {
        public enum Key {
            public static let patient = "patient"
            public static let purpose = "purpose"
        }
        /// The patient whose lookup showed the number (`user N`).
        public var patient: String
        public var purpose: String

        public init(patient: String, purpose: String) {
            self.patient = patient
            self.purpose = purpose
        }

        init?(_ r: DetailReader) {
            guard let patient = r.string(Key.patient), let purpose = r.string(Key.purpose) else { return nil }
            self.init(patient: patient, purpose: purpose)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.patient, patient)
            w.add(Key.purpose, purpose)
            return w.json
        }
    }

    /// An admin read the SMS outbox: how many messages were shown.
    public struct SmsOutboxRead: Hashable, Sendable {
        public enum Key { public static let messages = "messages" }
        public var messages: Int

        public init(messages: Int) { self.messages = messages }

        init?(_ r: DetailReader) {
            guard let messages = r.int(Key.messages) else { return nil }
            self.init(messages: messages)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.messages, messages)
            return w.json
        }
    }

    /// An HIS client added, with its rate limit (nil: the server's default).
    public struct HISClientAdded: Hashable, Sendable {
        public enum Key { public static let ratePerMinute = "rate_per_minute" }
        public var ratePerMinute: Int?

        public init(ratePerMinute: Int?) { self.ratePerMinute = ratePerMinute }

        init?(_ r: DetailReader) {
            guard r.has(Key.ratePerMinute) else { return nil }
            if r.isNull(Key.ratePerMinute) {
                self.init(ratePerMinute: nil)
            } else {
                guard let rate = r.int(Key.ratePerMinute) else { return nil }
                self.init(ratePerMinute: rate)
            }
        }

        public var json: String {
            var w = DetailWriter()
            w.addOrNull(Key.ratePerMinute, ratePerMinute)
            return w.json
        }
    }
}
