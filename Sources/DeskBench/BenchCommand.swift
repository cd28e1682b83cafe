import CivilCalendar
import DeskCLI
import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import Foundation
import TerminalKit
import TerminalNcurses

/// `tracedesk bench render`: the cost of drawing the console, without a terminal.
///
/// Renders the authorise screen (code typed, day chosen, authorised with a countdown) into a
/// fresh W×H buffer and diffs it, frame after frame, in two ways measured in the same run:
/// against a blank screen (a full repaint, as after a resize) and against the previous frame
/// with only the countdown changed (the usual case). Prints median and p90 per frame.
package enum BenchCommand {
    static let help = """
        Usage: tracedesk bench render [--width 200] [--height 60] [--frames 2000] [--json]
               Measures render + diff per frame of the authorise screen (build with -c release).
               tracedesk bench seed --store PATH --count N --tokens FILE
               Authorises N random codes (1 h lifetime) in the store and writes their bearer
               tokens, one per line, for the upload load test (Benchmarks/http.sh).
               tracedesk bench keys --store PATH --count N
               Stores N random keys (uploads of 14 daily keys, all past their embargo) for the
               publishing job to take.
               tracedesk bench publish [--keys 100000] [--json]
               Seeds a fresh store with that many keys, then times one publishing run (signed,
               zipped chunks of 10 000 keys) against building the same chunks without a store.
               tracedesk bench staff [--hashes 20] [--authorizations 200] [--sign-ins 10] [--json]
               Times the sign-in KDF, and authorisations through the staff API on loopback
               against the same calls in-process.
               tracedesk bench apricot [--registrations 200] [--uploads 20] [--records 28800] [--store PATH|URL] [--json]
               Times APRICOT sign-ins (1 000 pseudo-ids each) and full-day contact files
               through the phone API on loopback.
               tracedesk bench monitor [--seconds 10] [--rate 1000] [--polls 50] [--width 120] [--height 40] [--json]
               The monitor's keystroke-to-screen time and memory while --rate events a second
               are written, and how soon a long poll delivers a new event.
               tracedesk bench events --store PATH [--rate 1000] [--seconds 60]
               Writes that many events a second into the store (load for the monitor).
               tracedesk bench trace [--store PATH|postgres URL] [--users 10000] [--days 30] [--records 28800] [--runs 5] [--json]
               Registers users of 1 000 pseudo-ids and one patient's contact files, then times
               the contact-trace lookup in LocalDesk, a registration, and the size per user.
               tracedesk bench stats [--store PATH] [--postgres URL] [--uploads 100000] [--events 1000000] [--days 14] [--runs 20] [--json]
               Seeds a fortnight of uploads, events, analytics, chunks and lookups, then times the
               supervisor's statistics: the first call (rolling up) and warm 14 d, 24 h and 1 h calls.
               tracedesk bench followup [--postgres URL] [--follow-ups 100000] [--cases 10000] [--contacts 1500] [--pages 20] [--runs 3] [--json]
               Seeds open cases and follow-ups, then times a tracer's next queue page and opening a
               case with that many close contacts, in LocalDesk, on SQLite (and PostgreSQL).
               tracedesk bench indicators [--store PATH] [--postgres URL] [--cases 10000] [--follow-ups 100000] [--days 14] [--runs 20] [--json]
               Seeds cases and their follow-ups, then times the tracing indicators over 14 days.
               tracedesk bench write-raw --store NEW_PATH [--op authorization|upload] [--threads 1] [--shared] [--seconds 5] [--count 100000] [--check-only]
               The store's limit: the transactions of an authorisation or a 14-key upload run
               straight through SQLite's C API (the store's own statements, checked against a
               trace of the store first), on a fresh file, each thread with its own connection
               (--shared: one connection behind a mutex), until the time or the count is used.
        """

    package static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        if words.first == "staff" { return try await staff(Array(words.dropFirst())) }
        if words.first == "apricot" { return try await apricot(Array(words.dropFirst())) }
        if words.first == "monitor" { return try await monitor(Array(words.dropFirst())) }
        if words.first == "events" { return try events(Array(words.dropFirst())) }
        if words.first == "seed" { return try seed(Array(words.dropFirst())) }
        if words.first == "keys" { return try seedKeys(Array(words.dropFirst())) }
        if words.first == "publish" { return try publish(Array(words.dropFirst())) }
        if words.first == "trace" { return try await trace(Array(words.dropFirst())) }
        if words.first == "stats" { return try stats(Array(words.dropFirst())) }
        if words.first == "followup" { return try await followUp(Array(words.dropFirst())) }
        if words.first == "indicators" { return try indicators(Array(words.dropFirst())) }
        if words.first == "write-raw" { return try writeRaw(Array(words.dropFirst())) }
        guard words.first == "render" else {
            if words.first == "--help" || words.first == "-h" {
                print(help)
                return .success
            }
            throw UsageError(
                "unknown benchmark: use 'tracedesk bench render', 'seed', 'keys', 'publish', 'staff', 'apricot', 'monitor', 'events', 'trace', 'stats', 'followup', 'indicators' or 'write-raw'",
                command: "bench")
        }
        let arguments = try Arguments(
            Array(words.dropFirst()), valueOptions: ["width", "height", "frames"], flagOptions: ["json"],
            command: "bench render")
        if arguments.has("help") {
            print(help)
            return .success
        }
        func number(_ name: String, _ fallback: Int) throws(UsageError) -> Int {
            try arguments.integer(name, default: fallback, in: 1...100_000, command: "bench render")
        }
        let width = try number("width", 200)
        let height = try number("height", 60)
        let frames = try number("frames", 2000)

        let now = Date(timeIntervalSince1970: 1_796_000_000)
        var state = ConsoleApp.State(
            size: TerminalSize(width: width, height: height), location: "/tmp/bench.sqlite", now: now,
            timeZone: TimeZone(identifier: "UTC") ?? .current)
        // The operator's screen, as after a sign-in (the session is never sent anywhere).
        _ = ConsoleApp.update(
            &state,
            .signedIn(
                StaffSession(
                    token: "bench", user: "bench", role: .operator, signedInAt: now,
                    expiresAt: now.addingTimeInterval(43_200), idleSeconds: 600)))
        for character in "9K2RAY8UUQ" { _ = ConsoleApp.update(&state, .keyPressed(.char(character))) }
        _ = ConsoleApp.update(&state, .keyPressed(.char("y")))
        let record = OtpAuthorization(
            otpHash: OtpHash(hex: String(repeating: "a", count: 64))!,
            symptomsStartedOn: state.authorize.now.utcDay.adding(days: -1),
            authorizedAt: state.authorize.now, expiresAt: state.authorize.now.addingTimeInterval(150),
            authorizedBy: "bench")
        _ = ConsoleApp.update(&state, .authorize(.authorizeFinished(.authorized(record))))

        let blank = Buffer(width: width, height: height)
        var full: [Double] = []
        var incremental: [Double] = []
        var previous = blank
        var cellsFull = 0
        var cellsIncremental = 0
        for frame in 0..<frames {
            _ = ConsoleApp.update(
                &state, .authorize(.ticked(record.authorizedAt.addingTimeInterval(Double(frame % 150)))))
            var start = DispatchTime.now().uptimeNanoseconds
            var buffer = Buffer(width: width, height: height)
            ConsoleApp.render(state, into: &buffer)
            cellsFull = buffer.diff(from: blank).count
            full.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)

            start = DispatchTime.now().uptimeNanoseconds
            var next = Buffer(width: width, height: height)
            ConsoleApp.render(state, into: &next)
            cellsIncremental = next.diff(from: previous).count
            incremental.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            previous = next
        }
        // Through the real ncurses backend (headless, output to /dev/null), against the plainest
        // ncurses repaint, alternating two frames so there is always something to send.
        var pipeline: [Double] = []
        var alternate = state
        _ = ConsoleApp.update(&alternate, .keyPressed(.char("?")))
        NcursesBaseline.withHeadlessBackend(width: width, height: height) { backend in
            var shown = Buffer(width: width, height: height)
            for frame in 0..<frames {
                let start = DispatchTime.now().uptimeNanoseconds
                var next = Buffer(width: width, height: height)
                ConsoleApp.render(frame % 2 == 0 ? state : alternate, into: &next)
                backend.draw(next.diff(from: shown), cursor: nil)
                shown = next
                pipeline.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        }
        let raw = NcursesBaseline.rawRepaint(width: width, height: height, frames: frames)
        let fullMedian = percentile(full, 0.5)
        let incrementalMedian = percentile(incremental, 0.5)
        if arguments.has("json") {
            print(
                #"{"width":\#(width),"height":\#(height),"frames":\#(frames),"full_median_ms":\#(format(fullMedian)),"full_p90_ms":\#(format(percentile(full, 0.9))),"incremental_median_ms":\#(format(incrementalMedian)),"incremental_p90_ms":\#(format(percentile(incremental, 0.9))),"ncurses_pipeline_median_ms":\#(format(percentile(pipeline, 0.5))),"ncurses_raw_median_ms":\#(format(percentile(raw, 0.5)))}"#
            )
        } else {
            print("render + diff, \(width)×\(height), \(frames) frames")
            print(
                "  full repaint (vs blank):     median \(format(fullMedian)) ms, p90 \(format(percentile(full, 0.9))) ms, \(cellsFull) cells"
            )
            print(
                "  countdown tick (vs previous): median \(format(incrementalMedian)) ms, p90 \(format(percentile(incremental, 0.9))) ms, \(cellsIncremental) cells"
            )
            print("  budget 2 ms: full repaint uses \(format(fullMedian / 2 * 100))% of it")
            print(
                "  through ncurses, screen ↔ help overlay each frame: median \(format(percentile(pipeline, 0.5))) ms, p90 \(format(percentile(pipeline, 0.9))) ms"
            )
            print(
                "  baseline, raw ncurses repaint (mvaddwstr per row): median \(format(percentile(raw, 0.5))) ms, p90 \(format(percentile(raw, 0.9))) ms"
            )
            print("  ratio pipeline / raw: \(format(percentile(pipeline, 0.5) / max(0.000_001, percentile(raw, 0.5))))")
        }
        return .success
    }

    private static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }

    private static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

extension BenchCommand {
    /// Authorises `--count` random valid codes directly in the store and writes their tokens.
    /// Benchmark data only: the tokens file is what the load generator sends as bearer tokens.
    static func seed(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: ["store", "count", "tokens"], flagOptions: [], command: "bench seed")
        guard let storePath = arguments.values["store"], let tokens = arguments.values["tokens"],
            let countText = arguments.values["count"], let count = Int(countText), (1...5_000_000).contains(count)
        else {
            throw UsageError("give --store PATH, --tokens FILE and --count 1…5000000", command: "bench seed")
        }
        let store: any Store
        do {
            store = try StoreLocation.open(storePath)
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
        var lines = ""
        lines.reserveCapacity(count * 65)
        let alphabet = OtpRules.alphabet
        // Symptoms 14 days back: every key of a 14-day upload is inside the infectious window and stored.
        let day = Date().utcDay.adding(days: -14)
        do {
            for _ in 0..<count {
                var prefix = ""
                for _ in 0..<9 { prefix.append(alphabet[Int.random(in: 0..<alphabet.count)]) }
                let code = try Otp(validating: prefix + String(OtpRules.checkCharacter(for: prefix)!))
                _ = try store.authorize(
                    otpHash: code.hash, symptomsStartedOn: day, by: "bench", now: Date(), lifetime: .seconds(3600))
                lines += code.hash.hex + "\n"
            }
        } catch let error as StoreError {
            printError(error.message)
            return .storeUnavailable
        } catch {
            printError("\(error)")
            return .refused
        }
        guard FileManager.default.createFile(atPath: tokens, contents: Data(lines.utf8)) else {
            printError("cannot write \(tokens)")
            return .refused
        }
        print("seeded \(count) codes into \(storePath); tokens in \(tokens)")
        return .success
    }

    static func seedKeys(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["store", "count"], flagOptions: [], command: "bench keys")
        guard let storePath = arguments.values["store"], let countText = arguments.values["count"],
            let count = Int(countText), (1...5_000_000).contains(count)
        else {
            throw UsageError("give --store PATH and --count 1…5000000", command: "bench keys")
        }
        do {
            let store = try StoreLocation.open(storePath)
            try storeKeys(count, in: store, now: Date())
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
        print("stored \(count) keys ready for publishing in \(storePath)")
        return .success
    }

    /// Uploads of 14 random daily keys (the last 14 days before today), under fresh codes.
    static func storeKeys(_ count: Int, in store: any Store, now: Date) throws(StoreError) {
        let nowSeconds = Int64(now.timeIntervalSince1970)
        let today = nowSeconds / 86_400 * 144
        // Every key past its 2 h embargo at any hour: in the first hours after midnight UTC,
        // yesterday's key ends 3 h before now instead of at midnight.
        let lastEnd = min(today, (nowSeconds - 3 * 3_600) / 600)
        var generator = SystemRandomNumberGenerator()
        var left = count
        var code = 0
        while left > 0 {
            let n = min(14, left)
            code += 1
            let hash = OtpHash(hex: SHA256.hex("bench-\(code)-\(UInt64.random(in: 0...UInt64.max))"))!
            _ = try store.authorize(
                otpHash: hash, symptomsStartedOn: now.utcDay.adding(days: -14), by: "bench", now: now,
                lifetime: .seconds(3600))
            let keys = (1...n).map { day in
                let start = today - Int64(day) * 144
                return AcceptedKey(
                    key: TemporaryExposureKey(
                        keyData: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) },
                        rollingStartNumber: start, rollingPeriod: max(1, min(144, lastEnd - start))),
                    transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 14 - day)
            }
            _ = try store.consumeForUpload(otpHash: hash, now: now) { authorization in
                UploadRecord(
                    otpHash: hash, receivedAt: now, symptomsStartedOn: authorization.symptomsStartedOn, province: nil,
                    clientClock: Int64(now.timeIntervalSince1970),
                    evaluation: UploadEvaluation(
                        accepted: keys, dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                    summariesJSON: "[]", summaryCount: 0)
            }
            left -= n
        }
    }

    static func publish(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["keys"], flagOptions: ["json"], command: "bench publish")
        if arguments.has("help") {
            print(help)
            return .success
        }
        let count = Int(arguments.values["keys"] ?? "100000") ?? 0
        guard (1...5_000_000).contains(count) else {
            throw UsageError("--keys must be a whole number from 1 to 5000000", command: "bench publish")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-bench-publish-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let signing = ChunkSigning(key: ECPrivateKey.generate())
        let policy = PublishingPolicy()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try SQLiteStore(path: directory.appendingPathComponent("bench.sqlite").path)
            let now = Date()
            try storeKeys(count, in: store, now: now)

            // The same number of chunks of the same sizes, built (encoded, signed, zipped) in memory.
            var generator = SystemRandomNumberGenerator()
            let clock = ContinuousClock()
            var drafts: [ChunkDraft] = []
            var left = count
            var index: Int64 = 0
            while left > 0 {
                let n = min(policy.maxKeysPerChunk, left)
                index += 1
                let keys = (0..<n).map { i in
                    PublishableKey(
                        keyData: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) },
                        rollingStartNumber: Int64(now.timeIntervalSince1970) / 86_400 * 144 - Int64(i % 14 + 1) * 144,
                        rollingPeriod: 144, transmissionRiskLevel: 8, reportType: .confirmedTest,
                        daysSinceOnsetOfSymptoms: 13 - i % 14)
                }
                drafts.append(ChunkDraft(index: index, windowStart: 1, windowEnd: 2, keys: keys, uploadIDs: []))
                left -= n
            }
            let buildStart = clock.now
            for draft in drafts { _ = try ChunkPublisher.build(draft, signing: signing, policy: policy) }
            let buildOnly = clock.now - buildStart

            let publishStart = clock.now
            let run = try ChunkPublisher(store: store, signing: signing, policy: policy).run()
            let publishing = clock.now - publishStart
            let published = run.published.reduce(0) { $0 + $1.keyCount }
            let bytes = run.published.reduce(0) { $0 + $1.zipBytes }
            let seconds = Double(publishing.components.seconds) + Double(publishing.components.attoseconds) / 1e18
            let buildSeconds = Double(buildOnly.components.seconds) + Double(buildOnly.components.attoseconds) / 1e18
            if arguments.has("json") {
                print(
                    #"{"keys":\#(published),"chunks":\#(run.published.count),"zip_bytes":\#(bytes),"publish_s":\#(seconds),"build_only_s":\#(buildSeconds),"ratio":\#(seconds / buildSeconds)}"#
                )
            } else {
                print("published \(published) keys in \(run.published.count) chunks (\(bytes) bytes of zip)")
                print("  publishing run (store + build): \(String(format: "%.3f", seconds)) s")
                print("  building the same chunks alone: \(String(format: "%.3f", buildSeconds)) s")
                print("  ratio: \(String(format: "%.2f", seconds / buildSeconds))")
            }
            return published == count ? .success : .refused
        } catch let error as StoreError {
            printError(error.message)
            return .storeUnavailable
        } catch let error as ServiceError {
            printError(error.message)
            return .storeUnavailable
        } catch {
            printError("\(error)")
            return .refused
        }
    }
}
