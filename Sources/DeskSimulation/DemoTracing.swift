import CivilCalendar
import DeskContract
import DeskCore
import Foundation

/// What the demo's tracing day is told: whose cases to open, who works a queue, how fast, and
/// how much at most.
public struct DemoTracingPlan: Sendable {
    /// The simulated patients to open cases for (E.164), in order: `DEMO-<seed>-1`, `-2`…
    public var patients: [String]
    /// The simulated tracer's account (it opens the cases and works its share of the queue).
    public var tracer: String
    public var password: String
    public var seed: UInt64
    /// Seconds between two of the simulated tracer's calls or checks, drawn from the seed.
    public var pace: ClosedRange<Double> = 6...18
    /// At most this many attempts and checks in the whole run (the demo stays bounded).
    public var maximumActions = 400

    public init(patients: [String], tracer: String, password: String, seed: UInt64) {
        self.patients = patients
        self.tracer = tracer
        self.password = password
        self.seed = seed
    }

    /// The reference of the demo's case number `n` (1, 2…).
    public func reference(_ n: Int) -> String { "DEMO-\(seed)-\(n)" }
}

/// What the tracing day has done so far.
public struct DemoTracingStatus: Hashable, Sendable {
    public var casesOpened = 0
    public var followUps = 0
    public var attempts = 0
    public var reached = 0
    public var checks = 0
    /// Patients the desk refused a case for (their phone never signed in).
    public var patientsSkipped = 0
    /// The first thing that stopped it (the desk without case follow-up, a refusal), if any.
    public var problem: String?

    public var summary: String {
        if let problem, casesOpened == 0 { return "tracing: no cases opened (\(problem))" }
        var text =
            "tracing: cases opened \(casesOpened) (\(followUps) follow-ups); the simulated tracer's attempts \(attempts) (reached \(reached)), daily checks \(checks)"
        if patientsSkipped > 0 { text += "; \(patientsSkipped) patients without a case (not registered)" }
        if let problem { text += "; stopped: \(problem)" }
        return text
    }
}

/// The demo's tracing day (issue 21), through the desk as any tracer: once the simulated
/// patients' contact files are in, the simulated tracer opens a case for each (their close
/// contacts become follow-ups, shared between the active tracers, so the demo's `tracer` signs in
/// to a queue of due people), then works its own share: it calls one due person after another,
/// and the people answer as ``DemoContactAnswer`` says (most at once, some at the second call,
/// now and then a wrong number or a refusal), and records the daily check of those reached (its
/// answers drawn from the seed and the person's number). How much it does is bounded by
/// ``DemoTracingPlan/maximumActions`` and by the run.
public final class DemoTracing: Sendable {
    public let plan: DemoTracingPlan
    let desk: any DeskService
    let pause: @Sendable (Duration) async -> Void
    private let state = Guarded(DemoTracingStatus())

    /// `pause` waits between steps (a test passes one that returns at once).
    public init(
        desk: any DeskService, plan: DemoTracingPlan,
        pause: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.desk = desk
        self.plan = plan
        self.pause = pause
    }

    public var status: DemoTracingStatus { state.value }

    /// Waits until `ready` (the patients' files are in), opens the cases, then works the queue
    /// until cancelled or the actions are used up.
    public func run(ready: @escaping @Sendable () -> Bool = { true }) async {
        while !ready() {
            if Task.isCancelled { return }
            await pause(.milliseconds(250))
        }
        guard var session = await signIn() else { return }
        await openCases(&session)
        if status.casesOpened == 0 { return }
        var pace = SeededRandom(seed: plan.seed, stream: 0x5452_4143)
        while !Task.isCancelled, status.attempts + status.checks < plan.maximumActions {
            await pause(.milliseconds(Int64(Double.random(in: plan.pace, using: &pace) * 1_000)))
            if Task.isCancelled { return }
            do {
                try await workOne(session)
            } catch .notSignedIn(_) {
                // The session ended (12 h, or idle after a long quiet spell): sign in again.
                guard let again = await signIn() else { return }
                session = again
            } catch .failed(let message) {
                stop(message)
                return
            } catch {
                // A busy store, a follow-up that ended or was reassigned meanwhile: the next
                // step reads the queue again.
                continue
            }
        }
    }

    func signIn() async -> StaffSession? {
        do {
            return try await desk.signIn(name: plan.tracer, password: plan.password)
        } catch {
            stop(error.message)
            return nil
        }
    }

    func stop(_ problem: String) {
        state.update { if $0.problem == nil { $0.problem = problem } }
    }

    /// One case per patient, oldest first; the index day drawn from the seed (onset 0 to 3 days
    /// ago, or for one patient in four a test day without symptoms).
    func openCases(_ session: inout StaffSession) async {
        for (offset, phone) in plan.patients.enumerated() {
            if Task.isCancelled { return }
            var random = SeededRandom(seed: plan.seed, stream: 0x4341_5345 &+ UInt64(offset))
            let today = desk.now().utcDay
            let day = today.adding(days: -Int.random(in: 0...3, using: &random))
            let kind: IndexDayKind = Int.random(in: 0..<4, using: &random) == 0 ? .testDay : .symptomOnset
            do {
                let opening = try await desk.openCase(
                    session, phone: phone, reference: plan.reference(offset + 1), indexDay: day, indexKind: kind,
                    assignToMe: false)
                state.update {
                    if !opening.existing { $0.casesOpened += 1 }
                    $0.followUps += opening.followUpsCreated
                }
            } catch .invalid(_) {
                // A patient whose phone did not sign in: no case for them.
                state.update { $0.patientsSkipped += 1 }
            } catch {
                stop(error.message)
                return
            }
        }
    }

    /// The simulated tracer's next step: the first person due in its queue, called (or checked,
    /// once reached). Nothing due: nothing done.
    func workOne(_ session: StaffSession) async throws(ServiceError) {
        let page = try await desk.followUpQueue(session, query: QueueQuery(scope: .mine, limit: 20))
        let now = desk.now()
        guard let row = page.rows.first(where: { ($0.nextDueAt ?? .distantFuture) <= now }) else { return }
        if row.state == .monitoring {
            let answer = Self.check(seed: plan.seed, phone: row.phone.e164, day: now.utcDay)
            _ = try await desk.recordCheck(
                session, followUpID: row.id, symptoms: answer.symptoms, isolating: answer.isolating, note: "")
            state.update { $0.checks += 1 }
        } else {
            let outcome = Self.outcome(followUpID: row.id, attempts: row.attempts)
            _ = try await desk.recordAttempt(session, followUpID: row.id, outcome: outcome, note: Self.note(outcome))
            state.update {
                $0.attempts += 1
                if outcome == .reached { $0.reached += 1 }
            }
        }
    }

    // MARK: What the simulated people answer (pure: a table test holds them)

    /// How the person answers the call after `attempts` earlier ones: what
    /// ``DemoContactAnswer`` says (the console's demo line tells a person trying the demo the
    /// same), so a contact answers alike whoever calls.
    public static func outcome(followUpID: Int64, attempts: Int) -> CallOutcome {
        DemoContactAnswer.outcome(followUpID: followUpID, attempt: attempts + 1)
    }

    /// The person's daily check on `day`: symptoms one day in ten, isolating nine in ten.
    public static func check(seed: UInt64, phone: String, day: CivilDay) -> (symptoms: Bool, isolating: Bool) {
        var random = SeededRandom(
            seed: seed, stream: stableHash(phone) ^ (UInt64(bitPattern: Int64(day.daysSinceEpoch)) << 20))
        let symptoms = Int.random(in: 0..<10, using: &random) == 0
        let isolating = Int.random(in: 0..<10, using: &random) != 0
        return (symptoms, isolating)
    }

    /// The note the simulated tracer types with an outcome (never a number).
    static func note(_ outcome: CallOutcome) -> String {
        switch outcome {
        case .noAnswer: return ""
        case .voicemail: return "left a message to call back"
        case .wrongNumber: return "the person answering does not know them"
        case .reached: return "told to stay home and watch for symptoms"
        case .refused: return "did not want to talk"
        }
    }

    /// FNV-1a of the text's UTF-8: the same on every machine and run (Swift's `hashValue` is not).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}

/// A value behind a lock.
final class Guarded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
