import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskSimulation

/// A real `tracedesk serve` in-process for the simulated phones: both listeners on 127.0.0.1
/// ephemeral ports, a real SQLite file, a signing key, no answer delays, and no per-address
/// limit on APRICOT codes (every simulated phone asks from 127.0.0.1).
final class SimulationServer: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStore
    let server: TraceDeskServer
    /// The simulated hospital's HIS client key.
    let hisKey: String

    var phone: URL { URL(string: "http://127.0.0.1:\(server.phonePort)")! }
    var internalURL: URL { URL(string: "http://127.0.0.1:\(server.internalPort)")! }

    /// With `attested`, the server accepts the simulated phones' attestations (as the demo's).
    init(attested: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-simulation-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("tracedesk.sqlite").path)
        hisKey = HISKey.make()
        _ = try store.addHISClient(
            name: "sim-hospital", keyHash: HISKey.hash(hisKey), ratePerMinute: 100_000, by: "boss", now: Date())
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
        config.checkDelayMeanMs = 0
        config.checkDelaySdMs = 0
        config.apricotOTPPerAddressPerHour = 0
        var check: ImmuniAPI.AttestationCheck?
        var nonce: ImmuniAPI.NonceMaker?
        if attested {
            check = { attestation, nonce in
                SimulatedAttestation.accepts(attestation, nonce: nonce) ? .success(()) : .failure(.signatureInvalid)
            }
            nonce = { _, salt in SimulatedAttestation.nonce(salt: salt) }
        }
        server = try TraceDeskServer(
            config: config, store: store, appSettingsPath: nil, attestationCheck: check, nonce: nonce,
            signing: ChunkSigning(key: ECPrivateKey.generate()), accessLog: nil, hasher: TestHashing.cheap,
            log: { _ in })
        try server.start(runningJobs: false)
    }

    deinit {
        server.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("Simulated phones against a real server on loopback", .serialized, .timeLimit(.minutes(3)))
struct SimulationTests {
    /// A cap on a run that ``finished(_:_:when:)`` ends once it has done its part: never reached
    /// unless something is stuck.
    static let cap: Duration = .seconds(120)

    static func shortPlan(seed: UInt64 = 7) -> SimulationPlan {
        var plan = SimulationPlan()
        plan.duration = cap
        plan.immuniPerMinute = 120
        plan.dummySessionsPerReal = 1
        plan.checkToUploadSeconds = 0...0.2
        plan.apricotUsers = 12
        plan.positiveShare = 0.25
        plan.contactDays = 2
        plan.contactUploadEverySeconds = 0
        plan.seed = seed
        return plan
    }

    /// Runs `simulation` until `done` holds for what it has done so far (its counts and its
    /// requests), then ends it as its duration would and returns its result. So the run is
    /// bounded by what the test needs from it, not by a wall-clock guess that a loaded machine
    /// outruns. Waits up to 60 s; past that, fails saying what it waited for (`what`).
    static func finished(
        _ simulation: Simulation, _ what: String,
        when done: @escaping @Sendable (Counts.Values, SimulationSummary) -> Bool
    ) async throws -> SimulationResult {
        let running = Task { await simulation.run() }
        do {
            try await eventually(within: .seconds(60), what) {
                done(simulation.counts.snapshot(), simulation.recorder.snapshot())
            }
        } catch {
            simulation.finish()
            let result = await running.value
            Issue.record("the run so far: \(result.summary.lines.joined(separator: "\n"))")
            throw error
        }
        simulation.finish()
        return await running.value
    }

    @Test("a short run yields the events of each flow, a chunk, and a contact the tracer finds")
    func shortRun() async throws {
        let fixture = try SimulationServer()
        let simulation = Simulation(
            plan: Self.shortPlan(),
            targets: SimulationTargets(
                phoneAPI: fixture.phone, hisAPI: fixture.internalURL, codes: StoreOutboxCodes(store: fixture.store),
                hisKey: fixture.hisKey))
        // Each flow once: a citizen's upload, a dummy session, and the positive patients' round
        // of contact files (the one round: no re-uploads in this plan).
        let result = try await Self.finished(
            simulation, "a citizen's upload, a dummy check-otp and the round of contact files"
        ) { counts, summary in
            counts.uploads >= 1 && counts.contactRounds >= 1
                && summary.endpoints.contains { $0.name == "check-otp (dummy)" }
        }

        #expect(result.summary.errors.isEmpty, "\(result.summary.lines.joined(separator: "\n"))")
        #expect(result.citizens >= 1)
        #expect(result.uploadsAccepted == result.citizens)
        #expect(result.registered.count == 12)
        #expect(result.positives.count == 3)
        // Known before the run (the demo names them to the tracer).
        #expect(
            result.positives
                == Simulation.positiveIndices(Self.shortPlan()).map { Simulation.phoneNumber(seed: 7, index: $0) })
        #expect(result.contactFiles >= 3)

        let kinds = Set(try fixture.store.events(after: 0, limit: 100_000).map(\.kind.rawValue))
        for kind in ["otp_authorized", "otp_checked", "upload_accepted", "apricot_registered", "contact_file_received"]
        {
            #expect(kinds.contains(kind), "no \(kind) event; got \(kinds.sorted())")
        }
        // Dummy sessions are counted, never shown as events.
        #expect(result.summary.endpoints.contains { $0.name == "check-otp (dummy)" })

        // Keys of past days are past their embargo: the publishing job makes a chunk of them.
        let run = try #require(fixture.server.jobs.publishNow())
        #expect(run.published.count >= 1)

        // The tracer's lookup of a positive patient finds people the mobility model put near them.
        let desk = LocalDesk(store: fixture.store, hasher: PasswordHasher(logN: 10))
        let password = "correct horse battery staple"
        let admin = try await desk.createFirstAdmin(name: "admin", password: password)
        _ = try await desk.addStaff(admin, name: "tina", role: .tracer, password: password)
        let tracer = try await desk.signIn(name: "tina", password: password)
        // Housemates spend yesterday's night and evening together (12.5 hours): each positive
        // patient's housemates are close contacts. The seed fixes who lives with whom.
        let model = MobilityModel(people: 12, seed: 7)
        let known = Set(result.registered.map(\.phone))
        var housemates = 0
        for phone in result.positives {
            let lookup = try await desk.traceLookup(tracer, phone: phone, purpose: "simulation test")
            for contact in lookup.contacts { #expect(known.contains(contact.summary.phone.e164)) }
            let index = try #require((0..<12).first { Simulation.phoneNumber(seed: 7, index: $0) == phone })
            for other in 0..<12 where other != index && model.households[other] == model.households[index] {
                housemates += 1
                let contact = lookup.contacts.first {
                    $0.summary.phone.e164 == Simulation.phoneNumber(seed: 7, index: other)
                }
                #expect(contact?.summary.isCloseContact == true, "housemate \(other) of \(index)")
            }
        }
        #expect(housemates >= 1, "seed 7 gives a positive patient who lives with someone")
    }

    @Test("operational info: kept by a server that accepts the simulated attestation, discarded by one without")
    func analytics() async throws {
        var plan = SimulationPlan()
        plan.duration = Self.cap
        plan.immuniPerMinute = 0
        plan.apricotUsers = 0
        plan.analyticsPerMinute = 600
        for attested in [true, false] {
            let fixture = try SimulationServer(attested: attested)
            let result = try await Self.finished(
                Simulation(plan: plan, targets: SimulationTargets(phoneAPI: fixture.phone, hisAPI: nil, codes: nil)),
                "three operational-info records answered"
            ) { counts, _ in counts.analytics >= 3 }
            #expect(result.summary.errors.isEmpty, "\(result.summary.lines.joined(separator: "\n"))")
            #expect(result.analyticsSent >= 1)
            // The attestation is checked after the 204: wait for the records to land (up to 30 s
            // on a loaded machine; an attested server's records usually land within milliseconds).
            func kept() throws -> Int {
                try fixture.store.events(after: 0, limit: 10_000).filter { $0.kind.rawValue == "analytics_received" }
                    .count
            }
            if attested {
                try await eventually(within: .seconds(60), "\(result.analyticsSent) operational-info records kept") {
                    try kept() == result.analyticsSent
                }
            } else {
                // Discarded: every verdict given (counted by the server), none kept.
                let server = fixture.server
                try await eventually(within: .seconds(60), "\(result.analyticsSent) Android records given a verdict") {
                    server.metrics.render().contains("discarded_not_configured\"} \(result.analyticsSent)")
                }
            }
            #expect(try kept() == (attested ? result.analyticsSent : 0))
        }
    }

    @Test("an upload request is padded to the apps' 110 000 bytes")
    func padding() throws {
        var random = SeededRandom(seed: 1)
        let url = URL(string: "http://127.0.0.1:8080/v1/ingestion/upload")!
        let headers = [
            "Content-Type": "application/json; charset=utf-8",
            "Authorization": "Bearer " + String(repeating: "a", count: 64),
            "Immuni-Dummy-Data": "0", "Immuni-Client-Clock": "1796000000",
        ]
        let body = ImmuniPhone.padded(
            ImmuniPhone.uploadFields(now: Date(), random: &random), url: url, headers: headers)
        let headerBytes = headers.reduce(0) { $0 + $1.key.utf8.count + 2 + $1.value.utf8.count + 2 }
        #expect(url.absoluteString.utf8.count + 4 + headerBytes + body.count == ImmuniPhone.packetSize)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect((object["teks"] as? [Any])?.count == 14)
    }

    @Test("the same seed makes the same people and the same day; another seed another")
    func mobilityIsSeeded() {
        let day = CivilDay(year: 2026, month: 11, day: 29)!
        let one = MobilityModel(people: 40, seed: 3)
        let again = MobilityModel(people: 40, seed: 3)
        let other = MobilityModel(people: 40, seed: 4)
        #expect(one.households == again.households)
        #expect(one.encounters(on: day) == again.encounters(on: day))
        #expect(one.encounters(on: day) != other.encounters(on: day))
        #expect(one.encounters(on: day) != one.encounters(on: day.adding(days: 1)))
        for encounter in one.encounters(on: day) {
            #expect(encounter.a != encounter.b)
            #expect(0 <= encounter.start && encounter.start < encounter.end && encounter.end <= 86_400)
        }
    }

    @Test("records follow the other phone's beacons, one per scan, changing every interval")
    func records() {
        let day = CivilDay(year: 2026, month: 11, day: 29)!
        let model = MobilityModel(people: 2, seed: 1)
        let beacons = (0..<4).map { PseudoID(suffix: UInt32($0)).bytes }
        let identities = [0, 1].map {
            ApricotIdentity(
                phone: Simulation.phoneNumber(seed: 1, index: $0), appID: "a", deviceID: "d\($0)", userID: Int64($0),
                token: "t", pseudoIDs: beacons)
        }
        var settings = ApricotAppSettings()
        settings.beaconDetectSeconds = 60
        settings.beaconChangeSeconds = 300
        let end = day.unixSecondsAtMidnightUTC + 86_400
        let records = model.records(of: 0, on: day, until: end, identities: identities, settings: settings)
        let minutes = model.encounters(on: day).filter { $0.a == 0 || $0.b == 0 }.reduce(0) {
            $0 + ($1.end + 59) / 60 - ($1.start + 59) / 60
        }
        #expect(records.count == minutes)
        for record in records {
            #expect(record.time % 60 == 0)
            #expect(record.beacon == beacons[Int((Int64(record.time) / 300) % 4)])
        }
        #expect(Simulation.phoneNumber(seed: 1, index: 5) == "+999000010000005")
    }

    @Test("simulated phone numbers are +999 (unassigned: no SMS reaches anyone), valid, one set per seed")
    func phoneNumbers() {
        let seeds: [UInt64] = [0, 1, 7, 101, 99_999, 100_000, 100_001, 123_456_789, UInt64.max]
        var seen: Set<String> = []
        for seed in seeds {
            for index in [0, 1, 42, 9_999_999] {
                let number = Simulation.phoneNumber(seed: seed, index: index)
                #expect(number.hasPrefix("+999"), "\(seed) \(index)")
                #expect(PhoneNumber(e164: number)?.e164 == number, "\(seed) \(index)")
                #expect(seen.insert(number).inserted, "\(seed) \(index) repeats another seed's number")
            }
        }
        // Seeds equal mod 100 (and mod 100 000) make other people.
        #expect(Simulation.phoneNumber(seed: 1, index: 0) != Simulation.phoneNumber(seed: 101, index: 0))
        #expect(Simulation.phoneNumber(seed: 5, index: 3) != Simulation.phoneNumber(seed: 100_005, index: 3))
    }

    @Test("Immuni codes and keys change from run to run unless the seed was given")
    func immuniNonce() throws {
        let targets = SimulationTargets(phoneAPI: URL(string: "http://127.0.0.1:1")!, hisAPI: nil, codes: nil)
        var plan = SimulationPlan()
        plan.seed = 9
        let one = Simulation(plan: plan, targets: targets)
        let two = Simulation(plan: plan, targets: targets)
        #expect(one.immuniSeed != two.immuniSeed)
        plan.seedGiven = true
        #expect(Simulation(plan: plan, targets: targets).immuniSeed == 9)
        #expect(Simulation(plan: plan, targets: targets).immuniSeed == 9)
    }

    @Test("an outbox that cannot be read, or without the codes, is an error: no phone signs in")
    func outboxFailures() async throws {
        let fixture = try SimulationServer()
        var plan = SimulationPlan()
        // No Immuni traffic and no phone that signs in: the run ends when registration has
        // failed, long before this cap.
        plan.duration = Self.cap
        plan.immuniPerMinute = 0
        plan.apricotUsers = 3
        // A signed-out admin's session: every read of the outbox is refused.
        let desk = LocalDesk(store: fixture.store, hasher: PasswordHasher(logN: 10))
        let admin = try await desk.createFirstAdmin(name: "admin", password: "correct horse battery staple")
        try await desk.signOut(admin)
        let refused = await Simulation(
            plan: plan,
            targets: SimulationTargets(
                phoneAPI: fixture.phone, hisAPI: nil, codes: StaffOutboxCodes(desk: desk, session: admin))
        ).run()
        #expect(refused.registered.isEmpty)
        #expect(refused.summary.errors["apricot outbox could not be read"] == 3, "\(refused.summary.lines)")

        // Another store's outbox (a typo in --store): the codes are not there. (Other phones: the
        // first ones have just asked for a code.)
        let other = try SimulationServer()
        plan.seed = 2
        let missing = await Simulation(
            plan: plan,
            targets: SimulationTargets(
                phoneAPI: fixture.phone, hisAPI: nil, codes: StoreOutboxCodes(store: other.store))
        ).run()
        #expect(missing.registered.isEmpty)
        #expect(missing.summary.errors["apricot code not found in the outbox"] == 3, "\(missing.summary.lines)")
    }

    @Test("a short run with a large town stops registering and uploading at its end")
    func boundedRun() async throws {
        let fixture = try SimulationServer()
        var plan = SimulationPlan()
        plan.duration = .seconds(2)
        plan.immuniPerMinute = 0
        plan.apricotUsers = 4_000
        plan.positiveShare = 0.5
        plan.contactDays = 14
        plan.contactUploadEverySeconds = 0
        plan.maxInFlight = 4
        plan.seed = 11
        let result = await Simulation(
            plan: plan,
            targets: SimulationTargets(
                phoneAPI: fixture.phone, hisAPI: nil, codes: StoreOutboxCodes(store: fixture.store))
        )
        .run()
        let returned = Date()
        // Stopped (its duration is the only end it was given) before every phone registered and
        // every positive uploaded every day.
        #expect(result.registered.count + result.contactFiles < 4_000 + 2_000 * 14)
        // Nothing it began outlived it: the run returned only once the requests in flight at its
        // end were answered, so the server's last APRICOT event is not after the return. (An
        // order on one clock, not a duration.)
        let apricot = try fixture.store.events(after: 0, limit: 1_000_000).filter {
            $0.kind.rawValue.hasPrefix("apricot") || $0.kind.rawValue == "contact_file_received"
        }
        let last = try #require(apricot.map(\.at).max())
        #expect(last <= returned, "last APRICOT event \(last), run returned \(returned)")
    }
}
