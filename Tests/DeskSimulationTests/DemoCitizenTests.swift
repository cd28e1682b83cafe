import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskSimulation
import DeskTestSupport
import Foundation
import Testing

/// The demo's simulated citizen against a real server on loopback: its phone polls check-otp
/// until an operator authorises the code (through a real desk on the same store), then uploads,
/// then the next citizen calls with another code.
@Suite("The demo's simulated citizen", .serialized, .timeLimit(.minutes(3)))
struct DemoCitizenTests {
    /// Waits (up to 60 s) until `condition` holds for the citizen's status; fails naming `what`.
    static func waitFor(
        _ citizen: DemoCitizen, _ what: String, _ condition: (DemoCitizenStatus) -> Bool
    ) async throws -> DemoCitizenStatus? {
        var seen: DemoCitizenStatus?
        try await eventually(within: .seconds(60), what) {
            seen = citizen.status
            return seen.map(condition) ?? false
        }
        return seen
    }

    @Test("the citizen's phone checks and uploads only after the operator authorises its code")
    func checksAndUploadsAfterAuthorisation() async throws {
        let fixture = try SimulationServer()
        let desk = LocalDesk(store: fixture.store, hasher: TestHashing.cheap)
        let admin = try await desk.createFirstAdmin(name: "admin", password: "long enough secret 1")
        _ = try await desk.addStaff(admin, name: "operator", role: .operator, password: "long enough secret 2")
        let operatorSession = try await desk.signIn(name: "operator", password: "long enough secret 2")

        let recorder = SimulationRecorder()
        let citizen = DemoCitizen(
            client: SimulationClient(recorder: recorder), phoneAPI: fixture.phone, seed: 3, pollSeconds: 0.2...0.3,
            uploadDelay: 0.5...1, nextDelay: 0.5...1)
        let calling = Task { await citizen.run() }
        defer { calling.cancel() }

        let first = try #require(try await Self.waitFor(citizen, "the first citizen's call") { _ in true })
        #expect(first.number == 1)
        #expect(first.phase == .waiting)
        #expect((try? Otp(validating: first.code)) != nil, "a code the app could show")
        let today = CivilDay(unixSeconds: Int64(Date().timeIntervalSince1970))
        #expect(first.symptomsStartedOn <= today && first.symptomsStartedOn >= today.adding(days: -4))

        // A few polls answered 401 while nobody has authorised the code: still waiting.
        try await eventually(within: .seconds(60), "three check-otp polls of the waiting phone") {
            recorder.totals().requests >= 3
        }
        #expect(citizen.status?.phase == .waiting)
        #expect(
            try fixture.store.events(after: 0, limit: 1_000).filter { $0.kind.rawValue == "upload_accepted" }.isEmpty)

        _ = try await desk.authorize(
            operatorSession, code: OtpRules.group(first.code), symptomsStartedOn: first.symptomsStartedOn)
        let uploaded = try #require(
            try await Self.waitFor(citizen, "the first citizen's upload") {
                if case .uploaded = $0.phase { return $0.number == 1 }
                return $0.number > 1
            })
        guard case .uploaded = uploaded.phase else {
            Issue.record("the first citizen ended as \(uploaded.phase)")
            return
        }
        let kinds = try fixture.store.events(after: 0, limit: 1_000).map(\.kind.rawValue)
        #expect(kinds.contains("otp_checked"))
        #expect(kinds.contains("upload_accepted"))
        let status = try await desk.status(operatorSession, of: first.code)
        guard case .consumed = status else {
            Issue.record("the desk should see the code used by an upload, not \(status)")
            return
        }

        let next = try #require(try await Self.waitFor(citizen, "the next citizen's call") { $0.number == 2 })
        #expect(next.code != first.code)
        #expect(next.phase == .waiting)
        let summary = recorder.snapshot()
        #expect(summary.errors.isEmpty, "\(summary.lines.joined(separator: "\n"))")
    }
}
