import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The APRICOT phone API against a real SQLite store (docs/apricot-api.md): settings, codes,
/// sign-in, contact files, and their errors. On the server's handlers as values, but for the
/// whole protocol, the body limit and the access log, over real HTTP on 127.0.0.1.
@Suite("APRICOT phone API") struct ApricotHTTPTests {
    static let anna = "+393331234567"
    static let bruno = "+393339876543"
    static var today: CivilDay { Date().utcDay }
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    @Test("settings: the design's values as JSON, and what the config changes")
    func settings() async throws {
        let f = try ApricotFixture(sockets: false) { $0.numPseudoIDs = 500 }
        let reply = try await f.send("GET", f.phone.appendingPathComponent("apricot/v1/settings"))
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(reply.integer("num_pseudo_ids") == 500)
        #expect(reply.integer("beacon_change_interval") == 300)
        #expect(reply.integer("beacon_detect_interval") == 60)
        #expect(reply.object["contact_timestamp_option"] as? Bool == true)
        #expect(reply.integer("contact_history_max") == 30)
        let post = try await f.send("POST", f.phone.appendingPathComponent("apricot/v1/settings"))
        #expect(post.status == 405)
        let unknown = try await f.send("GET", f.phone.appendingPathComponent("apricot/v1/nothing"))
        #expect(unknown.status == 404)
    }

    @Test("the whole protocol: code by SMS outbox, sign-in, upload, receipt; a returning phone keeps its user")
    func wholeProtocol() async throws {
        // The desk's clock stands still: the second code below is too soon however long the
        // steps between take (the gap is 30 s of the desk's clock), and the upload's skew is
        // measured against the same time.
        let clock = FixedClock(Date())
        let f = try ApricotFixture(clock: clock)
        let now = Int64(clock.now().timeIntervalSince1970)
        let asked = try await f.requestCode(Self.anna)
        #expect(asked.status == 204)
        let outbox = try f.store.smsOutbox(limit: 10)
        #expect(outbox.count == 1)
        #expect(outbox.first?.gateway == "outbox" && outbox.first?.status == .held)
        let code = try f.code(for: Self.anna)
        #expect(code.count == 6)

        let reply = try await f.login(Self.anna, otp: code)
        #expect(reply.status == 200)
        #expect(reply.header("Cache-Control") == "no-store")
        let anna = try #require(
            try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let token = try #require(anna["access_token"] as? String)
        #expect(token.count == 43 && Base64.decodeURL(token)?.count == 32)
        let ids = try #require(anna["pseudo_ids"] as? [String])
        #expect(ids.count == 1_000)
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { $0.count == 40 && $0.hasPrefix(String(repeating: "88", count: 16)) })

        let bruno = try await f.register(Self.bruno, device: "device-2")
        #expect(Set(bruno.pseudoIDs).isDisjoint(with: Set(ids)))

        // Anna's phone heard Bruno's beacons three times, one beacon twice, and a foreign one.
        let file = Contacts.file([
            (Contacts.beacon(hex: bruno.pseudoIDs[0]), UInt32(now - 600)),
            (Contacts.beacon(hex: bruno.pseudoIDs[0]), UInt32(now - 540)),
            (Contacts.beacon(hex: bruno.pseudoIDs[1]), UInt32(now - 300)),
            (Contacts.foreign(7), UInt32(now - 200)),
        ])
        let upload = try await f.upload(token, day: clock.now().utcDay, file, clock: now)
        #expect(upload.status == 200, "\(upload.text)")
        #expect(upload.integer("records") == 4)
        #expect(upload.integer("distinct_beacons") == 3)
        #expect(upload.integer("unknown_beacons") == 1)
        // The phone's clock and the desk's agree.
        #expect(upload.integer("skew_seconds") == 0)

        // A second code at once is too soon (returning sign-ins: returningLogin).
        #expect(try await f.requestCode(Self.anna, device: "device-1").status == 429)
        let events = try f.store.events(after: 0, limit: 1_000).map(\.kind)
        #expect(events.filter { $0 == .apricotRegistered }.count == 2)
        #expect(events.contains(.contactFileReceived))
    }

    @Test("a returning phone gets its user and pseudo-ids again, with a new token bound to its new device")
    func returningLogin() async throws {
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock)
        let first = try await f.register(Self.anna)
        clock.advance(seconds: 31)
        let again = try await f.register(Self.anna, device: "new-phone")
        #expect(again.userID == first.userID)
        #expect(again.pseudoIDs == first.pseudoIDs)
        #expect(again.token != first.token)
        let day = clock.now().utcDay
        let file = Contacts.file([(Contacts.foreign(1), UInt32(clock.now().timeIntervalSince1970))])
        let clockNow = Int64(clock.now().timeIntervalSince1970)
        #expect(try await f.upload(again.token, day: day, file, clock: clockNow, device: "new-phone").status == 200)
        // The new token is not the old device's.
        #expect(try await f.upload(again.token, day: day, file, clock: clockNow, device: "device-1").status == 401)
    }

    @Test("contact files that break a rule: 422 or 413 with a clear error, nothing stored")
    func badFiles() async throws {
        let f = try ApricotFixture()
        let anna = try await f.register(Self.anna)
        let record = Contacts.file([(Contacts.foreign(1), UInt32(Self.now))])

        let ragged = try await f.upload(anna.token, day: Self.today, record + [0, 1, 2])
        #expect(ragged.status == 422 && ragged.errorCode == 3006)
        #expect(ragged.detail?.contains("not a multiple of 24") == true)

        let empty = try await f.upload(anna.token, day: Self.today, [])
        #expect(empty.status == 422 && empty.errorCode == 3006)
        #expect(empty.detail?.contains("empty") == true)

        let future = try await f.upload(anna.token, day: Self.today.adding(days: 2), record)
        #expect(future.status == 422 && future.detail?.contains("future") == true)
        let tomorrow = try await f.upload(anna.token, day: Self.today.adding(days: 1), record)
        #expect(tomorrow.status == 200, "a phone ahead of UTC is already on tomorrow")

        let old = try await f.upload(anna.token, day: Self.today.adding(days: -31), record)
        #expect(old.status == 422 && old.detail?.contains("30-day") == true)
        let oldest = try await f.upload(anna.token, day: Self.today.adding(days: -30), record)
        #expect(oldest.status == 200, "the history's 30 days (today counts) and one for phones behind UTC")

        // Too large: refused from the declared length, before the body is read.
        let tooLarge = try await HTTP.rawAsync(
            f.server.phonePort,
            Array(
                """
                POST /apricot/v1/contacts/\(Self.today.iso) HTTP/1.1\r
                Host: 127.0.0.1\r
                Content-Type: application/octet-stream\r
                Authorization: Bearer \(anna.token)\r
                Apricot-App-Id: it.apricot.app\r
                Apricot-Device-Id: device-1\r
                Apricot-Client-Clock: \(Self.now)\r
                Content-Length: \(ContactFile.maxBytes + 24)\r
                Connection: close\r
                \r

                """.utf8))
        #expect(tooLarge.status == 413 && tooLarge.errorCode == 1013)
        // A client that declares and actually sends an over-limit body (64 MiB): answered 413 at
        // once, and the connection closed long before the body could have been read.
        let streamed = try await offPool { () throws -> (Reply, sent: Int, total: Int) in
            let fd = try HTTP.connect(f.server.phonePort)
            defer { close(fd) }
            var head = Array(
                """
                POST /apricot/v1/contacts/\(Self.today.iso) HTTP/1.1\r
                Host: 127.0.0.1\r
                Content-Type: application/octet-stream\r
                Authorization: Bearer \(anna.token)\r
                Apricot-App-Id: it.apricot.app\r
                Apricot-Device-Id: device-1\r
                Apricot-Client-Clock: \(Self.now)\r
                Content-Length: \(64 << 20)\r
                Connection: close\r
                \r

                """.utf8)
            let chunk = [UInt8](repeating: 7, count: 65_536)
            let chunks = 1_024
            let total = head.count + chunk.count * chunks
            var sent = 0
            var pending = head
            head = []
            var index = 0
            sending: while true {
                while !pending.isEmpty {
                    let n = pending.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if n <= 0 { break sending }
                    sent += n
                    pending.removeFirst(n)
                }
                guard index < chunks else { break }
                // Stop sending once the server has answered (as a client watching its socket
                // does): sending on would only make its kernel reset the connection.
                var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&watch, 1, 0) > 0 { break }
                pending = chunk
                index += 1
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                response.append(contentsOf: buffer[0..<n])
            }
            return (HTTP.parse(response), sent, total)
        }
        #expect(streamed.0.status == 413 && streamed.0.errorCode == 1013)
        #expect(streamed.sent < streamed.total, "the server closed the connection before reading the whole body")
        // The largest file is accepted.
        let largest = [UInt8](repeating: 0, count: ContactFile.maxBytes)
        let accepted = try await f.upload(anna.token, day: Self.today, largest)
        #expect(accepted.status == 200 && accepted.integer("records") == Int64(ContactFile.maxRecords))

        let patient = try #require(try f.store.tracePatient(phone: PhoneNumber(e164: Self.anna)!))
        #expect(patient.files.count == 3, "only the three accepted days are kept")
    }

    @Test("foreign and unknown beacons are counted unknown; zero times stay zero; a skewed clock is adjusted")
    func recordsAsStored() async throws {
        // The server's clock stands still: the skew is exactly the hour the phone is behind,
        // however long the steps before the upload take.
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock)
        let anna = try await f.register(Self.anna)
        let bruno = try await f.register(Self.bruno, device: "device-2")
        let unowned = PseudoID(suffix: 0).hex == bruno.pseudoIDs[0] ? PseudoID(suffix: 1) : PseudoID(suffix: 0)
        // The phone's clock is one hour behind the server's.
        let appNow = Int64(clock.now().timeIntervalSince1970) - 3_600
        let file = Contacts.file([
            (Contacts.beacon(hex: bruno.pseudoIDs[5]), UInt32(appNow - 120)),
            (Contacts.beacon(hex: bruno.pseudoIDs[5]), 0),
            (unowned.bytes, UInt32(appNow - 60)),
            (Contacts.foreign(9), 0),
        ])
        let reply = try await f.upload(anna.token, day: clock.now().utcDay, file, clock: appNow)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.integer("records") == 4)
        #expect(reply.integer("distinct_beacons") == 3)
        let skew = try #require(reply.integer("skew_seconds"))
        #expect(skew == 3_600)
        #expect(reply.integer("unknown_beacons") == 2, "an unowned pseudo-id and a foreign beacon")

        let patient = try #require(try f.store.tracePatient(phone: PhoneNumber(e164: Self.anna)!))
        let stored = try ContactFile.parse(try #require(patient.files.first).bytes)
        #expect(stored.map(\.time) == [UInt32(appNow - 120 + skew), 0, UInt32(appNow - 60 + skew), 0])
        #expect(patient.files.first?.skewSeconds == skew)
    }

    @Test("the same day again replaces the earlier file")
    func reuploadReplaces() async throws {
        let f = try ApricotFixture(sockets: false)
        let anna = try await f.register(Self.anna)
        let first = Contacts.file([(Contacts.foreign(1), UInt32(Self.now - 60))])
        let second = Contacts.file([
            (Contacts.foreign(1), UInt32(Self.now - 60)), (Contacts.foreign(2), UInt32(Self.now - 30)),
        ])
        #expect(try await f.upload(anna.token, day: Self.today, first).object["replaced"] as? Bool == false)
        let again = try await f.upload(anna.token, day: Self.today, second)
        #expect(again.status == 200 && again.integer("records") == 2)
        #expect(again.object["replaced"] as? Bool == true)
        let patient = try #require(try f.store.tracePatient(phone: PhoneNumber(e164: Self.anna)!))
        #expect(patient.files.count == 1)
        #expect(patient.files.first?.bytes.count == 48)
    }

    @Test("codes: a wrong one is 401, an expired one 401, the sixth attempt 429, a new code too soon 429 + Retry-After")
    func codes() async throws {
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock)
        #expect(try await f.requestCode(Self.anna).status == 204)
        let code = try f.code(for: Self.anna)
        let wrong = code == "000000" ? "000001" : "000000"

        let bad = try await f.login(Self.anna, otp: wrong)
        #expect(bad.status == 401 && bad.errorCode == 3001)

        let tooSoon = try await f.requestCode(Self.anna)
        #expect(tooSoon.status == 429 && tooSoon.errorCode == 3004)
        let retry = try #require(tooSoon.header("Retry-After").flatMap { Int($0) })
        #expect((1...30).contains(retry))

        clock.advance(seconds: 301)
        let expired = try await f.login(Self.anna, otp: code)
        #expect(expired.status == 401 && expired.errorCode == 3002)

        // A fresh code, then wrong guesses until the code is used up.
        #expect(try await f.requestCode(Self.anna).status == 204)
        let fresh = try f.code(for: Self.anna)
        let guess = fresh == "000000" ? "000001" : "000000"
        var statuses: [Int] = []
        var errorCodes: [Int?] = []
        for _ in 0..<6 {
            let reply = try await f.login(Self.anna, otp: guess)
            statuses.append(reply.status)
            errorCodes.append(reply.errorCode)
        }
        // Attempts 1 to 5 are wrong guesses; the 6th finds the code used up.
        #expect(statuses == [401, 401, 401, 401, 401, 429])
        #expect(errorCodes == [3001, 3001, 3001, 3001, 3001, 3003])
        let afterAll = try await f.login(Self.anna, otp: fresh)
        #expect(afterAll.status == 429 && afterAll.errorCode == 3003, "the right code no longer helps")
    }

    @Test("a token works only with the app and device it was issued to, and only for 30 days")
    func tokenBinding() async throws {
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock)
        let anna = try await f.register(Self.anna, app: "it.apricot.app", device: "device-1")
        let nowSeconds = Int64(clock.now().timeIntervalSince1970)
        let file = Contacts.file([(Contacts.foreign(1), UInt32(nowSeconds))])
        let day = clock.now().utcDay
        let otherDevice = try await f.upload(anna.token, day: day, file, clock: nowSeconds, device: "device-2")
        #expect(otherDevice.status == 401 && otherDevice.errorCode == 3005)
        let otherApp = try await f.upload(anna.token, day: day, file, clock: nowSeconds, app: "other.app")
        #expect(otherApp.status == 401)
        let unknown = try await f.upload(
            Base64.encodeURL(SecureRandom.bytes(32)), day: day, file, clock: nowSeconds)
        #expect(unknown.status == 401)
        #expect(try await f.upload(anna.token, day: day, file, clock: nowSeconds).status == 200)

        clock.advance(seconds: 30 * 86_400 + 1)
        let later = Int64(clock.now().timeIntervalSince1970)
        let expired = try await f.upload(
            anna.token, day: clock.now().utcDay, Contacts.file([(Contacts.foreign(1), UInt32(later))]), clock: later)
        #expect(expired.status == 401 && expired.errorCode == 3005)
    }

    @Test("requests that cannot be used: 400 naming the field, never echoing it")
    func badRequests() async throws {
        let f = try ApricotFixture(sockets: false)
        func post(_ path: String, _ text: String, type: String = ApricotFixture.json) async throws -> Reply {
            try await f.send(
                "POST", f.phone.appendingPathComponent(path), headers: ["Content-Type": type], body: Data(text.utf8))
        }
        let notJSON = try await post("apricot/v1/otp", "{phone")
        #expect(notJSON.status == 400 && notJSON.errorCode == 3000)
        let missing = try await post("apricot/v1/otp", #"{"app_id":"a","device_id":"d"}"#)
        #expect(missing.status == 400 && missing.detail?.contains("phone is required") == true)
        let badPhone = try await post("apricot/v1/otp", #"{"phone":"3331234567","app_id":"a","device_id":"d"}"#)
        #expect(badPhone.status == 400 && badPhone.detail?.contains("E.164") == true)
        #expect(badPhone.text.contains("3331234567") == false)
        let extra = try await post("apricot/v1/otp", #"{"phone":"+393331234567","app_id":"a","device_id":"d","x":1}"#)
        #expect(extra.status == 400 && extra.detail?.contains("not a field") == true)
        let badDevice = try await post("apricot/v1/otp", #"{"phone":"+393331234567","app_id":"a","device_id":""}"#)
        #expect(badDevice.status == 400 && badDevice.detail?.contains("device_id") == true)
        let text = try await post(
            "apricot/v1/otp", #"{"phone":"+393331234567","app_id":"a","device_id":"d"}"#, type: "text/plain")
        #expect(text.status == 400 && text.detail?.contains("Content-Type") == true)
        let shortCode = try await post(
            "apricot/v1/login", #"{"otp":"12345","phone":"+393331234567","app_id":"a","device_id":"d"}"#)
        #expect(shortCode.status == 400 && shortCode.detail?.contains("6 digits") == true)
        #expect(shortCode.text.contains("12345") == false)
        let numberCode = try await post(
            "apricot/v1/login", #"{"otp":123456,"phone":"+393331234567","app_id":"a","device_id":"d"}"#)
        #expect(numberCode.status == 400)

        let anna = try await f.register(Self.anna)
        let record = Contacts.file([(Contacts.foreign(1), UInt32(Self.now))])
        let wrongType = try await f.upload(anna.token, day: Self.today, record, contentType: "application/json")
        #expect(wrongType.status == 400 && wrongType.detail?.contains("octet-stream") == true)
        let badDay = try await f.send(
            "POST", f.phone.appendingPathComponent("apricot/v1/contacts/2026-13-01"),
            headers: [
                "Content-Type": "application/octet-stream", "Authorization": "Bearer \(anna.token)",
                "Apricot-App-Id": "it.apricot.app", "Apricot-Device-Id": "device-1",
                "Apricot-Client-Clock": String(Self.now),
            ], body: Data(record))
        #expect(badDay.status == 400 && badDay.detail?.contains("YYYY-MM-DD") == true)
        let noClock = try await f.send(
            "POST", f.phone.appendingPathComponent("apricot/v1/contacts/\(Self.today.iso)"),
            headers: [
                "Content-Type": "application/octet-stream", "Authorization": "Bearer \(anna.token)",
                "Apricot-App-Id": "it.apricot.app", "Apricot-Device-Id": "device-1",
            ], body: Data(record))
        #expect(noClock.status == 400 && noClock.detail?.contains("Apricot-Client-Clock") == true)
        let noDevice = try await f.send(
            "POST", f.phone.appendingPathComponent("apricot/v1/contacts/\(Self.today.iso)"),
            headers: [
                "Content-Type": "application/octet-stream", "Authorization": "Bearer \(anna.token)",
                "Apricot-App-Id": "it.apricot.app", "Apricot-Client-Clock": String(Self.now),
            ], body: Data(record))
        #expect(noDevice.status == 400 && noDevice.detail?.contains("Apricot-Device-Id") == true)
        let noToken = try await f.upload("short", day: Self.today, record)
        #expect(noToken.status == 400 && noToken.detail?.contains("Authorization") == true)
    }

    @Test("one sign-in may upload apricot_uploads_per_hour files an hour; then 429 with Retry-After")
    func uploadRateLimit() async throws {
        let f = try ApricotFixture(sockets: false) { $0.apricotUploadsPerHour = 2 }
        let anna = try await f.register(Self.anna)
        let record = Contacts.file([(Contacts.foreign(1), UInt32(Self.now))])
        #expect(try await f.upload(anna.token, day: Self.today, record).status == 200)
        #expect(try await f.upload(anna.token, day: Self.today, record).status == 200)
        let third = try await f.upload(anna.token, day: Self.today, record)
        #expect(third.status == 429 && third.errorCode == 3007)
        let wait = try #require(third.header("Retry-After").flatMap { Int($0) })
        #expect((3_500...3_600).contains(wait))
    }

    @Test("uploads of one sign-in sent at once: no more than the hour allows get through")
    func uploadRateLimitConcurrent() async throws {
        let f = try ApricotFixture(sockets: false) { $0.apricotUploadsPerHour = 2 }
        let anna = try await f.register(Self.anna)
        let record = Contacts.file([(Contacts.foreign(1), UInt32(Self.now))])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask { try await f.upload(anna.token, day: Self.today, record).status }
            }
            var all: [Int] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.filter { $0 == 200 }.count == 2)
        #expect(statuses.filter { $0 == 429 }.count == 10)
        // A token that is not valid is given back: it neither counts nor stays in memory.
        let other = (anna.token.first == "x" ? "y" : "x") + anna.token.dropFirst()
        #expect(try await f.upload(other, day: Self.today, record).status == 401)
    }

    @Test("the answer of a server without APRICOT: 503 (1003), no Retry-After, says what to configure")
    func notConfiguredAnswer() {
        let response = ApricotAPI.notConfigured
        #expect(response.status == 503)
        #expect(!response.headers.contains { $0.name == "Retry-After" })
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""error_code":1003"#))
    }

    @Test("the upload limiter forgets tokens idle for an hour, and only then")
    func uploadLimiterSweep() {
        let limiter = UploadLimiter(perHour: 2, pruneAbove: 100)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<1_000 { #expect(limiter.reserve("token-\(index)", now: start) == nil) }
        // All within the hour: none may be forgotten, and each is still limited.
        #expect(limiter.tracked == 1_000)
        #expect(limiter.reserve("token-7", now: start) == nil)
        #expect(limiter.reserve("token-7", now: start) == 3_600)
        limiter.release("token-8", now: start)
        #expect(limiter.reserve("token-8", now: start) == nil)
        // An hour on, the next new token's sweep forgets them all.
        for index in 0..<2_001 { _ = limiter.reserve("later-\(index)", now: start + 3_601) }
        #expect(limiter.tracked <= 2_001)
        #expect(limiter.reserve("token-7", now: start + 3_601) == nil)
    }

    @Test("metrics report the pseudo-ids used and the outcomes, without labels holding personal data")
    func metrics() async throws {
        let f = try ApricotFixture(sockets: false)
        _ = try await f.register(Self.anna)
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("tracedesk_apricot_pseudo_ids_used 1000\n"))
        #expect(metrics.text.contains(#"tracedesk_apricot_logins_total{result="new_user"} 1"#))
        #expect(metrics.text.contains(#"tracedesk_apricot_codes_total{result="sent"} 1"#))
        #expect(metrics.text.contains(#"tracedesk_sms_messages_total{gateway="outbox"} 1"#))
        #expect(!metrics.text.contains("3331234567"))
    }

    @Test("no log line holds a phone number, a code or a token; the access log has route templates")
    func logPrivacy() async throws {
        let f = try ApricotFixture()
        let anna = try await f.register(Self.anna)
        // Read before it is used: the outbox drops a code's text once it is (issue 18).
        #expect(try await f.requestCode(Self.bruno).status == 204)
        let code = try f.code(for: Self.bruno)
        _ = try await f.login(Self.bruno, otp: "123456")
        _ = try await f.requestCode(Self.anna)
        let record = Contacts.file([(Contacts.foreign(1), UInt32(Self.now))])
        _ = try await f.upload(anna.token, day: Self.today, record)
        _ = try await f.upload(anna.token, day: Self.today, record + [1])
        _ = try await f.upload(anna.token, day: Self.today, record, device: "device-9")
        let lines = (f.accessLines.all + f.logLines.all).joined(separator: "\n")
        for secret in [
            Self.anna, Self.bruno, "3331234567", code, anna.token, ApricotDesk.tokenHash(anna.token),
        ] {
            #expect(!lines.contains(secret), "a log line holds \(secret.prefix(4))…")
        }
        #expect(f.accessLines.all.contains { $0.contains("POST /apricot/v1/contacts/{day} 200") })
        #expect(f.accessLines.all.contains { $0.contains("POST /apricot/v1/login 200") })
    }

    @Test("16 phones registering at once get 16 000 different pseudo-ids")
    func concurrentRegistrations() async throws {
        let f = try ApricotFixture(sockets: false)
        let all = try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<16 {
                group.addTask { try await f.register("+3933300000\(10 + index)", device: "device-\(index)").pseudoIDs }
            }
            var ids: [String] = []
            for try await list in group { ids += list }
            return ids
        }
        #expect(all.count == 16_000)
        #expect(Set(all).count == 16_000)
        #expect(try f.store.pseudoIDCapacity().used == 16_000)
    }

    @Test("past half the pseudo-id space the log warns; when a user no longer fits: 507, nothing stored")
    func capacity() async throws {
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock)
        let sqlite = try #require(f.store as? SQLiteStore)
        let db = try SQLiteLockHolder(path: sqlite.path, lock: false)
        #expect(db.execute("UPDATE apricot_counters SET value = 2147483648 WHERE name = 'pseudo_ids'"))
        _ = try await f.register(Self.anna)
        let warning = try #require(f.logLines.all.first { $0.contains("past half full") })
        #expect(warning.contains("%") && !warning.contains("3331234567"))

        #expect(db.execute("UPDATE apricot_counters SET value = 4294966796 WHERE name = 'pseudo_ids'"))
        #expect(try await f.requestCode(Self.bruno).status == 204)
        let full = try await f.login(Self.bruno, otp: try f.code(for: Self.bruno))
        #expect(full.status == 507 && full.errorCode == 3008)
        #expect(full.header("Retry-After") == nil)
        #expect(f.logLines.all.contains { $0.contains("registration refused") && $0.contains("full") })
        #expect(try f.store.tracePatient(phone: PhoneNumber(e164: Self.bruno)!) == nil)
        // A known phone still signs in, with its pseudo-ids.
        clock.advance(seconds: 31)
        let again = try await f.register(Self.anna)
        #expect(again.pseudoIDs.count == 1_000)
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(metrics.text.contains("tracedesk_apricot_pseudo_ids_used_ratio 0.99"))
    }

    @Test("the code secret: made once beside an SQLite store (mode 600) and kept; a short file is refused")
    func codeSecret() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apricot-secret-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path)
        let first = try TraceDeskServer.apricotCodeSecret(ServerConfig(), store: store).get()
        let second = try TraceDeskServer.apricotCodeSecret(ServerConfig(), store: store).get()
        #expect(first != nil && first == second)
        #expect(first?.count == 32)
        let file = try #require(FileManager.default.contents(atPath: store.path + ".code-secret"))
        #expect(String(decoding: file, as: UTF8.self) == Hex.encode(first ?? []) + "\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path + ".code-secret")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let short = directory.appendingPathComponent("short").path
        try "too short".write(toFile: short, atomically: true, encoding: .utf8)
        var config = ServerConfig()
        config.apricotCodeSecretFile = short
        guard case .failure(let error) = TraceDeskServer.apricotCodeSecret(config, store: store) else {
            Issue.record("a 9-byte secret was accepted")
            return
        }
        #expect(error.message.contains("at least 32"))
        config.apricotCodeSecretFile = directory.appendingPathComponent("missing").path
        guard case .failure(let missing) = TraceDeskServer.apricotCodeSecret(config, store: store) else {
            Issue.record("a missing secret file was accepted")
            return
        }
        #expect(missing.message.contains("cannot be read"))
    }

    @Test("a secret file's bytes: hex decoded, raw bytes kept as they are, short or one repeated byte refused")
    func codeSecretBytes() throws {
        let random = SecureRandom.bytes(32)
        #expect(try TraceDeskServer.codeSecret(fileBytes: Array((Hex.encode(random) + "\n").utf8)).get() == random)
        #expect(
            try TraceDeskServer.codeSecret(fileBytes: Array(Hex.encode(random).uppercased().utf8)).get() == random)
        // Raw bytes that are not UTF-8 are the key as they are, not transcoded.
        let raw = (0..<40).map { UInt8(0x80 + $0) }
        #expect(try TraceDeskServer.codeSecret(fileBytes: raw).get() == raw)
        #expect(try TraceDeskServer.codeSecret(fileBytes: raw + [0x0A]).get() == raw)
        // 31 raw bytes, even with a newline after them, are too few.
        let short = TraceDeskServer.codeSecret(fileBytes: Array(raw.prefix(31)) + [0x0A])
        #expect(throws: TraceDeskServer.CodeSecretProblem.self) { try short.get() }
        // One repeated byte is refused, raw or in hex.
        for repeated in [
            Array(repeating: UInt8(ascii: "a"), count: 40), Array(String(repeating: "00", count: 32).utf8),
        ] {
            guard case .failure(let problem) = TraceDeskServer.codeSecret(fileBytes: repeated) else {
                Issue.record("a secret of one repeated byte was accepted")
                continue
            }
            #expect(problem.message.contains("repeated"))
        }
    }

    @Test("the code secret beside a store, made by many servers starting at once: all read the same whole key")
    func codeSecretRace() async throws {
        for _ in 0..<10 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apricot-race-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path)
            let secrets = await withTaskGroup(of: [UInt8]?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        (try? TraceDeskServer.apricotCodeSecret(ServerConfig(), store: store).get()) ?? nil
                    }
                }
                var all: [[UInt8]?] = []
                for await secret in group { all.append(secret) }
                return all
            }
            #expect(secrets.count == 8)
            #expect(secrets.allSatisfy { $0 != nil && $0?.count == 32 && $0 == secrets.first! })
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!left.contains { $0.contains(".tmp-") })
        }
    }
}

/// The same protocol against PostgreSQL (a fresh database per test).
@Suite(
    "APRICOT phone API on PostgreSQL",
    .enabled(
        if: ApricotFixture.postgresURL != nil,
        "TRACEDESK_TEST_POSTGRES is not set (scripts/test starts a throwaway PostgreSQL)"))
struct ApricotPostgresHTTPTests {
    @Test("no code secret with PostgreSQL: every /apricot/ path answers 503 without Retry-After (not temporary)")
    func notConfigured() async throws {
        let f = try ApricotFixture(postgres: true) { $0.apricotCodeSecretFile = nil }
        #expect(f.server.apricotDesk == nil)
        for path in ["apricot/v1/settings", "apricot/v1/otp"] {
            let reply = try await HTTP.send(
                path.hasSuffix("otp") ? "POST" : "GET", f.phone.appendingPathComponent(path))
            #expect(reply.status == 503 && reply.errorCode == 1003)
            #expect(reply.header("Retry-After") == nil)
            #expect(reply.text.contains("apricot_code_secret_file"))
        }
    }

    @Test("code, sign-in, upload, replace, returning sign-in, bound token, on PostgreSQL")
    func core() async throws {
        // The server's clock stands still: the skew is exactly the hour the phone is behind,
        // however long the steps before the upload take.
        let clock = FixedClock(Date())
        let f = try ApricotFixture(postgres: true, clock: clock)
        let anna = try await f.register(ApricotHTTPTests.anna)
        let bruno = try await f.register(ApricotHTTPTests.bruno, device: "device-2")
        #expect(anna.pseudoIDs.count == 1_000 && Set(anna.pseudoIDs).isDisjoint(with: Set(bruno.pseudoIDs)))
        let now = Int64(clock.now().timeIntervalSince1970)
        let today = clock.now().utcDay
        let file = Contacts.file([
            (Contacts.beacon(hex: bruno.pseudoIDs[0]), UInt32(now - 3_660)), (Contacts.foreign(3), 0),
        ])
        let reply = try await f.upload(anna.token, day: today, file, clock: now - 3_600)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.integer("records") == 2 && reply.integer("unknown_beacons") == 1)
        let skew = try #require(reply.integer("skew_seconds"))
        #expect(skew == 3_600)
        let again = try await f.upload(anna.token, day: today, file + file, clock: now)
        #expect(again.object["replaced"] as? Bool == true && again.integer("records") == 4)
        #expect(try await f.upload(anna.token, day: today, file, device: "device-2").status == 401)
        let old = try await f.upload(anna.token, day: today.adding(days: -31), file)
        #expect(old.status == 422)
        let patient = try #require(try f.store.tracePatient(phone: PhoneNumber(e164: ApricotHTTPTests.anna)!))
        #expect(patient.files.count == 1 && patient.files.first?.bytes.count == 96)
        let bad = try await f.login(ApricotHTTPTests.anna, otp: "000000")
        #expect(bad.status == 401)
    }
}
