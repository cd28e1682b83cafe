import DeskCore
import DeskTestSupport
import Foundation
import Testing

@Suite("Concurrency over HTTP")
struct ConcurrencyTests {
    @Test(
        "50 simultaneous uploads with one code: exactly one 204, the rest 401, one upload stored",
        arguments: [0, 50])
    func oneTimeCode(delayMs: Int) async throws {
        let f = try ServerFixture(delayMs: delayMs)
        try f.authorize("9K2RAY8UUQ")
        let url = f.phone.appendingPathComponent("v1/ingestion/upload")
        let headers = Phone.headers(token: Phone.hash("9K2RAY8UUQ"), clock: Phone.now)
        let body = Phone.uploadBody(keys: Phone.dailyKeys(14))
        var statuses: [Int] = []
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await HTTP.send("POST", url, headers: headers, body: body).status } }
            for try await status in group { statuses.append(status) }
        }
        #expect(statuses.filter { $0 == 204 }.count == 1)
        #expect(statuses.filter { $0 == 401 }.count == 49)
        #expect(try f.count("uploads") == 1)
        #expect(try f.events().filter { $0.kind == .uploadAccepted }.count == 1)
    }

    @Test(
        "the check-otp delay holds no thread: of 200 concurrent checks, more wait out their delay at once than the server has threads"
    )
    func delaysDoNotHoldThreads() async throws {
        // 4 server threads, a delay of 1 s ± 20 ms each: a delay that held its thread would let at
        // most 4 wait at once. Asserted on that count, not on the wall-clock time the 200 take
        // (which measures the machine, and belongs in a benchmark). The delay is long beside the
        // time a client needs to start, so on any machine many of them overlap.
        let f = try ServerFixture(delayMs: 1_000, configure: { $0.threads = 4 })
        try f.authorize("9K2RAY8UUQ")
        let request = HTTP.request(
            "POST", "/v1/ingestion/check-otp",
            headers: [
                "Content-Type: application/json", "Authorization: Bearer \(Phone.hash("9K2RAY8UUQ"))",
                "Immuni-Dummy-Data: 0",
            ], body: Array(#"{"padding":"00"}"#.utf8))
        let port = f.server.phonePort
        // Plain threads with blocking sockets: the lightest client, so the time measured is the server's.
        let statuses = Statuses()
        let group = DispatchGroup()
        for _ in 0..<200 {
            group.enter()
            let thread = Thread {
                statuses.append((try? HTTP.raw(port, request))?.status ?? 0)
                group.leave()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        try await offPool { group.wait() }
        #expect(statuses.all.count == 200)
        #expect(statuses.all.allSatisfy { $0 == 204 })
        // More requests waited at once than there are threads: waiting holds no thread.
        #expect(f.server.phonePeakSuspended > 4, "peak \(f.server.phonePeakSuspended) suspended at once")
    }
}

final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func append(_ value: Int) { lock.withLock { values.append(value) } }
    var all: [Int] { lock.withLock { values } }
}
