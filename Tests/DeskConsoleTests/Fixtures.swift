import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
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

    /// A tracer's console brought to the contact-trace screen (their home is the call queue).
    static func onTrace(_ state: ConsoleApp.State) -> ConsoleApp.State {
        var state = state
        _ = ConsoleApp.update(&state, .keyPressed(.function(2)))
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
            ("rossi", .signIn, nil, #"{"expires_at_ms":1795975320000,"password_rehashed":false}"#),
            ("rossi", .otpAuthorized, "b39e07", #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#),
            ("-", .signInFailed, nil, #"{"reason":"unknown account"}"#),
            ("admin", .staffAdded, "rossi", #"{"role":"operator"}"#),
            ("admin", .passwordReset, "bianchi", #"{"sessions_ended":1,"was_locked":true}"#),
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

/// Feed events and watches as a desk would return them.
extension Fixture {
    /// The tag of ``record(authorizedAt:lifetime:day:)``'s code.
    static let tag = "b3b3b3"

    static func event(
        _ id: Int64, _ kind: String, at: Date, actor: String? = nil, tag: String? = nil, _ detail: String = "{}"
    ) -> MonitorEvent {
        MonitorEvent(id: id, at: at, kind: kind, actor: actor, codeTag: tag, detail: detail)
    }

    /// A morning's activity, oldest first, ids 1…12, ending at ``now``: rossi's call (authorised,
    /// checked, uploaded, published), bianchi's code refused after expiry, analytics, staff
    /// actions, a kind this build does not know and a detail that is not JSON.
    static func feed() -> [MonitorEvent] {
        func ago(_ seconds: Double) -> Date { now.addingTimeInterval(-seconds) }
        let expires = (now.addingTimeInterval(-500 + 150)).unixMilliseconds
        return [
            event(1, "staff_action", at: ago(900), actor: "rossi", #"{"action":"sign_in"}"#),
            event(
                2, "otp_authorized", at: ago(500), actor: "rossi", tag: tag,
                #"{"symptoms_started_on":"2026-11-28","expires_at_ms":\#(expires)}"#),
            event(3, "otp_checked", at: ago(470), tag: tag, #"{"status":"authorized"}"#),
            event(
                4, "analytics_received", at: ago(460),
                #"{"platform":"android","province":"RM","exposure_notification":false}"#),
            event(
                5, "upload_accepted", at: ago(440), tag: tag,
                #"{"upload_id":7,"keys_accepted":12,"keys_dropped":2,"dropped":{"too_old":2},"province":"RM","clock_skew_s":3,"clock_skew_flagged":false,"summaries":0}"#
            ),
            event(
                6, "otp_authorized", at: ago(400), actor: "bianchi", tag: "4f2a91",
                #"{"symptoms_started_on":"2026-11-27","expires_at_ms":\#(now.addingTimeInterval(-300).unixMilliseconds)}"#
            ),
            event(7, "upload_refused", at: ago(200), tag: "4f2a91", #"{"reason":"expired"}"#),
            event(
                8, "chunk_published", at: ago(120),
                #"{"chunk":42,"keys":12,"padding":88,"copies_skipped":0,"window_start_s":1795957200,"window_end_s":1795960800,"upload_ids":[7]}"#
            ),
            event(9, "staff_action", at: ago(90), #"{"action":"sign_in_failed","unknown_name":true}"#),
            event(10, "vaccine_pass_issued", at: ago(60), #"{"province":"MI"}"#),
            event(11, "otp_checked", at: ago(30), tag: "4f2a91", "status=expired (not json"),
            event(
                12, "analytics_received", at: now, #"{"platform":"ios","province":"MI","exposure_notification":true}"#),
        ]
    }

    /// `count` uploads, ids from `first`, one a second before ``now``.
    static func uploads(count: Int, first: Int64 = 1) -> [MonitorEvent] {
        (0..<count).map { index in
            let id = first + Int64(index)
            return event(
                id, "upload_accepted", at: now.addingTimeInterval(Double(index - count)),
                tag: String(format: "%06x", id),
                #"{"keys_accepted":\#(index % 14),"keys_dropped":0}"#)
        }
    }

    /// The watch of ``record(authorizedAt:lifetime:day:)`` (authorised at ``now``, symptoms
    /// yesterday), with what happened since.
    static func codeWatch(
        checks: [Double] = [], upload: WatchedUpload? = nil, nextRun: Date? = now.addingTimeInterval(13 * 60),
        refused: Int = 0, lastRefusal: String? = nil
    ) -> CodeWatch {
        CodeWatch(
            codeTag: tag, authorizedBy: "rossi", authorizedAt: now, expiresAt: now.addingTimeInterval(150),
            symptomsStartedOn: now.utcDay.adding(days: -1), checks: checks.count,
            firstCheckedAt: checks.first.map { now.addingTimeInterval($0) },
            lastCheckedAt: checks.last.map { now.addingTimeInterval($0) }, refusedUploads: refused,
            lastRefusal: lastRefusal, upload: upload, nextPublishingRun: nextRun, asOf: 5)
    }

    /// An upload 40 s after ``now``: 12 keys kept, 3 dropped for two reasons, from Rome.
    static func upload(
        chunks: [Int64] = [], waiting: Int = 12, embargo: Date? = nil, accepted: Int = 12
    ) -> WatchedUpload {
        WatchedUpload(
            receivedAt: now.addingTimeInterval(40), keysAccepted: accepted, keysDropped: 3,
            droppedReasons: ["too_old": 2, "before_risk_window": 1], province: "RM", clockSkewSeconds: 3,
            publishedInChunks: chunks, keysWaiting: waiting, embargoEndsAt: embargo)
    }
}
