import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import Foundation

/// The long polls of `GET /staff/v1/events?wait=…`: requests that found no new event wait here,
/// their connections suspended, until one arrives or their wait ends.
///
/// One loop serves every waiter: a few times a second it asks the store for its latest event
/// position (one indexed read, whatever the number of consoles), and only when that moved does
/// it read a page for each waiter whose cursor it passed. A waiter holds no thread and no place
/// on the staff executor; a stop answers every waiter at once with what it has (an empty page
/// and its cursor), so a stopping server never waits for a long poll and no console loses its
/// place.
///
/// Threading rule: `add` and `stop` are called from any thread; the loop runs on the staff
/// executor (its store reads block).
final class EventWaits: @unchecked Sendable {
    typealias Answer = @Sendable (HTTPResponse) -> Void

    struct Waiter {
        let session: StaffSession
        var after: Int64
        let limit: Int
        let deadline: ContinuousClock.Instant
        let answer: Answer
    }

    let desk: LocalDesk
    let executor: DeskExecutor
    /// At most this many long polls wait at once; more are answered at once (empty page).
    let capacity: Int
    let interval: Duration
    let failure: @Sendable (ServiceError) -> HTTPResponse

    private let lock = SimpleLock()
    private var waiters: [Int: Waiter] = [:]
    private var nextKey = 0
    private var running = false
    private var stopped = false

    init(
        desk: LocalDesk, executor: DeskExecutor, capacity: Int = 512, interval: Duration = .milliseconds(100),
        failure: @escaping @Sendable (ServiceError) -> HTTPResponse
    ) {
        self.desk = desk
        self.executor = executor
        self.capacity = capacity
        self.interval = interval
        self.failure = failure
    }

    /// Waits for events after `after` until `wait` has passed. False (nothing kept) when the
    /// server is stopping or `capacity` polls wait already: the caller answers at once.
    func add(session: StaffSession, after: Int64, limit: Int, wait: Duration, answer: @escaping Answer) -> Bool {
        let start = lock.withLock { () -> Bool? in
            guard !stopped, waiters.count < capacity else { return nil }
            waiters[nextKey] = Waiter(
                session: session, after: after, limit: limit, deadline: .now + wait, answer: answer)
            nextKey += 1
            if running { return false }
            running = true
            return true
        }
        guard let start else { return false }
        if start { Task(executorPreference: executor) { await self.loop() } }
        return true
    }

    /// Answers every waiter now with an empty page at its cursor; later `add`s are refused.
    func stop() {
        let all = lock.withLock { () -> [Waiter] in
            stopped = true
            let all = Array(waiters.values)
            waiters.removeAll()
            return all
        }
        for waiter in all { waiter.answer(Self.page(EventPage(events: [], cursor: waiter.after))) }
    }

    /// Waiters waiting now (tests, metrics).
    var count: Int { lock.withLock { waiters.count } }

    static func page(_ page: EventPage) -> HTTPResponse { ok(200, StaffWire.eventPage(page)) }

    private func loop() async {
        while true {
            try? await Task.sleep(for: interval)
            let now = ContinuousClock.now
            let current = lock.withLock { () -> [Int: Waiter]? in
                if waiters.isEmpty || stopped {
                    running = false
                    return nil
                }
                return waiters
            }
            guard let current else { return }
            // Ends first: a wait that is over is answered with its (possibly advanced) cursor.
            for (key, waiter) in current where waiter.deadline <= now {
                if take(key) != nil { waiter.answer(Self.page(EventPage(events: [], cursor: waiter.after))) }
            }
            let latest: Int64
            do {
                latest = try await desk.latestEventPosition()
            } catch {
                // The store is away: the waits go on (their ends still answer them); the next
                // turn tries again.
                continue
            }
            // Only waiters whose cursor the latest position passed are read for. (No "nothing
            // changed since the last turn" shortcut: a waiter added after an event arrived, but
            // before that turn, would sleep through it.) A waiter that may not see what arrived
            // gets its cursor moved past it, so it is not read for again.
            for (key, waiter) in current where waiter.deadline > now && waiter.after < latest {
                do throws(ServiceError) {
                    let page = try await desk.events(
                        waiter.session, after: waiter.after, limit: waiter.limit, wait: .zero)
                    if page.events.isEmpty {
                        // Nothing this person may see: keep waiting, past what was examined.
                        lock.withLock { waiters[key]?.after = max(waiter.after, page.cursor) }
                    } else if take(key) != nil {
                        waiter.answer(Self.page(page))
                    }
                } catch {
                    if take(key) != nil { waiter.answer(failure(error)) }
                }
            }
        }
    }

    /// Removes a waiter; nil when someone (a stop, an end) answered it already.
    private func take(_ key: Int) -> Waiter? {
        lock.withLock { waiters.removeValue(forKey: key) }
    }
}
