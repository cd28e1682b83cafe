import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The contact-trace screen through the whole program over a real `LocalDesk` on a real SQLite
/// file: the patient and contacts registered and the contact file stored through the store's
/// APRICOT contract (what the server's endpoints call), the tracer made through the desk.
@Suite("Program: contact tracing on a local desk", .timeLimit(.minutes(1)))
struct TraceProgramTests {
    /// 2026-11-28 10:00 UTC, the day before ``Fixture/now``.
    static let tenOClock: UInt32 = 1_795_860_000

    /// Registers the patient (+39 333 100 0001), Anna (…0002: 20 minutes, close) and Bruno
    /// (…0003: 3 minutes) and stores the patient's file of 2026-11-28.
    static func seed(_ d: LocalConsole) throws -> (patient: Int64, anna: Int64) { try seed(d.store) }

    static func seed(_ store: any Store) throws -> (patient: Int64, anna: Int64) {
        var next: UInt32 = 0x2000
        func register(_ phone: String, _ name: String) throws -> (Int64, [PseudoID]) {
            let login = try store.login(
                phone: PhoneNumber(e164: phone)!, appID: "it.test.apricot", deviceID: "device-\(name)",
                tokenHash: "hash-\(name)", tokenExpiresAt: Fixture.now.addingTimeInterval(86_400), now: Fixture.now,
                count: 2,
                nextSuffix: {
                    next += 1
                    return next
                })
            guard case .signedIn(let user, _, let ids) = login else { throw CancellationError() }
            return (user, ids)
        }
        let (patient, _) = try register("+393331000001", "patient")
        let (anna, annaIDs) = try register("+393331000002", "anna")
        let (_, brunoIDs) = try register("+393331000003", "bruno")
        var records: [ContactRecord] = (0..<20).map {
            ContactRecord(beacon: annaIDs[0].bytes, time: tenOClock + UInt32($0 * 60))
        }
        records += [120, 125, 130].map { ContactRecord(beacon: brunoIDs[0].bytes, time: tenOClock + UInt32($0 * 60)) }
        _ = try store.storeContactFile(
            userID: patient, day: CivilDay(iso: "2026-11-28")!, records: records, receivedAt: Fixture.now,
            clientClock: Int64(Fixture.now.timeIntervalSince1970), skewSeconds: 0)
        return (patient, anna)
    }

    static func addTracer(_ d: LocalConsole) async throws {
        let admin = try await d.desk.signIn(name: "admin", password: Fixture.password)
        _ = try await d.desk.addStaff(admin, name: "tina", role: .tracer, password: Fixture.password)
        try await d.desk.signOut(admin)
    }

    @Test("a tracer looks a patient up, opens a contact, records an outcome and exports the table")
    func wholeFlow() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let ids = try Self.seed(d)
            try await Self.addTracer(d)
            await c.signIn("tina")
            #expect(c.state.page == .queue, "the tracer's home is the call queue")
            await c.press(.function(2))
            #expect(c.state.page == .trace)

            // A number nobody registered: the desk's message, on the number.
            await c.type("333 999 9999")
            await c.press(.enter)
            await c.type("case 2026-1234")
            await c.press(.enter)
            #expect(c.prose.contains("no APRICOT user has this number"))
            #expect(c.state.trace.phase == .phone)

            await c.press(.ctrl("u"))
            await c.type("333 100 0001")
            await c.press(.enter, .enter)
            #expect(await c.until { c.state.trace.phase == .result })
            #expect(c.prose.contains("Patient +39 333 100 0001"))
            #expect(c.prose.contains("23 sightings · 0 unresolved · 2 contacts, 1 close"))
            #expect(c.screen.contains("●  +39 333 100 0002"))
            #expect(try d.store.auditEntries(after: 0, limit: 100).last?.action == .traceLookup)

            // The detail: the timeline and the sightings read from the desk.
            await c.press(.enter)
            #expect(await c.until { c.state.trace.detail?.sightings.count == 20 })
            #expect(c.screen.contains("2026-11-28  ··········▃"))
            await c.press(.escape)

            // An outcome, saved and shown.
            await c.press(.char("o"), .down, .down)
            await c.type("isolating")
            await c.press(.enter)
            #expect(await c.until { c.state.trace.outcomeForm == nil })
            #expect(c.screen.contains("reached, isolating"))
            let outcomes = try d.store.contactOutcomes(patientUserID: ids.patient)
            #expect(outcomes[ids.anna]?.outcome == .reachedIsolating)
            #expect(outcomes[ids.anna]?.note == "isolating")
            #expect(outcomes[ids.anna]?.by == "tina")

            // The export: audited, written whole; a second one asks before overwriting.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-export-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("contacts.csv").path
            await c.press(.char("e"), .ctrl("u"))
            await c.type(path)
            await c.press(.enter)
            #expect(await c.until { c.state.trace.export == nil })
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(written.hasPrefix(TraceCSV.columns.joined(separator: ",") + "\r\n"))
            #expect(written.contains("+393331000002,yes,20,20,1,20,"))
            #expect(written.contains("reached_isolating,isolating,tina,"))
            let exportEntry = try #require(try d.store.auditEntries(after: 0, limit: 100).last)
            #expect(exportEntry.action == .traceExport)
            #expect(exportEntry.detail.contains(#""rows":2"#))

            try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
            await c.press(.char("e"), .ctrl("u"))
            await c.type(path)
            await c.press(.enter)
            #expect(await c.until { c.state.trace.export?.confirm != nil })
            await c.press(.char("n"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
            await c.press(.enter)
            #expect(await c.until { c.state.trace.export?.confirm != nil })
            await c.press(.char("y"))
            #expect(await c.until { c.state.trace.export == nil })
            #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
            // Only what was written was audited: two exports, the refused overwrite none.
            #expect(try d.store.auditEntries(after: 0, limit: 100).filter { $0.action == .traceExport }.count == 2)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(leftovers == ["contacts.csv"])
        }
    }

    @Test("an export that cannot be written is refused before it is audited: a folder, a name too long")
    func exportRefusedBeforeAudit() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            _ = try Self.seed(d)
            try await Self.addTracer(d)
            await c.signIn("tina")
            await c.press(.function(2))
            await c.type("333 100 0001")
            await c.press(.enter)
            await c.type("case 2026-1234")
            await c.press(.enter)
            #expect(await c.until { c.state.trace.phase == .result })
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-export-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            func exports() throws -> Int {
                try d.store.auditEntries(after: 0, limit: 100).filter { $0.action == .traceExport }.count
            }
            func export(_ path: String) async {
                await c.press(.char("e"), .ctrl("u"))
                await c.type(path)
                await c.press(.enter)
            }
            // A folder as the target: said at once, no overwrite dialog, nothing audited.
            await export(folder.path)
            #expect(await c.until { c.state.trace.export?.error != nil })
            #expect(c.state.trace.export?.confirm == nil)
            #expect(c.state.trace.export?.error?.contains("is a folder: add a file name") == true)
            #expect(try exports() == 0)
            await c.press(.escape)
            // A name longer than the file system takes.
            await export(folder.appendingPathComponent(String(repeating: "x", count: 300) + ".csv").path)
            #expect(await c.until { c.state.trace.export?.error != nil })
            #expect(c.state.trace.export?.error?.contains("too long") == true)
            #expect(try exports() == 0)
            await c.press(.escape)
            // A long name that fits: the temporary file's name stays short.
            let long = folder.appendingPathComponent(String(repeating: "y", count: 250) + ".csv").path
            await export(long)
            #expect(await c.until { c.state.trace.export == nil })
            #expect(FileManager.default.fileExists(atPath: long))
            #expect(try exports() == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
        }
    }

    @Test("a patient who registered but uploaded nothing gets a message that says what to do")
    func noUploads() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            _ = try Self.seed(d)
            try await Self.addTracer(d)
            await c.signIn("tina")
            await c.press(.function(2))
            await c.type("+39 333 100 0003")
            await c.press(.enter)
            await c.type("case 9")
            await c.press(.enter)
            #expect(await c.until { c.state.trace.phase == .result })
            #expect(c.prose.contains("uploaded no contact files yet"))
            #expect(c.prose.contains("no contact files uploaded: no contacts to show"))
        }
    }
}

@Suite("Program: contact tracing over the network", .timeLimit(.minutes(1)))
struct TraceRemoteProgramTests {
    @Test(
        "the same flow through RemoteDesk and a real server: lookup, detail, outcome, and no number in the access log")
    func remote() async throws {
        let r = try LoopbackDesk()
        let admin = try await r.desk.createFirstAdmin(name: "admin", password: Fixture.password)
        _ = try await r.desk.addStaff(admin, name: "tina", role: .tracer, password: Fixture.password)
        let ids = try TraceProgramTests.seed(r.store)
        let c = Console(r.desk)
        await c.send([])
        await c.signIn("tina")
        #expect(await c.until { c.state.page == .queue })
        await c.press(.function(2))
        #expect(await c.until { c.state.page == .trace })
        await c.type("333 100 0001")
        await c.press(.enter)
        await c.type("case 2026-1234")
        await c.press(.enter)
        #expect(await c.until { c.state.trace.phase == .result })
        #expect(c.prose.contains("23 sightings · 0 unresolved · 2 contacts, 1 close"))
        await c.press(.enter)
        #expect(await c.until { c.state.trace.detail?.sightings.count == 20 })
        await c.press(.escape, .char("o"), .down)
        await c.press(.enter)
        #expect(await c.until { c.state.trace.outcomeForm == nil })
        #expect(try r.store.contactOutcomes(patientUserID: ids.patient)[ids.anna]?.outcome == .noAnswer)
        let log = r.access.all.joined(separator: "\n")
        #expect(log.contains("POST /staff/v1/trace/lookup 200"))
        #expect(!log.contains("3331000001") && !log.contains("333 100 0001") && !log.contains("case 2026"))
    }
}

@Suite("CSV export and the atomic file write")
struct TraceCSVTests {
    @Test("fields with commas, quotes and line breaks are quoted; typed text cannot start a formula")
    func escaping() {
        #expect(TraceCSV.field("plain") == "plain")
        #expect(TraceCSV.field("a,b") == "\"a,b\"")
        #expect(TraceCSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(TraceCSV.field("two\nlines") == "\"two\nlines\"")
        #expect(TraceCSV.field("cr\r\nlf") == "\"cr\r\nlf\"")
        let contact = TraceContact(
            summary: ContactSummary(
                userID: 5, phone: PhoneNumber(e164: "+393331000002")!,
                firstSeen: Date(timeIntervalSince1970: 1_795_860_000),
                lastSeen: Date(timeIntervalSince1970: 1_795_861_140), sightings: 21, minutes: 20, days: 1,
                mostMinutesOnOneDay: 20, isCloseContact: true, timeline: []),
            outcome: RecordedOutcome(
                outcome: .noAnswer, note: "=HYPERLINK(\"x\"), call later", by: "tina",
                at: Date(timeIntervalSince1970: 1_795_900_000)))
        let csv = TraceCSV.contacts([contact])
        #expect(
            csv
                == "contact_user_id,phone,close_contact,minutes,most_minutes_on_one_day,days,sightings,first_seen,last_seen,outcome,outcome_note,outcome_by,outcome_at\r\n"
                + "5,+393331000002,yes,20,20,1,21,2026-11-28T10:00:00.000Z,2026-11-28T10:19:00.000Z,no_answer,\"'=HYPERLINK(\"\"x\"\"), call later\",tina,2026-11-28T21:06:40.000Z\r\n"
        )
    }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracedesk-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("an existing file is refused unless overwriting is asked for, and then replaced whole")
    func overwrite() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.csv").path
        try AtomicFile.write(Array("first".utf8), to: path, overwrite: false)
        #expect(throws: AtomicFile.Failure.exists(path)) {
            try AtomicFile.write(Array("second".utf8), to: path, overwrite: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
        try AtomicFile.write(Array("second".utf8), to: path, overwrite: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.csv"])
    }

    @Test("a staged file is only in place once committed; discarded, it leaves nothing")
    func staged() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.csv").path
        let first = try AtomicFile.stage(Array("x".utf8), for: path, overwrite: false)
        #expect(!AtomicFile.exists(path))
        first.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let second = try AtomicFile.stage(Array("y".utf8), for: path, overwrite: false)
        try second.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "y")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.csv"])
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.check(dir.path) }
    }

    @Test("a write that cannot happen leaves nothing behind and says what to do")
    func nothingPartial() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("no-such-folder/out.csv").path
        #expect(throws: AtomicFile.Failure.self) {
            try AtomicFile.write(Array("x".utf8), to: missing, overwrite: false)
        }
        // A read-only folder: the temporary file cannot be made, the target is not touched.
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let target = locked.appendingPathComponent("out.csv").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path) }
        if getuid() != 0 {
            do {
                try AtomicFile.write(Array("new".utf8), to: target, overwrite: true)
                Issue.record("wrote into a read-only folder")
            } catch {
                #expect(error.message.contains("choose another folder"))
            }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
            #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path) == ["out.csv"])
        }
    }
}
