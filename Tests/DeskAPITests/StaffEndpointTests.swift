import DeskAPI
import DeskContract
import DeskCore
import Foundation
import Testing

/// The staff endpoint table against docs/staff-api.yaml: the same paths and methods, the same
/// statuses, the same sessions, query parameters and schemas; and the routing derived from it.
@Suite struct StaffEndpointTests {
    /// One operation of the YAML, as far as the table describes it.
    struct Operation: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var statuses: Set<Int> = []
        var signedIn = true
        var request: StaffEndpoint.Payload = .none
        var answer: StaffEndpoint.Payload = .none

        var description: String { "\(method) \(path)" }
    }

    static let yaml: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/staff-api.yaml"), encoding: .utf8)) ?? ""
    }()

    /// The operations under `paths:`, read from the YAML's lines (its indentation is fixed:
    /// paths at 2 spaces, methods at 4, an operation's keys at 6, response statuses at 8).
    static func operations(_ text: String) -> [Operation] {
        var operations: [Operation] = []
        var path: String?
        var section = ""
        var queryNames: [String] = []
        var pendingName: String?
        var bodySeen = false
        var bodySchema: String?
        var bodyDecided = false
        var inSuccess = false
        var successSeen = false

        func finish() {
            guard var last = operations.popLast() else { return }
            if bodySeen {
                last.request = .json(bodySchema)
            } else if !queryNames.isEmpty {
                last.request = .query(queryNames)
            }
            operations.append(last)
        }
        func schema(in line: String) -> String? {
            guard let range = line.range(of: "#/components/schemas/") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
        }
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }

        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if indent(line) == 0 && !trimmed.isEmpty {
                if inPaths { finish() }
                inPaths = line == "paths:"
                continue
            }
            guard inPaths, !trimmed.isEmpty else { continue }
            if indent(line) == 2, trimmed.hasSuffix(":") {
                path = String(trimmed.dropLast())
                continue
            }
            if indent(line) == 4, trimmed.hasSuffix(":"), let path {
                if !operations.isEmpty { finish() }
                operations.append(Operation(method: String(trimmed.dropLast()).uppercased(), path: path))
                (section, queryNames, pendingName) = ("", [], nil)
                (bodySeen, bodySchema, bodyDecided, inSuccess, successSeen) = (false, nil, false, false, false)
                continue
            }
            guard !operations.isEmpty else { continue }
            let index = operations.count - 1
            if indent(line) == 6 {
                section = String(trimmed.prefix { $0 != ":" })
                if trimmed == "security: []" { operations[index].signedIn = false }
                if section == "requestBody" { bodySeen = true }
                continue
            }
            switch section {
            case "parameters":
                if trimmed.hasPrefix("- name:") {
                    pendingName = String(trimmed.dropFirst(7)).trimmingCharacters(in: .whitespaces)
                }
                if trimmed.hasPrefix("- {"), trimmed.contains("in: query"),
                    let range = trimmed.range(of: "name: ")
                {
                    queryNames.append(String(trimmed[range.upperBound...].prefix { $0 != "," }))
                }
                if trimmed == "in: query", let name = pendingName { queryNames.append(name) }
            case "requestBody" where !bodyDecided:
                if let found = schema(in: line) {
                    (bodySchema, bodyDecided) = (found, true)
                } else if trimmed == "schema:" {
                    bodyDecided = true
                }
            case "responses":
                if indent(line) == 8, trimmed.hasPrefix("\""), let code = Int(trimmed.dropFirst().prefix(3)) {
                    operations[index].statuses.insert(code)
                    // The first success's schema is the answer; one with a description only has none.
                    inSuccess = !successSeen && (200..<300).contains(code) && !trimmed.contains("{ description:")
                    if (200..<300).contains(code) { successSeen = true }
                    continue
                }
                guard inSuccess else { continue }
                if let found = schema(in: line) {
                    operations[index].answer = .json(found)
                    inSuccess = false
                } else if trimmed == "schema:" {
                    operations[index].answer = .json(nil)
                    inSuccess = false
                }
            default: break
            }
        }
        return operations
    }

    @Test("the YAML is read: it has operations, each with statuses")
    func yamlIsRead() {
        let operations = Self.operations(Self.yaml)
        #expect(operations.count >= 20)
        #expect(operations.allSatisfy { !$0.statuses.isEmpty }, "\(operations.filter { $0.statuses.isEmpty })")
    }

    @Test("every path and method of docs/staff-api.yaml is in the table, and every one of the table in the YAML")
    func sameOperations() {
        let documented = Self.operations(Self.yaml).map(\.description)
        let table = StaffEndpoint.table.map { "\($0.method) \($0.template)" }
        #expect(Set(documented).subtracting(table).sorted() == [], "in the YAML, not in StaffEndpoint.table")
        #expect(Set(table).subtracting(documented).sorted() == [], "in StaffEndpoint.table, not in the YAML")
        #expect(table == documented, "the table is in the order of the YAML")
    }

    @Test("each endpoint has the YAML's statuses, session, query parameters and schemas")
    func sameDescriptions() {
        let documented = Dictionary(
            Self.operations(Self.yaml).map { ($0.description, $0) }, uniquingKeysWith: { first, _ in first })
        for endpoint in StaffEndpoint.table {
            let key = "\(endpoint.method) \(endpoint.template)"
            guard let operation = documented[key] else { continue }
            #expect(operation.statuses == Set(endpoint.accept + endpoint.errors), "\(key): statuses")
            #expect(
                operation.statuses.filter { (200..<300).contains($0) }.isSubset(of: endpoint.accept),
                "\(key): every success of the YAML is accepted")
            #expect(operation.signedIn == endpoint.signedIn, "\(key): whether a session is needed")
            #expect(operation.request == endpoint.request, "\(key): the request")
            #expect(operation.answer == endpoint.answer, "\(key): the answer")
        }
    }

    @Test("every name is in the table once, and every method and path once")
    func unique() {
        #expect(StaffEndpoint.table.map(\.name) == StaffEndpoint.Name.allCases)
        let keys = StaffEndpoint.table.map { "\($0.method) \($0.path)" }
        #expect(Set(keys).count == keys.count)
    }

    @Test(
        "a path falls under its template; a name is everything between head and tail, as sent",
        arguments: [
            ("/staff/v1", "/staff/v1", nil), ("/staff/v1/staff", "/staff/v1/staff", nil),
            ("/staff/v1/staff/ana/disable", "/staff/v1/staff/{name}/disable", "ana"),
            ("/staff/v1/staff/a%2Fb/password", "/staff/v1/staff/{name}/password", "a%2Fb"),
            ("/staff/v1/staff/a/b/disable", "/staff/v1/staff/{name}/disable", "a/b"),
            ("/staff/v1/staff//disable", "/staff/v1/staff/{name}/disable", ""),
            ("/staff/v1/his-clients/lab/revoke", "/staff/v1/his-clients/{name}/revoke", "lab"),
            ("/staff/v1/staff/{name}/disable", "/staff/v1/staff/{name}/disable", "{name}"),
            // The most specific template wins: the one with the longest head and tail.
            ("/staff/v1/cases", "/staff/v1/cases", nil), ("/staff/v1/cases/4", "/staff/v1/cases/{id}", "4"),
            ("/staff/v1/cases/4/close", "/staff/v1/cases/{id}/close", "4"),
            ("/staff/v1/cases/4/follow-ups", "/staff/v1/cases/{id}/follow-ups", "4"),
            ("/staff/v1/cases/4/nope", "/staff/v1/cases/{id}", "4/nope"),
            ("/staff/v1/cases/", "/staff/v1/cases/{id}", ""),
            ("/staff/v1/follow-ups/indicators", "/staff/v1/follow-ups/indicators", nil),
            ("/staff/v1/follow-ups/assignments", "/staff/v1/follow-ups/assignments", nil),
            ("/staff/v1/follow-ups/44", "/staff/v1/follow-ups/{id}", "44"),
            ("/staff/v1/follow-ups/44/attempts", "/staff/v1/follow-ups/{id}/attempts", "44"),
            ("/staff/v1/follow-ups/44/checks", "/staff/v1/follow-ups/{id}/checks", "44"),
            ("/staff/v1/follow-ups/44/phone-copy", "/staff/v1/follow-ups/{id}/phone-copy", "44"),
        ] as [(String, String, String?)])
    func routing(path: String, template: String, segment: String?) {
        #expect(StaffEndpoint.template(for: path) == template)
        #expect(StaffEndpoint.segment(of: path, in: template) == segment)
    }

    @Test(
        "a path the staff API does not have has no template",
        arguments: [
            "/staff/v1/", "/staff/v1/staff/ana", "/staff/v1/nope", "/staff/v1/his-clients/x", "/staff",
            "/staff/v1/follow-ups", "/staff/v1/queue/mine", "/staff/v1/case/4",
        ])
    func noRoute(path: String) {
        #expect(StaffEndpoint.template(for: path) == nil)
    }

    @Test("a path with two methods allows them GET first")
    func allow() {
        #expect(StaffEndpoint.endpoints(at: "/staff/v1/setup").map(\.method) == ["GET", "POST"])
        #expect(StaffEndpoint.endpoints(at: "/staff/v1/his-clients").map(\.method) == ["GET", "POST"])
        #expect(StaffEndpoint.endpoints(at: "/staff/v1/sessions/current").map(\.method) == ["DELETE"])
    }

    @Test("an audited endpoint is never retried: a retry after a lost answer would audit one view twice")
    func auditedNotRetried() {
        let audited = StaffEndpoint.table.filter { $0.work == .audited }
        #expect(
            audited.map(\.name) == [
                .traceLookup, .traceSightings, .smsOutbox, .cases, .caseDetail, .followUpQueue, .followUpDetail,
            ])
        for endpoint in audited { #expect(!endpoint.idempotent, "\(endpoint.name)") }
    }

    @Test("each typed endpoint (StaffCodecs) is in the table once, answering with a status the table accepts")
    func codecsInTable() {
        let names = StaffCodecs.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 31)
        for (name, status) in StaffCodecs.all {
            #expect(StaffEndpoint[name].accept.contains(status), "\(name): \(status)")
            #expect(StaffEndpoint[name].signedIn, "\(name): the typed endpoints all need a session")
        }
    }

    @Test("a typed endpoint's request goes where the table says: its query parameters, its body, its {name}")
    func codecsSendWhatTheTableSays() {
        func check(_ name: StaffEndpoint.Name, _ outgoing: StaffOutgoing) {
            let endpoint = StaffEndpoint[name]
            switch endpoint.request {
            case .none: #expect(outgoing.body == nil && outgoing.query.isEmpty, "\(name)")
            case .query(let names):
                #expect(outgoing.body == nil, "\(name)")
                #expect(Set(outgoing.query.map(\.name)).isSubset(of: names), "\(name)")
            case .json: #expect(outgoing.body != nil && outgoing.query.isEmpty, "\(name)")
            }
            #expect((outgoing.segment != nil) == endpoint.hasSegment, "\(name)")
        }
        check(.signOut, StaffCodecs.signOut.outgoing(()))
        check(.staff, StaffCodecs.staff.outgoing(()))
        check(.addStaff, StaffCodecs.addStaff.outgoing(.init(name: "ana", role: .tracer, password: "pass-pass-1")))
        check(.disableStaff, StaffCodecs.disableStaff.outgoing("ana"))
        check(.resetPassword, StaffCodecs.resetPassword.outgoing(.init(name: "ana", password: "pass-pass-1")))
        check(.audit, StaffCodecs.audit.outgoing(AuditQuery(actor: "ana", limit: 5)))
        check(.verifyAudit, StaffCodecs.verifyAudit.outgoing([1, 2]))
        check(.traffic, StaffCodecs.traffic.outgoing(Date(timeIntervalSince1970: 0)))
        check(.traceLookup, StaffCodecs.traceLookup.outgoing(.init(phone: "+393331234567", purpose: "case 1")))
        check(.smsOutbox, StaffCodecs.smsOutbox.outgoing(50))
        check(.hisClients, StaffCodecs.hisClients.outgoing(()))
        check(.addHISClient, StaffCodecs.addHISClient.outgoing(.init(name: "lab", ratePerMinute: 60)))
        check(.revokeHISClient, StaffCodecs.revokeHISClient.outgoing("lab"))
        check(.cases, StaffCodecs.cases.outgoing(CaseQuery(openedBy: "tina")))
        check(
            .openCase,
            StaffCodecs.openCase.outgoing(
                .init(phone: "+393331234567", reference: "r", indexDay: nil, indexKind: .testDay, assignToMe: true)))
        check(.caseDetail, StaffCodecs.caseDetail.outgoing(4))
        check(.closeCase, StaffCodecs.closeCase.outgoing(.init(caseID: 4, reason: .recovered, note: "")))
        check(.addFollowUp, StaffCodecs.addFollowUp.outgoing(.init(caseID: 4, phone: "+393331234567", reason: "r")))
        check(.followUpQueue, StaffCodecs.followUpQueue.outgoing(QueueQuery(scope: .tracer("tina"), search: "333")))
        check(
            .followUpIndicators,
            StaffCodecs.followUpIndicators.outgoing(StatsQuery.last(.week, now: Date(timeIntervalSince1970: 0))))
        check(.assignFollowUps, StaffCodecs.assignFollowUps.outgoing(.init(ids: [1, 2], tracer: "tina")))
        check(.followUpDetail, StaffCodecs.followUpDetail.outgoing(44))
        check(
            .followUpAttempt, StaffCodecs.followUpAttempt.outgoing(.init(followUpID: 44, outcome: .reached, note: "")))
        check(
            .followUpCheck,
            StaffCodecs.followUpCheck.outgoing(.init(followUpID: 44, symptoms: false, isolating: true, note: "")))
        check(.followUpPhoneCopy, StaffCodecs.followUpPhoneCopy.outgoing(44))
    }

    @Test("an {id} path takes the id as its segment; the path with it is the one the server routes")
    func idPaths() {
        #expect(StaffEndpoint[.closeCase].path(segment: "4") == "/cases/4/close")
        #expect(StaffEndpoint[.followUpDetail].path(segment: "44") == "/follow-ups/44")
        #expect(StaffEndpoint[.disableStaff].path(segment: "ana") == "/staff/ana/disable")
        #expect(StaffEndpoint[.followUpQueue].path(segment: "x") == "/queue")
        for endpoint in StaffEndpoint.table where endpoint.hasSegment {
            let path = StaffWire.prefix + endpoint.path(segment: "12")
            #expect(StaffEndpoint.template(for: path) == endpoint.template, "\(endpoint.name)")
            #expect(StaffEndpoint.segment(of: path, in: endpoint.template) == "12", "\(endpoint.name)")
        }
    }
}
