import DeskCore
import Testing

@Suite struct StaffRulesTests {
    @Test("each use case belongs to the roles the issue names, and to no other")
    func matrix() {
        let expected: [DeskUseCase: Set<StaffRole>] = [
            .authorizeCode: [.operator], .codeStatus: [.operator, .supervisor], .listStaff: [.admin],
            .addStaff: [.admin], .disableStaff: [.admin], .resetPassword: [.admin], .readAudit: [.admin],
            .verifyAudit: [.admin], .monitorEvents: [.operator, .supervisor], .watchCode: [.operator, .supervisor],
            .traceContacts: [.tracer], .readSmsOutbox: [.admin], .readStatistics: [.supervisor],
            .manageHISClients: [.admin], .manageCases: [.tracer], .workFollowUps: [.tracer],
            .readFollowUps: [.tracer, .supervisor], .assignFollowUps: [.supervisor],
        ]
        #expect(Set(expected.keys) == Set(DeskUseCase.allCases))
        for useCase in DeskUseCase.allCases {
            for role in StaffRole.allCases {
                #expect(role.may(useCase) == expected[useCase]!.contains(role), "\(role) × \(useCase)")
            }
        }
    }

    @Test(
        "user names are normalised to lowercase and checked",
        arguments: [
            ("Rossi", "rossi"), (" ana.b ", "ana.b"), ("m_x-2", "m_x-2"),
        ])
    func goodNames(typed: String, stored: String) {
        #expect(StaffName.normalize(typed) == .success(stored))
    }

    @Test(
        "bad user names say what is wrong",
        arguments: [
            ("", "type a user name"), ("2ana", "a user name starts with a letter (a-z)"),
            ("anna maria", "a user name has only letters a-z, digits and . - _ (no spaces)"),
            ("zoë", "a user name has only letters a-z, digits and . - _ (no spaces)"),
            (String(repeating: "a", count: 33), "a user name has at most 32 characters"),
        ])
    func badNames(typed: String, message: String) {
        #expect(StaffName.normalize(typed) == .failure(.name(message)))
    }

    @Test("password rules")
    func passwords() {
        #expect(PasswordRules.problem("correct horse", user: "ana") == nil)
        #expect(PasswordRules.problem("short", user: "ana") == .password("a password has at least 10 characters"))
        #expect(
            PasswordRules.problem("rossi-is-great", user: "rossi")
                == .password("the password must not contain the user name"))
        #expect(
            PasswordRules.problem("aaaaaaaaaaaa", user: "ana")
                == .password("the password needs at least 4 different characters"))
        #expect(PasswordRules.problem(String(repeating: "ab12", count: 65), user: "ana") != nil)
    }

    @Test("failed sign-ins: two free, then 2, 4, 8… seconds, at most 5 minutes; the lock at 100")
    func delays() {
        let policy = SignInPolicy()
        #expect(
            (0...12).map { policy.delaySeconds(afterFailures: $0) } == [
                0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300,
            ])
        #expect(policy.failuresBeforeLock == 100)
        #expect(SignInPolicy(failuresBeforeLock: 3, maximumDelaySeconds: 5).delaySeconds(afterFailures: 100) == 5)
    }

    @Test("a session's description never shows its token")
    func sessionDescription() {
        let session = StaffSession(
            token: "tds_secret", user: "ana", role: .operator, signedInAt: .init(timeIntervalSince1970: 0),
            expiresAt: .init(timeIntervalSince1970: 1), idleSeconds: 600)
        #expect("\(session)" == "ana (operator)")
    }
}
