import CivilCalendar
import DeskCore
import JSONText

/// The requests of the APRICOT phone API (docs/apricot-api.md), read strictly: everything that
/// can be checked without the store. Each problem is a 3000 whose detail names the field or
/// header and never repeats its value (a phone number, a code or a token may be in it); a
/// contact file's own rules are the desk's (3006).
public enum ApricotRequests {
    /// The headers that say which app and device an upload comes from: the token was bound to
    /// them at sign-in.
    public static let appIDHeader = "Apricot-App-Id"
    public static let deviceIDHeader = "Apricot-Device-Id"
    public static let clientClockHeader = "Apricot-Client-Clock"
    public static let maxAppIDLength = 64
    public static let maxDeviceIDLength = 128

    public struct CodeRequest: Hashable, Sendable {
        public var phone: PhoneNumber
        public var appID: String
        public var deviceID: String
    }

    public struct LoginRequest: Hashable, Sendable {
        public var otp: String
        public var phone: PhoneNumber
        public var appID: String
        public var deviceID: String
    }

    public struct ContactUpload: Sendable {
        public var day: CivilDay
        /// The access token as sent (base64url, 43 characters).
        public var token: String
        public var appID: String
        public var deviceID: String
        /// `Apricot-Client-Clock`: the phone's clock at upload, unix seconds.
        public var clientClock: Int64
        public var body: [UInt8]
    }

    // MARK: POST /apricot/v1/otp

    /// `{phone, app_id, device_id}`.
    public static func codeRequest(_ request: HTTPRequest) -> Result<CodeRequest, APIError> {
        read(request, allowed: ["phone", "app_id", "device_id"]) { fields throws(FieldProblem) in
            CodeRequest(
                phone: try phone(fields), appID: try identifier(fields, "app_id", maxAppIDLength),
                deviceID: try identifier(fields, "device_id", maxDeviceIDLength))
        }
    }

    // MARK: POST /apricot/v1/login

    /// `{otp, phone, app_id, device_id}`; the code is 6 digits.
    public static func login(_ request: HTTPRequest) -> Result<LoginRequest, APIError> {
        read(request, allowed: ["otp", "phone", "app_id", "device_id"]) { fields throws(FieldProblem) in
            let otp = try fields.string("otp")!
            guard otp.utf8.count == 6, otp.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw FieldProblem("otp must be the 6 digits of the SMS, as a string")
            }
            return LoginRequest(
                otp: otp, phone: try phone(fields), appID: try identifier(fields, "app_id", maxAppIDLength),
                deviceID: try identifier(fields, "device_id", maxDeviceIDLength))
        }
    }

    // MARK: POST /apricot/v1/contacts/{day}

    /// The path's day, the headers and the body as bytes (their length and day rules are the
    /// desk's). `path` is the request path, `/apricot/v1/contacts/YYYY-MM-DD`.
    public static func contactUpload(_ request: HTTPRequest) -> Result<ContactUpload, APIError> {
        do throws(FieldProblem) {
            let text = String(request.path.dropFirst(contactsPrefix.count))
            guard let day = Fields.isoDate(text) else {
                throw FieldProblem(
                    "the path must end with the day the file covers, written YYYY-MM-DD: /apricot/v1/contacts/2026-11-29"
                )
            }
            let types = request.headerValues("content-type")
            guard types.count == 1,
                types[0].split(separator: ";").first.map({ $0.trimmingSpaces.lowercased() })
                    == "application/octet-stream"
            else {
                throw FieldProblem("Content-Type must be application/octet-stream (the binary contact file)")
            }
            let token = try bearerToken(request)
            let appID = try header(request, appIDHeader, maxAppIDLength, field: "app_id")
            let deviceID = try header(request, deviceIDHeader, maxDeviceIDLength, field: "device_id")
            let clocks = request.headerValues(clientClockHeader)
            guard clocks.count == 1, let clock = Fields.parseInteger(clocks[0]), (0...Int64(UInt32.max)).contains(clock)
            else {
                throw FieldProblem(
                    "\(clientClockHeader) is required once: the phone's clock at upload, in whole unix seconds")
            }
            return .success(
                ContactUpload(
                    day: day, token: token, appID: appID, deviceID: deviceID, clientClock: clock, body: request.body))
        } catch {
            return .failure(.apricotInvalid(error.text))
        }
    }

    public static let contactsPrefix = "/apricot/v1/contacts/"

    // MARK: Fields and headers

    static func read<T>(
        _ request: HTTPRequest, allowed: Set<String>, _ body: (ObjectReader) throws(FieldProblem) -> T
    ) -> Result<T, APIError> {
        ImmuniRequests.readObject(request, allowed: allowed, invalid: APIError.apricotInvalid, body)
    }

    /// E.164 exactly, as phones send it (no normalising: a phone knows its number).
    static func phone(_ fields: ObjectReader) throws(FieldProblem) -> PhoneNumber {
        let text = try fields.string("phone")!
        guard let phone = PhoneNumber(e164: text) else {
            throw FieldProblem("phone must be in E.164 form: + and 8 to 15 digits, such as +390612345678")
        }
        return phone
    }

    /// 1…`maxLength` characters of letters, digits, `.`, `_`, `-` and `:`.
    static func identifier(_ fields: ObjectReader, _ key: String, _ maxLength: Int) throws(FieldProblem) -> String {
        let text = try fields.string(key)!
        guard isIdentifier(text, maxLength) else {
            throw FieldProblem("\(key) must be 1 to \(maxLength) letters, digits, '.', '_', '-' or ':'")
        }
        return text
    }

    static func header(_ request: HTTPRequest, _ name: String, _ maxLength: Int, field: String) throws(FieldProblem)
        -> String
    {
        let values = request.headerValues(name)
        guard values.count == 1, isIdentifier(values[0], maxLength) else {
            throw FieldProblem(
                "\(name) is required once: the \(field) the app signed in with (1 to \(maxLength) letters, digits, '.', '_', '-' or ':')"
            )
        }
        return values[0]
    }

    static func isIdentifier(_ text: String, _ maxLength: Int) -> Bool {
        (1...maxLength).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                Fields.isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ":")
            }
    }

    /// The access token: `Bearer ` and 43 characters of base64url (32 bytes).
    static func bearerToken(_ request: HTTPRequest) throws(FieldProblem) -> String {
        let token = try ImmuniRequests.bearer(request)
        guard token.utf8.count == 43,
            token.utf8.allSatisfy({ Fields.isAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            throw FieldProblem("Authorization must be \"Bearer \" and the access token of the sign-in (43 characters)")
        }
        return String(token)
    }
}
