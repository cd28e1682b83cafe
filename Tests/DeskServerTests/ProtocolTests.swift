import DeskServer
import DeskTestSupport
import Foundation
import Testing

/// HTTP-level behaviour: paths, methods, health and keys on the handlers as values; limits,
/// broken requests, slow clients, settings reloads, metrics, the access log, TLS and shutdown
/// over real HTTP.
@Suite("HTTP protocol")
struct ProtocolTests {
    static let token = Phone.hash("9K2RAY8UUQ")

    @Test("unknown paths are 404 {1004}, wrong methods 405 {1005} with Allow, in the error body shape")
    func pathsAndMethods() async throws {
        let f = try ServerFixture(sockets: false)
        for path in ["nope", "v1", "v0/keys/1", "v1/ingestion/check-cun", "v1/ingestion/get-dgc", "metrics"] {
            let reply = try await f.send("GET", f.phone.appendingPathComponent(path))
            #expect(reply.status == 404, "\(path)")
            #expect(reply.errorCode == 1004, "\(path)")
        }
        let wrong = try await f.send("GET", f.phone.appendingPathComponent("v1/ingestion/upload"))
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        #expect(wrong.errorCode == 1005)
        #expect(try await f.send("POST", f.phone.appendingPathComponent("v1/settings")).status == 405)
    }

    @Test("health: GET / is 200, empty, no-store, on both listeners")
    func health() async throws {
        let f = try ServerFixture(sockets: false)
        for url in [f.phone, f.internalURL] {
            let reply = try await f.send("GET", url)
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
            #expect(reply.header("Cache-Control") == "no-store")
        }
    }

    @Test("a declared body over the limit is 413 {1013} before it is read; so is a chunked one")
    func bodyLimit() async throws {
        // A connection timeout far beyond the client's 10 s read timeout: a server that waited
        // for the 5 MB that never come would leave the client with nothing (status 0). Getting
        // the 413 at all proves it answered before reading the body; no clock is involved.
        let f = try ServerFixture(configure: {
            $0.maxBodyBytes = 4_096
            $0.connectionTimeoutSeconds = 600
        })
        let head = """
            POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
            Authorization: Bearer \(Self.token)\r\nImmuni-Dummy-Data: 0\r\nContent-Length: 5000000\r\n\r\n
            """
        let declared = try await HTTP.rawAsync(
            f.server.phonePort, Array(head.utf8) + Array(repeating: 0x61, count: 10_000))
        #expect(declared.status == 413)
        #expect(declared.errorCode == 1013)
        // Chunked, no length: refused once the received bytes pass the limit.
        var chunked = """
            POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
            Authorization: Bearer \(Self.token)\r\nImmuni-Dummy-Data: 0\r\nTransfer-Encoding: chunked\r\n\r\n
            """
        for _ in 0..<3 { chunked += "800\r\n" + String(repeating: "a", count: 2048) + "\r\n" }
        chunked += "0\r\n\r\n"
        let reply = try await HTTP.rawAsync(f.server.phonePort, Array(chunked.utf8))
        #expect(reply.status == 413)
        // At the limit is fine.
        let padding = String(repeating: "a", count: 4_096 - 14)
        let ok = try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/check-otp"),
            headers: Phone.headers(token: Self.token), body: Data(#"{"padding":"\#(padding)"}"#.utf8))
        #expect(ok.status == 401)
    }

    @Test("broken requests are 400 with the error body: invalid UTF-8, repeated headers, odd numbers")
    func brokenRequests() async throws {
        let f = try ServerFixture()
        try f.authorize("9K2RAY8UUQ")
        let headers = [
            "Content-Type: application/json", "Authorization: Bearer \(Self.token)", "Immuni-Dummy-Data: 0",
        ]
        let invalidUTF8: [UInt8] = Array(#"{"padding":"ab"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let utf8 = try await HTTP.rawAsync(
            f.server.phonePort, HTTP.request("POST", "/v1/ingestion/check-otp", headers: headers, body: invalidUTF8))
        #expect(utf8.status == 400)
        #expect(utf8.errorCode == 1100)
        #expect(utf8.detail?.contains("UTF-8") == true)
        let twice = try await HTTP.rawAsync(
            f.server.phonePort,
            HTTP.request(
                "POST", "/v1/ingestion/check-otp", headers: headers + ["Immuni-Dummy-Data: 1"],
                body: Array(#"{"padding":"ab"}"#.utf8)))
        #expect(twice.status == 400)
        #expect(twice.detail?.contains("once") == true)
        let twoTokens = try await HTTP.rawAsync(
            f.server.phonePort,
            HTTP.request(
                "POST", "/v1/ingestion/check-otp", headers: headers + ["Authorization: Bearer \(Self.token)"],
                body: Array(#"{"padding":"ab"}"#.utf8)))
        #expect(twoTokens.status == 400)
        for clock in ["abc", "1.5", "-1", "99999999999999999999999", " "] {
            let reply = try await HTTP.rawAsync(
                f.server.phonePort,
                HTTP.request(
                    "POST", "/v1/ingestion/upload", headers: headers + ["Immuni-Client-Clock: \(clock)"],
                    body: Array(#"{"teks":[]}"#.utf8)))
            #expect(reply.status == 400, "\(clock)")
            #expect(reply.errorCode == 1100, "\(clock)")
        }
        let nested = String(repeating: "[", count: 10_000)
        let deep = try await HTTP.rawAsync(
            f.server.phonePort,
            HTTP.request("POST", "/v1/ingestion/check-otp", headers: headers, body: Array(nested.utf8)))
        #expect(deep.status == 400)
        #expect(try f.count("uploads") == 0)
        // The server is still fine.
        #expect(try await f.send("GET", f.phone).status == 200)
    }

    @Test("a slow client is cut off after the connection timeout; others are served meanwhile")
    func slowClient() async throws {
        let f = try ServerFixture(configure: { $0.connectionTimeoutSeconds = 1 })
        // Headers that never finish, on a socket whose own read timeout (60 s) is far beyond the
        // server's: the server closing it (end of stream, not the client giving up) is the cut-off.
        let fd = try HTTP.connect(f.server.phonePort, readTimeout: 60)
        defer { close(fd) }
        let head = Array("POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\n".utf8)
        #expect(head.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == head.count)
        // Others are served while that connection hangs.
        #expect(try await f.send("GET", f.phone).status == 200)
        let ended = try await offPool { () -> Int in
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, 0)
        }
        #expect(ended == 0, "the server closed the connection (0), not the client's read timeout (-1)")
        // Cut off by the head gate's timeout, not refused for what it sent.
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(
            String(decoding: metrics.body, as: UTF8.self).contains(
                #"tracedesk_http_heads_refused_total{reason="timeout"} 1"#))
        #expect(try await f.send("GET", f.phone).status == 200)
    }

    @Test("keys: no chunks yet → /v1/keys/index 404 {1301}, /v1/keys/1 404 {1300}; bad indexes 400 {1100}")
    func keys() async throws {
        let f = try ServerFixture(sockets: false)
        let index = try await f.send("GET", f.phone.appendingPathComponent("v1/keys/index"))
        #expect(index.status == 404)
        #expect(index.errorCode == 1301)
        #expect(index.header("Cache-Control") == nil)
        let one = try await f.send("GET", f.phone.appendingPathComponent("v1/keys/1"))
        #expect(one.errorCode == 1300)
        for bad in ["0", "-1", "asd", "12d", "01", "99999999999999999999"] {
            let reply = try await f.send("GET", f.phone.appendingPathComponent("v1/keys/\(bad)"))
            #expect(reply.status == 400, "\(bad)")
            #expect(reply.errorCode == 1100, "\(bad)")
        }
    }

    @Test("settings: per key the entry with the highest starting_build ≤ build; cached an hour; edits reload")
    func settings() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("app-settings.json")
        try Data(
            """
            {"entries": [
              {"platform": "all", "starting_build": 1, "settings": {"a": 1, "b": "x", "c": [1, 2]}},
              {"platform": "ios", "starting_build": 1, "settings": {"b": "ios"}},
              {"platform": "ios", "starting_build": 100, "settings": {"a": 2}},
              {"platform": "all", "starting_build": 200, "settings": {"c": {"d": true}}}
            ]}
            """.utf8
        ).write(to: file)
        let f = try ServerFixture(appSettingsPath: file.path)
        func get(_ query: String) async throws -> Reply {
            try await f.send("GET", URL(string: "\(f.phone.absoluteString)/v1/settings?\(query)")!)
        }
        let ios50 = try await get("platform=ios&build=50")
        #expect(ios50.status == 200)
        #expect(ios50.header("Cache-Control") == "public, max-age=3600")
        #expect(ios50.text == #"{"a":1,"b":"ios","c":[1,2]}"#)
        #expect(try await get("platform=ios&build=150").text == #"{"a":2,"b":"ios","c":[1,2]}"#)
        #expect(try await get("platform=android&build=20000").text == #"{"a":1,"b":"x","c":{"d":true}}"#)
        for bad in [
            "platform=ios", "build=1", "platform=web&build=1", "platform=ios&build=0", "platform=ios&build=20001",
            "platform=ios&build=1.0", "platform=ios&build=1&build=2", "platform=ios&platform=android&build=1",
        ] {
            let reply = try await get(bad)
            #expect(reply.status == 400, "\(bad)")
            #expect(reply.errorCode == 1100, "\(bad)")
        }
        // A broken edit keeps the old settings; a good one is served within seconds.
        try Data("{ broken".utf8).write(to: file)
        try await eventually(within: .seconds(60), "the broken settings file reported in the log") {
            f.logLines.all.contains { $0.contains("broken") }
        }
        #expect(try await get("platform=ios&build=50").text == #"{"a":1,"b":"ios","c":[1,2]}"#)
        try Data(#"{"entries": [{"platform": "all", "starting_build": 1, "settings": {"z": 0}}]}"#.utf8).write(to: file)
        try await eventually(within: .seconds(60), "the fixed settings file served") {
            try await get("platform=ios&build=50").text == #"{"z":0}"#
        }
    }

    @Test("the shipped settings file has the apps' keys and defaults")
    func shippedSettings() async throws {
        let f = try ServerFixture(sockets: false)
        let reply = try await f.send(
            "GET", URL(string: "\(f.phone.absoluteString)/v1/settings?platform=android&build=1")!)
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        #expect(object["teks_packet_size"] as? Int == 110_000)
        #expect(object["exposure_info_minimum_risk_score"] as? Int == 20)
        #expect(object["minimum_build_version"] as? Int == 0)
        let ios = try await f.send("GET", URL(string: "\(f.phone.absoluteString)/v1/settings?platform=ios&build=1")!)
        let iosObject = try #require(try JSONSerialization.jsonObject(with: ios.body) as? [String: Any])
        #expect(iosObject["exposure_info_minimum_risk_score"] as? Int == 12)
        #expect(iosObject["support_phone"] as? String == "800912491")
    }

    @Test("metrics are Prometheus text with requests by route and status, and no code or token")
    func metrics() async throws {
        let f = try ServerFixture()
        try f.authorize("9K2RAY8UUQ")
        _ = try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/check-otp"), headers: Phone.headers(token: Self.token),
            body: Data(#"{"padding":"ab"}"#.utf8))
        let reply = try await f.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(
            reply.text.contains(
                #"tracedesk_http_requests_total{listener="public",route="/v1/ingestion/check-otp",method="POST",status="204"} 1"#
            ))
        #expect(reply.text.contains("# TYPE tracedesk_uploads_total counter"))
        #expect(!reply.text.contains(Self.token))
        #expect(!reply.text.contains("9K2RAY8UUQ"))
    }

    @Test("the access log has method, route, status and duration, never a token or a query")
    func accessLog() async throws {
        let f = try ServerFixture()
        _ = try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/check-otp"), headers: Phone.headers(token: Self.token),
            body: Data(#"{"padding":"ab"}"#.utf8))
        _ = try await f.send("GET", URL(string: "\(f.phone.absoluteString)/v1/settings?platform=ios&build=7")!)
        _ = try await f.send("GET", f.phone.appendingPathComponent("v1/keys/\(Self.token)"))
        try await eventually(within: .seconds(60), "three access-log lines") { f.accessLines.all.count >= 3 }
        let lines = f.accessLines.all
        #expect(lines.contains { $0.contains("public POST /v1/ingestion/check-otp 401 ") && $0.hasSuffix("ms") })
        #expect(lines.contains { $0.contains("public GET /v1/settings 200 ") })
        #expect(lines.allSatisfy { !$0.contains(Self.token) && !$0.contains("build=7") })
    }

    @Test("stopping lets a request in flight finish, then refuses new connections")
    func gracefulStop() async throws {
        // The delay waits on the test's clock: the request is in flight for as long as the test
        // needs, and finishes when the test lets it, however slow the machine.
        let delays = HeldDelays()
        let f = try ServerFixture(delayMs: 400, delays: delays.clock)
        // On a socket of its own (not the tests' shared URLSession, whose connections other
        // suites' long polls may hold): the request reaches the server however busy the run is.
        let port = f.server.phonePort
        let request = HTTP.request(
            "POST", "/v1/ingestion/check-otp",
            headers: Phone.headers(token: Self.token, dummy: "1").map { "\($0.key): \($0.value)" },
            body: Array(#"{"padding":""}"#.utf8))
        // A read timeout against a hang only: the answer waits on the test, and on a pool the
        // parallel run may keep busy for minutes.
        let pending = Task { try await offPool { try HTTP.raw(port, request, readTimeout: 600) } }
        // Stop once the request is in (waiting out its delay).
        try await eventually(within: .seconds(60), "the request waiting out its delay") {
            f.server.phonePeakSuspended == 1 && delays.waiting == 1
        }
        let server = f.server
        // A grace no machine runs out of: `stop` returns once nothing is in flight.
        let stopped = Latch()
        let stopping = Task {
            try await offPool { server.stop(grace: .seconds(3_600)) }
            stopped.set()
        }
        try await eventually(within: .seconds(60), "the server's grace begun") { server.phoneStopping }
        #expect(!stopped.isSet, "stop waits for the request in flight")
        delays.release()
        try await stopping.value
        let reply = try await pending.value
        #expect(reply.status == 204 || reply.status == 401)
        await #expect(throws: (any Error).self) { try await f.send("GET", f.phone) }
    }

    @Test("HTTPS with --tls-cert/--tls-key")
    func tls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let cert = directory.appendingPathComponent("cert.pem").path
        try await runAsync(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                "-out",
                cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        let f = try ServerFixture(configure: {
            $0.tlsCert = cert
            $0.tlsKey = key
        })
        let output = try await runAsync(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", cert,
                "https://127.0.0.1:\(f.server.phonePort)/",
            ])
        #expect(output == "200")
        let plain = try await runAsync(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(f.server.phonePort)/"])
        #expect(plain != "200")
    }

    @discardableResult
    func runAsync(_ tool: String, _ arguments: [String]) async throws -> String {
        try await offPool { try ProtocolTests.run(tool, arguments) }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tracedesk-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        try ChildProcess.run(tool, arguments, stdout: .file(out.path))
        return String(decoding: try Data(contentsOf: out), as: UTF8.self)
    }
}
