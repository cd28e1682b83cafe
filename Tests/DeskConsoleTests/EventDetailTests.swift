import DeskConsole
import DeskCore
import Foundation
import Testing

/// Event details in words: the table's summary per kind, the detail pane's fields, and
/// details that are not what this build expects.
@Suite("Event detail")
struct EventDetailTests {
    static func summary(_ kind: String, _ detail: String, actor: String? = nil) -> String {
        EventDetail.summary(
            Fixture.event(1, kind, at: Fixture.now, actor: actor, tag: "b3b3b3", detail), zone: Fixture.utc)
    }

    @Test(
        "one line per kind, from what the store writes",
        arguments: [
            (
                "otp_authorized", #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#,
                "symptoms from 2026-11-28, valid until 14:04:30"
            ),
            ("otp_checked", #"{"status":"authorized"}"#, "the code was valid"),
            ("otp_checked", #"{"status":"future_state"}"#, "the code was future state"),
            ("upload_refused", #"{"reason":"consumed"}"#, "refused: the code was already used"),
            (
                "upload_accepted",
                #"{"upload_id":7,"keys_accepted":12,"keys_dropped":3,"dropped":{"too_old":2,"future":1},"province":"RM","clock_skew_s":-4,"clock_skew_flagged":false,"summaries":0}"#,
                "12 accepted, 3 dropped (1 in the future, 2 too old), province RM, phone 4 s ahead"
            ),
            (
                "upload_accepted", #"{"keys_accepted":1,"keys_dropped":0,"dropped":{},"province":null}"#,
                "1 accepted, 0 dropped"
            ),
            (
                "analytics_received", #"{"platform":"android","province":"RM","exposure_notification":true}"#,
                "Android, province RM, exposure notified"
            ),
            ("chunk_published", #"{"chunk":42,"keys":1,"padding":0,"upload_ids":[7]}"#, "chunk 42: 1 key"),
            ("staff_action", #"{"action":"staff_added","target":"neri"}"#, "added an account: neri"),
            (
                "staff_action", #"{"action":"sign_in_failed","unknown_name":true}"#,
                "sign-in failed (a name no account has)"
            ),
            ("staff_action", #"{"action":"badge_printed"}"#, "badge printed"),
            ("vaccine_pass_issued", #"{"province":"MI","doses":2}"#, "vaccine pass issued: province MI, doses 2"),
            ("vaccine_pass_issued", "{}", "vaccine pass issued"),
            ("vaccine_pass_issued", #"{"a":{"b":1}}"#, "vaccine pass issued: details this version cannot read"),
            (
                "otp_guesses_limited", #"{"route":"/v1/ingestion/check-otp","retry_after_s":60}"#,
                "WARNING: too many wrong codes from one address on the code check: refused for 60 s"
            ),
            ("apricot_registered", #"{"pseudo_ids":1000}"#, "new app user, 1000 pseudo-ids"),
            ("apricot_registered", #"{"pseudo_ids":1,"returning":true}"#, "returning app user, 1 pseudo-id"),
            (
                "contact_file_received",
                #"{"day":"2026-11-28","records":691,"distinct_beacons":12,"unknown_beacons":3,"clock_skew_s":-4,"replaced":true}"#,
                "day 2026-11-28: 691 records, 12 beacons (3 unknown), phone 4 s ahead, replaced the day's earlier file"
            ),
            (
                "contact_file_received", #"{"day":"2026-11-28","records":1,"distinct_beacons":1,"unknown_beacons":0}"#,
                "day 2026-11-28: 1 record, 1 beacon"
            ),
        ])
    func summaries(_ kind: String, _ detail: String, _ expected: String) {
        #expect(Self.summary(kind, detail) == expected)
    }

    @Test(
        "a detail that is not what this build expects is said to be unreadable, never shown or a crash",
        arguments: [
            "", "not json", "[1,2]", "42", "\"text\"", "{", #"{"status":5}"#, #"{"keys_accepted":"many"}"#, "{}",
            #"{"chunk":1e400}"#, "\u{0}",
        ])
    func garbage(_ detail: String) {
        for kind in DeskEvent.Kind.allCases {
            _ = Self.summary(kind.rawValue, detail)
        }
        _ = EventDetail.lines(Fixture.event(1, "otp_checked", at: Fixture.now, detail), zone: Fixture.utc)
        #expect(Self.summary("otp_checked", "not json") == "details this version cannot read")
        #expect(Self.summary("otp_checked", #"{"status":5}"#) == "details this version cannot read")
        #expect(Self.summary("upload_accepted", "{}") == "")
    }

    static func lines(_ kind: String, _ detail: String) -> [String]? {
        EventDetail.lines(Fixture.event(1, kind, at: Fixture.now, tag: "b3b3b3", detail), zone: Fixture.utc)
    }

    @Test(
        "the detail pane in words, never the stored key names",
        arguments: [
            (
                "otp_authorized", #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#,
                ["symptoms started on 2026-11-28", "valid until 2026-11-29 14:04:30 local"]
            ),
            ("otp_checked", #"{"status":"authorized"}"#, ["the code was valid when the app checked it"]),
            ("upload_refused", #"{"reason":"consumed"}"#, ["refused: the code was already used"]),
            (
                "upload_accepted",
                #"{"upload_id":7,"keys_accepted":12,"keys_dropped":3,"dropped":{"too_old":2,"future":1},"province":"RM","clock_skew_s":-4,"clock_skew_flagged":true,"summaries":1}"#,
                [
                    "upload 7", "12 keys accepted, 3 dropped", "dropped: 1 in the future, 2 too old", "province RM",
                    "phone clock 4 s ahead (flagged)", "1 exposure summary",
                ]
            ),
            (
                "chunk_published",
                #"{"chunk":42,"keys":12,"padding":88,"copies_skipped":1,"window_start_s":1795957200,"window_end_s":1795960800,"upload_ids":[7,8]}"#,
                [
                    "chunk 42", "12 keys, 88 padding", "1 copy skipped",
                    "keys from 2026-11-29 13:00:00 local to 2026-11-29 14:00:00 local", "from uploads 7, 8",
                ]
            ),
            (
                "staff_action", #"{"action":"sign_in_failed","unknown_name":true}"#,
                ["sign-in failed", "a name no account has (what was typed is not kept)"]
            ),
            (
                "staff_action", #"{"action":"trace_lookup","target":"user 12"}"#,
                ["looked up a patient", "about user 12"]
            ),
            (
                "otp_guesses_limited", #"{"route":"check-otp","retry_after_s":60}"#,
                [
                    "too many wrong codes from one address", "on the code check",
                    "refused for 60 s (the phone is told to wait)",
                ]
            ),
            ("vaccine_pass_issued", "{}", []),
            ("vaccine_pass_issued", #"{"province":"MI","urgent":true}"#, ["province MI", "urgent yes"]),
        ])
    func paneLines(_ kind: String, _ detail: String, _ expected: [String]) {
        #expect(Self.lines(kind, detail) == expected)
    }

    @Test("a detail that does not read as its kind's has no lines: the pane says it cannot read it")
    func paneRaw() {
        #expect(Self.lines("otp_checked", "not json") == nil)
        #expect(Self.lines("otp_authorized", #"{"symptoms":"2026-11-28"}"#) == nil)
        #expect(Self.lines("vaccine_pass_issued", #"[1]"#) == nil)
    }

    @Test("dropped reasons in the upload rules' order, unknown ones last")
    func droppedOrder() {
        #expect(
            EventDetail.droppedText(["too_old": 2, "key_length": 1, "zzz_new": 4, "future": 1])
                == "1 wrong key length, 1 in the future, 2 too old, 4 zzz new")
    }

    @Test(
        "no stored name, code or JSON in any summary or pane line of what the store writes",
        arguments: [
            ("otp_authorized", #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#),
            ("otp_checked", #"{"status":"authorized"}"#), ("otp_checked", #"{"status":"consumed"}"#),
            ("upload_refused", #"{"reason":"expired"}"#),
            (
                "upload_accepted",
                #"{"upload_id":7,"keys_accepted":12,"keys_dropped":9,"dropped":{"too_old":2,"future":1,"key_length":1,"rolling_period":1,"duplicate_key_data":1,"duplicate_interval":1,"misaligned":1,"before_risk_window":1},"province":"RM","clock_skew_s":-4,"clock_skew_flagged":true,"summaries":1}"#
            ),
            ("staff_action", #"{"action":"password_reset","target":"neri"}"#),
            ("staff_action", #"{"action":"sign_in_refused"}"#),
            ("otp_guesses_limited", #"{"route":"/v1/ingestion/upload","retry_after_s":60}"#),
            ("otp_checked", "status=expired (not json"),
        ])
    func noStoredNames(_ kind: String, _ detail: String) {
        let shown = [Self.summary(kind, detail)] + (Self.lines(kind, detail) ?? [])
        for text in shown {
            #expect(!text.contains("_"), "a stored name in \(text)")
            #expect(!text.contains("{") && !text.contains("\""), "JSON in \(text)")
            for code in ["authorized", "consumed", "status:", "429", "=", "/v1"] {
                #expect(!text.contains(code), "\(code) in \(text)")
            }
        }
    }

    @Test("the filter's stored forms: the kind's code and every field as stored")
    func storedForms() {
        let event = Fixture.event(
            1, "upload_accepted", at: Fixture.now,
            #"{"keys_accepted":1,"keys_dropped":2,"dropped":{"too_old":2},"province":"RM","expires_at_ms":5}"#)
        let forms = EventDetail.storedForms(event)
        for part in [
            "upload_accepted", "keys_accepted: 1", "dropped", "too_old: 2", "province: RM", "expires_at_ms: 5",
        ] {
            #expect(forms.contains(part), "\(part) in \(forms)")
        }
        #expect(
            EventDetail.storedForms(Fixture.event(2, "otp_checked", at: Fixture.now, #"{"status":"authorized"}"#))
                == "otp_checked status: authorized")
        #expect(
            EventDetail.storedForms(Fixture.event(3, "otp_checked", at: Fixture.now, "not json"))
                == "otp_checked not json")
    }

    @Test("extreme numbers from a server read as text, never a trap")
    func extremes() {
        #expect(EventDetail.clockOffset(skew: Int64.min) == "9223372036854775808 s ahead")
        #expect(TrafficShare(since: Fixture.now, realRequests: Int64.max, dummyRequests: Int64.max).dummyShare == 0.5)
    }
}
