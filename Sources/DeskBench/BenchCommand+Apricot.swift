import CivilCalendar
import DeskCLI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskText
import Foundation

#if canImport(Glibc)
    import Glibc
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
    static func apricot(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let registrations = try arguments.integer("registrations", command: command)
        let uploads = try arguments.integer("uploads", command: command)
        let recordCount = try arguments.integer("records", command: command)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-bench-apricot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var codeTimes: [Double] = []
        var loginTimes: [Double] = []
        var uploadTimes: [Double] = []
        var localLoginTimes: [Double] = []
        var localUploadTimes: [Double] = []
        var location = ""
        var bytesPerUser: Double = 0
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var config = ServerConfig()
            config.listen = ListenAddress(host: "127.0.0.1", port: 0)
            config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
            config.signingKeyRequired = false
            config.apricotUploadsPerHour = 3_600
            config.apricotOTPPerMinute = 0
            config.apricotOTPPerAddressPerHour = 0
            let store: any Store
            if let spec = arguments.values["store"] {
                store = try StoreLocation.open(spec)
                // The bench writes users, pseudo-ids and contact files that look real, and takes
                // pseudo-id capacity: never into a store that holds anything.
                let used = try store.info().tables.filter { $0.name != "schema_migrations" && $0.rows > 0 }
                guard used.isEmpty else {
                    throw ApricotBenchFailure(
                        tr(
                            "cli.bench.apricot.notEmpty",
                            [
                                "store": store.location,
                                "tables": used.map(\.name).sorted().joined(separator: ", "),
                            ]))
                }
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
            let base = "/apricot/v1"
            let client = BenchClient(port: server.phonePort)
            let sizeBefore = try store.info().totalBytes

            // (a) Registrations: one new phone each.
            var pseudoIDs: [String] = []
            var firstToken = ""
            for index in 0..<registrations {
                let phone = "+3933\(String(10_000_000 + index))"
                let ask = #"{"phone":"\#(phone)","app_id":"bench.app","device_id":"device-\#(index)"}"#
                var started = DispatchTime.now().uptimeNanoseconds
                let asked = try client.post("\(base)/otp", json: ask)
                codeTimes.append(apricotMilliseconds(since: started))
                guard asked.status == 204 else { throw ApricotBenchFailure("otp answered \(asked.status)") }
                guard let text = try store.smsOutbox(limit: 1).first?.text,
                    let code = SmsCodeText.code(in: text)
                else { throw ApricotBenchFailure("no code in the outbox") }
                let login =
                    #"{"otp":"\#(String(code))","phone":"\#(phone)","app_id":"bench.app","device_id":"device-\#(index)"}"#
                started = DispatchTime.now().uptimeNanoseconds
                let signedIn = try client.post("\(base)/login", json: login)
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
                let reply = try client.post(
                    "\(base)/contacts/\(today.iso)", body: file,
                    headers: [
                        "Content-Type": "application/octet-stream", "Authorization": "Bearer \(firstToken)",
                        "Apricot-App-Id": "bench.app", "Apricot-Device-Id": "device-0",
                        "Apricot-Client-Clock": String(Int64(Date().timeIntervalSince1970)),
                    ])
                uploadTimes.append(apricotMilliseconds(since: started))
                guard reply.status == 200 else { throw ApricotBenchFailure("contacts answered \(reply.status)") }
            }
            // The same use cases in-process (no HTTP): the baseline of the same run.
            guard let desk = server.apricotDesk else { throw ApricotBenchFailure("APRICOT is off") }
            for index in 0..<min(registrations, 50) {
                guard let phone = PhoneNumber(e164: "+3934\(String(10_000_000 + index))") else { continue }
                _ = try desk.requestCode(phone: phone, appID: "bench.app", deviceID: "local-\(index)")
                guard let text = try store.smsOutbox(limit: 1).first?.text,
                    let code = SmsCodeText.code(in: text)
                else { throw ApricotBenchFailure("no code in the outbox") }
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try desk.login(otp: String(code), phone: phone, appID: "bench.app", deviceID: "local-\(index)")
                localLoginTimes.append(apricotMilliseconds(since: started))
            }
            for _ in 0..<uploads {
                let started = DispatchTime.now().uptimeNanoseconds
                let result = try desk.uploadContacts(
                    token: firstToken, appID: "bench.app", deviceID: "device-0", day: today, bytes: file,
                    clientClock: Int64(Date().timeIntervalSince1970))
                localUploadTimes.append(apricotMilliseconds(since: started))
                guard case .stored = result else { throw ApricotBenchFailure("the in-process upload was refused") }
            }
        } catch let error as ServiceError {
            printError("bench apricot: \(error.message)")
            return .storeUnavailable
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
        let localLogin = (staffPercentile(localLoginTimes, 0.5), staffPercentile(localLoginTimes, 0.95))
        let localUpload = (staffPercentile(localUploadTimes, 0.5), staffPercentile(localUploadTimes, 0.95))
        let bytes = recordCount * ContactFile.recordSize
        if arguments.has("json") {
            print(
                #"{"store":"\#(location.contains("postgres") ? "postgresql" : "sqlite")","registrations":\#(registrations),"otp_median_ms":\#(f3(code.0)),"otp_p95_ms":\#(f3(code.1)),"login_median_ms":\#(f3(login.0)),"login_p95_ms":\#(f3(login.1)),"store_bytes_per_user":\#(Int(bytesPerUser)),"uploads":\#(uploads),"file_bytes":\#(bytes),"upload_median_ms":\#(f3(upload.0)),"upload_p95_ms":\#(f3(upload.1)),"local_login_median_ms":\#(f3(localLogin.0)),"local_upload_median_ms":\#(f3(localUpload.0))}"#
            )
        } else {
            print(tr("cli.bench.apricot.store", ["location": String(location)]))
            print(tr("cli.bench.apricot.codeRequest", ["registrations": String(registrations)]))
            print(tr("cli.bench.apricot.codeTimes", ["median": f3(code.0), "p95": f3(code.1)]))
            print(tr("cli.bench.apricot.registration", ["registrations": String(registrations)]))
            print(
                tr(
                    "cli.bench.apricot.registrationTimes",
                    ["median": f3(login.0), "p95": f3(login.1), "percent": f3(login.1 / 50 * 100)]))
            print(
                tr(
                    "cli.bench.apricot.registrationLocal",
                    [
                        "phones": trCount("cli.bench.count.phones", localLoginTimes.count), "median": f3(localLogin.0),
                        "p95": f3(localLogin.1),
                    ]))
            print(tr("cli.bench.apricot.growth", ["bytes": String(Int(bytesPerUser))]))
            print(
                tr(
                    "cli.bench.apricot.upload",
                    [
                        "records": trCount("cli.bench.count.records", recordCount), "bytes": String(bytes),
                        "uploads": trCount("cli.bench.count.uploads", uploads),
                    ]))
            print(
                tr(
                    "cli.bench.apricot.uploadTimes",
                    ["median": f3(upload.0), "p95": f3(upload.1), "percent": f3(upload.1 / 200 * 100)]))
            print(
                tr(
                    "cli.bench.apricot.uploadLocal",
                    ["median": f3(localUpload.0), "p95": f3(localUpload.1)]))
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

/// A minimal HTTP/1.1 client over one blocking loopback socket per request: what the server
/// costs, without URLSession's own overhead on Linux (tens of milliseconds for a 691 KB body,
/// measured against curl's 25–35 ms for the same upload).
struct BenchClient {
    let port: UInt16

    func post(_ path: String, json: String) throws -> (status: Int, body: Data) {
        try post(path, body: Array(json.utf8), headers: ["Content-Type": "application/json"])
    }

    func post(_ path: String, body: [UInt8], headers: [String: String]) throws -> (status: Int, body: Data) {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ApricotBenchFailure("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ApricotBenchFailure("cannot connect to 127.0.0.1:\(port)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ApricotBenchFailure("the server closed the connection") }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response.append(contentsOf: buffer[0..<n])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n"),
            let status = Int(text.split(separator: " ").dropFirst().first ?? "")
        else { throw ApricotBenchFailure("an answer that is not HTTP") }
        return (status, Data(text[split.upperBound...].utf8))
    }
}
