import CivilCalendar
import DeskCore
import DeskCrypto
import Foundation

/// A simulated Immuni app, speaking the public Immuni API as the apps do (docs/api.md):
/// every request carries `Immuni-Dummy-Data` and, for ingestion, a body padded so that the
/// whole request is the apps' `teks_packet_size` (110 000 bytes), real or dummy alike.
public struct ImmuniPhone: Sendable {
    /// The apps' target request size (immuni-facts §2.5, `teks_packet_size`).
    public static let packetSize = 110_000
    /// Keys a phone uploads: one per day for the last 14 days, today's included.
    public static let keyDays = 14

    let client: SimulationClient
    let phoneAPI: URL

    public init(client: SimulationClient, phoneAPI: URL) {
        self.client = client
        self.phoneAPI = phoneAPI
    }

    /// A random valid code (9 symbols of the alphabet and the check character).
    public static func randomCode(using random: inout SeededRandom) -> String {
        var prefix = ""
        for _ in 0..<(OtpRules.length - 1) { prefix.append(OtpRules.alphabet.randomElement(using: &random)!) }
        return prefix + String(OtpRules.checkCharacter(for: prefix)!)
    }

    /// A citizen's real session: check-otp, then the upload of `keyDays` daily keys with a
    /// province. Returns whether the upload was accepted (204).
    @discardableResult
    public func realSession(code: String, now: Date, random: inout SeededRandom) async -> Bool {
        let token = SHA256.hex(code)
        let checked = await checkOtp(token: token, dummy: false)
        guard checked?.status == 204 else { return false }
        let reply = await upload(
            token: token, dummy: false, body: Self.uploadFields(now: now, random: &random), clientClock: now)
        return reply?.status == 204
    }

    /// A dummy session as the apps make it: a dummy check-otp, then (most of the time) a dummy
    /// upload with a schema-valid body, both with the token of a fresh random code. The upload
    /// follows after a wait drawn from `wait` (seconds), as a real citizen's does, so that the
    /// gap does not tell dummy from real.
    public func dummySession(
        now: @Sendable () -> Date, uploadChance: Double, wait: ClosedRange<Double> = 0.5...3,
        random: inout SeededRandom
    ) async {
        let token = SHA256.hex(Self.randomCode(using: &random))
        await checkOtp(token: token, dummy: true)
        guard Double.random(in: 0..<1, using: &random) < uploadChance else { return }
        let seconds = Double.random(in: wait, using: &random)
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1_000)))
        if Task.isCancelled { return }
        let moment = now()
        await upload(
            token: token, dummy: true, body: Self.uploadFields(now: moment, random: &random), clientClock: moment)
    }

    @discardableResult
    func checkOtp(token: String, dummy: Bool, endpoint: String? = nil) async -> SimulatedReply? {
        let url = phoneAPI.appendingPathComponent("v1/ingestion/check-otp")
        let headers = Self.headers(token: token, dummy: dummy, clock: nil)
        let body = Self.padded([:], url: url, headers: headers)
        // A dummy check-otp is answered 401 on purpose in 1 % of cases: not an error; nor is a
        // 401 for the demo citizen's code the operator has not authorised yet (`endpoint`).
        return await client.send(
            endpoint ?? (dummy ? "check-otp (dummy)" : "check-otp"), "POST", url, headers: headers, body: body,
            expected: dummy || endpoint != nil ? [204, 401] : [204])
    }

    @discardableResult
    func upload(token: String, dummy: Bool, body fields: [String: Any], clientClock: Date) async -> SimulatedReply? {
        let url = phoneAPI.appendingPathComponent("v1/ingestion/upload")
        let headers = Self.headers(token: token, dummy: dummy, clock: Int64(clientClock.timeIntervalSince1970))
        let body = Self.padded(fields, url: url, headers: headers)
        return await client.send(
            dummy ? "upload (dummy)" : "upload", "POST", url, headers: headers, body: body, expected: [204])
    }

    static func headers(token: String, dummy: Bool, clock: Int64?) -> [String: String] {
        var headers = [
            "Content-Type": "application/json; charset=utf-8", "Authorization": "Bearer \(token)",
            "Immuni-Dummy-Data": dummy ? "1" : "0",
        ]
        if let clock { headers["Immuni-Client-Clock"] = String(clock) }
        return headers
    }

    /// The upload's fields but padding: `keyDays` daily keys ending with today's (UTC), random
    /// key data, a province, no exposure summaries.
    public static func uploadFields(now: Date, random: inout SeededRandom) -> [String: Any] {
        let today = Int64(now.timeIntervalSince1970) / 86_400 * 144
        let keys: [[String: Any]] = (0..<keyDays).map { index in
            [
                "key_data": Data(random.bytes(16)).base64EncodedString(),
                "rolling_start_number": today - Int64(keyDays - 1 - index) * 144, "rolling_period": 144,
            ]
        }
        return [
            "teks": keys, "province": Province.all.randomElement(using: &random)!.code,
            "exposure_detection_summaries": [[String: Any]](),
        ]
    }

    /// The JSON body with a `padding` of zeros (as the Android app pads) that brings the request to
    /// ``packetSize`` bytes, counted as the iOS app counts (URL, method, each header line and the
    /// body).
    public static func padded(_ fields: [String: Any], url: URL, headers: [String: String]) -> Data {
        let unpadded = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        let headerBytes = headers.reduce(0) { $0 + $1.key.utf8.count + 2 + $1.value.utf8.count + 2 }
        let overhead = url.absoluteString.utf8.count + "POST".count + headerBytes + unpadded.count
        // `"padding":""` and, when there are other fields, a comma.
        let fieldOverhead = 12 + (fields.isEmpty ? 0 : 1)
        let length = max(0, packetSize - overhead - fieldOverhead)
        var withPadding = fields
        withPadding["padding"] = String(repeating: "0", count: length)
        return (try? JSONSerialization.data(withJSONObject: withPadding, options: [.sortedKeys])) ?? unpadded
    }

    /// An Android app's operational info (`POST /v1/analytics/google/operational-info`): a
    /// province, the app's flags (Bluetooth on 90 %, notifications allowed 85 %, an exposure
    /// notification 3 %), a fresh salt, and `attestation(salt)` as the signed attestation. A
    /// server keeps the record only if the attestation passes its check: a real server's needs
    /// Google's signature, which a simulated phone cannot make; `tracedesk demo` gives its own
    /// server ``SimulatedAttestation``. Answered 204 either way.
    @discardableResult
    public func operationalInfo(now: Date, random: inout SeededRandom) async -> Bool {
        let salt = Data(random.bytes(16)).base64EncodedString()
        func flag(_ chance: Double) -> Int { Double.random(in: 0..<1, using: &random) < chance ? 1 : 0 }
        let fields: [String: Any] = [
            "province": Province.all.randomElement(using: &random)!.code, "exposure_permission": 1,
            "bluetooth_active": flag(0.9), "notification_permission": flag(0.85), "exposure_notification": flag(0.03),
            "last_risky_exposure_on": CivilDay(unixSeconds: Int64(now.timeIntervalSince1970)).iso, "salt": salt,
            "signed_attestation": SimulatedAttestation.attestation(salt: salt),
        ]
        let body = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        let reply = await client.send(
            "operational-info", "POST", phoneAPI.appendingPathComponent("v1/analytics/google/operational-info"),
            headers: ["Content-Type": "application/json; charset=utf-8", "Immuni-Dummy-Data": "0"], body: body,
            expected: [204])
        return reply?.status == 204
    }
}

/// The attestation simulated Android apps send, and the check that accepts it: for the demo's
/// own in-process server only (never a setting of a server: a real one verifies Google's
/// SafetyNet signature, docs/api.md). The nonce is the salt; the attestation names it.
public enum SimulatedAttestation {
    static let prefix = "simulated-attestation."

    /// The attestation a simulated phone sends with `salt`.
    public static func attestation(salt: String) -> String { prefix + salt }

    /// The nonce the demo's server expects for a record: its salt.
    public static func nonce(salt: String) -> String { salt }

    /// Whether `attestation` is a simulated phone's for `nonce`.
    public static func accepts(_ attestation: String, nonce: String) -> Bool { attestation == prefix + nonce }
}
