import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// A `LocalDesk` over a real SQLite file in its own folder, on a fixed clock, with cheap password
/// hashing, and a console on it. The admin, two operators (rossi, bianchi) and a supervisor
/// (sara) are made through the desk.
struct LocalConsole {
    let store: SQLiteStore
    let clock: FixedClock
    let desk: LocalDesk
    let console: Console

    /// Runs `body` on a fresh store; the folder is removed afterwards.
    static func with(
        width: Int = 120, height: Int = 40, _ body: (LocalConsole) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("desk.sqlite").path)
        let clock = FixedClock(Fixture.now)
        let desk = LocalDesk(store: store, clock: clock, hasher: PasswordHasher(logN: 10, r: 8, p: 1))
        let admin = try await desk.createFirstAdmin(name: "admin", password: Fixture.password)
        for (name, role) in [("rossi", StaffRole.operator), ("bianchi", .operator), ("sara", .supervisor)] {
            _ = try await desk.addStaff(admin, name: name, role: role, password: Fixture.password)
        }
        try await desk.signOut(admin)
        let console = Console(desk, width: width, height: height)
        await console.send([])
        try await body(LocalConsole(store: store, clock: clock, desk: desk, console: console))
    }

    /// Every event position in the store, newest first: what a supervisor's monitor must end
    /// with, each once.
    func storedIDs() throws -> [Int64] { try store.events(after: 0, limit: 1_000).map(\.id).reversed() }

    /// An authorisation written straight to the store (as another console or the CLI would).
    @discardableResult
    func authorize(_ code: String, by actor: String, at: Date? = nil) throws -> OtpHash {
        let hash = try Otp(operatorInput: code).hash
        _ = try store.authorize(
            otpHash: hash, symptomsStartedOn: Fixture.yesterday, by: actor, now: at ?? clock.now(),
            lifetime: .seconds(150))
        return hash
    }
}

extension Fixture {
    /// The day before ``now``: the symptom onset `y` picks.
    static let yesterday = now.utcDay.adding(days: -1)

    /// A valid code made of `prefix` (nine characters) and its check character.
    static func code(_ prefix: String) -> String {
        prefix + String(OtpRules.checkCharacter(for: prefix) ?? "?")
    }
}
