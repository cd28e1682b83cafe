import CivilCalendar
import DeskContract
import DeskCore
import DeskSimulation
import Testing

/// The demo's tracing day: what the simulated people answer follows the seed and the person
/// alone, in the shares the docs give.
@Suite("The demo's tracing day")
struct DemoTracingTests {
    static let phones = (0..<2_000).map { Simulation.phoneNumber(seed: 7, index: $0) }

    @Test("the same seed, person and attempt give the same answer; another seed others")
    func answersFollowTheSeed() {
        for phone in Self.phones.prefix(200) {
            for attempt in 0..<3 {
                #expect(
                    DemoTracing.outcome(seed: 7, phone: phone, attempt: attempt)
                        == DemoTracing.outcome(seed: 7, phone: phone, attempt: attempt))
            }
        }
        let first = Self.phones.map { DemoTracing.outcome(seed: 7, phone: $0, attempt: 0) }
        let otherSeed = Self.phones.map { DemoTracing.outcome(seed: 8, phone: $0, attempt: 0) }
        let nextAttempt = Self.phones.map { DemoTracing.outcome(seed: 7, phone: $0, attempt: 1) }
        #expect(first != otherSeed)
        #expect(first != nextAttempt)
    }

    @Test(
        "answers come in the documented shares: reached 45 %, no answer 30 %, voicemail 15 %, wrong number and refused 5 % each",
        arguments: [
            (CallOutcome.reached, 0.45), (.noAnswer, 0.30), (.voicemail, 0.15), (.wrongNumber, 0.05), (.refused, 0.05),
        ])
    func shares(outcome: CallOutcome, share: Double) {
        let count = Self.phones.filter { DemoTracing.outcome(seed: 7, phone: $0, attempt: 0) == outcome }.count
        let observed = Double(count) / Double(Self.phones.count)
        // 2 000 draws: a binomial's standard deviation is at most 1.2 points; 4 points is far outside it.
        #expect(abs(observed - share) < 0.04, "\(outcome): \(observed)")
    }

    @Test("daily checks: symptoms about one day in ten, isolating nine in ten, the same for the same day")
    func checks() {
        let day = CivilDay(iso: "2026-12-02")!
        let answers = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day) }
        let again = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day) }
        #expect(answers.map(\.symptoms) == again.map(\.symptoms))
        let symptoms = Double(answers.filter(\.symptoms).count) / Double(answers.count)
        let isolating = Double(answers.filter(\.isolating).count) / Double(answers.count)
        #expect(abs(symptoms - 0.1) < 0.03)
        #expect(abs(isolating - 0.9) < 0.03)
        let nextDay = Self.phones.map { DemoTracing.check(seed: 7, phone: $0, day: day.adding(days: 1)) }
        #expect(nextDay.map(\.symptoms) != answers.map(\.symptoms))
    }
}
