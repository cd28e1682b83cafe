import CivilCalendar
import DeskCore
import DeskService
import DeskStore
import Foundation

/// Where a simulated APRICOT phone reads the 6-digit code the server sent it by SMS.
///
/// A real phone reads its SMS. The server's `outbox` gateway keeps each message readable in the
/// store (docs/apricot-api.md, "SMS gateways"); the simulation reads it there, either straight
/// from the store (``StoreOutboxCodes``: the demo and tests run the server in-process) or through
/// the staff API as an admin (``StaffOutboxCodes``: `tracedesk simulate` against a server it
/// does not own). docs/decisions.md, "Simulated phones read their APRICOT code from the outbox".
public protocol ApricotCodeSource: Sendable {
    /// The newest code sent to `phone` (E.164), or nil when there is none.
    func code(for phone: String) async -> String?
}

/// Reads codes from the store's SMS outbox directly (same process or same store file).
public struct StoreOutboxCodes: ApricotCodeSource {
    let store: any ApricotStore

    public init(store: any ApricotStore) { self.store = store }

    public func code(for phone: String) async -> String? {
        guard let messages = try? store.smsOutbox(limit: 1_000) else { return nil }
        return messages.first { $0.phone.e164 == phone }.flatMap { SmsCodeText.code(in: $0.text) }
    }
}

/// Reads codes through a server's staff API, signed in as an admin. Each read is one
/// `sms_outbox_read` entry in the audit log, as any admin's read is.
public struct StaffOutboxCodes: ApricotCodeSource {
    let desk: any DeskService
    let session: StaffSession

    public init(desk: any DeskService, session: StaffSession) {
        self.desk = desk
        self.session = session
    }

    public func code(for phone: String) async -> String? {
        guard let messages = try? await desk.smsOutbox(session, limit: 1_000) else { return nil }
        return messages.first { $0.phone.e164 == phone }.flatMap { SmsCodeText.code(in: $0.text) }
    }
}

/// The settings an APRICOT app reads (`GET /apricot/v1/settings`).
public struct ApricotAppSettings: Sendable, Equatable {
    public var pseudoIDs = 1_000
    public var beaconChangeSeconds = 300
    public var beaconDetectSeconds = 60
    public var contactTimestamps = true
    public var contactHistoryDays = 30

    public init() {}
}

/// A registered simulated APRICOT phone.
public struct ApricotIdentity: Sendable {
    public var phone: String
    public var appID: String
    public var deviceID: String
    public var userID: Int64
    public var token: String
    /// The beacons the phone broadcasts, in order, one per BEACON_CHANGE_INTERVAL.
    public var pseudoIDs: [[UInt8]]

    public init(
        phone: String, appID: String, deviceID: String, userID: Int64, token: String, pseudoIDs: [[UInt8]]
    ) {
        self.phone = phone
        self.appID = appID
        self.deviceID = deviceID
        self.userID = userID
        self.token = token
        self.pseudoIDs = pseudoIDs
    }

    /// The beacon the phone broadcasts at unix time `time`: the pseudo-ids in turn, one per
    /// `changeSeconds`, starting over after the last.
    public func beacon(at time: Int64, changeSeconds: Int) -> [UInt8] {
        let slot = Int((time / Int64(max(1, changeSeconds))) % Int64(max(1, pseudoIDs.count)))
        return pseudoIDs[slot]
    }
}

/// A simulated APRICOT app on the public listener (docs/apricot-api.md): settings, a code by
/// SMS, sign-in, contact files.
public struct ApricotPhone: Sendable {
    public static let appID = "sim.apricot.app"
    let client: SimulationClient
    let phoneAPI: URL

    public init(client: SimulationClient, phoneAPI: URL) {
        self.client = client
        self.phoneAPI = phoneAPI
    }

    var base: URL { phoneAPI.appendingPathComponent("apricot/v1") }

    /// `GET /apricot/v1/settings`; nil when the server did not answer them.
    public func settings() async -> ApricotAppSettings? {
        guard
            let reply = await client.send(
                "apricot settings", "GET", base.appendingPathComponent("settings"), expected: [200]),
            reply.status == 200,
            let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        else { return nil }
        var settings = ApricotAppSettings()
        settings.pseudoIDs = (object["num_pseudo_ids"] as? Int) ?? settings.pseudoIDs
        settings.beaconChangeSeconds = (object["beacon_change_interval"] as? Int) ?? settings.beaconChangeSeconds
        settings.beaconDetectSeconds = (object["beacon_detect_interval"] as? Int) ?? settings.beaconDetectSeconds
        settings.contactTimestamps = (object["contact_timestamp_option"] as? Bool) ?? settings.contactTimestamps
        settings.contactHistoryDays = (object["contact_history_max"] as? Int) ?? settings.contactHistoryDays
        return settings
    }

    /// Asks for a code, reads it from `codes` (a few tries: the outbox may lag a moment behind
    /// the 204 with another gateway), signs in. Nil when any step failed (recorded).
    public func register(phone: String, deviceID: String, codes: any ApricotCodeSource) async -> ApricotIdentity? {
        let ask = ["phone": phone, "app_id": Self.appID, "device_id": deviceID]
        guard
            let asked = await client.send(
                "apricot otp", "POST", base.appendingPathComponent("otp"), headers: Self.json, body: Self.body(ask),
                expected: [204]),
            asked.status == 204
        else { return nil }
        var code: String?
        for attempt in 0..<5 {
            code = await codes.code(for: phone)
            if code != nil { break }
            try? await Task.sleep(for: .milliseconds(50 * (attempt + 1)))
        }
        guard let code else {
            client.recorder.note("apricot code not found in the outbox")
            return nil
        }
        var login = ask
        login["otp"] = code
        guard
            let reply = await client.send(
                "apricot login", "POST", base.appendingPathComponent("login"), headers: Self.json,
                body: Self.body(login), expected: [200]),
            reply.status == 200,
            let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any],
            let userID = (object["user_id"] as? NSNumber)?.int64Value, let token = object["access_token"] as? String,
            let hexes = object["pseudo_ids"] as? [String]
        else { return nil }
        let pseudoIDs = hexes.compactMap { PseudoID(hex: $0)?.bytes }
        guard !pseudoIDs.isEmpty else {
            client.recorder.note("apricot login without pseudo-ids")
            return nil
        }
        return ApricotIdentity(
            phone: phone, appID: Self.appID, deviceID: deviceID, userID: userID, token: token, pseudoIDs: pseudoIDs)
    }

    /// Uploads the contact file of `day` (records: beacon + time by the phone's clock).
    @discardableResult
    public func uploadContacts(
        _ identity: ApricotIdentity, day: CivilDay, records: [ContactRecord], clientClock: Date
    ) async -> Bool {
        guard !records.isEmpty else { return true }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * ContactFile.recordSize)
        for record in records.prefix(ContactFile.maxRecords) {
            bytes.append(contentsOf: record.beacon)
            withUnsafeBytes(of: record.time.bigEndian) { bytes.append(contentsOf: $0) }
        }
        let headers = [
            "Content-Type": "application/octet-stream", "Authorization": "Bearer \(identity.token)",
            "Apricot-App-Id": identity.appID, "Apricot-Device-Id": identity.deviceID,
            "Apricot-Client-Clock": String(Int64(clientClock.timeIntervalSince1970)),
        ]
        let reply = await client.send(
            "apricot contacts", "POST", base.appendingPathComponent("contacts/\(day)"), headers: headers,
            body: Data(bytes), expected: [200])
        return reply?.status == 200
    }

    static let json = ["Content-Type": "application/json; charset=utf-8"]

    static func body(_ fields: [String: String]) -> Data {
        (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
    }
}
