import CivilCalendar
import DeskConsole
import DeskCore
import DeskService
import Foundation
import TerminalKit

/// Fixed inputs so screens render the same everywhere.
enum Fixture {
    /// 2026-11-29 14:02:00 UTC, a Sunday.
    static let now = Date(timeIntervalSince1970: 1_795_960_920)
    static let utc = TimeZone(identifier: "UTC")!
    static let identity = DeskIdentity(user: "rossi", location: "/var/lib/tracedesk/tracedesk.sqlite")
    static let code = "9K2RAY8UUQ"

    static func app(width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        ConsoleApp.State(size: TerminalSize(width: width, height: height), identity: identity, now: now, timeZone: utc)
    }

    static func record(authorizedAt: Date = now, lifetime: TimeInterval = 150, day: CivilDay? = nil) -> OtpAuthorization
    {
        OtpAuthorization(
            otpHash: OtpHash(hex: String(repeating: "b3", count: 32))!,
            symptomsStartedOn: day ?? now.utcDay.adding(days: -2), authorizedAt: authorizedAt,
            expiresAt: authorizedAt.addingTimeInterval(lifetime), authorizedBy: "rossi")
    }

    /// Sends each character as a key press.
    static func type(_ text: String, into state: inout ConsoleApp.State) {
        for character in text { _ = ConsoleApp.update(&state, .keyPressed(.char(character))) }
    }

    static func press(_ keys: Key..., into state: inout ConsoleApp.State) -> [ConsoleApp.Command] {
        var commands: [ConsoleApp.Command] = []
        for key in keys { commands += ConsoleApp.update(&state, .keyPressed(key)) }
        return commands
    }

    static func render(_ state: ConsoleApp.State) -> Buffer {
        var buffer = Buffer(size: state.size)
        ConsoleApp.render(state, into: &buffer)
        return buffer
    }
}
