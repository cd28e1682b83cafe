import CivilCalendar
import DeskCLI
import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskText
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
    /// The benchmarks in the table of commands (DeskCLI's CommandTable): their options, defaults,
    /// ranges, usage lines and help come from there.
    static var spec: CLICommand { CommandTable.command("bench") }

    package static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        guard let name = words.first, !["--help", "-h", "help"].contains(name) else {
            print(HelpText.command(spec))
            return .success
        }
        guard let verb = spec.verb(name), !name.isEmpty else {
            throw UsageError(
                tr(
                    "cli.bench.usage.unknown",
                    [
                        "name": terminalSafe(String(name.prefix(24))),
                        "benchmarks": CommandTable.list(spec.verbs.map { "'\($0.name)'" }),
                    ]), command: "bench")
        }
        let command = "bench \(name)"
        let arguments = try Arguments(Array(words.dropFirst()), spec, verb: name, command: command)
        if arguments.has("help") {
            print(HelpText.verb(spec, verb))
            return .success
        }
        switch name {
        case "render": return try render(arguments, command: command)
        case "seed": return try seed(arguments, command: command)
        case "keys": return try seedKeys(arguments, command: command)
        case "publish": return try publish(arguments, command: command)
        case "staff": return try await staff(arguments, command: command)
        case "apricot": return try await apricot(arguments, command: command)
        case "monitor": return try await monitor(arguments, command: command)
        case "events": return try events(arguments, command: command)
        case "trace": return try await trace(arguments, command: command)
        case "stats": return try stats(arguments, command: command)
        case "followup": return try await followUp(arguments, command: command)
        case "indicators": return try indicators(arguments, command: command)
        case "write-raw": return try writeRaw(arguments, command: command)
        default: preconditionFailure("benchmark '\(name)' is in the table but not here")
        }
    }

    /// `tracedesk bench render`.
    static func render(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let width = try arguments.integer("width", command: command)
        let height = try arguments.integer("height", command: command)
        let frames = try arguments.integer("frames", command: command)

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
            print(
                tr(
                    "cli.bench.render.title",
                    [
                        "width": String(width), "height": String(height),
                        "frames": trCount("cli.bench.count.frames", frames),
                    ]))
            print(
                tr(
                    "cli.bench.render.full",
                    [
                        "median": format(fullMedian), "p90": format(percentile(full, 0.9)),
                        "cells": trCount("cli.bench.count.cells", cellsFull),
                    ]))
            print(
                tr(
                    "cli.bench.render.tick",
                    [
                        "median": format(incrementalMedian), "p90": format(percentile(incremental, 0.9)),
                        "cells": trCount("cli.bench.count.cells", cellsIncremental),
                    ]))
            print(tr("cli.bench.render.budget", ["percent": format(fullMedian / 2 * 100)]))
            print(
                tr(
                    "cli.bench.render.ncurses",
                    ["median": format(percentile(pipeline, 0.5)), "p90": format(percentile(pipeline, 0.9))]))
            print(
                tr(
                    "cli.bench.render.raw",
                    ["median": format(percentile(raw, 0.5)), "p90": format(percentile(raw, 0.9))]))
            print(
                tr(
                    "cli.bench.render.ratio",
                    ["ratio": format(percentile(pipeline, 0.5) / max(0.000_001, percentile(raw, 0.5)))]))
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
    static func seed(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        // The table requires --store, --tokens and --count, and checks the count's range.
        let storePath = arguments.values["store"] ?? ""
        let tokens = arguments.values["tokens"] ?? ""
        let count = try arguments.integer("count", command: command)
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
            printError(tr("cli.bench.seed.cannotWrite", ["file": tokens]))
            return .refused
        }
        print(
            tr(
                "cli.bench.seed.done",
                ["count": trCount("cli.bench.seed.codes", count), "store": storePath, "tokens": tokens]))
        return .success
    }

    static func seedKeys(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let storePath = arguments.values["store"] ?? ""
        let count = try arguments.integer("count", command: command)
        do {
            let store = try StoreLocation.open(storePath)
            try storeKeys(count, in: store, now: Date())
        } catch {
            printError(error.message)
            return .storeUnavailable
        }
        print(tr("cli.bench.keys.done", ["count": trCount("cli.bench.keys.stored", count), "store": storePath]))
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

    static func publish(_ arguments: Arguments, command: String) throws(UsageError) -> ExitStatus {
        let count = try arguments.integer("keys", command: command)
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
                print(
                    tr(
                        "cli.bench.publish.published",
                        [
                            "keys": trCount("cli.bench.publish.keys", published),
                            "chunks": trCount("cli.bench.count.chunks", run.published.count), "bytes": String(bytes),
                        ]))
                print(tr("cli.bench.publish.run", ["seconds": String(format: "%.3f", seconds)]))
                print(tr("cli.bench.publish.build", ["seconds": String(format: "%.3f", buildSeconds)]))
                print(tr("cli.bench.publish.ratio", ["ratio": String(format: "%.2f", seconds / buildSeconds)]))
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
