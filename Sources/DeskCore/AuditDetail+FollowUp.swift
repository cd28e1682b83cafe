import JSONText

/// The event detail of contact follow-up (issue 21): one shape for `case_opened`, `case_closed`
/// and `follow_up_changed`. Ids and counts only: never a phone number, a reference or a note.
extension DeskEvent.Detail {
    public struct FollowUpActivity: Hashable, Sendable {
        public enum Key {
            public static let caseID = "case"
            public static let followUp = "follow_up"
            public static let what = "what"
            public static let state = "state"
            public static let followUps = "follow_ups"
            public static let joined = "joined"
        }
        public var caseID: Int64?
        public var followUpID: Int64?
        /// What happened: `opened`, `closed`, `attempt`, `check`, `assigned`, `added`, `settled`.
        public var what: String
        /// The follow-up's state after the change (``FollowUpState`` raw value).
        public var state: String?
        /// Follow-ups made (opened), ended (closed) or touched.
        public var followUps: Int?
        /// Follow-ups of other cases joined (opened).
        public var joined: Int?

        public init(
            caseID: Int64? = nil, followUpID: Int64? = nil, what: String, state: String? = nil, followUps: Int? = nil,
            joined: Int? = nil
        ) {
            self.caseID = caseID
            self.followUpID = followUpID
            self.what = what
            self.state = state
            self.followUps = followUps
            self.joined = joined
        }

        init?(_ r: DetailReader) {
            guard let what = r.string(Key.what) else { return nil }
            self.init(
                caseID: r.int64(Key.caseID), followUpID: r.int64(Key.followUp), what: what, state: r.string(Key.state),
                followUps: r.int(Key.followUps), joined: r.int(Key.joined))
        }

        public var json: String {
            var w = DetailWriter()
            w.addIfPresent(Key.caseID, caseID)
            w.addIfPresent(Key.followUp, followUpID)
            w.add(Key.what, what)
            w.addIfPresent(Key.state, state)
            w.addIfPresent(Key.followUps, followUps)
            w.addIfPresent(Key.joined, joined)
            return w.json
        }
    }
}

/// The audit details of contact follow-up (issue 21). Privacy: never a phone number, a note's
/// text or the reason a contact was added by hand; persons are `user N` (the entry's target),
/// follow-ups `follow-up N`, cases `case N` with their reference (what a view is audited with).
extension AuditEntry.Detail {
    /// A case opened (target the patient's `user N`).
    public struct CaseOpened: Hashable, Sendable {
        public enum Key {
            public static let caseID = "case"
            public static let reference = "reference"
            public static let created = "follow_ups_created"
            public static let joined = "follow_ups_joined"
            public static let cameFrom = "came_from_follow_up"
        }
        public var caseID: Int64
        public var reference: String
        public var followUpsCreated: Int
        public var followUpsJoined: Int
        /// The follow-up of the patient that became this case, when there was one.
        public var cameFromFollowUp: Int64?

        public init(
            caseID: Int64, reference: String, followUpsCreated: Int, followUpsJoined: Int, cameFromFollowUp: Int64?
        ) {
            self.caseID = caseID
            self.reference = reference
            self.followUpsCreated = followUpsCreated
            self.followUpsJoined = followUpsJoined
            self.cameFromFollowUp = cameFromFollowUp
        }

        init?(_ r: DetailReader) {
            guard let id = r.int64(Key.caseID), let reference = r.string(Key.reference),
                let created = r.int(Key.created), let joined = r.int(Key.joined)
            else { return nil }
            self.init(
                caseID: id, reference: reference, followUpsCreated: created, followUpsJoined: joined,
                cameFromFollowUp: r.int64(Key.cameFrom))
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.caseID, caseID)
            w.add(Key.reference, reference)
            w.add(Key.created, followUpsCreated)
            w.add(Key.joined, followUpsJoined)
            w.addIfPresent(Key.cameFrom, cameFromFollowUp)
            return w.json
        }
    }

    /// A read of cases, a case, a follow-up or a queue page (target `cases`, `case N`,
    /// `follow-up N` or `queue`): what was read, the case reference when one case is named, and
    /// how many persons the answer showed.
    public struct FollowUpViewed: Hashable, Sendable {
        public enum Key {
            public static let view = "view"
            public static let reference = "reference"
            public static let persons = "persons"
            public static let scope = "scope"
        }
        /// `cases`, `case`, `follow_up`, `queue`, `case_existing` (an open that found the case).
        public var view: String
        public var reference: String?
        public var persons: Int
        /// A queue's scope: `mine`, `tracer NAME`, `unassigned`, `everyone`.
        public var scope: String?

        public init(view: String, reference: String? = nil, persons: Int, scope: String? = nil) {
            self.view = view
            self.reference = reference
            self.persons = persons
            self.scope = scope
        }

        init?(_ r: DetailReader) {
            guard let view = r.string(Key.view), let persons = r.int(Key.persons) else { return nil }
            self.init(view: view, reference: r.string(Key.reference), persons: persons, scope: r.string(Key.scope))
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.view, view)
            w.addIfPresent(Key.reference, reference)
            w.add(Key.persons, persons)
            w.addIfPresent(Key.scope, scope)
            return w.json
        }
    }

    /// A case closed (target `case N`): its reference, the reason, follow-ups ended. Never the note.
    public struct CaseClosed: Hashable, Sendable {
        public enum Key {
            public static let reference = "reference"
            public static let reason = "reason"
            public static let ended = "follow_ups_ended"
        }
        public var reference: String
        public var reason: CaseCloseReason
        public var followUpsEnded: Int

        public init(reference: String, reason: CaseCloseReason, followUpsEnded: Int) {
            self.reference = reference
            self.reason = reason
            self.followUpsEnded = followUpsEnded
        }

        init?(_ r: DetailReader) {
            guard let reference = r.string(Key.reference),
                let reason = r.string(Key.reason).flatMap(CaseCloseReason.init),
                let ended = r.int(Key.ended)
            else { return nil }
            self.init(reference: reference, reason: reason, followUpsEnded: ended)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.reference, reference)
            w.add(Key.reason, reason.rawValue)
            w.add(Key.ended, followUpsEnded)
            return w.json
        }
    }

    /// A contact added to a case by hand (target the contact's `user N`). Never the reason's text.
    public struct FollowUpAdded: Hashable, Sendable {
        public enum Key {
            public static let caseID = "case"
            public static let reference = "reference"
            public static let followUp = "follow_up"
            public static let joined = "joined"
        }
        public var caseID: Int64
        public var reference: String
        public var followUpID: Int64
        /// The person was followed already (for another case): their follow-up now names this one.
        public var joined: Bool

        public init(caseID: Int64, reference: String, followUpID: Int64, joined: Bool) {
            self.caseID = caseID
            self.reference = reference
            self.followUpID = followUpID
            self.joined = joined
        }

        init?(_ r: DetailReader) {
            guard let id = r.int64(Key.caseID), let reference = r.string(Key.reference),
                let followUp = r.int64(Key.followUp), let joined = r.bool(Key.joined)
            else { return nil }
            self.init(caseID: id, reference: reference, followUpID: followUp, joined: joined)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.caseID, caseID)
            w.add(Key.reference, reference)
            w.add(Key.followUp, followUpID)
            w.add(Key.joined, joined)
            return w.json
        }
    }

    /// A call attempt (target `follow-up N`): the person, the outcome, the state after. Never the note.
    public struct FollowUpAttempt: Hashable, Sendable {
        public enum Key {
            public static let person = "person"
            public static let outcome = "outcome"
            public static let state = "state"
        }
        public var person: String
        public var outcome: CallOutcome
        public var state: FollowUpState

        public init(person: String, outcome: CallOutcome, state: FollowUpState) {
            self.person = person
            self.outcome = outcome
            self.state = state
        }

        init?(_ r: DetailReader) {
            guard let person = r.string(Key.person),
                let outcome = r.string(Key.outcome).flatMap { CallOutcome(rawValue: $0) },
                let state = r.string(Key.state).flatMap(FollowUpState.init)
            else { return nil }
            self.init(person: person, outcome: outcome, state: state)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.person, person)
            w.add(Key.outcome, outcome.rawValue)
            w.add(Key.state, state.rawValue)
            return w.json
        }
    }

    /// A daily check (target `follow-up N`): the person, symptoms, isolating, the state after.
    /// Never the note.
    public struct FollowUpCheck: Hashable, Sendable {
        public enum Key {
            public static let person = "person"
            public static let symptoms = "symptoms"
            public static let isolating = "isolating"
            public static let state = "state"
        }
        public var person: String
        public var symptoms: Bool
        public var isolating: Bool
        public var state: FollowUpState

        public init(person: String, symptoms: Bool, isolating: Bool, state: FollowUpState) {
            self.person = person
            self.symptoms = symptoms
            self.isolating = isolating
            self.state = state
        }

        init?(_ r: DetailReader) {
            guard let person = r.string(Key.person), let symptoms = r.bool(Key.symptoms),
                let isolating = r.bool(Key.isolating), let state = r.string(Key.state).flatMap(FollowUpState.init)
            else { return nil }
            self.init(person: person, symptoms: symptoms, isolating: isolating, state: state)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.person, person)
            w.add(Key.symptoms, symptoms)
            w.add(Key.isolating, isolating)
            w.add(Key.state, state.rawValue)
            return w.json
        }
    }

    /// Follow-ups assigned (target the tracer): which, and how many were someone else's before.
    public struct FollowUpAssigned: Hashable, Sendable {
        public enum Key {
            public static let followUps = "follow_ups"
            public static let reassigned = "reassigned"
        }
        public var followUpIDs: [Int64]
        /// Of those, the ones another tracer had.
        public var reassigned: Int

        public init(followUpIDs: [Int64], reassigned: Int) {
            self.followUpIDs = followUpIDs
            self.reassigned = reassigned
        }

        init?(_ r: DetailReader) {
            guard let ids = r.int64s(Key.followUps), let reassigned = r.int(Key.reassigned) else { return nil }
            self.init(followUpIDs: ids, reassigned: reassigned)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.followUps, JSONValue.array(followUpIDs.map { .number(String($0)) }))
            w.add(Key.reassigned, reassigned)
            return w.json
        }
    }
}
