import CivilCalendar
import DeskCore
import DeskCrypto
import DeskServer
import DeskService
import DeskStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tracedesk bench apricot`: APRICOT registration and contact files through the phone API on
/// loopback, as apps would send them.
///
/// An in-process `tracedesk serve` on 127.0.0.1 (ephemeral ports, the outbox gateway) over a
/// fresh SQLite file, or over `--store postgres://…` (a fresh database). (a) `--registrations`
/// phones each ask for a code (`POST /apricot/v1/otp`, timed), the code is read from the
/// outbox, and the phone signs in (`POST /apricot/v1/login`, timed: a new user with
/// NUM_PSEUDO_IDS pseudo-ids, 1 000 by default). (b) One phone uploads a full day's file
/// (28 800 records, 691 200 bytes: a scan every 3 s for 24 h, beacons of the registered users
/// and some foreign ones) `--uploads` times (each replaces the last), each timed from the
/// request to the receipt. Medians and p95 in milliseconds, against the targets (50 ms, 200 ms).
extension BenchCommand {
    static let apricotHelp = """
        Usage: tracedesk bench apricot [--registrations 200] [--uploads 20] [--records 28800]
                                       [--store PATH|URL] [--json]
               Times APRICOT sign-ins (a new user with 1 000 pseudo-ids) and full-day contact
               files (28 800 records) through the phone API on loopback (build with -c release).
               Without --store a fresh SQLite file is used; a PostgreSQL URL must name an
               empty database.
        """

    static func apricot(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "bench apricot"
        let arguments = try Arguments(
            words, valueOptions: ["registrations", "uploads", "records", "store"], flagOptions: ["json"],
            command: command)
        if arguments.has("help") {
            print(apricotHelp)
            return .success
        }
        let registrations = try arguments.integer("registrations", default: 200, in: 2...100_000, command: command)
        let uploads = try arguments.integer("uploads", default: 20, in: 1...10_000, command: command)
        let recordCount = try arguments.integer(
            "records", default: 28_800, in: 1...ContactFile.maxRecords, command: command)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-bench-apricot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var codeTimes: [Double] = []
        var loginTimes: [Double] = []
        var uploadTimes: [Double] = []
        var location = ""
        var bytesPerUser: Double = 0
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var config = ServerConfig()
            config.listen = ListenAddress(host: "127.0.0.1", port: 0)
            config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
            config.signingKeyRequired = false
            config.apricotUploadsPerHour = 3_600
            let store: any Store
            if let spec = arguments.values["store"] {
                store = try StoreLocation.open(spec)
                let secret = directory.appendingPathComponent("code-secret").path
                try Hex.encode(SecureRandom.bytes(32)).write(toFile: secret, atomically: true, encoding: .utf8)
                config.apricotCodeSecretFile = secret
            } else {
                store = try SQLiteStore(path: directory.appendingPathComponent("bench.sqlite").path)
            }
            location = store.location
            let server = try TraceDeskServer(
                config: config, store: store, appSettingsPath: nil, accessLog: nil, log: { _ in })
            try server.start(runningJobs: false)
            defer { server.stop(grace: .seconds(2)) }
            let base = "http://127.0.0.1:\(server.phonePort)/apricot/v1"
            let client = BenchClient()
            let sizeBefore = try store.info().totalBytes

            // (a) Registrations: one new phone each.
            var pseudoIDs: [String] = []
            var firstToken = ""
            for index in 0..<registrations {
                let phone = "+3933\(String(10_000_000 + index))"
                let ask = #"{"phone":"\#(phone)","app_id":"bench.app","device_id":"device-\#(index)"}"#
                var started = DispatchTime.now().uptimeNanoseconds
                let asked = try await client.post("\(base)/otp", json: ask)
                codeTimes.append(apricotMilliseconds(since: started))
                guard asked.status == 204 else { throw ApricotBenchFailure("otp answered \(asked.status)") }
                guard let text = try store.smsOutbox(limit: 1).first?.text,
                    let code = text.split(whereSeparator: { !$0.isNumber }).first(where: { $0.count == 6 })
                else { throw ApricotBenchFailure("no code in the outbox") }
                let login =
                    #"{"otp":"\#(String(code))","phone":"\#(phone)","app_id":"bench.app","device_id":"device-\#(index)"}"#
                started = DispatchTime.now().uptimeNanoseconds
                let signedIn = try await client.post("\(base)/login", json: login)
                loginTimes.append(apricotMilliseconds(since: started))
                guard signedIn.status == 200,
                    let object = try? JSONSerialization.jsonObject(with: signedIn.body) as? [String: Any],
                    let token = object["access_token"] as? String, let ids = object["pseudo_ids"] as? [String]
                else {
                    throw ApricotBenchFailure(
                        "login answered \(signedIn.status): \(String(decoding: signedIn.body, as: UTF8.self))")
                }
                if index == 0 { firstToken = token }
                if pseudoIDs.count < 100_000 { pseudoIDs += ids.prefix(100) }
            }
            bytesPerUser = Double(try store.info().totalBytes - sizeBefore) / Double(registrations)

            // (b) A full day's file from the first phone, uploaded again and again (it replaces).
            let now = Int64(Date().timeIntervalSince1970)
            let today = Date().utcDay
            let dayStart = now - now % 86_400
            let span = max(1, now - dayStart)
            var records: [ContactRecord] = []
            records.reserveCapacity(recordCount)
            for index in 0..<recordCount {
                let beacon: [UInt8]
                if index % 10 == 9 {
                    beacon = [UInt8](repeating: UInt8(index % 200), count: 20)
                } else {
                    beacon = PseudoID(hex: pseudoIDs[index % pseudoIDs.count])?.bytes ?? []
                }
                records.append(
                    ContactRecord(beacon: beacon, time: UInt32(dayStart + Int64(index) * span / Int64(recordCount))))
            }
            let file = ContactFile.encode(records)
            for _ in 0..<uploads {
                let started = DispatchTime.now().uptimeNanoseconds
                let reply = try await client.post(
                    "\(base)/contacts/\(today.iso)", body: file,
                    headers: [
                        "Content-Type": "application/octet-stream", "Authorization": "Bearer \(firstToken)",
                        "Apricot-App-Id": "bench.app", "Apricot-Device-Id": "device-0",
                        "Apricot-Client-Clock": String(Int64(Date().timeIntervalSince1970)),
                    ])
                uploadTimes.append(apricotMilliseconds(since: started))
                guard reply.status == 200 else { throw ApricotBenchFailure("contacts answered \(reply.status)") }
            }
        } catch let error as ApricotBenchFailure {
            printError("bench apricot: \(error.message)")
            return .refused
        } catch let error as StoreError {
            printError("bench apricot: \(error.message)")
            return .storeUnavailable
        } catch let error as ConfigError {
            printError("bench apricot: \(error.message)")
            return .refused
        } catch let error as HTTPServer.StartError {
            printError("bench apricot: \(error.message)")
            return .refused
        } catch {
            printError("bench apricot: \(error)")
            return .refused
        }
        let code = (staffPercentile(codeTimes, 0.5), staffPercentile(codeTimes, 0.95))
        let login = (staffPercentile(loginTimes, 0.5), staffPercentile(loginTimes, 0.95))
        let upload = (staffPercentile(uploadTimes, 0.5), staffPercentile(uploadTimes, 0.95))
        let bytes = recordCount * ContactFile.recordSize
        if arguments.has("json") {
            print(
                #"{"store":"\#(location.contains("postgres") ? "postgresql" : "sqlite")","registrations":\#(registrations),"otp_median_ms":\#(f3(code.0)),"otp_p95_ms":\#(f3(code.1)),"login_median_ms":\#(f3(login.0)),"login_p95_ms":\#(f3(login.1)),"store_bytes_per_user":\#(Int(bytesPerUser)),"uploads":\#(uploads),"file_bytes":\#(bytes),"upload_median_ms":\#(f3(upload.0)),"upload_p95_ms":\#(f3(upload.1))}"#
            )
        } else {
            print("store \(location)")
            print("code request (POST /apricot/v1/otp, outbox gateway), \(registrations) phones:")
            print("  median \(f3(code.0)) ms, p95 \(f3(code.1)) ms")
            print("registration (POST /apricot/v1/login, a new user with its pseudo-ids), \(registrations) phones:")
            print(
                "  median \(f3(login.0)) ms, p95 \(f3(login.1)) ms (target < 50 ms: p95 at \(f3(login.1 / 50 * 100)) % of it)"
            )
            print("  store growth: \(Int(bytesPerUser)) bytes per registered user")
            print(
                "contact file of \(recordCount) records (\(bytes) bytes), \(uploads) uploads (each replaces the last):")
            print(
                "  median \(f3(upload.0)) ms, p95 \(f3(upload.1)) ms (target < 200 ms: p95 at \(f3(upload.1 / 200 * 100)) % of it)"
            )
        }
        return .success
    }

    private static func apricotMilliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}

struct ApricotBenchFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A plain HTTP client for the benchmark (one URLSession, no cache).
struct BenchClient {
    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    func post(_ url: String, json: String) async throws -> (status: Int, body: Data) {
        try await post(url, body: Array(json.utf8), headers: ["Content-Type": "application/json"])
    }

    func post(_ url: String, body: [UInt8], headers: [String: String]) async throws -> (status: Int, body: Data) {
        guard let target = URL(string: url) else { throw ApricotBenchFailure("bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body)
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
