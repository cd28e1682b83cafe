import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import Foundation

/// Where a simulated APRICOT phone reads the 6-digit code the server sent it by SMS.
///
/// A real phone reads its SMS. The server's `outbox` gateway keeps each message readable in the
/// store (docs/apricot-api.md, "SMS gateways"); the simulation reads it there, either straight
/// from the store (``StoreOutboxCodes``: the demo and tests run the server in-process) or through
/// the staff API as an admin (``StaffOutboxCodes``: `tracedesk simulate` against a server it
/// does not own). docs/decisions.md, "Simulated phones read their APRICOT code from the outbox".
/// The simulation reads the outbox once per registration batch (at most
/// ``ApricotPhone/batchLimit`` phones) and shares the codes among the batch's phones.
public protocol ApricotCodeSource: Sendable {
    /// The newest outbox messages, newest first, at most `limit`. Throws when the outbox could
    /// not be read.
    func outbox(limit: Int) async throws -> [SmsMessage]
}

extension ApricotCodeSource {
    /// The newest code sent to each of `phones` (E.164) among the newest `limit` messages;
    /// phones without one are absent.
    public func codes(for phones: Set<String>, limit: Int) async throws -> [String: String] {
        var found: [String: String] = [:]
        for message in try await outbox(limit: limit) where phones.contains(message.phone.e164) {
            if found[message.phone.e164] == nil, let code = SmsCodeText.code(in: message.text) {
                found[message.phone.e164] = code
            }
        }
        return found
    }
}

/// Reads codes from the store's SMS outbox directly (same process or same store file).
public struct StoreOutboxCodes: ApricotCodeSource {
    let store: any ApricotStore

    public init(store: any ApricotStore) { self.store = store }

    public func outbox(limit: Int) async throws -> [SmsMessage] { try store.smsOutbox(limit: limit) }
}

/// Reads codes through a server's staff API, signed in as an admin. Each read is one
/// `sms_outbox_read` entry in the audit log, as any admin's read is: one per registration batch.
public struct StaffOutboxCodes: ApricotCodeSource {
    let desk: any DeskService
    let session: StaffSession

    public init(desk: any DeskService, session: StaffSession) {
        self.desk = desk
        self.session = session
    }

    public func outbox(limit: Int) async throws -> [SmsMessage] { try await desk.smsOutbox(session, limit: limit) }
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

    /// Phones registered together: they ask for their codes, the outbox is read once (with a
    /// few retries for codes not there yet), then they sign in. 500 keeps a batch's codes well
    /// inside the outbox page read (``outboxPage``) when little else is being sent.
    public static let batchLimit = 500
    /// Messages read from the outbox per read.
    public static let outboxPage = 1_000

    /// Registers `phones` (number, device id), at most `width` requests at once: each asks for
    /// a code; the outbox is read once for all of them (a few tries: the outbox may lag a moment
    /// behind the 204 with another gateway); each signs in. Nil for a phone where any step
    /// failed (recorded: an outbox that cannot be read and a code never found are errors).
    public func register(
        _ phones: [(phone: String, deviceID: String)], width: Int, codes: any ApricotCodeSource
    ) async -> [ApricotIdentity?] {
        let asked = await Self.limited(phones.count, width: width) { index -> Bool in
            let ask = ["phone": phones[index].phone, "app_id": Self.appID, "device_id": phones[index].deviceID]
            let reply = await client.send(
                "apricot otp", "POST", base.appendingPathComponent("otp"), headers: Self.json, body: Self.body(ask),
                expected: [204])
            return reply?.status == 204
        }
        var waiting = Set(phones.indices.filter { asked[$0] == true }.map { phones[$0].phone })
        var found: [String: String] = [:]
        var unreadable = false
        for attempt in 0..<5 where !waiting.isEmpty && !Task.isCancelled {
            do {
                let read = try await codes.codes(for: waiting, limit: Self.outboxPage)
                unreadable = false
                for (phone, code) in read { found[phone] = code }
                waiting.subtract(read.keys)
            } catch {
                unreadable = true
            }
            if waiting.isEmpty { break }
            try? await Task.sleep(for: .milliseconds(50 * (attempt + 1)))
        }
        if !waiting.isEmpty, !Task.isCancelled {
            let kind = unreadable ? "apricot outbox could not be read" : "apricot code not found in the outbox"
            for _ in waiting { client.recorder.fail(kind) }
        }
        let codesFound = found
        let signedIn = await Self.limited(phones.count, width: width) { index -> ApricotIdentity? in
            guard let code = codesFound[phones[index].phone] else { return nil }
            return await login(phone: phones[index].phone, deviceID: phones[index].deviceID, code: code)
        }
        return signedIn.map { $0 ?? nil }
    }

    /// Signs in with `code`. Nil when it failed (recorded).
    func login(phone: String, deviceID: String, code: String) async -> ApricotIdentity? {
        let login = ["phone": phone, "app_id": Self.appID, "device_id": deviceID, "otp": code]
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

    /// Runs `work` for indices 0..<count, at most `width` at once; the results by index.
    static func limited<T: Sendable>(
        _ count: Int, width: Int, _ work: @escaping @Sendable (Int) async -> T
    ) async -> [T?] {
        var out = [T?](repeating: nil, count: count)
        await withTaskGroup(of: (Int, T).self) { group in
            var next = 0
            func add() {
                let index = next
                group.addTask { (index, await work(index)) }
                next += 1
            }
            while next < min(count, max(1, width)) { add() }
            while let (index, value) = await group.next() {
                out[index] = value
                if next < count, !Task.isCancelled { add() }
            }
        }
        return out
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
