import CivilCalendar
import DeskCore
import JSONText

/// A bearer token of check-otp and upload: the SHA-256 of the code, 64 hex characters.
/// `otpHash` is nil when the token is hex but not lowercase: it can never match a stored hash
/// (the server compares lowercase hex only), so such a request is answered 401.
public struct OtpBearer: Hashable, Sendable {
    public let otpHash: OtpHash?
}

/// The requests of the Immuni API, parsed and validated strictly: every rule of
/// spec/immuni-api.yaml and spec/immuni-rules.md that can be checked without the store.
/// Each parser returns the endpoint's own error (1100 for the phone API, 1400/1401 for
/// `POST /v1/otp`) with a detail naming the field.
public enum ImmuniRequests {
    public static let maxPadding = 150_000
    public static let maxKeys = 14
    static let flag: ClosedRange<Int64> = 0...1

    // MARK: POST /v1/otp

    public struct OtpAuthorizationBody: Hashable, Sendable {
        public var otp: Otp
        public var symptomsStartedOn: CivilDay
    }

    public static func otpAuthorization(_ request: HTTPRequest, today: CivilDay) -> Result<
        OtpAuthorizationBody, APIError
    > {
        if request.body.isEmpty { return .failure(.emptyBody) }
        do throws(FieldProblem) {
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            try fields.refuseUnknown(["otp", "symptoms_started_on", "id_test_verification"])
            let text = try fields.string("otp")!
            let otp: Otp
            do {
                otp = try Otp(validating: text)
            } catch {
                throw FieldProblem(apiMessage(error))
            }
            let day = try fields.date("symptoms_started_on")!
            do {
                _ = try SymptomOnset.check(day, today: today)
            } catch {
                switch error {
                case .inFuture:
                    throw FieldProblem("symptoms_started_on must not be after today (the server's day in UTC)")
                case .tooOld, .notADate:
                    throw FieldProblem(
                        "symptoms_started_on must be at most \(SymptomOnset.maximumDaysBack) days before today (UTC)")
                }
            }
            // Sent by HIS systems built for the original service (null allowed there); accepted, not used.
            if let id = try fields.string("id_test_verification", required: false, allowNull: true),
                id.utf8.count != 36
                    || !id.utf8.allSatisfy({
                        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46)
                            || $0 == UInt8(ascii: "-")
                    })
            {
                throw FieldProblem("id_test_verification must be 36 characters of hex digits and dashes")
            }
            return .success(OtpAuthorizationBody(otp: otp, symptomsStartedOn: day))
        } catch {
            return .failure(.notCompliant(error.text))
        }
    }

    // MARK: POST /v1/ingestion/check-otp

    public struct CheckOtpRequest: Hashable, Sendable {
        public var bearer: OtpBearer
        public var dummy: Bool
    }

    public static func checkOtp(_ request: HTTPRequest) -> Result<CheckOtpRequest, APIError> {
        do throws(FieldProblem) {
            let dummy = try dummyHeader(request)
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            try Fields.padding(try fields.string("padding")!, name: "padding", maxLength: maxPadding)
            let bearer = try otpBearer(request)
            return .success(CheckOtpRequest(bearer: bearer, dummy: dummy))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    // MARK: POST /v1/ingestion/upload

    public struct UploadRequest: Hashable, Sendable {
        public var bearer: OtpBearer
        public var dummy: Bool
        /// `Immuni-Client-Clock`: the phone's clock, unix seconds.
        public var clientClock: Int64
        public var keys: [TemporaryExposureKey]
        public var province: Province?
        /// The validated summaries, re-serialised with known fields only (kept for analytics).
        public var exposureDetectionSummaries: JSONValue
        public var summaryCount: Int
    }

    public static func upload(_ request: HTTPRequest, today: CivilDay) -> Result<UploadRequest, APIError> {
        do throws(FieldProblem) {
            let clock = try clientClock(request)
            let dummy = try dummyHeader(request)
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            var keys: [TemporaryExposureKey] = []
            for (i, item) in (try fields.array("teks", maxCount: maxKeys, required: false) ?? []).enumerated() {
                keys.append(try tek(item, path: "teks[\(i)]"))
            }
            var province: Province?
            if let code = try fields.string("province", required: false) {
                guard let found = Province.named(code) else {
                    throw FieldProblem(
                        "province must be one of the 108 codes of the apps (two capital letters such as RM or EX)")
                }
                province = found
            }
            if let padding = try fields.string("padding", required: false) {
                try Fields.padding(padding, name: "padding", maxLength: maxPadding)
            }
            var summaries: [JSONValue] = []
            for (i, item) in (try fields.array("exposure_detection_summaries", required: false) ?? []).enumerated() {
                summaries.append(try summary(item, path: "exposure_detection_summaries[\(i)]", today: today))
            }
            let bearer = try otpBearer(request)
            return .success(
                UploadRequest(
                    bearer: bearer, dummy: dummy, clientClock: clock, keys: keys, province: province,
                    exposureDetectionSummaries: .array(summaries), summaryCount: summaries.count))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    /// The API's wording of a code problem: for a developer, and without any character of the code
    /// (the console's messages name the mistyped character for the operator; an API never echoes).
    static func apiMessage(_ error: OtpError) -> String {
        switch error {
        case .empty, .tooShort, .tooLong:
            return "otp must be exactly 10 characters"
        case .forbiddenCharacter(_, let position):
            return
                "otp must use only the characters AEFHIJKLQRSUWXYZ123456789, in capitals (position \(position) does not)"
        case .checkCharacterMismatch:
            return "otp has a wrong check character (the 10th): the code was mistyped"
        }
    }

    static func tek(_ value: JSONValue, path: String) throws(FieldProblem) -> TemporaryExposureKey {
        let fields = try ObjectReader(value, path: path)
        let text = try fields.string("key_data")!
        guard let bytes = Fields.base64Decode(text) else {
            throw FieldProblem("\(path).key_data must be standard base64 with = padding")
        }
        let start = try fields.integer("rolling_start_number", in: 0...Fields.int32Max)!
        let period = try fields.integer("rolling_period", in: 0...Fields.int32Max)!
        // transmission_risk_level and any other field: ignored (the server decides risk).
        return TemporaryExposureKey(keyData: bytes, rollingStartNumber: start, rollingPeriod: period)
    }

    static func summary(_ value: JSONValue, path: String, today: CivilDay) throws(FieldProblem) -> JSONValue {
        let fields = try ObjectReader(value, path: path)
        let date = try fields.date("date")!
        try checkRecent(date, name: fields.name("date"), today: today)
        let matched = try fields.integer("matched_key_count", in: 1...Fields.int32Max)!
        let days = try fields.integer("days_since_last_exposure", in: 0...14)!
        let durations = try attenuationDurations(fields)
        let maxRisk = try fields.integer("maximum_risk_score", in: 0...4096)!
        var infos: [JSONValue] = []
        for (i, item) in (try fields.array("exposure_info", required: false) ?? []).enumerated() {
            let info = try ObjectReader(item, path: "\(path).exposure_info[\(i)]")
            let infoDate = try info.date("date")!
            try checkRecent(infoDate, name: info.name("date"), today: today)
            let duration = try info.integer("duration", in: 0...1800)!
            let attenuation = try info.integer("attenuation_value", in: 0...255)!
            let infoDurations = try attenuationDurations(info)
            let level = try info.integer("transmission_risk_level", in: 0...8)!
            let total = try info.integer("total_risk_score", in: 0...4096)!
            infos.append(
                .object([
                    .init(key: "date", value: .string(infoDate.iso)), .init(key: "duration", value: number(duration)),
                    .init(key: "attenuation_value", value: number(attenuation)),
                    .init(key: "attenuation_durations", value: .array(infoDurations.map(number))),
                    .init(key: "transmission_risk_level", value: number(level)),
                    .init(key: "total_risk_score", value: number(total)),
                ]))
        }
        return .object([
            .init(key: "date", value: .string(date.iso)), .init(key: "matched_key_count", value: number(matched)),
            .init(key: "days_since_last_exposure", value: number(days)),
            .init(key: "attenuation_durations", value: .array(durations.map(number))),
            .init(key: "maximum_risk_score", value: number(maxRisk)), .init(key: "exposure_info", value: .array(infos)),
        ])
    }

    static func attenuationDurations(_ fields: ObjectReader) throws(FieldProblem) -> [Int64] {
        let items = try fields.array("attenuation_durations")!
        guard items.count == 3 else {
            throw FieldProblem("\(fields.name("attenuation_durations")) must have exactly 3 numbers")
        }
        var out: [Int64] = []
        for (i, item) in items.enumerated() {
            out.append(
                try Fields.integer(item, name: "\(fields.name("attenuation_durations"))[\(i)]", in: 0...Fields.int32Max)
            )
        }
        return out
    }

    static func number(_ value: Int64) -> JSONValue { .number(String(value)) }

    static func checkRecent(_ day: CivilDay, name: String, today: CivilDay) throws(FieldProblem) {
        do {
            _ = try SymptomOnset.check(day, today: today)
        } catch {
            throw FieldProblem(
                "\(name) must not be in the future nor more than \(SymptomOnset.maximumDaysBack) days ago")
        }
    }

    // MARK: GET /v1/settings

    public struct SettingsQuery: Hashable, Sendable {
        public var platform: OperationalInfo.Platform
        public var build: Int
    }

    public static func settings(_ request: HTTPRequest) -> Result<SettingsQuery, APIError> {
        do throws(FieldProblem) {
            let platforms = request.queryValues("platform")
            guard platforms.count == 1, let platform = OperationalInfo.Platform(rawValue: platforms[0]) else {
                throw FieldProblem("query argument platform is required once: ios or android")
            }
            let builds = request.queryValues("build")
            guard builds.count == 1, let build = Fields.parseInteger(builds[0]), (1...20_000).contains(build) else {
                throw FieldProblem("query argument build is required once: a whole number from 1 to 20000")
            }
            return .success(SettingsQuery(platform: platform, build: Int(build)))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    // MARK: Analytics

    public struct AppleTokenRequest: Hashable, Sendable {
        /// 128 lowercase hex characters.
        public var analyticsToken: String
        /// Base64 from Apple's DeviceCheck framework.
        public var deviceToken: String
    }

    public static func appleToken(_ request: HTTPRequest) -> Result<AppleTokenRequest, APIError> {
        do throws(FieldProblem) {
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            let token = try fields.string("analytics_token")!
            guard Fields.isLowerHex(Substring(token), count: 128) else {
                throw FieldProblem("analytics_token must be 128 lowercase hex characters")
            }
            let device = try fields.string("device_token")!
            guard device.utf8.count <= 10_000, !device.isEmpty, Fields.base64Decode(device) != nil else {
                throw FieldProblem("device_token must be standard base64 of at most 10000 characters")
            }
            return .success(AppleTokenRequest(analyticsToken: token, deviceToken: device))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    public struct AppleOperationalInfoRequest: Hashable, Sendable {
        public var analyticsToken: String
        public var dummy: Bool
        public var info: OperationalInfo
    }

    public static func appleOperationalInfo(_ request: HTTPRequest, today: CivilDay) -> Result<
        AppleOperationalInfoRequest, APIError
    > {
        do throws(FieldProblem) {
            let dummy = try dummyHeader(request)
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            let info = try operationalInfo(fields, platform: .ios, today: today)
            let token = try bearer(request)
            guard Fields.isLowerHex(token, count: 128) else {
                throw FieldProblem("Authorization must be \"Bearer \" and the 128 lowercase hex analytics token")
            }
            return .success(AppleOperationalInfoRequest(analyticsToken: String(token), dummy: dummy, info: info))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    public struct GoogleOperationalInfoRequest: Hashable, Sendable {
        public var dummy: Bool
        public var info: OperationalInfo
        public var salt: String
        public var signedAttestation: String
    }

    public static func googleOperationalInfo(_ request: HTTPRequest, today: CivilDay) -> Result<
        GoogleOperationalInfoRequest, APIError
    > {
        do throws(FieldProblem) {
            let dummy = try dummyHeader(request)
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            let info = try operationalInfo(fields, platform: .android, today: today)
            let salt = try fields.string("salt")!
            guard salt.utf8.count == 24, Fields.base64Decode(salt) != nil else {
                throw FieldProblem("salt must be 24 characters of standard base64")
            }
            let attestation = try fields.string("signed_attestation")!
            guard !attestation.isEmpty, attestation.utf8.count <= 10_000 else {
                throw FieldProblem("signed_attestation must be 1 to 10000 characters")
            }
            return .success(
                GoogleOperationalInfoRequest(dummy: dummy, info: info, salt: salt, signedAttestation: attestation))
        } catch {
            return .failure(.missingParameters(error.text))
        }
    }

    static func operationalInfo(_ fields: ObjectReader, platform: OperationalInfo.Platform, today: CivilDay)
        throws(FieldProblem) -> OperationalInfo
    {
        let code = try fields.string("province")!
        guard let province = Province.named(code) else {
            throw FieldProblem(
                "province must be one of the 108 codes of the apps (two capital letters such as RM or EX)")
        }
        let day = try fields.date("last_risky_exposure_on")!
        try checkRecent(day, name: "last_risky_exposure_on", today: today)
        let build = try fields.integer("build", in: 1...20_000, required: false)
        return OperationalInfo(
            platform: platform, province: province,
            exposurePermission: try fields.integer("exposure_permission", in: flag)! == 1,
            bluetoothActive: try fields.integer("bluetooth_active", in: flag)! == 1,
            notificationPermission: try fields.integer("notification_permission", in: flag)! == 1,
            exposureNotification: try fields.integer("exposure_notification", in: flag)! == 1,
            lastRiskyExposureOn: day, build: build.map { Int($0) })
    }

    // MARK: Headers and body

    /// A JSON object body with only `allowed` members, read by `body`; any problem becomes the
    /// API's error through `invalid` (each API has its own "invalid request" code).
    static func readObject<T>(
        _ request: HTTPRequest, allowed: Set<String>, invalid: (String) -> APIError,
        _ body: (ObjectReader) throws(FieldProblem) -> T
    ) -> Result<T, APIError> {
        do throws(FieldProblem) {
            try requireJSON(request)
            let fields = try ObjectReader(try parseBody(request), path: "")
            try fields.refuseUnknown(allowed)
            return .success(try body(fields))
        } catch {
            return .failure(invalid(error.text))
        }
    }

    static func requireJSON(_ request: HTTPRequest) throws(FieldProblem) {
        let values = request.headerValues("content-type")
        guard values.count == 1 else {
            throw FieldProblem(
                values.isEmpty
                    ? "Content-Type is required: application/json" : "Content-Type must be sent once")
        }
        let parts = values[0].split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingSpaces.lowercased()
        }
        guard parts[0] == "application/json" else {
            throw FieldProblem("Content-Type must be application/json (optionally ; charset=utf-8)")
        }
        for parameter in parts.dropFirst() where parameter != "charset=utf-8" && parameter != "charset=\"utf-8\"" {
            throw FieldProblem("Content-Type must be application/json (optionally ; charset=utf-8)")
        }
    }

    static func parseBody(_ request: HTTPRequest) throws(FieldProblem) -> JSONValue {
        guard !request.body.isEmpty else { throw FieldProblem("the body is empty: send a JSON object") }
        do {
            return try JSONReader.parse(utf8: request.body)
        } catch {
            throw FieldProblem("the body is not valid JSON (at byte \(error.offset): \(redacted(error.reason)))")
        }
    }

    /// The reader's reason with every quoted piece of the input (a key, an escape) replaced by
    /// "…": an API error never echoes what was sent. Its own literals (“:”, “true”…) stay.
    static func redacted(_ reason: String) -> String {
        let own: Set<Substring> = [":", ",", "}", "]", "true", "false", "null"]
        var out = ""
        var rest = Substring(reason)
        while let open = rest.firstIndex(of: "“"), let close = rest[open...].firstIndex(of: "”") {
            out += rest[..<open]
            let quoted = rest[rest.index(after: open)..<close]
            out += own.contains(quoted) ? "“\(quoted)”" : "…"
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    static func dummyHeader(_ request: HTTPRequest) throws(FieldProblem) -> Bool {
        let values = request.headerValues("immuni-dummy-data")
        guard values.count == 1, values[0] == "0" || values[0] == "1" else {
            throw FieldProblem("Immuni-Dummy-Data is required once, with the value 0 or 1")
        }
        return values[0] == "1"
    }

    static func clientClock(_ request: HTTPRequest) throws(FieldProblem) -> Int64 {
        let values = request.headerValues("immuni-client-clock")
        guard values.count == 1, let seconds = Fields.parseInteger(values[0]), (0...Fields.int32Max).contains(seconds)
        else {
            throw FieldProblem("Immuni-Client-Clock is required once: the phone's clock in whole unix seconds")
        }
        return seconds
    }

    /// The token after `Bearer ` in the one Authorization header.
    static func bearer(_ request: HTTPRequest) throws(FieldProblem) -> Substring {
        let values = request.headerValues("authorization")
        guard values.count == 1 else {
            throw FieldProblem(
                values.isEmpty ? "Authorization is required: Bearer and the token" : "Authorization must be sent once")
        }
        let value = values[0]
        guard value.utf8.count > 7, value.prefix(7).lowercased() == "bearer " else {
            throw FieldProblem("Authorization must be \"Bearer \" followed by the token")
        }
        return value.dropFirst(7).trimmingSpaces
    }

    static func otpBearer(_ request: HTTPRequest) throws(FieldProblem) -> OtpBearer {
        let token = try bearer(request)
        guard token.utf8.count == 64,
            token.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46)
            })
        else {
            throw FieldProblem("Authorization must be \"Bearer \" and the SHA-256 of the code as 64 hex characters")
        }
        return OtpBearer(otpHash: OtpHash(hex: String(token)))
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    public var trimmingSpaces: Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
