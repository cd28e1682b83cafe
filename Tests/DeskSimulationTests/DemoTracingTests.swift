import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskSimulation

/// The demo's tracing day: over a real desk, the simulated patients' cases are opened, the
/// simulated tracer works only its share and every call is answered as ``DemoContactAnswer``
/// says (what the console's demo line tells a person); the daily checks follow the seed and
/// the person alone, in the shares the docs give.
@Suite("The demo's tracing day")
struct DemoTracingTests {
    static let phones = (0..<2_000).map { Simulation.phoneNumber(seed: 7, index: $0) }
    static let password = "long enough secret 7"

    /// A patient with six contacts heard 20 minutes each yesterday (close contacts), on a new
    /// store; `tracer` and `tracer2` are the active tracers.
    static func seeded(_ temporary: TemporarySQLite) async throws -> (LocalDesk, patient: String) {
        let store = temporary.store
        let desk = LocalDesk(store: store, hasher: TestHashing.cheap)
        let admin = try await desk.createFirstAdmin(name: "admin", password: password)
        for name in ["tracer", "tracer2"] {
            _ = try await desk.addStaff(admin, name: name, role: .tracer, password: password)
        }
        let now = Date()
        var next: UInt32 = 0x2000
        func register(_ index: Int) throws -> (Int64, [PseudoID]) {
            let login = try store.login(
                phone: PhoneNumber(e164: phones[index])!, appID: "it.test.apricot", deviceID: "device-\(index)",
                tokenHash: "hash-\(index)", tokenExpiresAt: now.addingTimeInterval(86_400), now: now, count: 2,
                nextSuffix: {
                    next += 1
                    return next
                })
            guard case .signedIn(let user, _, let ids) = login else { throw SeedError() }
            return (user, ids)
        }
        let (patient, _) = try register(0)
        let yesterday = now.utcDay.adding(days: -1)
        let ten = UInt32(FollowUpSchedule.start(of: yesterday).timeIntervalSince1970) + 36_000
        var records: [ContactRecord] = []
        for index in 1...6 {
            let (_, ids) = try register(index)
            for minute in 0..<20 {
                records.append(ContactRecord(beacon: ids[0].bytes, time: ten + UInt32(index * 3_600 + minute * 60)))
            }
        }
        _ = try store.storeContactFile(
            userID: patient, day: yesterday, records: records, receivedAt: now,
            clientClock: Int64(now.timeIntervalSince1970), skewSeconds: 0)
        return (desk, phones[0])
    }

    struct SeedError: Error {}

    @Test(
        "over a real desk: one case, its contacts shared by round-robin, tracer2 works its own, each call answered as DemoContactAnswer says"
    )
    func overARealDesk() async throws {
        let temporary = try TemporarySQLite()
        let (desk, patient) = try await Self.seeded(temporary)
        let tracing = DemoTracing(
            desk: desk, plan: DemoTracingPlan(patients: [patient], tracer: "tracer2", password: Self.password, seed: 7),
            pause: { _ in })
        var session = try await desk.signIn(name: "tracer2", password: Self.password)
        await tracing.openCases(&session)
        #expect(tracing.status.casesOpened == 1)
        #expect(tracing.status.followUps == 6)
        #expect(tracing.status.problem == nil)

        // More steps than there is work: each follow-up gets at most one call now (a missed one
        // comes back in 2 h) and, once reached, today's check; then nothing is due.
        for _ in 0..<20 { try await tracing.workOne(session) }
        let cases = try await desk.cases(session, query: CaseQuery())
        let trace = try #require(cases.first)
        #expect(trace.reference == "DEMO-7-1")
        let detail = try await desk.caseDetail(session, caseID: trace.id)
        let own = detail.followUps.filter { $0.assignedTo == "tracer2" }
        let others = detail.followUps.filter { $0.assignedTo == "tracer" }
        #expect(own.count == 3 && others.count == 3, "round-robin between the two tracers")
        var attempts = 0
        var checks = 0
        for followUp in own {
            let one = try await desk.followUpDetail(session, followUpID: followUp.id)
            #expect(one.attempts.count == 1)
            for (index, attempt) in one.attempts.enumerated() {
                #expect(attempt.outcome == DemoContactAnswer.outcome(followUpID: followUp.id, attempt: index + 1))
                #expect(attempt.by == "tracer2")
            }
            #expect(one.checks.count == (one.attempts.last?.outcome == .reached ? 1 : 0))
            attempts += one.attempts.count
            checks += one.checks.count
        }
        #expect(tracing.status.attempts == attempts && tracing.status.checks == checks)
        // The demo's tracer is left a queue of people due now, untouched.
        let tracer = try await desk.signIn(name: "tracer", password: Self.password)
        let queue = try await desk.followUpQueue(tracer, query: QueueQuery(scope: .mine))
        #expect(queue.rows.count == 3)
        #expect(queue.rows.allSatisfy { $0.attempts == 0 && $0.state == .calling })
        #expect(queue.counts.due + queue.counts.overdue == 3)
    }

    @Test("opening the cases again finds them open: nothing doubled")
    func openingAgain() async throws {
        let temporary = try TemporarySQLite()
        let (desk, patient) = try await Self.seeded(temporary)
        let plan = DemoTracingPlan(patients: [patient], tracer: "tracer2", password: Self.password, seed: 7)
        let first = DemoTracing(desk: desk, plan: plan, pause: { _ in })
        var session = try await desk.signIn(name: "tracer2", password: Self.password)
        await first.openCases(&session)
        let second = DemoTracing(desk: desk, plan: plan, pause: { _ in })
        await second.openCases(&session)
        #expect(second.status.casesOpened == 0 && second.status.followUps == 0)
        #expect(try await desk.cases(session, query: CaseQuery()).count == 1)
    }

    @Test("a sign-in the desk refuses: no case, the reason in the summary, no crash")
    func refusedSignIn() async {
        let tracing = DemoTracing(
            desk: FakeDesk(now: Date()),
            plan: DemoTracingPlan(patients: ["+999000070000000"], tracer: "x", password: "y", seed: 7),
            pause: { _ in })
        await tracing.run()
        #expect(tracing.status.casesOpened == 0)
        #expect(tracing.status.problem != nil)
        #expect(tracing.status.summary.hasPrefix("tracing: no cases opened ("))
    }

    @Test("daily checks: symptoms about one day in ten, isolating nine in ten, the same for the same day")
    func checks() {
        let day = CivilDay(iso: "2026-12-02")!
        let answers = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day) }
        let again = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day) }
        #expect(answers.map(\.symptoms) == again.map(\.symptoms))
        let symptoms = Double(answers.filter(\.symptoms).count) / Double(answers.count)
        let isolating = Double(answers.filter(\.isolating).count) / Double(answers.count)
        // 2 000 draws: a binomial's standard deviation is under 0.7 points; 3 is far outside it.
        #expect(abs(symptoms - 0.1) < 0.03)
        #expect(abs(isolating - 0.9) < 0.03)
        let nextDay = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day.adding(days: 1)) }
        #expect(nextDay.map(\.symptoms) != answers.map(\.symptoms))
        let otherSeed = Self.phones.map { DemoTracing.check(seed: 8, phone: $0, day: day) }
        #expect(otherSeed.map(\.symptoms) != answers.map(\.symptoms))
    }
}
