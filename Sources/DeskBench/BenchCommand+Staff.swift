import CivilCalendar
import DeskCLI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskRemote
import DeskServer
import DeskStore
import DeskText
import Foundation

/// `tracedesk bench staff`: what signing in costs, and what an authorisation costs through the
/// staff API compared with the same call in-process.
///
/// (a) the password KDF alone: scrypt at the default parameters, `--hashes` times;
/// (b) an in-process `tracedesk serve` on 127.0.0.1 (ephemeral ports, a fresh SQLite file),
/// a RemoteDesk signed in as an operator, `--authorizations` fresh valid codes authorised one
/// after another, each timed from call to answer; then the same count through a LocalDesk on
/// the same store, and a few remote sign-ins (KDF plus HTTP). Medians and p95 in milliseconds.
extension BenchCommand {
    static func staff(_ arguments: Arguments, command: String) async throws(UsageError) -> ExitStatus {
        let hashes = try arguments.integer("hashes", command: command)
        let authorizations = try arguments.integer("authorizations", command: command)
        let signIns = try arguments.integer("sign-ins", command: command)

        // (a) The KDF alone.
        let hasher = PasswordHasher()
        var kdf: [Double] = []
        for i in 0..<hashes {
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try? hasher.hash("bench password \(i)")
            kdf.append(milliseconds(since: started))
        }

        // (b) Authorisations through the staff API on loopback, and in-process.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-bench-staff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let remote: [Double]
        let local: [Double]
        let remoteSignIns: [Double]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try SQLiteStore(path: directory.appendingPathComponent("bench.sqlite").path)
            let server = try loopbackServer(store)
            defer { server.stop(grace: .seconds(2)) }
            guard let url = URL(string: "http://127.0.0.1:\(server.internalPort)") else { return .refused }
            let desk = RemoteDesk(url: url)
            let admin = try await desk.createFirstAdmin(name: "bench-admin", password: "bench admin password")
            _ = try await desk.addStaff(admin, name: "bench-op", role: .operator, password: "bench operator password")
            let remoteOperator = try await desk.signIn(name: "bench-op", password: "bench operator password")
            remote = try await timeAuthorizations(authorizations, desk: desk, session: remoteOperator)
            var signInTimes: [Double] = []
            for _ in 0..<signIns {
                let started = DispatchTime.now().uptimeNanoseconds
                let session = try await desk.signIn(name: "bench-op", password: "bench operator password")
                signInTimes.append(milliseconds(since: started))
                try await desk.signOut(session)
            }
            remoteSignIns = signInTimes
            let localDesk = LocalDesk(store: store)
            let localOperator = try await localDesk.signIn(name: "bench-op", password: "bench operator password")
            local = try await timeAuthorizations(authorizations, desk: localDesk, session: localOperator)
        } catch let error as ServiceError {
            printError("bench staff: \(error.message)")
            return .storeUnavailable
        } catch let error as StoreError {
            printError("bench staff: \(error.message)")
            return .storeUnavailable
        } catch let error as ConfigError {
            printError("bench staff: \(error.message)")
            return .refused
        } catch let error as HTTPServer.StartError {
            printError("bench staff: \(error.message)")
            return .refused
        } catch {
            printError("bench staff: \(error)")
            return .refused
        }

        func stats(_ values: [Double]) -> (median: Double, p95: Double) {
            (staffPercentile(values, 0.5), staffPercentile(values, 0.95))
        }
        let (kdfMedian, kdfP95) = stats(kdf)
        let (remoteMedian, remoteP95) = stats(remote)
        let (localMedian, localP95) = stats(local)
        let (signInMedian, signInP95) = stats(remoteSignIns)
        if arguments.has("json") {
            print(
                #"{"kdf":"\#(hasher.summary)","hashes":\#(hashes),"kdf_median_ms":\#(f3(kdfMedian)),"kdf_p95_ms":\#(f3(kdfP95)),"authorizations":\#(authorizations),"remote_authorize_median_ms":\#(f3(remoteMedian)),"remote_authorize_p95_ms":\#(f3(remoteP95)),"local_authorize_median_ms":\#(f3(localMedian)),"local_authorize_p95_ms":\#(f3(localP95)),"sign_ins":\#(signIns),"remote_sign_in_median_ms":\#(f3(signInMedian)),"remote_sign_in_p95_ms":\#(f3(signInP95))}"#
            )
        } else {
            print(
                tr(
                    "cli.bench.staff.kdf",
                    ["summary": hasher.shownSummary, "hashes": trCount("cli.bench.count.hashes", hashes)]))
            print(tr("cli.bench.staff.kdfTimes", ["median": f3(kdfMedian), "p95": f3(kdfP95)]))
            print(tr("cli.bench.staff.authorize", ["authorizations": trCount("cli.bench.count.times", authorizations)]))
            print(
                tr(
                    "cli.bench.staff.authorizeRemote",
                    ["median": f3(remoteMedian), "p95": f3(remoteP95)]))
            print(tr("cli.bench.staff.authorizeLocal", ["median": f3(localMedian), "p95": f3(localP95)]))
            print(tr("cli.bench.staff.signIn", ["signIns": trCount("cli.bench.count.times", signIns)]))
            print(
                tr(
                    "cli.bench.staff.signInTimes",
                    ["median": f3(signInMedian), "p95": f3(signInP95)]))
        }
        return .success
    }

    /// An in-process `tracedesk serve` over `store` on 127.0.0.1 (ephemeral ports, no signing
    /// key, no jobs, no logs), started.
    static func loopbackServer(_ store: any Store) throws -> TraceDeskServer {
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
        config.signingKeyRequired = false
        let server = try TraceDeskServer(
            config: config, store: store, appSettingsPath: nil, accessLog: nil, log: { _ in })
        try server.start(runningJobs: false)
        return server
    }

    /// `count` authorisations of fresh valid codes (symptoms yesterday), each timed.
    static func timeAuthorizations(
        _ count: Int, desk: any DeskService, session: StaffSession
    ) async throws(ServiceError) -> [Double] {
        let alphabet = OtpRules.alphabet
        let yesterday = desk.now().utcDay.adding(days: -1)
        var times: [Double] = []
        times.reserveCapacity(count)
        for _ in 0..<count {
            var prefix = ""
            for _ in 0..<9 { prefix.append(alphabet[Int.random(in: 0..<alphabet.count)]) }
            guard let check = OtpRules.checkCharacter(for: prefix) else { continue }
            let started = DispatchTime.now().uptimeNanoseconds
            let result = try await desk.authorize(session, code: prefix + String(check), symptomsStartedOn: yesterday)
            times.append(milliseconds(since: started))
            if case .invalid(let refusal) = result { throw .failed("a generated code was refused: \(refusal.message)") }
        }
        return times
    }

    private static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The nearest-rank percentile (0 for no values); also used by `bench monitor`.
    static func staffPercentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func f3(_ value: Double) -> String { String(format: "%.3f", value) }
}
