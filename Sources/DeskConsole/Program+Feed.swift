import DeskContract
import DeskCore
import Foundation
import TerminalKit

// The activity feed: one long-running task reading pages of events (see ``Program``).
extension Program {
    /// Pause before the n-th consecutive retry: 0.5 s, 1 s, 2 s, 4 s, then 5 s.
    public static func feedBackoff(failures: Int) -> Duration {
        let milliseconds = 500 * (1 << min(max(0, failures - 1), 4))
        return .milliseconds(min(5_000, milliseconds))
    }

    /// Starts the feed loop from `cursor` with the current session, ending any other.
    func startFeed(after cursor: Int64?) {
        stopFeed()
        guard let session = state.session else { return }
        let service = self.service
        let inbox = self.inbox
        let generation = state.generation
        let epoch = feedEpoch
        feedTask = Task.detached {
            await Program.readFeed(
                service: service, session: session, from: cursor, inbox: inbox, generation: generation, epoch: epoch)
        }
    }

    /// The feed loop's body: read, post, and on failure wait and read again from the same cursor.
    static func readFeed(
        service: any DeskService, session: StaffSession, from start: Int64?, inbox: Inbox, generation: Int, epoch: Int
    ) async {
        var cursor = start
        var failures = 0
        while !Task.isCancelled {
            // One page at a time: the next is read once the screen has taken the last, so a
            // slow screen slows the reading instead of piling pages up in memory.
            while inbox.feedQueued > 0 && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            let result: Result<EventPage, ServiceError>
            do throws(ServiceError) {
                if let after = cursor {
                    result = .success(
                        try await service.events(
                            session, after: after, limit: ConsoleApp.feedPageSize, wait: .seconds(10)))
                } else {
                    // The first read: the newest page, and the latest position to follow from.
                    result = .success(try await service.newestEvents(session, limit: ConsoleApp.feedPageSize))
                }
            } catch {
                result = .failure(error)
            }
            if Task.isCancelled { return }
            switch result {
            case .success(let page):
                let previous = cursor
                // The cursor never goes back, whatever a desk answers: no repeats.
                cursor = max(cursor ?? page.cursor, page.cursor)
                if !page.events.isEmpty || cursor != previous || failures > 0 {
                    inbox.post([.feed(page)], generation: generation, feed: epoch)
                }
                failures = 0
                // An empty answer came after the desk's wait; a short pause keeps a desk that
                // answers at once from being asked in a tight loop.
                if page.events.isEmpty { try? await Task.sleep(for: .milliseconds(250)) }
            case .failure(.notSignedIn(let text)):
                inbox.post([.sessionEnded(text)], generation: generation, feed: epoch)
                return
            case .failure(let error):
                failures += 1
                inbox.post([.feedFailed(error.message)], generation: generation, feed: epoch)
                try? await Task.sleep(for: feedBackoff(failures: failures))
            }
        }
    }

    /// Ends the feed loop; what it still posts is dropped.
    func stopFeed() {
        feedTask?.cancel()
        feedTask = nil
        feedEpoch += 1
    }
}
