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
    static let location = "/var/lib/tracedesk/tracedesk.sqlite"
    static let code = "9K2RAY8UUQ"
    /// A password that passes ``PasswordRules`` for every name used in these tests.
    static let password = "correct horse battery"

    /// A session as a desk would return it (the token is never sent anywhere in pure tests).
    static func session(_ user: String = "rossi", role: StaffRole = .operator, idleSeconds: Int = 600) -> StaffSession {
        StaffSession(
            token: "test-token-\(user)", user: user, role: role, signedInAt: now,
            expiresAt: now.addingTimeInterval(12 * 3600), idleSeconds: idleSeconds)
    }

    /// The console before anyone signs in.
    static func signedOut(width: Int = 80, height: Int = 24, userName: String = "") -> ConsoleApp.State {
        ConsoleApp.State(
            size: TerminalSize(width: width, height: height), location: location, now: now, timeZone: utc,
            userName: userName)
    }

    /// The console with `session` signed in (rossi, operator, by default: the authorise screen).
    static func app(width: Int = 80, height: Int = 24, session: StaffSession = session()) -> ConsoleApp.State {
        var state = signedOut(width: width, height: height)
        _ = ConsoleApp.update(&state, .signedIn(session))
        return state
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

    /// The words on screen, borders removed and runs of spaces collapsed, for messages that wrap.
    static func prose(_ state: ConsoleApp.State) -> String {
        render(state).lines.joined(separator: " ").filter { !"│┌┐└┘─".contains($0) }
            .split(separator: " ").joined(separator: " ")
    }

    static func render(_ state: ConsoleApp.State) -> Buffer {
        var buffer = Buffer(size: state.size)
        ConsoleApp.render(state, into: &buffer)
        return buffer
    }
}

/// Staff accounts and audit entries as a desk would return them.
extension Fixture {
    static func account(
        _ name: String, _ role: StaffRole, disabled: Bool = false, locked: Bool = false, failed: Int = 0,
        lastSignIn: Date? = nil, by: String = "admin"
    ) -> StaffAccount {
        StaffAccount(
            name: name, role: role, disabled: disabled, locked: locked, failedSignIns: failed,
            createdAt: now.addingTimeInterval(-86_400 * 3), createdBy: by,
            passwordChangedAt: now.addingTimeInterval(-86_400 * 3), lastSignInAt: lastSignIn)
    }

    /// An admin, two operators (one locked), a disabled tracer and a supervisor.
    static let accounts: [StaffAccount] = [
        account("admin", .admin, lastSignIn: now.addingTimeInterval(-120), by: "setup"),
        account("bianchi", .operator, locked: true, failed: 8),
        account("rossi", .operator, failed: 1, lastSignIn: now.addingTimeInterval(-3_600)),
        account("sara", .supervisor, lastSignIn: now.addingTimeInterval(-86_400)),
        account("verdi", .tracer, disabled: true),
    ]

    /// `count` entries, newest first, ids from `newest` down, one minute apart.
    static func auditEntries(count: Int, newest: Int64 = 40) -> [AuditEntry] {
        let actions: [(String, AuditAction, String?, String)] = [
            ("rossi", .signIn, nil, "{}"),
            ("rossi", .otpAuthorized, "otp:b39e0733", "{\"symptoms\":\"2026-11-28\"}"),
            ("-", .signInFailed, nil, "{\"failures\":1}"),
            ("admin", .staffAdded, "rossi", "{\"role\":\"operator\"}"),
            ("admin", .passwordReset, "bianchi", "{}"),
        ]
        return (0..<count).map { index in
            let id = newest - Int64(index)
            let (actor, action, target, detail) = actions[Int(id) % actions.count]
            let hash = String(repeating: String(format: "%02x", Int(id) % 256), count: 32)
            let previous = String(repeating: String(format: "%02x", Int(id - 1) % 256), count: 32)
            return AuditEntry(
                id: id, at: now.addingTimeInterval(-60 * Double(index)), actor: actor, action: action, target: target,
                detail: detail, previousHash: previous, hash: hash)
        }
    }
}
