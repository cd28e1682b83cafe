import DeskTestSupport
import Foundation

/// A fake Apple DeviceCheck API: a small Python `http.server` on 127.0.0.1 and an ephemeral port,
/// keeping one device's two bits and recording every request to a file.
///
/// Scenario (JSON): `state` is the device's bits (`null` = never set, so the query answers 200
/// `Failed to find bit state`); `month` is the `last_update_time` an update writes; `overrides`
/// maps a 1-based request number to changes for that request, applied in this order: `sleep`
/// (seconds), `state` (someone else wrote the bits just before), then `status` and/or `body`
/// (answer that instead of the normal behaviour, without touching the bits).
final class FakeDeviceCheck {
    /// One recorded request.
    struct Recorded: Decodable {
        let path: String
        let method: String
        let authorization: String?
        let contentType: String?
        let body: String

        enum CodingKeys: String, CodingKey {
            case path, method, authorization, body
            case contentType = "content_type"
        }
    }

    let baseURL: URL
    /// The server; closing its input stops it.
    private let process: ChildProcess
    private let directory: URL
    private let logURL: URL

    private static let script = #"""
        import json, os, signal, sys, threading, time
        from http.server import HTTPServer, BaseHTTPRequestHandler

        # Foundation's Process spawns us from a thread that blocks SIGTERM, and the mask is inherited.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

        # Exit when the test closes our stdin, or dies: no server outlives its test.
        def exit_at_end_of_stdin():
            sys.stdin.buffer.read()
            os._exit(0)
        threading.Thread(target=exit_at_end_of_stdin, daemon=True).start()

        scenario = json.load(open(sys.argv[1]))
        log_path = sys.argv[2]
        state = scenario.get("state")
        overrides = scenario.get("overrides", {})
        month = scenario.get("month", time.strftime("%Y-%m", time.gmtime()))
        count = 0

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                global count, state
                count += 1
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with open(log_path, "a") as log:
                    log.write(json.dumps({
                        "path": self.path, "method": self.command,
                        "authorization": self.headers.get("Authorization"),
                        "content_type": self.headers.get("Content-Type"),
                        "body": raw.decode("utf-8", "replace"),
                    }) + "\n")
                override = overrides.get(str(count), {})
                if "sleep" in override:
                    time.sleep(override["sleep"])
                if "state" in override:
                    state = override["state"]
                if "status" in override or "body" in override:
                    return self.answer(override.get("status", 200), override.get("body", ""))
                if self.path == "/v1/query_two_bits":
                    if state is None:
                        return self.answer(200, "Failed to find bit state")
                    return self.answer(200, json.dumps(state))
                if self.path == "/v1/update_two_bits":
                    request = json.loads(raw)
                    state = {"bit0": request["bit0"], "bit1": request["bit1"], "last_update_time": month}
                    return self.answer(200, "")
                self.answer(404, "Not Found")

            def answer(self, status, text):
                data = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        server = HTTPServer(("127.0.0.1", 0), Handler)
        with open(sys.argv[3] + ".tmp", "w") as port_file:
            port_file.write(str(server.server_address[1]))
        os.rename(sys.argv[3] + ".tmp", sys.argv[3])
        server.serve_forever()
        """#

    private init(process: ChildProcess, directory: URL, baseURL: URL) {
        self.process = process
        self.directory = directory
        self.logURL = directory.appendingPathComponent("requests.jsonl")
        self.baseURL = baseURL
    }

    /// Starts a server for `scenario` and returns once it listens. Waits by polling, never by
    /// blocking a thread of the shared cooperative pool.
    static func start(scenario: String) async throws -> FakeDeviceCheck {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tracedesk-devicecheck-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scriptURL = directory.appendingPathComponent("fake_devicecheck.py")
        let scenarioURL = directory.appendingPathComponent("scenario.json")
        let portURL = directory.appendingPathComponent("port")
        try scriptURL.write(script)
        try scenarioURL.write(scenario)

        let logPath = directory.appendingPathComponent("requests.jsonl").path
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", scriptURL.path, scenarioURL.path, logPath, portURL.path], input: .pipe)

        // The port file appears (atomically) once the socket listens. Python's start takes a
        // second or two on a loaded machine, far more beside the whole suite: the cap is generous.
        var port: Int?
        do {
            try await eventually(within: .seconds(120), "the fake DeviceCheck server listening (its port file)") {
                port = (try? portURL.text()).flatMap { Int($0) }
                if port == nil && !process.isRunning {
                    throw CommandFailure(description: "the fake DeviceCheck server exited before it listened")
                }
                return port != nil
            }
        } catch {
            let server = FakeDeviceCheck(
                process: process, directory: directory, baseURL: URL(string: "http://127.0.0.1:9")!)
            await server.stop()
            throw error
        }
        let server = FakeDeviceCheck(
            process: process, directory: directory, baseURL: URL(string: "http://127.0.0.1:\(port ?? 9)")!)
        return server
    }

    /// The requests received so far, in order.
    func requests() throws -> [Recorded] {
        guard FileManager.default.fileExists(atPath: logURL.path) else { return [] }
        return try logURL.text().split(separator: "\n").map {
            try JSONDecoder().decode(Recorded.self, from: Data($0.utf8))
        }
    }

    /// The endpoints called so far: "query" or "update".
    func calls() throws -> [String] {
        try requests().map {
            $0.path == "/v1/query_two_bits" ? "query" : $0.path == "/v1/update_two_bits" ? "update" : $0.path
        }
    }

    /// Stops the server, waits until it exited, and removes its files.
    func stop() async {
        process.closeInput()
        process.terminate()
        let process = self.process
        try? await eventually(within: .seconds(60), "the fake DeviceCheck server's exit") { !process.isRunning }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` against a fresh server for `scenario`; the server is stopped afterwards.
    static func with(_ scenario: String, _ body: (FakeDeviceCheck) async throws -> Void) async throws {
        let server = try await start(scenario: scenario)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
