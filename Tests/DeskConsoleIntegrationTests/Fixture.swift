import DeskTestSupport
import Foundation

/// The fixed inputs these tests share with the screen tests (DeskConsoleTests' `Fixture`): the
/// same instant, zone and password, so the two targets' screens read alike.
enum Fixture {
    /// 2026-11-29 14:02:00 UTC, a Sunday.
    static let now = Date(timeIntervalSince1970: 1_795_960_920)
    static let utc = TimeZone(identifier: "UTC")!
    static let code = "9K2RAY8UUQ"
    /// A password that passes `PasswordRules` for every name used in these tests.
    static let password = FakeDesk.password
}
