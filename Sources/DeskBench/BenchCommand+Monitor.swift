import CivilCalendar
import DeskCLI
import DeskConsole
import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import DeskServer
import DeskStore
import DeskText
import Foundation
import TerminalKit

/// `tracedesk bench monitor`: the live monitor while the store takes 1 000 events a second.
///
/// (a) A writer thread records app checks of authorised codes (one event each) at `--rate` per
/// second for `--seconds`, into a fresh SQLite store. Meanwhile the console itself (``Program``
/// on a ``TestBackend``: update, render and diff, no terminal) runs signed in as a supervisor on
/// the monitor, its feed reading the same store through a ``LocalDesk``, and a key (↓ / ↑) is
/// pressed every 50 ms. Keystroke to screen is the time from the key entering the input queue
/// to the end of the step that drew its frame; since a key can arrive while the loop is busy
/// with a step that took in a page of events, the longest step is reported too (their sum bounds
/// the worst case). Memory: the process's resident size before and after, and the monitor's
/// window (rows kept).
/// (b) A long poll's delivery: an in-process `tracedesk serve` on 127.0.0.1, a RemoteDesk
/// waiting on `GET /staff/v1/events?wait=10`; an event is written and timed until the poll
/// returns it, `--polls` times; then the same through a LocalDesk's wait on the same store.
extension BenchCommand {
    static func monitor(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let seconds = try arguments.integer("seconds", command: command)
        let rate = try arguments.integer("rate", command: command)
        let polls = try arguments.integer("polls", command: command)
        let width = try arguments.integer("width", command: command)
        let height = try arguments.integer("height", command: command)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-bench-monitor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let console: ConsoleRun
        let delivery: (remote: [Double], local: [Double])
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try SQLiteStore(path: directory.appendingPathComponent("bench.sqlite").path)
            let desk = LocalDesk(store: store)
            let admin = try await desk.createFirstAdmin(name: "bench-admin", password: "bench admin password")
            _ = try await desk.addStaff(admin, name: "bench-sup", role: .supervisor, password: "bench supervisor pass")
            // Codes the writer's checks are about.
            var hashes: [OtpHash] = []
            let yesterday = desk.now().utcDay.adding(days: -1)
            for i in 0..<EventWriter.codes(rate: rate) {
                let hash = try benchCode(i)
                _ = try store.authorize(
                    otpHash: hash, symptomsStartedOn: yesterday, by: "bench-op", now: Date(), lifetime: .seconds(86_400)
                )
                hashes.append(hash)
            }
            console = try runConsole(
                store: store, desk: desk, hashes: hashes, seconds: seconds, rate: rate, width: width, height: height)
            delivery = try await timeDelivery(store: store, desk: desk, polls: polls)
        } catch let error as ServiceError {
            printError("bench monitor: \(error.message)")
            return .storeUnavailable
        } catch let error as StoreError {
            printError("bench monitor: \(error.message)")
            return .storeUnavailable
        } catch let error as BenchFailure {
            printError("bench monitor: \(error.message)")
            return .refused
        } catch {
            printError("bench monitor: \(error)")
            return .refused
        }

        let keys = console.keystrokes
        let steps = console.steps
        let stats = [
            ("key_p50_ms", staffPercentile(keys, 0.5)), ("key_p95_ms", staffPercentile(keys, 0.95)),
            ("key_max_ms", keys.max() ?? 0), ("step_p99_ms", staffPercentile(steps, 0.99)),
            ("step_max_ms", steps.max() ?? 0),
            ("remote_delivery_p50_ms", staffPercentile(delivery.remote, 0.5)),
            ("remote_delivery_p95_ms", staffPercentile(delivery.remote, 0.95)),
            ("remote_delivery_max_ms", delivery.remote.max() ?? 0),
            ("local_delivery_p50_ms", staffPercentile(delivery.local, 0.5)),
            ("local_delivery_p95_ms", staffPercentile(delivery.local, 0.95)),
        ]
        let written = Double(console.eventsWritten) / console.writeSeconds
        if arguments.has("json") {
            let members =
                stats.map { "\"\($0.0)\":\(f3($0.1))" }
                + [
                    "\"seconds\":\(seconds)", "\"rate_asked\":\(rate)", "\"rate_written\":\(f3(written))",
                    "\"keystrokes\":\(keys.count)", "\"window_rows\":\(console.windowRows)",
                    "\"feed_cursor\":\(console.feedCursor)", "\"latest_position\":\(console.latest)",
                    "\"rss_before_mib\":\(f3(console.rssBefore))",
                    "\"rss_after_mib\":\(f3(console.rssAfter))", "\"polls\":\(polls)",
                    "\"rss_samples_mib\":[\(console.rssSamples.map { f3($0) }.joined(separator: ","))]",
                ]
            print("{" + members.joined(separator: ",") + "}")
        } else {
            print(
                tr(
                    "cli.bench.monitor.title",
                    ["width": String(width), "height": String(height), "seconds": String(seconds)]))
            print(
                tr(
                    "cli.bench.monitor.events",
                    [
                        "count": String(console.eventsWritten), "perSecond": f3(written), "rate": String(rate),
                        "feedCursor": String(console.feedCursor), "latest": String(console.latest),
                    ]))
            print(
                tr(
                    "cli.bench.monitor.keystrokes",
                    [
                        "keys": String(keys.count), "median": f3(stats[0].1), "p95": f3(stats[1].1),
                        "max": f3(stats[2].1),
                    ]))
            print(tr("cli.bench.monitor.longestStep", ["p99": f3(stats[3].1), "max": f3(stats[4].1)]))
            print(
                tr(
                    "cli.bench.monitor.memory",
                    [
                        "before": f3(console.rssBefore), "after": f3(console.rssAfter),
                        "rows": String(console.windowRows),
                    ]))
            print(
                tr(
                    "cli.bench.monitor.residentSixths",
                    ["samples": console.rssSamples.map { f3($0) }.joined(separator: ", ")]))
            print(tr("cli.bench.monitor.delivery", ["polls": trCount("cli.bench.count.times", polls)]))
            print(
                tr(
                    "cli.bench.monitor.deliveryRemote",
                    ["median": f3(stats[5].1), "p95": f3(stats[6].1), "max": f3(stats[7].1)]))
            print(tr("cli.bench.monitor.deliveryLocal", ["median": f3(stats[8].1), "p95": f3(stats[9].1)]))
        }
        return .success
    }

    /// `tracedesk bench events`: a steady stream of events into a store, nothing else.
    static func events(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let path = arguments.values["store"] ?? ""  // required by the table
        let rate = try arguments.integer("rate", command: command)
        let seconds = try arguments.integer("seconds", command: command)
        do {
            let store = try SQLiteStore(path: path)
            let today = Date().utcDay
            var hashes: [OtpHash] = []
            for i in 0..<EventWriter.codes(rate: rate) {
                let hash = try benchCode(1_000_000 + i)
                _ = try store.authorize(
                    otpHash: hash, symptomsStartedOn: today, by: "bench-op", now: Date(), lifetime: .seconds(86_400))
                hashes.append(hash)
            }
            let writer = EventWriter(store: store, hashes: hashes, rate: rate)
            writer.run(for: seconds)
            if let failure = writer.firstFailure { throw failure }
            print(
                tr(
                    "cli.bench.events.written",
                    ["written": trCount("cli.bench.events.count", writer.written), "seconds": String(seconds)]))
            return .success
        } catch let error as StoreError {
            printError("bench events: \(error.message)")
            return .storeUnavailable
        } catch {
            printError("bench events: \(error)")
            return .refused
        }
    }

    struct BenchFailure: Error {
        let message: String
    }

    struct ConsoleRun {
        var keystrokes: [Double] = []
        var steps: [Double] = []
        var eventsWritten = 0
        var writeSeconds = 1.0
        var feedCursor: Int64 = 0
        var latest: Int64 = 0
        var windowRows = 0
        var rssBefore = 0.0
        var rssAfter = 0.0
        /// Resident size after each sixth of the run: flat once the store's page cache (16 MiB)
        /// has filled means bounded.
        var rssSamples: [Double] = []
    }

    /// The console on the monitor while a thread writes `rate` events a second.
    static func runConsole(
        store: SQLiteStore, desk: LocalDesk, hashes: [OtpHash], seconds: Int, rate: Int, width: Int, height: Int
    ) throws -> ConsoleRun {
        var run = ConsoleRun()
        let backend = TestBackend(width: width, height: height)
        let program = Program(backend: backend, service: desk, userName: "bench-sup")
        backend.events = "bench supervisor pass".map { InputEvent.key(.char($0)) } + [.key(.enter)]
        let signInDeadline = Date().addingTimeInterval(30)
        while program.state.session == nil || program.state.page != .monitor {
            // A supervisor starts on the dashboard (since there is one); F3 is the monitor.
            if program.state.page == .dashboard, backend.events.isEmpty { backend.events.append(.key(.function(3))) }
            program.step(timeoutMilliseconds: 0)
            usleep(2_000)
            guard Date() < signInDeadline else { throw BenchFailure(message: "the console did not sign in") }
        }
        run.rssBefore = residentMiB()

        let events = EventWriter(store: store, hashes: hashes, rate: rate)
        let writer = Thread { events.run(for: seconds + 60) }
        writer.start()
        let started = DispatchTime.now().uptimeNanoseconds
        let end = started + UInt64(seconds) * 1_000_000_000
        var nextKey = started
        var down = true
        let sampleEvery = UInt64(seconds) * 1_000_000_000 / 6
        var nextSample = started + sampleEvery
        while DispatchTime.now().uptimeNanoseconds < end {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= nextSample {
                run.rssSamples.append(residentMiB())
                nextSample += sampleEvery
            }
            if now >= nextKey {
                backend.events.append(.key(down ? .down : .up))
                down.toggle()
                let pressed = DispatchTime.now().uptimeNanoseconds
                program.step(timeoutMilliseconds: 0)
                run.keystrokes.append(Double(DispatchTime.now().uptimeNanoseconds - pressed) / 1e6)
                nextKey = now + 50_000_000
            } else {
                // The loop's own turn: take in what the feed brought, tick, draw.
                let stepStart = DispatchTime.now().uptimeNanoseconds
                program.step(timeoutMilliseconds: 0)
                run.steps.append(Double(DispatchTime.now().uptimeNanoseconds - stepStart) / 1e6)
                usleep(5_000)
            }
        }
        events.stop()
        while writer.isExecuting { usleep(1_000) }
        run.writeSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        run.eventsWritten = events.written
        // Let the feed catch up before counting what it took in.
        let catchUp = Date().addingTimeInterval(10)
        let latest = try store.latestEventID()
        while Date() < catchUp, program.state.feedCursor < latest {
            program.step(timeoutMilliseconds: 0)
            usleep(5_000)
        }
        run.rssAfter = residentMiB()
        run.windowRows = program.state.monitor.rows.count
        run.feedCursor = program.state.feedCursor
        run.latest = latest
        if events.failures > 0 { throw BenchFailure(message: "\(events.failures) event writes failed") }
        return run
    }

    /// How soon a waiting feed gets a new event: remotely (long poll) and locally (store poll).
    static func timeDelivery(
        store: SQLiteStore, desk: LocalDesk, polls: Int
    ) async throws -> (remote: [Double], local: [Double]) {
        let server = try loopbackServer(store)
        defer { server.stop(grace: .seconds(2)) }
        guard let url = URL(string: "http://127.0.0.1:\(server.internalPort)") else {
            throw BenchFailure(message: "no URL for the server")
        }
        let remote = RemoteDesk(url: url)
        let remoteSession = try await remote.signIn(name: "bench-sup", password: "bench supervisor pass")
        let localSession = try await desk.signIn(name: "bench-sup", password: "bench supervisor pass")
        // A code of its own for each timed check: checks of one code make one event every 5 s.
        var codes: [OtpHash] = []
        for n in 0..<(2 * polls) {
            let code = try benchCode(100_000 + n)
            _ = try? store.authorize(
                otpHash: code, symptomsStartedOn: desk.now().utcDay, by: "bench-op", now: Date(),
                lifetime: .seconds(86_400))
            codes.append(code)
        }
        var used = 0

        func time(_ service: any DeskService, _ session: StaffSession, waiting: @escaping @Sendable () -> Bool)
            async throws -> [Double]
        {
            var out: [Double] = []
            for _ in 0..<polls {
                // Every position up to the store's latest is visible to the desk too.
                let after = try store.latestEventID()
                let poll = Task { try await service.events(session, after: after, limit: 10, wait: .seconds(10)) }
                // The poll is waiting (remotely: on the server; locally: give it a moment).
                let deadline = Date().addingTimeInterval(5)
                while !waiting() && Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...60)))
                let written = DispatchTime.now().uptimeNanoseconds
                _ = try store.recordCheck(otpHash: codes[used % codes.count], now: Date())
                used += 1
                let page = try await poll.value
                out.append(Double(DispatchTime.now().uptimeNanoseconds - written) / 1e6)
                if page.events.isEmpty { throw BenchFailure(message: "a wait ended without the new event") }
            }
            return out
        }
        let remoteTimes = try await time(remote, remoteSession, waiting: { server.staffAPI.waitingPolls > 0 })
        let localTimes = try await time(desk, localSession, waiting: { true })
        return (remoteTimes, localTimes)
    }

    /// The `n`th of a fixed series of valid codes (nine characters of the alphabet for `n` in
    /// base 25, then the check character), hashed.
    static func benchCode(_ n: Int) throws -> OtpHash {
        let alphabet = OtpRules.alphabet
        var rest = n
        var prefix = ""
        for _ in 0..<9 {
            prefix.append(alphabet[rest % alphabet.count])
            rest /= alphabet.count
        }
        guard let check = OtpRules.checkCharacter(for: prefix) else {
            throw BenchFailure(message: "no check character for a generated code")
        }
        return try Otp(operatorInput: prefix + String(check)).hash
    }

    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

}

/// App checks of `hashes` (one `otp_checked` event each, with ``codes(rate:)`` of them) at `rate` a second: every 10 ms, the
/// events due by then. Shared by `bench monitor` (on a thread of its own, stopped from outside)
/// and `bench events` (for a fixed time).
private final class EventWriter: @unchecked Sendable {
    let store: SQLiteStore
    let hashes: [OtpHash]
    let rate: Int
    private let lock = SimpleLock()
    private var stopped = false
    private var count = 0
    private var failed = 0
    private var failure: StoreError?

    /// How many codes to check at `rate` a second so that every check is an event: checks of one
    /// code make one event every 5 s (PhoneWork.checkEventInterval), so each code is checked at
    /// most every 6 s.
    static func codes(rate: Int) -> Int { max(100, rate * 6) }

    init(store: SQLiteStore, hashes: [OtpHash], rate: Int) {
        self.store = store
        self.hashes = hashes
        self.rate = rate
    }

    var written: Int { lock.withLock { count } }
    var failures: Int { lock.withLock { failed } }
    var firstFailure: StoreError? { lock.withLock { failure } }
    func stop() { lock.withLock { stopped = true } }

    /// Writes until `stop()`, `seconds` have passed, or a write fails.
    func run(for seconds: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds) * 1_000_000_000
        var n = 0
        while !lock.withLock({ stopped }) && DispatchTime.now().uptimeNanoseconds < end {
            let due = Int(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 * Double(rate))
            while n < due {
                do {
                    _ = try store.recordCheck(otpHash: hashes[n % hashes.count], now: Date())
                } catch {
                    // The first failure ends the run; the caller reports it.
                    lock.withLock {
                        failed += 1
                        if failure == nil { failure = error }
                    }
                    return
                }
                n += 1
            }
            lock.withLock { count = n }
            usleep(10_000)
        }
    }
}
