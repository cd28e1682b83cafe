import CivilCalendar
import DeskCore
import Foundation
import Testing

/// The stored bytes of every event and audit detail, pinned: these are the bytes the store
/// wrote before the details were typed (the audit chain hashes them, the statistics' SQL reads
/// them), so a change here is a change of the stored format. Each golden also reads back as
/// the value it came from.
@Suite("Typed details: stored bytes")
struct DetailGoldenTests {
    static let day = CivilDay(iso: "2026-11-28")!
    static let expires = Date(unixMilliseconds: 1_795_961_070_000)

    static let events: [(DeskEvent.Detail, String)] = [
        (
            .otpAuthorized(.init(symptomsStartedOn: day, expiresAt: expires)),
            #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#
        ),
        (.otpChecked(.init(status: "authorized")), #"{"status":"authorized"}"#),
        (
            .uploadAccepted(
                .init(
                    uploadID: 7, keysAccepted: 12, keysDropped: 3, dropped: [.init("future", 1), .init("too_old", 2)],
                    province: "RM", clockSkewSeconds: -4, clockSkewFlagged: false, summaries: 2)),
            #"{"upload_id":7,"keys_accepted":12,"keys_dropped":3,"dropped":{"future":1,"too_old":2},"province":"RM","clock_skew_s":-4,"clock_skew_flagged":false,"summaries":2}"#
        ),
        (
            .uploadAccepted(
                .init(
                    uploadID: 8, keysAccepted: 1, keysDropped: 0, dropped: [], province: nil, clockSkewSeconds: 0,
                    clockSkewFlagged: true, summaries: 0)),
            #"{"upload_id":8,"keys_accepted":1,"keys_dropped":0,"dropped":{},"province":null,"clock_skew_s":0,"clock_skew_flagged":true,"summaries":0}"#
        ),
        (.uploadRefused(.init(reason: "consumed")), #"{"reason":"consumed"}"#),
        (
            .analyticsReceived(.init(platform: "android", province: "RM", exposureNotification: true)),
            #"{"platform":"android","province":"RM","exposure_notification":true}"#
        ),
        (
            .chunkPublished(
                .init(
                    chunk: 42, keys: 10, padding: 90, copiesSkipped: 1, windowStart: 1_795_900_000,
                    windowEnd: 1_795_903_600, uploadIDs: [7, 8])),
            #"{"chunk":42,"keys":10,"padding":90,"copies_skipped":1,"window_start_s":1795900000,"window_end_s":1795903600,"upload_ids":[7,8]}"#
        ),
        (
            .chunkPublished(
                .init(
                    chunk: 1, keys: 0, padding: 0, copiesSkipped: 0, windowStart: 0, windowEnd: 0, uploadIDs: [])),
            #"{"chunk":1,"keys":0,"padding":0,"copies_skipped":0,"window_start_s":0,"window_end_s":0,"upload_ids":[]}"#
        ),
        (.staffAction(.init(action: .signIn)), #"{"action":"sign_in"}"#),
        (.staffAction(.init(action: .staffAdded, target: "neri")), #"{"action":"staff_added","target":"neri"}"#),
        (
            .staffAction(.init(action: .signInFailed, unknownName: true)),
            #"{"action":"sign_in_failed","unknown_name":true}"#
        ),
        (.apricotRegistered(.init(pseudoIDs: 1000, returning: false)), #"{"pseudo_ids":1000}"#),
        (.apricotRegistered(.init(pseudoIDs: 1000, returning: true)), #"{"pseudo_ids":1000,"returning":true}"#),
        (
            .contactFileReceived(
                .init(
                    day: day, records: 691, distinctBeacons: 12, unknownBeacons: 3, clockSkewSeconds: -4,
                    replaced: true)),
            #"{"day":"2026-11-28","records":691,"distinct_beacons":12,"unknown_beacons":3,"clock_skew_s":-4,"replaced":true}"#
        ),
        (
            .otpGuessesLimited(.init(route: "check-otp", retryAfterSeconds: 60)),
            #"{"route":"check-otp","retry_after_s":60}"#
        ),
        (
            .caseOpened(.init(caseID: 4, what: "opened", followUps: 12, joined: 2)),
            #"{"case":4,"what":"opened","follow_ups":12,"joined":2}"#
        ),
        (.caseClosed(.init(caseID: 4, what: "closed", followUps: 3)), #"{"case":4,"what":"closed","follow_ups":3}"#),
        (
            .followUpChanged(.init(followUpID: 9, what: "attempt", state: "monitoring")),
            #"{"follow_up":9,"what":"attempt","state":"monitoring"}"#
        ),
    ]

    static let audit: [(AuditEntry.Detail, String)] = [
        (
            .signIn(.init(expiresAt: expires, passwordRehashed: false)),
            #"{"expires_at_ms":1795961070000,"password_rehashed":false}"#
        ),
        (.signInFailed(.init(failures: 3)), #"{"failures":3}"#),
        (.signInFailed(.init(reason: AuditEntry.Detail.SignInFailed.unknownAccount)), #"{"reason":"unknown account"}"#),
        (.signInRefused(.init(reason: "disabled")), #"{"reason":"disabled"}"#),
        (.signInRefused(.init(reason: "locked")), #"{"reason":"locked"}"#),
        (.accountLocked(.init(failures: 5)), #"{"failures":5}"#),
        (.accountLocked(.init(failures: 5, abandoned: 2)), #"{"failures":5,"abandoned":2}"#),
        (.signOut, "{}"),
        (
            .otpAuthorized(.init(symptomsStartedOn: day, expiresAt: expires)),
            #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#
        ),
        (.staffAdded(.init(role: .tracer)), #"{"role":"tracer"}"#),
        (.staffDisabled(.init(sessionsEnded: 2)), #"{"sessions_ended":2}"#),
        (.passwordReset(.init(sessionsEnded: 0, wasLocked: true)), #"{"sessions_ended":0,"was_locked":true}"#),
        (
            .traceLookup(.init(purpose: "case 2026-1234", read: .notFound)),
            #"{"purpose":"case 2026-1234","found":false}"#
        ),
        (
            .traceLookup(
                .init(
                    purpose: "case \"12\" \\ è",
                    read: .patient(days: 3, sightings: 40, contacts: 5, closeContacts: 2, unresolved: 1))),
            #"{"purpose":"case \"12\" \\ è","days":3,"sightings":40,"contacts":5,"close_contacts":2,"unresolved":1}"#
        ),
        (
            .traceLookup(.init(purpose: "case 9", read: .sightings(of: "user 4", offset: 50, count: 10, total: 60))),
            #"{"purpose":"case 9","view":"sightings","of":"user 4","offset":50,"sightings":10,"total":60}"#
        ),
        (
            .traceLookup(.init(purpose: "case 9", read: .sightings(of: "all", offset: 0, count: 0, total: 0))),
            #"{"purpose":"case 9","view":"sightings","of":"all","offset":0,"sightings":0,"total":0}"#
        ),
        (
            .traceExport(.init(purpose: "case 9", kind: "contacts_csv", rows: 12)),
            #"{"purpose":"case 9","kind":"contacts_csv","rows":12}"#
        ),
        (
            .contactOutcome(.init(patient: "user 3", outcome: "reached", purpose: "case 9")),
            #"{"patient":"user 3","outcome":"reached","purpose":"case 9"}"#
        ),
        (.smsOutboxRead(.init(messages: 50)), #"{"messages":50}"#),
        (.hisClientAdded(.init(ratePerMinute: 60)), #"{"rate_per_minute":60}"#),
        (.hisClientAdded(.init(ratePerMinute: nil)), #"{"rate_per_minute":null}"#),
        (.hisClientRevoked, "{}"),
        (
            .phoneCopied(.init(patient: "user 3", purpose: "case \"9\" è")),
            #"{"patient":"user 3","purpose":"case \"9\" è"}"#
        ),
        (
            .caseOpened(
                .init(caseID: 4, reference: "ASL-1", followUpsCreated: 12, followUpsJoined: 2, cameFromFollowUp: 7)),
            #"{"case":4,"reference":"ASL-1","follow_ups_created":12,"follow_ups_joined":2,"came_from_follow_up":7}"#
        ),
        (
            .followUpViewed(.init(view: "queue", persons: 25, scope: "mine")),
            #"{"view":"queue","persons":25,"scope":"mine"}"#
        ),
        (
            .caseClosed(.init(reference: "ASL-1", reason: .openedInError, followUpsEnded: 3)),
            #"{"reference":"ASL-1","reason":"opened_in_error","follow_ups_ended":3}"#
        ),
        (
            .followUpAdded(.init(caseID: 4, reference: "ASL-1", followUpID: 9, joined: false)),
            #"{"case":4,"reference":"ASL-1","follow_up":9,"joined":false}"#
        ),
        (
            .followUpAttempt(.init(person: "user 5", outcome: .noAnswer, state: .calling)),
            #"{"person":"user 5","outcome":"no_answer","state":"calling"}"#
        ),
        (
            .followUpCheck(.init(person: "user 5", symptoms: true, isolating: false, state: .monitoring)),
            #"{"person":"user 5","symptoms":true,"isolating":false,"state":"monitoring"}"#
        ),
        (
            .followUpAssigned(.init(followUpIDs: [9, 12], reassigned: 1)),
            #"{"follow_ups":[9,12],"reassigned":1}"#
        ),
    ]

    @Test("every event kind: its bytes, and back", arguments: events.indices)
    func event(_ index: Int) {
        let (value, bytes) = Self.events[index]
        #expect(value.json == bytes)
        #expect(DeskEvent.Detail(kind: value.kind, json: bytes) == value)
    }

    @Test("every audit action: its bytes, and back", arguments: audit.indices)
    func auditEntry(_ index: Int) {
        let (value, bytes) = Self.audit[index]
        #expect(value.json == bytes)
        #expect(AuditEntry.Detail(kind: value.kind, json: bytes) == value)
    }

    @Test("each event kind and each audit action this version writes has a golden")
    func everyKindPinned() {
        #expect(Set(Self.events.map(\.0.kind)) == Set(DeskEvent.Kind.allCases))
        #expect(Set(Self.audit.map(\.0.kind)) == Set(AuditAction.known))
    }

    @Test("the upload detail cut around its id joins to the same bytes (PostgreSQL writes the id in SQL)")
    func uploadAroundID() throws {
        guard case .uploadAccepted(let upload) = Self.events[2].0 else {
            Issue.record("golden 2 is not an upload")
            return
        }
        let (before, after) = upload.jsonAroundUploadID
        #expect(before == #"{"upload_id":"#)
        #expect(before + "7" + after == Self.events[2].1)
    }

    @Test("an upload's dropped keys per reason: the uploads.dropped_reasons bytes, and back")
    func dropCounts() {
        let drops = KeyDropCounts([.init("future", 1), .init("too_old", 2)])
        #expect(drops.json == #"{"future":1,"too_old":2}"#)
        #expect(KeyDropCounts(json: drops.json) == drops)
        #expect(KeyDropCounts([]).json == "{}")
        #expect(KeyDropCounts(json: "{}") == KeyDropCounts([]))
        #expect(drops.byReason == ["future": 1, "too_old": 2])
        #expect(KeyDropCounts(json: #"{"future":"1"}"#) == nil)
        #expect(KeyDropCounts(json: "[]") == nil)
    }

    @Test("an evaluation's drops are written in the reasons' order, as the upload and its event keep them")
    func dropCountsOfEvaluation() {
        let evaluation = UploadEvaluation(
            accepted: [],
            dropped: [
                .init(index: 0, reason: .tooOld), .init(index: 1, reason: .future), .init(index: 2, reason: .tooOld),
            ],
            clockSkewSeconds: 0, clockSkewFlagged: false)
        #expect(KeyDropCounts(evaluation).json == #"{"future":1,"too_old":2}"#)
    }
}
