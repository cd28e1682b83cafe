import DeskCore
import DeskServer
import Foundation
import Testing

/// The staff API's settings: defaults and why, ranges, the rule between them, and that the
/// server's desk uses them.
@Suite("Staff settings")
struct StaffSettingsTests {
    @Test(
        "defaults: 10 min idle, 12 h sessions, locked after 100 failures (NIST), 2 places and 10 failures a minute per address"
    )
    func defaults() throws {
        let config = try ServerConfig.load(file: nil, environment: [:]).get()

        #expect(config.sessionIdleMinutes == 10)
        #expect(config.sessionHours == 12)
        #expect(config.signInFailuresBeforeLock == 100)
        #expect(config.signInPlacesPerAddress == 2)
        #expect(config.signInPerAddressPerMinute == 10)
        #expect(config.signInBurstPerAddress == 3)
        #expect(config.signInPerNamePerMinute == 60)
        #expect(config.setupTokenFile == nil)
        #expect(config.sessionPolicy == SessionPolicy(maximumSeconds: 12 * 3600, idleSeconds: 600))
        #expect(config.signInPolicy == SignInPolicy(failuresBeforeLock: 100))
    }

    @Test("each is listed with its reason and range, and shown by serve --settings")
    func listed() {
        for name in ["session_idle_minutes", "session_hours", "sign_in_failures_before_lock"] {
            let setting = ServerConfig.settings.first { $0.name == name }
            #expect(setting != nil, "\(name)")
            #expect(setting?.help.contains("[") == true, "\(name) shows its range")
        }
        let config = ServerConfig()
        #expect(ServerConfig.settings.first { $0.name == "session_hours" }?.value(in: config) == "12")
    }

    @Test("set from a file and the environment; out of range and an idle limit past the session are refused")
    func ranges() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("staff-\(UUID().uuidString).json").path
        try Data(#"{"session_hours": 8, "sign_in_failures_before_lock": 5}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let set = try ServerConfig.load(file: path, environment: ["TRACEDESK_SESSION_IDLE_MINUTES": "15"]).get()
        #expect(set.sessionHours == 8)
        #expect(set.sessionIdleMinutes == 15)
        #expect(set.signInFailuresBeforeLock == 5)

        let bad = [
            "TRACEDESK_SESSION_IDLE_MINUTES": "0", "TRACEDESK_SESSION_HOURS": "25",
            "TRACEDESK_SIGN_IN_FAILURES_BEFORE_LOCK": "2",
        ]
        guard case .failure(let error) = ServerConfig.load(file: nil, environment: bad) else {
            Issue.record("out-of-range staff settings were accepted")
            return
        }
        #expect(error.problems.contains("TRACEDESK_SESSION_IDLE_MINUTES must be a whole number from 1 to 240"))
        #expect(error.problems.contains("TRACEDESK_SESSION_HOURS must be a whole number from 1 to 24"))
        #expect(error.problems.contains("TRACEDESK_SIGN_IN_FAILURES_BEFORE_LOCK must be a whole number from 3 to 100"))

        let longIdle = ["TRACEDESK_SESSION_IDLE_MINUTES": "120", "TRACEDESK_SESSION_HOURS": "1"]
        guard case .failure(let cross) = ServerConfig.load(file: nil, environment: longIdle) else {
            Issue.record("an idle limit longer than the session was accepted")
            return
        }
        #expect(
            cross.problems.contains { $0.hasPrefix("session_idle_minutes (120) must not exceed session_hours (1)") })
    }

    @Test("the server's staff desk runs with the settings")
    func serverUsesThem() throws {
        let f = try ServerFixture(
            sockets: false,
            configure: {
                $0.sessionHours = 2
                $0.sessionIdleMinutes = 5
                $0.signInFailuresBeforeLock = 4
                $0.otpTTLSeconds = 120
            })

        #expect(f.server.staffDesk.sessions == SessionPolicy(maximumSeconds: 7200, idleSeconds: 300))
        #expect(f.server.staffDesk.signIns == SignInPolicy(failuresBeforeLock: 4))
        #expect(f.server.staffDesk.otpLifetime == .seconds(120))
    }
}
