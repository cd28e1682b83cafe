import DeskContract
import DeskCore
import Foundation
import TerminalKit

/// Results of commands, handed from tasks to the program loop, each with the sign-in
/// generation it belongs to (and, for the feed, the loop that read it).
final class Inbox: @unchecked Sendable {
    private let lock = SimpleLock()
    private var messages: [(Int, Int?, ConsoleApp.Msg)] = []
    private var running = 0

    var pending: Int { lock.withLock { running } }
    /// Answers delivered and not drained yet.
    var queued: Int { lock.withLock { messages.count } }

    func started() { lock.withLock { running += 1 } }

    func deliver(_ batch: [ConsoleApp.Msg], generation: Int) {
        lock.withLock {
            messages += batch.map { (generation, nil, $0) }
            running -= 1
        }
    }

    /// From the feed loop `feed`: not a call, so nothing waits for it.
    func post(_ batch: [ConsoleApp.Msg], generation: Int, feed: Int) {
        lock.withLock {
            messages += batch.map { (generation, feed, $0) }
            feedPosts += batch.count
        }
    }

    /// Messages from the feed loop not drained yet.
    var feedQueued: Int { lock.withLock { feedPosts } }
    private var feedPosts = 0

    func drain() -> [(Int, Int?, ConsoleApp.Msg)] {
        lock.withLock {
            let out = messages
            messages.removeAll()
            feedPosts = 0
            return out
        }
    }
}
