import CivilCalendar
import DeskContract
import DeskCore
import Foundation
import Testing

/// Every ``DeskUseCase`` × every role, through both desks: a role the use case allows runs it;
/// any other is refused `.forbidden` before anything happens.
@Suite struct RoleMatrixTests {
    /// Runs `useCase` for `session` with arguments that succeed for an allowed role.
    static func run(
        _ useCase: DeskUseCase, _ f: ContractFixture, _ session: StaffSession, role: StaffRole,
        sessions: [StaffRole: StaffSession]
    ) async -> ServiceError? {
        let desk = f.desk
        switch useCase {
        case .authorizeCode:
            return await failure { () async throws(ServiceError) in
                try await desk.authorize(session, code: Codes.fresh(), symptomsStartedOn: ContractFixture.today)
            }
        case .codeStatus:
            return await failure { () async throws(ServiceError) in try await desk.status(session, of: Codes.fresh()) }
        case .listStaff:
            return await failure { () async throws(ServiceError) in try await desk.staff(session) }
        case .addStaff:
            return await failure { () async throws(ServiceError) in
                try await desk.addStaff(
                    session, name: "new-by-\(role.rawValue)", role: .tracer, password: ContractFixture.password)
            }
        case .disableStaff:
            return await failure { () async throws(ServiceError) in
                try await desk.disableStaff(session, name: "victim")
            }
        case .resetPassword:
            return await failure { () async throws(ServiceError) in
                try await desk.resetPassword(session, name: "victim2", password: "another pass 99")
            }
        case .readAudit:
            return await failure { () async throws(ServiceError) in try await desk.audit(session, query: AuditQuery()) }
        case .verifyAudit:
            return await failure { () async throws(ServiceError) in try await desk.verifyAudit(session) }
        case .monitorEvents:
            return await failure { () async throws(ServiceError) in
                _ = try await desk.events(session, after: 0, limit: 10, wait: .zero)
                _ = try await desk.traffic(session, since: ContractFixture.start)
            }
        case .watchCode:
            // A code the operator authorised: theirs to watch, and any supervisor's.
            let code = Codes.fresh()
            guard let operatorSession = sessions[.operator],
                (try? await desk.authorize(operatorSession, code: code, symptomsStartedOn: ContractFixture.today))
                    != nil
            else { return .failed("the fixture could not authorise a code") }
            return await failure { () async throws(ServiceError) in try await desk.watch(session, .code(code)) }
        case .traceContacts:
            // Every trace call: the lookup, a page of sightings, an outcome, an export.
            return await failure { () async throws(ServiceError) in
                let lookup = try await desk.traceLookup(
                    session, phone: TraceCase.patientPhone.e164, purpose: TraceCase.purpose)
                let contact = lookup.contacts.first?.summary.userID ?? 0
                _ = try await desk.traceSightings(
                    session, patientUserID: lookup.patient.userID, contactUserID: contact,
                    purpose: TraceCase.purpose, offset: 0, limit: 10)
                _ = try await desk.recordOutcome(
                    session, patientUserID: lookup.patient.userID, contactUserID: contact, outcome: .noAnswer,
                    note: "", purpose: TraceCase.purpose)
                try await desk.recordTraceExport(
                    session, patientUserID: lookup.patient.userID, purpose: TraceCase.purpose, kind: "contacts_csv",
                    rows: lookup.contacts.count)
            }
        case .readSmsOutbox:
            return await failure { () async throws(ServiceError) in _ = try await desk.smsOutbox(session, limit: 10) }
        case .readStatistics:
            return await failure { () async throws(ServiceError) in
                _ = try await desk.statistics(session, query: .last(.day, now: Date()))
            }
        case .manageHISClients:
            // Every HIS call: add, list, revoke.
            return await failure { () async throws(ServiceError) in
                let name = "his-by-\(role.rawValue)"
                _ = try await desk.addHISClient(session, name: name, ratePerMinute: nil)
                _ = try await desk.hisClients(session)
                _ = try await desk.revokeHISClient(session, name: name)
            }
        case .manageCases:
            // Open a case (assigned to oneself), then close it.
            return await failure { () async throws(ServiceError) in
                let opening = try await desk.openCase(
                    session, phone: TraceCase.patientPhone.e164, reference: "ASL-matrix", indexDay: nil,
                    indexKind: .testDay, assignToMe: true)
                _ = try await desk.closeCase(session, caseID: opening.trace.id, reason: .openedInError, note: "")
            }
        case .workFollowUps:
            guard let id = await tracerFollowUp(desk, sessions) else { return .failed("no follow-up to work") }
            return await failure { () async throws(ServiceError) in
                _ = try await desk.recordAttempt(session, followUpID: id, outcome: .noAnswer, note: "")
            }
        case .readFollowUps:
            return await failure { () async throws(ServiceError) in
                _ = try await desk.followUpQueue(session, query: QueueQuery(scope: .mine))
                _ = try await desk.cases(session, query: CaseQuery())
            }
        case .assignFollowUps:
            guard let id = await tracerFollowUp(desk, sessions), let tracer = sessions[.tracer]?.user else {
                return .failed("no follow-up to assign")
            }
            return await failure { () async throws(ServiceError) in
                _ = try await desk.assignFollowUps(session, ids: [id], to: tracer)
            }
        }
    }

    /// A follow-up assigned to the fixture's tracer, of a case they opened (opened if need be).
    static func tracerFollowUp(_ desk: any DeskService, _ sessions: [StaffRole: StaffSession]) async -> Int64? {
        guard let tracer = sessions[.tracer],
            let opening = try? await desk.openCase(
                tracer, phone: TraceCase.patientPhone.e164, reference: "ASL-matrix", indexDay: nil, indexKind: .testDay,
                assignToMe: true),
            let detail = try? await desk.caseDetail(tracer, caseID: opening.trace.id)
        else { return nil }
        return detail.followUps.first { $0.state.isActive }?.id
    }

    @Test("each use case runs for the roles it allows and is forbidden for the others", arguments: DeskKind.allCases)
    func matrix(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let sessions = try await f.everyRole()
            let admin = try #require(sessions[.admin])
            _ = try await f.desk.addStaff(admin, name: "victim", role: .tracer, password: ContractFixture.password)
            _ = try await f.desk.addStaff(admin, name: "victim2", role: .tracer, password: ContractFixture.password)
            _ = try TraceCase.seed(f.store, now: ContractFixture.start)

            for useCase in DeskUseCase.allCases {
                for role in StaffRole.allCases {
                    let session = try #require(sessions[role])
                    let error = await Self.run(useCase, f, session, role: role, sessions: sessions)
                    if role.may(useCase) {
                        #expect(error == nil, "\(kind): \(role) may \(useCase.phrase)")
                    } else {
                        let allowed = useCase.roles.sorted().map(\.rawValue).joined(separator: " or ")
                        #expect(
                            error
                                == .forbidden(
                                    "your role (\(role.rawValue)) cannot \(useCase.phrase): that needs the \(allowed) role"
                                ),
                            "\(kind): \(role) may not \(useCase.phrase)")
                    }
                }
            }
        }
    }

    @Test(
        "a refused use case changes nothing: no account, no authorisation, no audit entry", arguments: DeskKind.allCases
    )
    func forbiddenChangesNothing(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let sessions = try await f.everyRole()
            let tracer = try #require(sessions[.tracer])
            let before = try f.auditTrail().count
            let code = Codes.fresh()

            let refused = await failure { () async throws(ServiceError) in
                try await f.desk.authorize(tracer, code: code, symptomsStartedOn: ContractFixture.today)
            }
            let refusedAdd = await failure { () async throws(ServiceError) in
                try await f.desk.addStaff(tracer, name: "sneaky", role: .admin, password: ContractFixture.password)
            }

            #expect(refused?.isForbidden == true)
            #expect(refusedAdd?.isForbidden == true)
            #expect(try f.store.authorization(for: Codes.hash(code)) == nil)
            #expect(try f.store.staffAccounts().contains { $0.name == "sneaky" } == false)
            #expect(try f.auditTrail().count == before)
        }
    }
}
