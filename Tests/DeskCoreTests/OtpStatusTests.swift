import CivilCalendar
import DeskCore
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a stored authorisation looks to staff at a given moment, and the clocks that say when.
@Suite struct OtpStatusTests {
    static let authorizedAt = Date(timeIntervalSince1970: 1_795_946_400)  // 2026-11-29 10:00:00 UTC

    static func record(state: OtpAuthorization.State = .authorized) -> OtpAuthorization {
        OtpAuthorization(
            otpHash: OtpHash(hex: String(repeating: "ab", count: 32))!,
            symptomsStartedOn: CivilDay(iso: "2026-11-27")!, authorizedAt: authorizedAt,
            expiresAt: authorizedAt.addingTimeInterval(150), authorizedBy: "rossi", state: state,
            consumedAt: state == .consumed ? authorizedAt.addingTimeInterval(60) : nil)
    }

    @Test(
        "an authorised record is usable until, not at, its expiry",
        arguments: [
            (0.0, "authorized", true), (149.999, "authorized", true), (150, "expired", false), (151, "expired", false),
        ])
    func authorizedOverTime(secondsLater: Double, name: String, usable: Bool) {
        let now = Self.authorizedAt.addingTimeInterval(secondsLater)
        let status = OtpStatus(Self.record(), now: now)
        #expect(status.name == name)
        #expect(status.record == Self.record())
        #expect(Self.record().isUsable(at: now) == usable)
    }

    @Test("a consumed record stays consumed and is never usable", arguments: [0.0, 10, 1_000])
    func consumed(secondsLater: Double) {
        let now = Self.authorizedAt.addingTimeInterval(secondsLater)
        let record = Self.record(state: .consumed)
        #expect(OtpStatus(record, now: now) == .consumed(record))
        #expect(!record.isUsable(at: now))
    }

    @Test("no record is unknown")
    func unknown() {
        let status = OtpStatus(nil, now: Self.authorizedAt)
        #expect(status == .unknown)
        #expect(status.name == "unknown")
        #expect(status.record == nil)
    }

    @Test("a fixed clock stands still until moved or set")
    func fixedClock() {
        // Given a clock at 10:00.
        let clock = FixedClock(Self.authorizedAt)
        #expect(clock.now() == Self.authorizedAt)
        // When it is advanced twice, then it moves by the sum.
        clock.advance(seconds: 150)
        clock.advance(seconds: 1.5)
        #expect(clock.now() == Self.authorizedAt.addingTimeInterval(151.5))
        // When it is set, then it reads exactly that.
        clock.set(Date(timeIntervalSince1970: 0))
        #expect(clock.now().timeIntervalSince1970 == 0)
    }

    @Test(
        "whole milliseconds round-trip through Date, and sub-millisecond parts round down",
        arguments: [
            Int64(0), 1, 999, 1_000, 1_795_946_400_000, 1_795_946_400_123, 1_795_946_400_999, -1, -1_000, -1_234,
        ])
    func milliseconds(ms: Int64) {
        #expect(Date(unixMilliseconds: ms).unixMilliseconds == ms)
        #expect(Date(timeIntervalSince1970: Double(ms) / 1000 + 0.0004).unixMilliseconds == ms)
    }

    @Test("whole milliseconds round-trip for every millisecond of a second in 2026")
    func millisecondsExhaustive() {
        let base: Int64 = 1_795_946_400_000
        let broken = (base..<base + 1_000).filter { Date(unixMilliseconds: $0).unixMilliseconds != $0 }
        #expect(broken.isEmpty, "first broken: \(broken.prefix(5))")
    }
}
