import DeskCore
import DeskText
import Foundation
import TerminalKit

/// When to ask the desk again for a code's ``CodeWatch``: at once when the watch opens, when
/// an event about the code (or a chunk its waiting keys may be in) arrives, and every
/// ``fallbackSeconds`` while the watch is not finished; never two asks at a time.
///
/// Pure bookkeeping, shared by the authorise screen's watch and the monitor's watch pane: the
/// screen calls ``ask(now:finished:held:)`` and sends its watch command when it says so.
public struct WatchRefresh: Hashable, Sendable {
    /// Seconds between asks when nothing else prompts one (a missed event, a publishing run
    /// that the feed has not shown yet).
    public static let fallbackSeconds: Double = 5

    /// An ask is on its way; its answer clears this.
    public var asking = false
    /// Something changed since the last ask: ask again as soon as none is on its way.
    public var wanted = true
    /// When the last ask left.
    public var askedAt: Date?
    /// The desk refused to show the code (not the operator's, unknown): no more asks.
    public var stopped = false

    public init() {}

    /// Whether `events` may change the watch of the code tagged `tag`: one is about the code, or
    /// a chunk was published while its upload still has keys waiting.
    public static func concerns(_ events: [MonitorEvent], tag: String?, watch: CodeWatch?) -> Bool {
        let tag = watch?.codeTag ?? tag
        let waiting = (watch?.upload?.keysWaiting ?? 0) > 0
        return events.contains { event in
            if let tag, event.codeTag == tag { return true }
            return waiting && event.known == .chunkPublished
        }
    }

    /// Starts an ask if one is due at `now` (the caller then sends it). A finished watch is
    /// asked for only when an event wants it; `held` (the console is locked) postpones any ask.
    public mutating func ask(now: Date, finished: Bool, held: Bool) -> Bool {
        guard !stopped, !asking, !held else { return false }
        if !wanted, !finished, let askedAt, now.timeIntervalSince(askedAt) >= Self.fallbackSeconds { wanted = true }
        guard wanted else { return false }
        wanted = false
        asking = true
        askedAt = now
        return true
    }

    /// The answer (or the failure) of the ask on its way came back.
    public mutating func answered() { asking = false }
}

/// The steps of a code's watch as lines of text, each starting with a mark that says its state
/// in a symbol, not only a colour: ✓ done, … waiting, ✗ did not happen, – nothing to do.
///
/// Shared by the authorise screen (the operator's own code, after authorising) and the
/// monitor's watch pane (any code the person may see).
public enum WatchPane {
    public enum Mark: String, Hashable, Sendable {
        case done = "✓"
        case waiting = "…"
        case failed = "✗"
        case none = "–"

        var style: Style {
            switch self {
            case .done: return Style(.ok)
            case .waiting: return Style(.accent)
            case .failed: return Style(.error)
            case .none: return Style(.muted)
            }
        }
    }

    public struct Step: Hashable, Sendable {
        public var mark: Mark
        public var text: String

        public init(_ mark: Mark, _ text: String) {
            self.mark = mark
            self.text = text
        }

        public var line: String { mark.rawValue + " " + text }
    }

    /// Nothing more will happen to the code: its upload's keys are all published (or none was
    /// accepted), or it expired with no upload. Nil (no answer yet) is not finished.
    public static func isFinished(_ watch: CodeWatch?, now: Date) -> Bool {
        guard let watch else { return false }
        if let upload = watch.upload { return upload.keysWaiting == 0 }
        return watch.expiredWithoutUpload(at: now)
    }

    /// authorised → checked by the app → upload received → published, as they stand at `now`.
    public static func steps(_ watch: CodeWatch, now: Date, zone: TimeZone) -> [Step] {
        func clock(_ date: Date) -> String { AuthorizeScreen.clock(date, zone) }
        let expired = watch.expiredWithoutUpload(at: now)
        var steps = [
            Step(
                .done,
                tr(
                    "console.frame.watch.authorised",
                    [
                        "user": watch.authorizedBy, "time": clock(watch.authorizedAt),
                        "day": watch.symptomsStartedOn.iso,
                    ])
            )
        ]
        if watch.checks > 0 {
            let last = watch.lastCheckedAt.map { clock($0) }
            let times =
                watch.checks == 1
                ? last.map { tr("console.frame.watch.onceAt", ["time": $0]) } ?? tr("console.frame.watch.once")
                : last.map { trCount("console.frame.watch.timesLastAt", watch.checks, ["time": $0]) }
                    ?? trCount("console.frame.watch.times", watch.checks)
            steps.append(Step(.done, tr("console.frame.watch.checked", ["times": times])))
        } else {
            steps.append(
                expired
                    ? Step(.failed, tr("console.frame.watch.neverChecked"))
                    : Step(.waiting, tr("console.frame.watch.waitingCheck")))
        }
        if let upload = watch.upload {
            steps.append(Step(.done, uploadText(upload, zone: zone)))
            steps.append(publishing(upload, next: watch.nextPublishingRun, now: now, zone: zone))
        } else if expired {
            steps.append(Step(.failed, tr("console.frame.watch.noUpload", ["time": clock(watch.expiresAt)])))
        } else {
            steps.append(Step(.waiting, tr("console.frame.watch.waitingUpload")))
            steps.append(Step(.none, tr("console.frame.watch.publishingFollows")))
        }
        if watch.refusedUploads > 0 {
            let refused = trCount("console.frame.watch.refused", watch.refusedUploads)
            steps.append(Step(.failed, refused + (watch.lastRefusal.map { " (\($0))" } ?? "")))
        }
        return steps
    }

    /// "upload received at 14:02:40: 12 keys accepted, 2 dropped (too_old: 2), province RM,
    /// phone clock 3 s behind".
    static func uploadText(_ upload: WatchedUpload, zone: TimeZone) -> String {
        var text = tr(
            "console.frame.watch.received",
            [
                "time": AuthorizeScreen.clock(upload.receivedAt, zone),
                "accepted": trCount("console.frame.count.keysAccepted", upload.keysAccepted),
                "dropped": trCount("console.frame.count.dropped", upload.keysDropped),
            ])
        if !upload.droppedReasons.isEmpty { text += " (" + EventDetail.droppedText(upload.droppedReasons) + ")" }
        if let province = upload.province { text += tr("console.frame.watch.province", ["province": province]) }
        return text
            + tr("console.frame.watch.phoneClock", ["offset": EventDetail.clockOffset(skew: upload.clockSkewSeconds)])
    }

    /// Where the upload's keys are: published in chunks, or waiting (for what, until when).
    static func publishing(_ upload: WatchedUpload, next: Date?, now: Date, zone: TimeZone) -> Step {
        func hm(_ date: Date) -> String { clockWithDay(date, now: now, zone: zone) }
        let chunks = chunkText(upload.publishedInChunks)
        if upload.keysWaiting == 0 {
            if let chunks { return Step(.done, tr("console.frame.watch.published", ["chunks": chunks])) }
            return Step(.none, tr("console.frame.watch.nothingToPublish"))
        }
        var parts: [String] = []
        if let chunks {
            parts.append(
                tr(
                    "console.frame.watch.publishedSoFar",
                    ["chunks": chunks, "waiting": trCount("console.frame.count.keysWaiting", upload.keysWaiting)]))
        }
        if let embargo = upload.embargoEndsAt, embargo > now {
            parts.append(tr("console.frame.watch.embargo", ["time": hm(embargo)]))
        }
        if let next {
            if now.timeIntervalSince(next) > 120 {
                parts.append(tr("console.frame.watch.runLate", ["time": hm(next)]))
            } else {
                parts.append(tr("console.frame.watch.nextRun", ["time": hm(next)]))
            }
        } else {
            parts.append(tr("console.frame.watch.noRun"))
        }
        return Step(.waiting, parts.joined(separator: "; "))
    }

    /// "02:00" today, "tomorrow 02:00", else "2026-12-03 02:00" (days in `zone`): a time
    /// without its day would read as today.
    static func clockWithDay(_ date: Date, now: Date, zone: TimeZone) -> String {
        let text = ConsoleText.dateTime(date, zone)
        let today = ConsoleText.dateTime(now, zone).prefix(10)
        let tomorrow = ConsoleText.dateTime(now.addingTimeInterval(86_400), zone).prefix(10)
        if text.prefix(10) == today { return String(text.suffix(5)) }
        if text.prefix(10) == tomorrow { return tr("console.frame.watch.tomorrow", ["time": String(text.suffix(5))]) }
        return text
    }

    /// "chunk 42", "chunks 42–44" (consecutive), "chunks 42, 45"; nil for none.
    static func chunkText(_ chunks: [Int64]) -> String? {
        guard let first = chunks.first, let last = chunks.last else { return nil }
        if chunks.count == 1 { return tr("console.frame.watch.chunk", ["chunk": String(first)]) }
        if last - first == Int64(chunks.count - 1) {
            return tr("console.frame.watch.chunkRange", ["first": String(first), "last": String(last)])
        }
        return tr("console.frame.watch.chunkList", ["chunks": chunks.map(String.init).joined(separator: ", ")])
    }

    /// Draws `lines` word-wrapped from the top of `area`, continuation rows indented under the
    /// text after the mark; stops at the bottom. Returns the rows used.
    @discardableResult
    static func draw(_ lines: [(String, Style)], into buffer: inout Buffer, area: Rect, indent: Int = 2) -> Int {
        var y = area.y
        for (text, style) in lines {
            for row in TextWrap.wrap(text, width: max(1, area.width), continuationIndent: indent) {
                guard y < area.maxY else { return y - area.y }
                buffer.put(row, x: area.x, y: y, style: style, clip: area)
                y += 1
            }
        }
        return y - area.y
    }
}
