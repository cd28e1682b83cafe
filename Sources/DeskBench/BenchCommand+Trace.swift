import CivilCalendar
import DeskCLI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskText
import Foundation

/// `tracedesk bench trace`: the contact-trace lookup against a national-size registry.
///
/// Registers `--users` APRICOT users of 1 000 pseudo-ids each through the store's own login
/// (10 000 users: 10 000 000 pseudo-ids), stores `--days` daily contact files of `--records`
/// records for one patient, then times `LocalDesk.traceLookup` end to end (`--runs` times,
/// median), the store's part of it, one registration with 1 000 pseudo-ids in the full store,
/// and the store's size per registered user. Users already in the store (a second run on the
/// same store) sign in again instead, which takes no new pseudo-id.
///
/// The patient's day: 20 devices heard every minute, each a person staying 10 min to 8 h
/// (three in five from a circle of 30 colleagues and family, the rest anyone), their beacon
/// changing every 5 minutes as BEACON_CHANGE_INTERVAL says; one record in twenty is a foreign
/// beacon.
extension BenchCommand {
    static func trace(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let users = try arguments.integer("users", command: command)
        let days = try arguments.integer("days", command: command)
        let records = try arguments.integer("records", command: command)
        let runs = try arguments.integer("runs", command: command)
        let json = arguments.has("json")
        let say: (String) -> Void = { line in if !json { print(line) } }

        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        do {
            let store: any Store
            if let spec = arguments.values["store"] {
                store = try StoreLocation.open(spec)
            } else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "tracedesk-bench-trace-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                temporary = folder
                store = try SQLiteStore(path: folder.appendingPathComponent("bench.sqlite").path)
            }
            // Seeded from the clock: a second run on the same store must not draw the suffixes
            // the first run's users already hold, in the same order (each would collide).
            var random = BenchRandom(seed: DispatchTime.now().uptimeNanoseconds ^ 0x5eed_2026)
            let now = Date()
            let settings = ApricotSettings()

            // 1. Users: the patient is user 0.
            say(
                tr(
                    "cli.bench.trace.registering",
                    [
                        "users": String(users), "pseudoIDsPerUser": String(settings.pseudoIDsPerUser),
                        "location": String(store.location),
                    ]))
            let seedStart = DispatchTime.now().uptimeNanoseconds
            var ids: [[PseudoID]] = []
            ids.reserveCapacity(users)
            var userIDs: [Int64] = []
            var fresh = 0
            for index in 0..<users {
                let login = try store.login(
                    phone: benchPhone(index), appID: "bench", deviceID: "bench-\(index)",
                    tokenHash: "bench-\(index)-\(UUID().uuidString)", tokenExpiresAt: now + 86_400, now: now,
                    count: settings.pseudoIDsPerUser, nextSuffix: { random.next32() })
                guard case .signedIn(let userID, let isNew, let pseudoIDs) = login else {
                    throw BenchFailure(message: "the pseudo-id space is full")
                }
                if isNew { fresh += 1 }
                ids.append(pseudoIDs)
                userIDs.append(userID)
                if !json, index > 0, index % 1_000 == 0 {
                    print(
                        tr(
                            "cli.bench.trace.progress",
                            ["users": String(index), "seconds": f3(seconds(since: seedStart))]))
                }
            }
            let seedSeconds = seconds(since: seedStart)
            say(
                tr(
                    "cli.bench.trace.registered",
                    [
                        "fresh": trCount("cli.bench.trace.fresh", fresh), "again": String(users - fresh),
                        "seconds": f3(seedSeconds),
                    ]))

            // 2. One registration with 1 000 pseudo-ids in the full store (new phones each run).
            var logins: [Double] = []
            let runTag = Int(now.timeIntervalSince1970) % 100_000
            for extra in 0..<20 {
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try store.login(
                    phone: benchPhone(2_000_000 + runTag * 20 + extra), appID: "bench", deviceID: "extra",
                    tokenHash: "bench-extra-\(UUID().uuidString)", tokenExpiresAt: now + 86_400, now: now,
                    count: settings.pseudoIDsPerUser, nextSuffix: { random.next32() })
                logins.append(milliseconds(since: started))
            }

            // 3. The patient's files.
            say(
                tr(
                    "cli.bench.trace.storingFiles",
                    [
                        "days": trCount("cli.bench.count.contactFiles", days),
                        "records": trCount("cli.bench.count.records", records),
                    ]))
            let today = now.utcDay
            var fileTimes: [Double] = []
            var sightings = 0
            for back in 0..<days {
                let day = today.adding(days: -back)
                let file = benchDay(day, records: records, ids: ids, random: &random)
                sightings += file.count
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try store.storeContactFile(
                    userID: userIDs[0], day: day, records: file, receivedAt: now,
                    clientClock: Int64(now.timeIntervalSince1970),
                    skewSeconds: 0)
                fileTimes.append(milliseconds(since: started))
            }

            // 4. The lookup, end to end in LocalDesk, and the store's part of it.
            let desk = LocalDesk(store: store, hasher: PasswordHasher(logN: 10, r: 8, p: 1))
            let tracer = try await benchTracer(desk)
            var lookups: [Double] = []
            var last: TraceLookup?
            for _ in 0..<runs {
                let started = DispatchTime.now().uptimeNanoseconds
                last = try await desk.traceLookup(tracer, phone: benchPhone(0).e164, purpose: "bench trace")
                lookups.append(milliseconds(since: started))
            }
            var reads: [Double] = []
            var owners: [Double] = []
            var distinct = 0
            for _ in 0..<runs {
                var started = DispatchTime.now().uptimeNanoseconds
                guard let patient = try store.tracePatient(phone: benchPhone(0)) else {
                    throw BenchFailure(message: "the patient vanished")
                }
                reads.append(milliseconds(since: started))
                var suffixes = Set<UInt32>()
                for file in patient.files {
                    var offset = 0
                    while offset < file.bytes.count {
                        if let id = PseudoID(beacon: file.bytes[offset..<offset + 20]) { suffixes.insert(id.suffix) }
                        offset += ContactFile.recordSize
                    }
                }
                distinct = suffixes.count
                started = DispatchTime.now().uptimeNanoseconds
                _ = try store.owners(ofSuffixes: Array(suffixes))
                owners.append(milliseconds(since: started))
            }

            // 5. Size.
            let info = try store.info()
            let registered = try store.pseudoIDCapacity().used / Int64(settings.pseudoIDsPerUser)
            func bytes(_ names: [String]) -> Int64 {
                info.tables.filter { names.contains($0.name) }.reduce(0) { $0 + ($1.bytes ?? 0) }
            }
            let userBytes = bytes(["apricot_users", "pseudo_ids", "apricot_tokens"])
            let perUser = registered > 0 ? Double(userBytes) / Double(registered) : 0
            let fileBytes = bytes(["contact_files"])

            let lookupMedian = staffPercentile(lookups, 0.5)
            let contacts = last?.contacts.count ?? 0
            let close = last?.contacts.filter(\.summary.isCloseContact).count ?? 0
            if json {
                print(
                    #"{"store":"\#(info.adapter)","users":\#(users),"pseudo_ids":\#(registered * Int64(settings.pseudoIDsPerUser)),"seed_s":\#(f3(seedSeconds)),"days":\#(days),"records_per_day":\#(records),"sightings":\#(sightings),"distinct_pseudo_ids_heard":\#(distinct),"contacts":\#(contacts),"close_contacts":\#(close),"unresolved":\#(last?.unresolved ?? 0),"lookup_runs":\#(runs),"lookup_median_ms":\#(f3(lookupMedian)),"lookup_min_ms":\#(f3(lookups.min() ?? 0)),"lookup_max_ms":\#(f3(lookups.max() ?? 0)),"read_patient_median_ms":\#(f3(staffPercentile(reads, 0.5))),"resolve_owners_median_ms":\#(f3(staffPercentile(owners, 0.5))),"store_file_median_ms":\#(f3(staffPercentile(fileTimes, 0.5))),"login_1000_median_ms":\#(f3(staffPercentile(logins, 0.5))),"login_1000_p95_ms":\#(f3(staffPercentile(logins, 0.95))),"bytes_per_user":\#(Int(perUser)),"contact_file_bytes":\#(fileBytes),"total_bytes":\#(info.totalBytes)}"#
                )
            } else {
                print(
                    tr(
                        "cli.bench.trace.store",
                        [
                            "adapter": String(info.adapter), "users": String(registered),
                            "pseudoIDs": String(registered * Int64(settings.pseudoIDsPerUser)),
                        ]))
                print(
                    tr(
                        "cli.bench.trace.patient",
                        [
                            "days": trCount("cli.bench.count.files", days),
                            "sightings": trCount("cli.bench.count.sightings", sightings),
                            "distinct": trCount("cli.bench.trace.distinct", distinct),
                            "contacts": trCount("cli.bench.count.contacts", contacts),
                            "close": trCount("cli.bench.trace.close", close),
                            "unresolved": trCount("cli.bench.trace.unresolved", last?.unresolved ?? 0),
                        ]))
                print(
                    tr(
                        "cli.bench.trace.lookup",
                        [
                            "runs": trCount("cli.bench.count.runs", runs), "median": f3(lookupMedian),
                            "min": f3(lookups.min() ?? 0),
                            "max": f3(lookups.max() ?? 0),
                        ]))
                print(
                    tr(
                        "cli.bench.trace.lookupStore",
                        ["read": f3(staffPercentile(reads, 0.5)), "owners": f3(staffPercentile(owners, 0.5))]))
                print(
                    tr(
                        "cli.bench.trace.registration",
                        [
                            "pseudoIDsPerUser": String(settings.pseudoIDsPerUser),
                            "median": f3(staffPercentile(logins, 0.5)), "p95": f3(staffPercentile(logins, 0.95)),
                        ]))
                print(
                    tr(
                        "cli.bench.trace.storeFile",
                        [
                            "records": trCount("cli.bench.count.records", records),
                            "median": f3(staffPercentile(fileTimes, 0.5)),
                        ]))
                print(
                    tr(
                        "cli.bench.trace.size",
                        [
                            "perUser": String(Int(perUser)), "fileBytes": String(fileBytes),
                            "totalBytes": String(info.totalBytes),
                        ]))
            }
            return .success
        } catch let error as StoreError {
            printError("bench trace: \(error.message)")
            return .storeUnavailable
        } catch let error as ServiceError {
            printError("bench trace: \(error.message)")
            return .storeUnavailable
        } catch let error as BenchFailure {
            printError("bench trace: \(error.message)")
            return .refused
        } catch {
            printError("bench trace: \(error)")
            return .refused
        }
    }

    /// "+39 3xx…": one number per index.
    static func benchPhone(_ index: Int) -> PhoneNumber {
        let digits = String(index)
        return PhoneNumber(e164: "+393" + String(repeating: "0", count: 9 - digits.count) + digits)!
    }

    /// A tracer's session on `desk`: the bench's admin made (or signed in), the tracer added.
    static func benchTracer(_ desk: LocalDesk) async throws -> StaffSession {
        let password = "bench trace password"
        let admin: StaffSession
        if try await desk.needsFirstAdmin() {
            admin = try await desk.createFirstAdmin(name: "bench-admin", password: password)
        } else {
            admin = try await desk.signIn(name: "bench-admin", password: password)
        }
        if try await !desk.staff(admin).contains(where: { $0.name == "bench-tracer" }) {
            _ = try await desk.addStaff(admin, name: "bench-tracer", role: .tracer, password: password)
        }
        return try await desk.signIn(name: "bench-tracer", password: password)
    }

    /// One day of the patient's records (see the type's comment), times in the day.
    static func benchDay(
        _ day: CivilDay, records: Int, ids: [[PseudoID]], random: inout BenchRandom
    ) -> [ContactRecord] {
        // The patient is ids[0]; fewer users than the circle make the circle everyone else.
        let circle = min(30, ids.count - 1)
        let slots = 20
        let perMinute = max(1, (records + 1_439) / 1_440)
        let midnight = day.unixSecondsAtMidnightUTC
        // Who stays in each slot from which minute: stays of 10 min to 8 h, back to back.
        var stays: [[(from: Int, user: Int)]] = Array(repeating: [], count: slots)
        for slot in 0..<slots {
            var minute = 0
            while minute < 1_440 {
                let user =
                    random.next32() % 5 < 3
                    ? 1 + Int(random.next32()) % circle : 1 + Int(random.next32()) % (ids.count - 1)
                stays[slot].append((minute, user))
                minute += 10 + Int(random.next32() % 470)
            }
        }
        var out: [ContactRecord] = []
        out.reserveCapacity(records)
        var cursor = Array(repeating: 0, count: slots)
        for minute in 0..<1_440 {
            for slot in 0..<min(slots, perMinute) {
                guard out.count < records else { return out }
                while cursor[slot] + 1 < stays[slot].count, stays[slot][cursor[slot] + 1].from <= minute {
                    cursor[slot] += 1
                }
                let time = UInt32(midnight + Int64(minute * 60 + slot))
                if random.next32() % 20 == 0 {
                    var beacon = [UInt8](repeating: 0, count: 20)
                    for index in 0..<20 { beacon[index] = UInt8(truncatingIfNeeded: random.next32()) }
                    beacon[0] = 0x42
                    out.append(ContactRecord(beacon: beacon, time: time))
                } else {
                    let user = stays[slot][cursor[slot]].user
                    // The beacon changes every 5 minutes, through the user's pseudo-ids in turn.
                    let index = (day.daysSinceEpoch * 288 + minute / 5) % ids[user].count
                    out.append(ContactRecord(beacon: ids[user][index].bytes, time: time))
                }
            }
        }
        // More records than 20 a minute: the rest repeat the day from its start.
        while out.count < records { out.append(out[out.count % max(1, out.count)]) }
        return out
    }

    /// SplitMix64: fast (the server draws its suffixes from the system's secure random source).
    struct BenchRandom {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next32() -> UInt32 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt32(truncatingIfNeeded: (z ^ (z >> 31)) >> 16)
        }
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
