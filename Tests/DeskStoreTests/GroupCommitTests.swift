import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// SQLite's group commit (issue 23): writes that wait together commit together, and one
/// body's failure never fails another's.
@Suite struct GroupCommitTests {
    /// Runs `body(i)` for every `i` in `0..<count` on threads of their own; returns when all end.
    func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// An event row written by a test body: kind `test`, detail the body's number.
    func insertEvent(_ db: SQLiteConnection, _ number: Int) throws(StoreError) {
        try db.run(
            SQL.insertEvent, [.integer(1), .text("test"), .null, .null, .text("\(number)")], operation: "test")
    }

    @Test("bodies queued behind the writer commit in one transaction; the one that fails is rolled back alone")
    func failureStaysInItsSavepoint() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: Fixture.storePath(in: directory))
            let outcomes = Outcomes()
            let bodies = 6
            let failing = 3
            let before = store.group.counts
            func submit(_ number: Int) {
                Thread {
                    let result = Result { () throws(StoreError) -> Int in
                        try store.groupWrite("test") { db throws(StoreError) -> Int in
                            try insertEvent(db, number)
                            if number == failing {
                                throw StoreError.failed(operation: "test", reason: "body \(number) fails")
                            }
                            return number
                        }
                    }
                    outcomes.add(number, result)
                }.start()
            }
            // While another thread holds the connection, body 0's caller becomes the writer and
            // waits for it; the others queue behind it, and the next writer takes them as one batch.
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            Thread {
                store.lock.withLock {
                    held.signal()
                    release.wait()
                }
            }.start()
            #expect(held.wait(timeout: .now() + 30) == .success)
            submit(0)
            try eventuallyBlocking(within: .seconds(30), "body 0's caller becomes the writer") {
                store.group.isWriting && store.group.queued == 0
            }
            for number in 1..<bodies { submit(number) }
            try eventuallyBlocking(within: .seconds(30), "\(bodies - 1) bodies queue behind the writer") {
                store.group.queued == bodies - 1
            }
            release.signal()
            try eventuallyBlocking(within: .seconds(30), "every body is answered") { outcomes.count == bodies }

            // Then every body but the failing one committed, and the failing one got its own error.
            for number in 0..<bodies where number != failing {
                #expect(try outcomes.result(number).get() == number)
            }
            #expect(throws: StoreError.failed(operation: "test", reason: "body \(failing) fails")) {
                try outcomes.result(failing).get()
            }
            let details = try store.connection.query(
                "SELECT detail FROM events WHERE kind = 'test' ORDER BY id", operation: "test"
            ) { $0.text(0) }
            #expect(Set(details) == Set((0..<bodies).filter { $0 != failing }.map(String.init)))
            // Two transactions: the first writer's alone, then the five behind it together.
            let after = store.group.counts
            #expect(after.batches - before.batches == 2)
            #expect(after.bodies - before.bodies == bodies)
        }
    }

    @Test("concurrent authorisations of the same codes: one authorises each, the rest see it; the audit chain holds")
    func concurrentAuthorisations() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: Fixture.storePath(in: directory))
            let codes = 40
            let outcomes = Outcomes()
            // 8 threads, each authorising every code once, in its own order.
            onThreads(8) { thread in
                for step in 0..<codes {
                    let code = (step * 7 + thread * 5) % codes
                    let result = Result { () throws(StoreError) -> Int in
                        switch try store.authorize(
                            otpHash: Fixture.hash(code), symptomsStartedOn: Fixture.onset, by: "rossi",
                            now: Fixture.now,
                            lifetime: Fixture.lifetime)
                        {
                        case .authorized: return code
                        case .alreadyAuthorized: return -1
                        }
                    }
                    outcomes.add(thread * codes + step, result)
                }
            }
            let authorized = try (0..<(8 * codes)).map { try outcomes.result($0).get() }.filter { $0 >= 0 }
            #expect(authorized.sorted() == Array(0..<codes))
            let chain = try store.connection.query(
                "SELECT id, previous_hash, hash FROM audit_log ORDER BY id", operation: "test"
            ) { (id: $0.integer(0), previous: $0.text(1), hash: $0.text(2)) }
            #expect(chain.count == codes)
            for (earlier, later) in zip(chain, chain.dropFirst()) {
                #expect(later.id == earlier.id + 1)
                #expect(later.previous == earlier.hash)
            }
            #expect(
                try store.connection.query(
                    "SELECT count(*) FROM events WHERE kind = 'otp_authorized'", operation: "test"
                ) { $0.integer(0) }.first == Int64(codes))
        }
    }
}

/// Results by number, from many threads.
final class Outcomes: @unchecked Sendable {
    private let lock = SimpleLock()
    private var results: [Int: Result<Int, StoreError>] = [:]

    func add(_ number: Int, _ result: Result<Int, StoreError>) { lock.withLock { results[number] = result } }
    var count: Int { lock.withLock { results.count } }
    func result(_ number: Int) -> Result<Int, StoreError> {
        lock.withLock { results[number] } ?? .failure(.failed(operation: "test", reason: "no result"))
    }
}
