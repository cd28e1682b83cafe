import CivilCalendar
import DeskCore
import DeskCrypto
import Foundation

/// How much a simulation does, and for how long. Every figure is bounded; the same seed gives
/// the same phones and encounters, and, when ``seedGiven``, the same Immuni codes and keys.
public struct SimulationPlan: Sendable {
    /// How long the run lasts, at most (``Simulation/finish()`` ends it earlier): no session,
    /// registration or contact upload starts after it (those in flight finish, each request
    /// within the client's timeouts).
    public var duration: Duration = .seconds(60)
    /// Real Immuni citizens a minute: each one's code is authorised by the simulated HIS
    /// (`POST /v1/otp` on the internal listener), then the phone checks it and uploads.
    public var immuniPerMinute: Double = 6
    /// Dummy sessions (check-otp, then usually an upload, both dummy) per real citizen. The apps
    /// make dummy traffic so that real uploads do not stand out; 4 keeps real traffic a fifth
    /// of the ingestion requests.
    public var dummySessionsPerReal: Double = 4
    /// When set, dummy sessions come from a population of this many installed apps instead:
    /// each app starts one on average every ``dummySessionMeanSeconds`` (the apps'
    /// `dummy_teks_average_opportunity_waiting_time`, 60 days), whatever the real citizens do.
    public var immuniPopulation: Int?
    /// The apps' mean wait between dummy sessions (immuni-facts §7: 5 184 000 s).
    public static let dummySessionMeanSeconds: Double = 5_184_000
    /// The chance that a dummy session goes on to a dummy upload (the apps' 0.95).
    public var dummyUploadChance: Double = 0.95
    /// Seconds between a citizen's check-otp and upload (the citizen confirms on the phone).
    public var checkToUploadSeconds: ClosedRange<Double> = 0.5...3
    /// APRICOT phones to register (each asks for a code, reads it, signs in).
    public var apricotUsers: Int = 20
    /// The share of registered APRICOT users who test positive and upload their contact files
    /// (at least one when any registered).
    public var positiveShare: Double = 0.1
    /// Days of contact files each positive patient uploads, today's included.
    public var contactDays: Int = 2
    /// Seconds between a positive patient's uploads of today's growing file. Each upload counts
    /// against the server's `apricot_uploads_per_hour` (60 per sign-in), with the first
    /// `contactDays` files: 120 s keeps a long run well inside it.
    public var contactUploadEverySeconds: Double = 120
    /// Android operational-info records a minute (a Poisson process). 0 by default: a server
    /// keeps them only after a SafetyNet check a simulated phone cannot pass, except the demo's
    /// (``SimulatedAttestation``).
    public var analyticsPerMinute: Double = 0
    /// The seed of every random draw.
    public var seed: UInt64 = 1
    /// Whether the seed was chosen by the caller (`--seed`). When false, a nonce drawn for each
    /// run is mixed into the Immuni codes, keys and salts, so that runs against the same server
    /// do not send the same keys again; phones, positives, encounters and timing still follow
    /// the seed. When true, everything follows the seed.
    public var seedGiven = false
    /// At most this many sessions at once; a session due when this many run is skipped (noted).
    public var maxInFlight: Int = 32

    public init() {}
}

/// Where the simulated phones and the simulated HIS send their requests.
public struct SimulationTargets: Sendable {
    /// The public listener (Immuni and APRICOT API), e.g. http://127.0.0.1:8080.
    public var phoneAPI: URL
    /// The internal listener, for the HIS's `POST /v1/otp`; nil: no real Immuni citizens (only
    /// dummy traffic), noted in the summary.
    public var hisAPI: URL?
    /// Where APRICOT phones read their SMS code; nil: no APRICOT phones, noted in the summary.
    public var codes: (any ApricotCodeSource)?
    /// The simulated hospital's API key (`tracedesk his add`), sent as `Authorization: Bearer`
    /// on `POST /v1/otp`; nil for a server whose `his_auth` is `none`.
    public var hisKey: String?

    public init(phoneAPI: URL, hisAPI: URL?, codes: (any ApricotCodeSource)?, hisKey: String? = nil) {
        self.phoneAPI = phoneAPI
        self.hisAPI = hisAPI
        self.codes = codes
        self.hisKey = hisKey
    }
}

/// What a run did, beyond the request counts.
public struct SimulationResult: Sendable {
    public var summary: SimulationSummary
    /// Real Immuni citizens started, and those whose upload was accepted.
    public var citizens: Int
    public var uploadsAccepted: Int
    /// The APRICOT phones that signed in.
    public var registered: [ApricotIdentity]
    /// Phone numbers (E.164) of the positive patients whose files were uploaded.
    public var positives: [String]
    /// Contact files the server accepted.
    public var contactFiles: Int
    /// Operational-info records sent and answered 204 (whether the server kept them is its
    /// attestation check's business).
    public var analyticsSent: Int
}

/// A bounded run of simulated phones against a server, over real HTTP.
///
/// Immuni: real citizens arrive as a Poisson process at ``SimulationPlan/immuniPerMinute``, the
/// first at once; dummy sessions arrive likewise at `dummySessionsPerReal` times that rate, or
/// from `immuniPopulation` apps at the apps' own rate.
/// APRICOT: at the start, ``SimulationPlan/apricotUsers`` phones register; the positive ones
/// upload the files of the last ``SimulationPlan/contactDays`` days built by ``MobilityModel``,
/// then today's growing file again every ``SimulationPlan/contactUploadEverySeconds`` until the
/// run ends. Progress: ``recorder``'s ``SimulationRecorder/snapshot()`` at any time.
public final class Simulation: Sendable {
    public let plan: SimulationPlan
    public let targets: SimulationTargets
    public let recorder = SimulationRecorder()
    let client: SimulationClient
    let now: @Sendable () -> Date
    /// The seed of the Immuni codes, keys and salts: the plan's, with a per-run nonce unless the
    /// seed was given (``SimulationPlan/seedGiven``).
    let immuniSeed: UInt64
    let counts = Counts()
    private let end = RunEnd()

    public init(plan: SimulationPlan, targets: SimulationTargets, now: @escaping @Sendable () -> Date = { Date() }) {
        self.plan = plan
        self.targets = targets
        self.now = now
        immuniSeed = plan.seedGiven ? plan.seed : plan.seed ^ UInt64.random(in: 1...UInt64.max)
        client = SimulationClient(recorder: recorder, maxConnections: max(8, plan.maxInFlight * 2))
    }

    /// Runs the plan to its end (its duration, or ``finish()``) or until the task is cancelled,
    /// and says what happened.
    public func run() async -> SimulationResult {
        end.begin(lasting: plan.duration)
        async let apricot = apricotPart()
        async let analytics: Void = analyticsPart()
        await immuniPart()
        await analytics
        let (registered, positives) = await apricot
        return SimulationResult(
            summary: recorder.snapshot(), citizens: counts.value(\.citizens),
            uploadsAccepted: counts.value(\.uploads), registered: registered, positives: positives,
            contactFiles: counts.value(\.files), analyticsSent: counts.value(\.analytics))
    }

    /// Ends the run now, as its duration would: no session, registration batch, contact upload
    /// or round starts after it; those in flight finish, and so does a wait between two
    /// sessions or rounds already begun. For a caller that ends a run once it has done what
    /// the caller needs (``counts`` says), whatever the machine's speed.
    func finish() { end.finish() }

    /// Rounds of APRICOT contact uploads over so far: from 1 on, every positive patient's files
    /// of the first round were sent (what the demo waits for before it opens their cases).
    public var contactRoundsDone: Int { counts.value(\.contactRounds) }

    // MARK: Immuni

    func immuniPart() async {
        let realRate = max(0, plan.immuniPerMinute) / 60
        let dummyRate =
            plan.immuniPopulation.map { Double(max(0, $0)) / SimulationPlan.dummySessionMeanSeconds }
            ?? realRate * max(0, plan.dummySessionsPerReal)
        guard realRate + dummyRate > 0 else { return }
        if targets.hisAPI == nil { recorder.note("no internal listener given: dummy Immuni traffic only") }
        let phone = ImmuniPhone(client: client, phoneAPI: targets.phoneAPI)
        var schedule = SeededRandom(seed: plan.seed, stream: 1)
        await withTaskGroup(of: Void.self) { group in
            var due = ContinuousClock.now
            var session: UInt64 = 0
            var first = true
            while end.admits(due), !Task.isCancelled {
                try? await Task.sleep(until: due, clock: .continuous)
                // Finished while waiting for it: the session is not started.
                if !end.admits(due) { break }
                let real =
                    (first && realRate > 0)
                    || Double.random(in: 0..<(realRate + dummyRate), using: &schedule) < realRate
                first = false
                session += 1
                if counts.begin(limit: plan.maxInFlight) {
                    let stream = session
                    if real && targets.hisAPI != nil {
                        group.addTask { await self.citizen(phone, stream: stream) }
                    } else {
                        group.addTask { await self.dummy(phone, stream: stream) }
                    }
                } else {
                    recorder.note("session skipped: \(plan.maxInFlight) already in flight")
                }
                due = due + .milliseconds(Int64(schedule.exponential(mean: 1 / (realRate + dummyRate)) * 1_000))
            }
            await group.waitForAll()
        }
    }

    func citizen(_ phone: ImmuniPhone, stream: UInt64) async {
        defer { counts.end() }
        guard let his = targets.hisAPI else { return }
        var random = SeededRandom(seed: immuniSeed, stream: 1_000_000 + stream)
        let code = ImmuniPhone.randomCode(using: &random)
        counts.add(\.citizens)
        let today = CivilDay(unixSeconds: Int64(now().timeIntervalSince1970))
        let onset = today.adding(days: -Int.random(in: 0...4, using: &random))
        let body = try? JSONSerialization.data(withJSONObject: ["otp": code, "symptoms_started_on": onset.iso])
        var headers = ["Content-Type": "application/json"]
        if let key = targets.hisKey { headers["Authorization"] = "Bearer \(key)" }
        let authorized = await client.send(
            "his otp", "POST", his.appendingPathComponent("v1/otp"), headers: headers, body: body, expected: [204])
        guard authorized?.status == 204 else { return }
        let token = SHA256.hex(code)
        guard await phone.checkOtp(token: token, dummy: false)?.status == 204 else { return }
        let wait = Double.random(in: plan.checkToUploadSeconds, using: &random)
        try? await Task.sleep(for: .milliseconds(Int64(wait * 1_000)))
        let fields = ImmuniPhone.uploadFields(now: now(), random: &random)
        if await phone.upload(token: token, dummy: false, body: fields, clientClock: now())?.status == 204 {
            counts.add(\.uploads)
        }
    }

    func dummy(_ phone: ImmuniPhone, stream: UInt64) async {
        defer { counts.end() }
        var random = SeededRandom(seed: immuniSeed, stream: 2_000_000 + stream)
        await phone.dummySession(
            now: now, uploadChance: plan.dummyUploadChance, wait: plan.checkToUploadSeconds, random: &random)
    }

    func analyticsPart() async {
        let rate = max(0, plan.analyticsPerMinute) / 60
        guard rate > 0 else { return }
        let phone = ImmuniPhone(client: client, phoneAPI: targets.phoneAPI)
        var schedule = SeededRandom(seed: plan.seed, stream: 4)
        var due = ContinuousClock.now
        var record: UInt64 = 0
        while end.admits(due), !Task.isCancelled {
            try? await Task.sleep(until: due, clock: .continuous)
            if Task.isCancelled || !end.admits(due) { break }
            record += 1
            var random = SeededRandom(seed: immuniSeed, stream: 3_000_000 + record)
            if await phone.operationalInfo(now: now(), random: &random) { counts.add(\.analytics) }
            due = due + .milliseconds(Int64(schedule.exponential(mean: 1 / rate) * 1_000))
        }
    }

    // MARK: APRICOT

    /// The phone number of simulated user `index`: +999 (a country code the ITU keeps
    /// unassigned, so no SMS gateway can reach anyone with it), a 5-digit block for the seed,
    /// then the index in 7 digits: 15 digits, E.164's most. The block is the seed itself below
    /// 100 000, else a mix of the whole seed, so that runs with other seeds make other people
    /// (seeds equal mod 100 included). docs/decisions.md, "Simulated phone numbers are +999".
    public static func phoneNumber(seed: UInt64, index: Int) -> String {
        "+999" + String(format: "%05d", Int(seedBlock(seed))) + String(format: "%07d", index % 10_000_000)
    }

    static func seedBlock(_ seed: UInt64) -> UInt64 {
        if seed < 100_000 { return seed }
        var mixer = SeededRandom(seed: seed, stream: 0x5048_4F4E)
        return mixer.next() % 100_000
    }

    /// Which APRICOT users (by index) are positive patients: ``SimulationPlan/positiveShare`` of
    /// them (at least one), drawn from the seed, known before the run so that a demo can name
    /// them to the tracer.
    public static func positiveIndices(_ plan: SimulationPlan) -> [Int] {
        guard plan.apricotUsers > 0 else { return [] }
        var random = SeededRandom(seed: plan.seed, stream: 3)
        let count = max(1, Int((Double(plan.apricotUsers) * plan.positiveShare).rounded()))
        return Array((0..<plan.apricotUsers).shuffled(using: &random).prefix(count)).sorted()
    }

    func apricotPart() async -> ([ApricotIdentity], [String]) {
        guard plan.apricotUsers > 0 else { return ([], []) }
        guard let codes = targets.codes else {
            recorder.note("no way to read SMS codes given: no APRICOT phones")
            return ([], [])
        }
        let phone = ApricotPhone(client: client, phoneAPI: targets.phoneAPI)
        let settings = await phone.settings() ?? ApricotAppSettings()
        // Registration: batches of at most ApricotPhone.batchLimit phones that share one read of
        // the outbox, at most maxInFlight requests at once; none starts after the end.
        var identities = [ApricotIdentity?](repeating: nil, count: plan.apricotUsers)
        let width = max(1, plan.maxInFlight)
        let batchSize = min(ApricotPhone.batchLimit, width)
        for batch in stride(from: 0, to: plan.apricotUsers, by: batchSize) {
            if !end.admits() || Task.isCancelled { break }
            let range = batch..<min(plan.apricotUsers, batch + batchSize)
            let phones = range.map {
                (phone: Self.phoneNumber(seed: plan.seed, index: $0), deviceID: "sim-\(plan.seed)-\($0)")
            }
            let found = await phone.register(phones, width: width, codes: codes)
            for (offset, identity) in found.enumerated() { identities[range.lowerBound + offset] = identity }
        }
        let registered = identities.compactMap { $0 }
        guard !registered.isEmpty else { return ([], []) }
        // Positive patients: drawn from the seed before the run (those who could not sign in
        // upload nothing).
        let positives = Self.positiveIndices(plan).filter { identities[$0] != nil }
        var random = SeededRandom(seed: plan.seed, stream: 5)
        let offsets = positives.map { _ in Int64.random(in: -3...3, using: &random) }
        let model = MobilityModel(people: plan.apricotUsers, seed: plan.seed)
        // The server keeps contact_history_max days: older files would be refused.
        let historyDays = max(1, min(plan.contactDays, settings.contactHistoryDays))
        let known = identities
        var round = 0
        while end.admits(), !Task.isCancelled {
            let moment = now()
            let today = CivilDay(unixSeconds: Int64(moment.timeIntervalSince1970))
            let days = round == 0 ? historyDays : 1
            // Each day's encounters once per round (the whole town's), indexed by person.
            let byDay = (0..<days).map { back in
                let day = today.adding(days: -back)
                return (day, model.encountersByPerson(on: day))
            }
            let until = Int64(moment.timeIntervalSince1970)
            let jobs = positives.indices.flatMap { slot in byDay.indices.map { (slot, $0) } }
            let sent = await ApricotPhone.limited(jobs.count, width: width) { job -> Bool in
                let (slot, dayIndex) = jobs[job]
                guard self.end.admits(), !Task.isCancelled,
                    let identity = known[positives[slot]]
                else { return false }
                let (day, encounters) = byDay[dayIndex]
                let records = model.records(
                    of: positives[slot], on: day, until: until, encounters: encounters[positives[slot]],
                    identities: known, settings: settings, clockOffset: offsets[slot])
                if records.isEmpty { return false }
                // The phone's clock as it sends, not as the round began.
                let clientClock = self.now().addingTimeInterval(TimeInterval(offsets[slot]))
                return await phone.uploadContacts(identity, day: day, records: records, clientClock: clientClock)
            }
            for case true? in sent { counts.add(\.files) }
            round += 1
            counts.add(\.contactRounds)
            let next = ContinuousClock.now + .milliseconds(Int64(plan.contactUploadEverySeconds * 1_000))
            if !end.admits(next) || Task.isCancelled || plan.contactUploadEverySeconds <= 0 { break }
            try? await Task.sleep(until: next, clock: .continuous)
        }
        return (registered, positives.compactMap { identities[$0]?.phone })
    }
}

/// Counters shared by the run's tasks; read at any time for what the run has done so far.
final class Counts: @unchecked Sendable {
    struct Values {
        var inFlight = 0
        var citizens = 0
        var uploads = 0
        var files = 0
        /// Rounds of contact uploads over (each positive patient's files of the round sent, or
        /// left out at the end of the run).
        var contactRounds = 0
        var analytics = 0
    }
    private let lock = NSLock()
    private var values = Values()

    func begin(limit: Int) -> Bool {
        lock.withLock {
            guard values.inFlight < limit else { return false }
            values.inFlight += 1
            return true
        }
    }
    func end() { lock.withLock { values.inFlight -= 1 } }
    func add(_ key: WritableKeyPath<Values, Int>) { lock.withLock { values[keyPath: key] += 1 } }
    func value(_ key: KeyPath<Values, Int>) -> Int { lock.withLock { values[keyPath: key] } }
    /// Every counter at once.
    func snapshot() -> Values { lock.withLock { values } }
}
