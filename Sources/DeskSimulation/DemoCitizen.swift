import CivilCalendar
import DeskCore
import DeskCrypto
import Foundation

/// What the demo's simulated citizen is doing: the code and onset day the operator is to hear,
/// and the phone's progress. The code is a simulated one, shown only in the demo's console;
/// never logged.
public struct DemoCitizenStatus: Hashable, Sendable {
    /// Where the citizen's phone is.
    public enum Phase: Hashable, Sendable {
        /// Polling check-otp: the operator has not authorised the code yet.
        case waiting
        /// check-otp answered "authorised" at this time; the upload follows after a delay.
        case checked(Date)
        /// The upload was accepted at this time.
        case uploaded(Date)
        /// The upload was refused (its status).
        case refused(Int)
    }

    /// 1 for the first citizen, then 2…
    public var number: Int
    /// The code the app shows (10 characters, ungrouped).
    public var code: String
    /// The symptom onset the citizen reads out.
    public var symptomsStartedOn: CivilDay
    public var phase: Phase
}

/// The demo's simulated citizen on the phone with the operator: a code and an onset day to read
/// out (``status``); the phone polls check-otp every `pollSeconds` (padded as the apps pad) until
/// the operator has authorised the code, uploads `uploadDelay` seconds later, and after
/// `nextDelay` seconds a new citizen with a new code calls. Runs until cancelled.
public final class DemoCitizen: @unchecked Sendable {
    let phone: ImmuniPhone
    let seed: UInt64
    let pollSeconds: ClosedRange<Double>
    let uploadDelay: ClosedRange<Double>
    let nextDelay: ClosedRange<Double>
    private let lock = SimpleLock()
    /// Guarded by `lock`.
    private var citizen: DemoCitizenStatus?

    public init(
        client: SimulationClient, phoneAPI: URL, seed: UInt64, pollSeconds: ClosedRange<Double> = 3...5,
        uploadDelay: ClosedRange<Double> = 5...20, nextDelay: ClosedRange<Double> = 20...40
    ) {
        phone = ImmuniPhone(client: client, phoneAPI: phoneAPI)
        self.seed = seed
        self.pollSeconds = pollSeconds
        self.uploadDelay = uploadDelay
        self.nextDelay = nextDelay
    }

    /// The citizen on the phone now; nil before the first one.
    public var status: DemoCitizenStatus? { lock.withLock { citizen } }

    /// Calls one citizen after another until the task is cancelled.
    public func run(now: @escaping @Sendable () -> Date = Date.init) async {
        var random = SeededRandom(seed: seed, stream: 0xDE30)
        var number = 0
        while !Task.isCancelled {
            number += 1
            let code = ImmuniPhone.randomCode(using: &random)
            let today = CivilDay(unixSeconds: Int64(now().timeIntervalSince1970))
            let onset = today.adding(days: -Int.random(in: 0...4, using: &random))
            let fresh = DemoCitizenStatus(number: number, code: code, symptomsStartedOn: onset, phase: .waiting)
            lock.withLock { citizen = fresh }
            let token = SHA256.hex(code)
            // Until the operator authorises the code, check-otp answers 401: not an error.
            while !Task.isCancelled {
                let reply = await phone.checkOtp(token: token, dummy: false, endpoint: "check-otp (demo citizen)")
                if reply?.status == 204 { break }
                await Self.sleep(Double.random(in: pollSeconds, using: &random))
            }
            guard !Task.isCancelled else { return }
            set(.checked(now()))
            await Self.sleep(Double.random(in: uploadDelay, using: &random))
            guard !Task.isCancelled else { return }
            let fields = ImmuniPhone.uploadFields(now: now(), random: &random)
            let reply = await phone.upload(token: token, dummy: false, body: fields, clientClock: now())
            if reply?.status == 204 { set(.uploaded(now())) } else { set(.refused(reply?.status ?? 0)) }
            await Self.sleep(Double.random(in: nextDelay, using: &random))
        }
    }

    private func set(_ phase: DemoCitizenStatus.Phase) { lock.withLock { citizen?.phase = phase } }

    static func sleep(_ seconds: Double) async {
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    }
}
