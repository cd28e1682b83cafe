import DeskContract
import DeskCore
import DeskLocal
import Foundation
import Testing

/// `LocalDesk.followUpIndicators`: a supervisor's figures (not audited), the other roles refused
/// before the store is read, a range the desk cannot count refused with StatsInputError's words.
@Suite struct LocalDeskIndicatorTests {
    @Test("a supervisor reads the indicators of an empty store; nothing is audited")
    func supervisor() async throws {
        try await DeskFixture.with { f in
            let before = try f.store.auditEntries(after: 0, limit: 1_000).count
            let query = StatsQuery.last(.fortnight, now: DeskFixture.start)
            let figures = try await f.desk.followUpIndicators(f.supervisor, query: query)
            #expect(figures.cases == 0)
            #expect(figures.from == query.from && figures.to == query.to)
            #expect(figures.lostPercent == nil)
            #expect(try f.store.auditEntries(after: 0, limit: 1_000).count == before)
        }
    }

    @Test("an operator or an admin is refused")
    func refused() async throws {
        try await DeskFixture.with { f in
            let query = StatsQuery.last(.day, now: DeskFixture.start)
            for session in [f.rossi, f.admin] {
                await #expect(throws: ServiceError.self) {
                    _ = try await f.desk.followUpIndicators(session, query: query)
                }
            }
        }
    }
}
