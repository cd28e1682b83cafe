import CivilCalendar
import DeskCLI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskText
import Foundation

/// `tracedesk bench followup`: contact follow-up at the issue's size (issue 21).
///
/// Seeds, through the bench's bulk load, `--cases` open cases and `--follow-ups` active
/// follow-ups (one case each, round the cases), spread over ten tracers and due from two hours
/// before today up to now, then times through LocalDesk, end to end with its audit entry:
/// the next page of one tracer's queue (100 rows, walking the cursor), and opening a case whose
/// patient's file holds `--contacts` close contacts (resolve, aggregate, then the store's one
/// transaction making every follow-up). SQLite always (a fresh file), PostgreSQL with
/// `--postgres URL` (an empty database).
extension BenchCommand {
    static func followUp(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        func number(_ name: String) throws(UsageError) -> Int { try arguments.integer(name, command: command) }
        let plan = FollowUpSeedPlan(
            cases: try number("cases"), followUps: try number("follow-ups"), contacts: try number("contacts"),
            runs: try number("runs") * (arguments.has("trigger-cost") ? 2 : 1), now: Date())
        let triggerCost = arguments.has("trigger-cost")
        let pages = try number("pages")
        let json = arguments.has("json")
        var results: [String] = []
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-bench-followup-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            temporary = folder
            let sqlite = try SQLiteStore(path: folder.appendingPathComponent("bench.sqlite").path)
            if !json {
                print(
                    tr(
                        "cli.bench.followup.seedingSQLite",
                        [
                            "followUps": trCount("cli.bench.count.followUps", plan.followUps),
                            "cases": trCount("cli.bench.count.cases", plan.cases),
                        ]))
            }
            try sqlite.bulkLoadEmptyStore { plan.statements(for: $0) }
            results.append(
                try await measureFollowUp(
                    sqlite, plan: plan, pages: pages, json: json,
                    triggers: triggerCost ? { on in try sqlite.bulkLoadEmptyStore { triggerStatements(on, $0) } } : nil)
            )
            if let url = arguments.values["postgres"] {
                let postgres = try PostgresStore(url: url)
                if !json {
                    print(
                        tr(
                            "cli.bench.followup.seedingPostgreSQL",
                            [
                                "followUps": trCount("cli.bench.count.followUps", plan.followUps),
                                "cases": trCount("cli.bench.count.cases", plan.cases),
                            ]))
                }
                try postgres.bulkLoadEmptyStore { plan.statements(for: $0) }
                results.append(
                    try await measureFollowUp(
                        postgres, plan: plan, pages: pages, json: json,
                        triggers: triggerCost
                            ? { on in try postgres.bulkLoadEmptyStore { triggerStatements(on, $0) } } : nil))
            }
            if json { print("[" + results.joined(separator: ",") + "]") }
            return .success
        } catch let error as StoreError {
            printError("bench followup: \(error.message)")
            return .storeUnavailable
        } catch let error as ServiceError {
            printError("bench followup: \(error.message)")
            return .storeUnavailable
        } catch let error as BenchFailure {
            printError("bench followup: \(error.message)")
            return .refused
        } catch {
            printError("bench followup: \(error)")
            return .refused
        }
    }

    /// Migration 12's triggers made again (`on`) or dropped.
    static func triggerStatements(_ on: Bool, _ dialect: SQLDialect) -> [String] {
        on ? Migrations.indicatorFactTriggers(dialect) : Migrations.dropIndicatorFactTriggers(dialect)
    }

    /// The timings on one seeded store; the JSON object, or the lines printed. With `triggers`
    /// (`--trigger-cost`), every second case is opened with the indicator-fact triggers
    /// dropped (`triggers(false)` before, `triggers(true)` after, outside the timing).
    static func measureFollowUp(
        _ store: any Store, plan: FollowUpSeedPlan, pages: Int, json: Bool, triggers: ((Bool) throws -> Void)? = nil
    ) async throws -> String {
        let desk = LocalDesk(store: store, hasher: PasswordHasher(logN: 10, r: 8, p: 1))
        let tracer = try await benchTracer(desk)
        let admin = try await desk.signIn(name: "bench-admin", password: "bench trace password")
        for n in 1..<FollowUpSeedPlan.tracers {
            _ = try await desk.addStaff(
                admin, name: "bench-tracer-\(n)", role: .tracer, password: "bench trace password")
        }
        // The run patients' files: each contact heard 16 minutes this morning (close: ≥ 15).
        let today = plan.now.utcDay
        let midnight = UInt32(today.unixSecondsAtMidnightUTC)
        for run in 0..<plan.runs {
            var records: [ContactRecord] = []
            records.reserveCapacity(plan.contacts * 16)
            for minute in 0..<16 {
                for contact in 0..<plan.contacts {
                    let suffix = UInt32(plan.contactUser(run: run, contact))
                    records.append(
                        ContactRecord(
                            beacon: PseudoID(suffix: suffix).bytes,
                            time: midnight + 3_600 + UInt32(minute * 60 + contact % 50)))
                }
            }
            _ = try store.storeContactFile(
                userID: plan.runPatient(run), day: today, records: records, receivedAt: plan.now,
                clientClock: Int64(plan.now.timeIntervalSince1970), skewSeconds: 0)
        }

        // The queue: the first page, then the next ones along the cursor.
        var first = 0.0
        var next: [Double] = []
        var storeNext: [Double] = []
        var cursor: QueueCursor?
        var counts = QueueCounts()
        for index in 0...pages {
            let started = DispatchTime.now().uptimeNanoseconds
            let page = try await desk.followUpQueue(tracer, query: QueueQuery(scope: .mine, after: cursor, limit: 100))
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            if index == 0 { first = ms } else { next.append(ms) }
            counts = page.counts
            guard let after = page.next else { break }
            let storeStarted = DispatchTime.now().uptimeNanoseconds
            _ = try store.followUpQueue(
                QueueQuery(scope: .tracer("bench-tracer"), after: after, limit: 100), now: Date(),
                settings: .standard)
            storeNext.append(Double(DispatchTime.now().uptimeNanoseconds - storeStarted) / 1e6)
            cursor = after
        }

        // Opening a case with `contacts` close contacts, end to end.
        var opens: [Double] = []
        var bareOpens: [Double] = []
        for run in 0..<plan.runs {
            let bare = triggers != nil && run % 2 == 1
            if bare { try triggers?(false) }
            let started = DispatchTime.now().uptimeNanoseconds
            let opening = try await desk.openCase(
                tracer, phone: plan.phone(plan.runPatient(run)).e164, reference: "BENCH-OPEN-\(run)", indexDay: nil,
                indexKind: .testDay, assignToMe: false)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            if bare {
                bareOpens.append(elapsed)
                try triggers?(true)
            } else {
                opens.append(elapsed)
            }
            guard opening.followUpsCreated == plan.contacts else {
                throw BenchFailure(
                    message: "the case made \(opening.followUpsCreated) follow-ups, not \(plan.contacts)")
            }
        }
        let adapter = try store.info().adapter
        let withMedian = staffPercentile(opens, 0.5)
        let bareMedian = staffPercentile(bareOpens, 0.5)
        let bareJSON =
            bareOpens.isEmpty
            ? ""
            : #","open_case_without_triggers_median_ms":\#(f3(bareMedian)),"open_case_with_over_without":\#(f3(bareMedian > 0 ? withMedian / bareMedian : 0))"#
        let queued = counts.overdue + counts.due
        if json {
            return
                #"{"store":"\#(adapter)","cases":\#(plan.cases),"follow_ups":\#(plan.followUps),"tracer_queue_today":\#(queued),"first_page_ms":\#(f3(first)),"next_page_median_ms":\#(f3(staffPercentile(next, 0.5))),"next_page_p95_ms":\#(f3(staffPercentile(next, 0.95))),"next_page_max_ms":\#(f3(next.max() ?? 0)),"next_page_store_median_ms":\#(f3(staffPercentile(storeNext, 0.5))),"contacts":\#(plan.contacts),"open_case_median_ms":\#(f3(staffPercentile(opens, 0.5))),"open_case_max_ms":\#(f3(opens.max() ?? 0))\#(bareJSON)}"#
        }
        print(
            tr(
                "cli.bench.followup.seeded",
                [
                    "adapter": String(adapter), "followUps": trCount("cli.bench.count.followUps", plan.followUps),
                    "cases": trCount("cli.bench.count.cases", plan.cases),
                    "queued": String(queued),
                ]))
        print(
            tr(
                "cli.bench.followup.queuePage",
                [
                    "first": f3(first), "pages": String(next.count), "median": f3(staffPercentile(next, 0.5)),
                    "p95": f3(staffPercentile(next, 0.95)), "max": f3(next.max() ?? 0),
                    "storeMedian": f3(staffPercentile(storeNext, 0.5)),
                ]))
        print(
            tr(
                "cli.bench.followup.openCase",
                [
                    "contacts": trCount("cli.bench.count.closeContacts", plan.contacts),
                    "runs": trCount("cli.bench.count.runs", opens.count), "median": f3(withMedian),
                    "max": f3(opens.max() ?? 0),
                ]))
        if !bareOpens.isEmpty {
            print(
                tr(
                    "cli.bench.followup.openCaseBare",
                    [
                        "runs": trCount("cli.bench.count.runs", bareOpens.count), "median": f3(bareMedian),
                        "max": f3(bareOpens.max() ?? 0), "ratio": f3(bareMedian > 0 ? withMedian / bareMedian : 0),
                    ]))
        }
        return ""
    }
}

/// What `bench followup` seeds, as SQL both engines run on an empty store (ids from 1, in
/// order): users 1…cases are the cases' patients, the next `followUps` the followed persons,
/// then per run a patient and its `contacts` contacts (each with one pseudo-id, its user id).
struct FollowUpSeedPlan {
    var cases: Int
    var followUps: Int
    var contacts: Int
    var runs: Int
    var now: Date

    static let tracers = 10

    var users: Int { cases + followUps + runs * (1 + contacts) }
    func runPatient(_ run: Int) -> Int64 { Int64(cases + followUps + run * (1 + contacts) + 1) }
    func contactUser(run: Int, _ contact: Int) -> Int64 { runPatient(run) + 1 + Int64(contact) }
    func phone(_ userID: Int64) -> PhoneNumber { PhoneNumber(e164: "+39" + String(3_000_000_000 + userID))! }

    func statements(for dialect: SQLDialect) -> [String] {
        let postgres = dialect == .postgres
        func series(_ n: Int) -> String {
            postgres
                ? "generate_series(CAST(0 AS BIGINT), \(n - 1)) AS s(i)"
                : "(WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < \(n - 1)) SELECT i FROM r) AS s"
        }
        let nowMs = now.unixMilliseconds
        let today = now.utcDay
        let startOfToday = FollowUpSchedule.start(of: today).unixMilliseconds
        let from = startOfToday - 7_200_000
        let span = max(1, nowMs - from)
        let yesterday = today.adding(days: -1)
        let tracer =
            "CASE WHEN i % \(Self.tracers) = 0 THEN 'bench-tracer' ELSE 'bench-tracer-' || CAST(i % \(Self.tracers) AS TEXT) END"
        return [
            """
            INSERT INTO apricot_users (phone, app_id, device_id, registered_at_ms)
            SELECT '+39' || CAST(3000000001 + i AS TEXT), 'bench', 'bench', \(nowMs - 86_400_000) FROM \(series(users))
            """,
            "INSERT INTO pseudo_ids (suffix, user_id) SELECT id, id FROM apricot_users WHERE id > \(cases + followUps)",
            """
            INSERT INTO cases (reference, patient_user_id, index_day, index_kind, opened_by, opened_at_ms, status)
            SELECT 'BENCH-' || CAST(i + 1 AS TEXT), i + 1, '\(yesterday.iso)', 'test_day', 'bench-tracer',
                \(nowMs - 86_400_000) + i, 'open'
            FROM \(series(cases))
            """,
            """
            INSERT INTO follow_ups (person_user_id, state, assigned_to, last_exposure_day, period_ends_on, created_at_ms,
                next_due_ms)
            SELECT \(cases + 1) + i, 'calling', \(tracer), '\(yesterday.iso)', '\(yesterday.adding(days: 14).iso)',
                \(nowMs - 86_400_000), \(from) + (i * 7919) % \(span)
            FROM \(series(followUps))
            """,
            """
            INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days, most_minutes_one_day,
                is_close, added_at_ms)
            SELECT i + 1, (i % \(cases)) + 1, '\(yesterday.iso)', 20, 1, 20, 1, \(nowMs - 86_400_000)
            FROM \(series(followUps))
            """,
        ]
    }
}
