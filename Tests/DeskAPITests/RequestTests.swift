import CivilCalendar
import DeskAPI
import DeskCore
import JSONText
import Testing

@Suite("Request validation")
struct RequestTests {
    static let today = CivilDay(iso: "2026-11-29")!
    static let token = String(repeating: "ab", count: 32)

    func request(_ body: String, headers: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/", headers: headers.map { ($0.0, $0.1) }, body: Array(body.utf8))
    }

    @Test("strict base64: padding required, standard alphabet only")
    func base64() {
        #expect(Fields.base64Decode("AAECAwQFBgcICQoLDA0ODw==") == Array(0...15))
        #expect(Fields.base64Decode("AAECAwQFBgcICQoLDA0ODw") == nil)
        #expect(Fields.base64Decode("AAECAwQFBgcICQoLDA0OD-_=") == nil)
        #expect(Fields.base64Decode("AA=A") == nil)
        #expect(Fields.base64Decode("A===") == nil)
        #expect(Fields.base64Decode("") == [])
        #expect(Fields.base64Decode("YWJj") == Array("abc".utf8))
    }

    @Test("integers: digits only, within Int64")
    func integers() {
        #expect(Fields.parseInteger("2147483647") == 2_147_483_647)
        #expect(Fields.parseInteger("-5") == -5)
        #expect(Fields.parseInteger("9223372036854775808") == nil)
        for bad in ["", "-", "1.0", "1e3", " 1", "0x1", "+1"] { #expect(Fields.parseInteger(bad) == nil, "\(bad)") }
        #expect(Fields.isoDate("2026-02-29") == nil)
        #expect(Fields.isoDate("2028-02-29") != nil)
        #expect(Fields.isoDate("2026-1-01") == nil)
    }

    @Test("POST /v1/otp: a good body parses; the detail names the field, never the value")
    func otpBody() throws {
        let good = request(
            #"{"otp":"9K2RAY8UUQ","symptoms_started_on":"2026-11-28"}"#, headers: [("Content-Type", "application/json")]
        )
        let parsed = try ImmuniRequests.otpAuthorization(good, today: Self.today).get()
        #expect(parsed.otp.characters == "9K2RAY8UUQ")
        #expect(parsed.symptomsStartedOn.iso == "2026-11-28")
        let bad = request(
            #"{"otp":"9K2RAY8UUA","symptoms_started_on":"2026-11-28"}"#, headers: [("Content-Type", "application/json")]
        )
        guard case .failure(let error) = ImmuniRequests.otpAuthorization(bad, today: Self.today) else {
            Issue.record("accepted a wrong check character")
            return
        }
        #expect(error.code == 1401)
        #expect(error.detail == "otp has a wrong check character (the 10th): the code was mistyped")
        let forbidden = request(
            #"{"otp":"B6UI7HAFXQ","symptoms_started_on":"2026-11-28"}"#, headers: [("Content-Type", "application/json")]
        )
        guard case .failure(let other) = ImmuniRequests.otpAuthorization(forbidden, today: Self.today) else {
            Issue.record("accepted a forbidden character")
            return
        }
        #expect(other.detail?.contains("position 1") == true)
        #expect(other.detail?.contains("B") == false)
        let future = request(
            #"{"otp":"9K2RAY8UUQ","symptoms_started_on":"2026-12-01"}"#, headers: [("Content-Type", "application/json")]
        )
        guard case .failure(let late) = ImmuniRequests.otpAuthorization(future, today: Self.today) else {
            Issue.record("accepted a future date")
            return
        }
        #expect(late.detail?.contains("2026-12-01") == false)
        #expect(error.detail?.contains("9K2RAY8UU") == false)
        #expect(error.body.hasPrefix(#"{"error_code":1401,"message":"Body not compliant with the defined schema.","#))
    }

    @Test("upload: keys, province and summaries parse into typed values; unknown fields are ignored")
    func upload() throws {
        let body = #"""
            {"teks":[{"key_data":"AAECAwQFBgcICQoLDA0ODw==","rolling_start_number":2958048,"rolling_period":144,
            "transmission_risk_level":3}],"province":"MB","padding":"ff00","future_field":{"x":[1]},
            "exposure_detection_summaries":[{"date":"2026-11-27","matched_key_count":2,"days_since_last_exposure":1,
            "attenuation_durations":[300,0,0],"maximum_risk_score":4}]}
            """#
        let parsed = try ImmuniRequests.upload(
            request(
                body,
                headers: [
                    ("Content-Type", "application/json; charset=utf-8"), ("Authorization", "Bearer \(Self.token)"),
                    ("Immuni-Dummy-Data", "0"), ("Immuni-Client-Clock", "1795946400"),
                ]), today: Self.today
        ).get()
        #expect(
            parsed.keys == [
                TemporaryExposureKey(keyData: Array(0...15), rollingStartNumber: 2_958_048, rollingPeriod: 144)
            ])
        #expect(parsed.province?.code == "MB")
        #expect(parsed.clientClock == 1_795_946_400)
        #expect(parsed.summaryCount == 1)
        #expect(parsed.exposureDetectionSummaries.serialized.contains(#""exposure_info":[]"#))
        #expect(parsed.bearer.otpHash?.hex == Self.token)
        #expect(!parsed.dummy)
    }

    @Test("headers: one Content-Type of JSON, one dummy flag, one bearer")
    func headers() {
        let body = #"{"padding":""}"#
        let base: [(String, String)] = [
            ("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.token)"), ("Immuni-Dummy-Data", "1"),
        ]
        #expect((try? ImmuniRequests.checkOtp(request(body, headers: base)).get())?.dummy == true)
        let cases: [[(String, String)]] = [
            base.filter { $0.0 != "Content-Type" }, base.map { $0.0 == "Content-Type" ? ($0.0, "text/json") : $0 },
            base + [("Content-Type", "application/json")],
            base.map { $0.0 == "Authorization" ? ($0.0, "Token \(Self.token)") : $0 },
            base.map { $0.0 == "Authorization" ? ($0.0, Self.token) : $0 },
            base.map { $0.0 == "Immuni-Dummy-Data" ? ($0.0, "yes") : $0 },
        ]
        for headers in cases {
            guard case .failure(let error) = ImmuniRequests.checkOtp(request(body, headers: headers)) else {
                Issue.record("accepted \(headers.map(\.0))")
                continue
            }
            #expect(error.code == 1100)
        }
        let lowercaseScheme = base.map { $0.0 == "Authorization" ? ($0.0, "bearer \(Self.token)") : $0 }
        #expect((try? ImmuniRequests.checkOtp(request(body, headers: lowercaseScheme)).get()) != nil)
    }

    @Test("JSON: invalid UTF-8, duplicate keys and deep nesting are refused with offsets")
    func json() {
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(utf8: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(String(repeating: "[", count: 100)) }
        let duplicated = request(
            #"{"padding":"a","padding":"b"}"#,
            headers: [
                ("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.token)"),
                ("Immuni-Dummy-Data", "0"),
            ])
        guard case .failure(let error) = ImmuniRequests.checkOtp(duplicated) else {
            Issue.record("accepted a duplicate key")
            return
        }
        #expect(error.detail?.contains("more than once") == true)
        #expect(JSONValue.object([.init(key: "a/b", value: .string("x\"\n"))]).serialized == #"{"a/b":"x\"\n"}"#)
    }
}

@Suite("Error details never echo what was sent")
struct RedactionTests {
    static let headers: [(String, String)] = [
        ("Content-Type", "application/json"), ("Authorization", "Bearer \(String(repeating: "ab", count: 32))"),
        ("Immuni-Dummy-Data", "0"),
    ]

    func detail(_ body: String) -> String? {
        let request = HTTPRequest(method: "POST", path: "/", headers: Self.headers, body: Array(body.utf8))
        guard case .failure(let error) = ImmuniRequests.checkOtp(request) else { return nil }
        return error.detail
    }

    @Test("keys, escapes and odd field names are not repeated in details")
    func redaction() throws {
        let secret = "9K2RAY8UUQ"
        for body in [
            #"{"\#(secret)" 1}"#, #"{"\#(secret)":1 "x":2}"#, #"{"padding":"\q\#(secret)"}"#,
            #"{"padding":"a","\#(secret)":1,"\#(secret)":2}"#, #"{"padding":1}"#,
        ] {
            let text = try #require(detail(body), "\(body)")
            #expect(!text.contains(secret), "\(text)")
            #expect(!text.contains("\\q"), "\(text)")
        }
        #expect(detail(#"{"padding" "a"}"#)?.contains("expected “:”") == true)
        #expect(Fields.safeName("rolling_period") == "rolling_period")
        #expect(Fields.safeName("KJ23IWY5UJ") == "(an unexpected field name)")
        #expect(Fields.safeName(String(repeating: "a", count: 64)) == "(an unexpected field name)")
    }
}
