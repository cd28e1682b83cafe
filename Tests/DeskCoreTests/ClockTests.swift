import DeskCore
import Foundation
import Testing

/// The clocks' interval scale, which times the servers' rate buckets.
@Suite struct ClockTests {
    @Test("a fixed clock's intervals are the seconds it is moved by, and nothing else")
    func fixedClockIntervals() {
        let clock = FixedClock(Date(timeIntervalSince1970: 1_764_000_000))
        let start = clock.intervalSeconds()
        #expect(clock.intervalSeconds() == start)
        clock.advance(seconds: 31)
        #expect(clock.intervalSeconds() - start == 31)
    }

    @Test("the system clock's intervals never go back")
    func systemClockIntervals() {
        let clock = SystemClock()
        var last = clock.intervalSeconds()
        for _ in 0..<1_000 {
            let now = clock.intervalSeconds()
            #expect(now >= last)
            last = now
        }
    }
}
