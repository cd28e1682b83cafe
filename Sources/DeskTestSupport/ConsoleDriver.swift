import DeskConsole
import DeskContract
import Foundation
import TerminalKit
import Testing

/// The whole program on a `TestBackend` over any desk, driven as a person would: keys in, the
/// loop stepped, the screen read.
///
/// Threading rule: used from the test's task only (the program's loop runs on it).
public struct Console {
    public let backend: TestBackend
    public let program: Program

    /// The console in UTC (what the tests' fixed instants and snapshots are written in).
    public init(
        _ service: any DeskService, width: Int = 120, height: Int = 40,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) {
        backend = TestBackend(width: width, height: height)
        program = Program(backend: backend, service: service, timeZone: timeZone)
    }

    public var state: ConsoleApp.State { program.state }
    public var screen: String { backend.screen.text }
    /// The screen's words, borders removed and runs of spaces collapsed (a line that wraps reads
    /// on, as long as no panel stands beside it).
    public var prose: String {
        backend.screen.lines.joined(separator: " ").filter { !"│┌┐└┘─".contains($0) }
            .split(separator: " ").joined(separator: " ")
    }

    /// Queues the events, runs the loop until they are used, then waits for every call they
    /// started. Settling waits for calls only: with the feed counted it would wait its whole two
    /// minutes, and the suites' time limits would fail the test.
    public func send(_ events: [InputEvent]) async {
        backend.events += events
        while !backend.events.isEmpty { program.step(timeoutMilliseconds: 0) }
        await program.settle(seconds: 120)
    }

    public func type(_ text: String) async { await send(text.map { .key(.char($0)) }) }
    public func press(_ keys: Key...) async { await send(keys.map { .key($0) }) }

    /// Signs in on the sign-in screen.
    public func signIn(_ name: String, _ password: String = FakeDesk.password) async {
        await type(name)
        await press(.tab)
        await type(password)
        await press(.enter)
    }

    /// Types `code`, picks yesterday as the symptom onset and confirms the review.
    public func authorize(_ code: String) async {
        await type(code)
        await press(.char("y"), .enter, .enter)
    }

    /// Steps the loop until `condition` holds, at most `seconds` (generous for a loaded machine:
    /// it returns as soon as the condition holds); false if it never did.
    public func until(seconds: Double = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            if Date() > deadline { return false }
            program.step(timeoutMilliseconds: 0)
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Steps the loop for a while with nothing pressed, for checks that nothing happens.
    public func idle(milliseconds: Int = 500) async {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while Date() < deadline {
            program.step(timeoutMilliseconds: 0)
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The positions of the monitor's rows, newest first.
    public var rowIDs: [Int64] { state.monitor.rows.map(\.event.id) }

    /// Steps the loop until the monitor's rows are `stored()` (every event once, newest first),
    /// then compares them, so a failure shows the rows missing or repeated.
    public func expectRows(
        _ stored: () throws -> [Int64], seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        _ = try await until(seconds: seconds) { try rowIDs == stored() }
        #expect(
            rowIDs == (try stored()), "every stored event once, newest first", sourceLocation: sourceLocation)
    }
}
