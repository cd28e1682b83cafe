@preconcurrency import CLibpq
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// Several servers on one PostgreSQL database, over real HTTP on 127.0.0.1: each test gets a
/// database of its own (so that it can also be taken away from the servers).
@Suite(
    "Many servers, one PostgreSQL",
    .enabled(
        if: ProcessInfo.processInfo.environment["TRACEDESK_TEST_POSTGRES"]?.isEmpty == false,
        "TRACEDESK_TEST_POSTGRES is not set (scripts/test starts a throwaway PostgreSQL)"))
struct ManyServersHTTPTests {
    /// A fresh database and `count` servers on it, each with its own store (as separate processes would).
    final class Cluster: @unchecked Sendable {
        let admin: AdminConnection
        let database: String
        let url: String
        let stores: [PostgresStore]
        let servers: [TraceDeskServer]
        let logs = LogLines()

        init(servers count: Int, signing: ChunkSigning? = nil) throws {
            let base = ProcessInfo.processInfo.environment["TRACEDESK_TEST_POSTGRES"] ?? ""
            admin = try AdminConnection(base)
            database = "td_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
            try admin.execute("CREATE DATABASE \(database)")
            // Same server, the new database: replace the path of the URL.
            let parts = base.split(separator: "?", maxSplits: 1).map(String.init)
            let withoutQuery = parts.first ?? base
            let prefix = withoutQuery[..<(withoutQuery.lastIndex(of: "/") ?? withoutQuery.endIndex)]
            url = prefix + "/" + database + (parts.count > 1 ? "?" + parts[1] : "")
            var stores: [PostgresStore] = []
            var servers: [TraceDeskServer] = []
            for _ in 0..<count {
                let store = try PostgresStore(url: url, poolSize: 8, connectTimeoutSeconds: 2, waitMilliseconds: 10_000)
                var config = ServerConfig()
                config.listen = ListenAddress(host: "127.0.0.1", port: 0)
                config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
                config.checkDelayMeanMs = 0
                config.checkDelaySdMs = 0
                let logs = self.logs
                let server = try TraceDeskServer(
                    config: config, store: store, appSettingsPath: ServerFixture.appSettingsPath, signing: signing,
                    accessLog: nil, hasher: TestHashing.cheap, log: { logs.append($0) })
                try server.start(runningJobs: false)
                stores.append(store)
                servers.append(server)
            }
            self.stores = stores
            self.servers = servers
        }

        deinit {
            for server in servers { server.stop(grace: .seconds(2)) }
            try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        }

        func phone(_ server: Int, _ path: String) -> URL {
            URL(string: "http://127.0.0.1:\(servers[server].phonePort)/\(path)")!
        }

        /// Takes the database away from the servers (as a crash or a restart does), or gives it back.
        func database(available: Bool) throws {
            try admin.execute("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS \(available)")
            if !available {
                try admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'")
            }
        }

        func count(_ table: String) throws -> Int64 {
            try AdminConnection(url).integer("SELECT count(*) FROM \(table)")
        }
    }

    @Test("50 concurrent uploads with one code over two servers: exactly one 204, the rest 401")
    func oneCodeTwoServers() async throws {
        let cluster = try Cluster(servers: 2)
        _ = try cluster.stores[0].authorize(
            otpHash: OtpHash(hex: Phone.hash("9K2RAY8UUQ"))!, symptomsStartedOn: Date().utcDay.adding(days: -3),
            by: "rossi", now: Date(), lifetime: .seconds(150))
        let headers = Phone.headers(token: Phone.hash("9K2RAY8UUQ"), clock: Phone.now)
        let body = Phone.uploadBody(keys: Phone.dailyKeys(14))
        var statuses: [Int] = []
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                let url = cluster.phone(index % 2, "v1/ingestion/upload")
                group.addTask { try await HTTP.send("POST", url, headers: headers, body: body).status }
            }
            for try await status in group { statuses.append(status) }
        }
        #expect(statuses.filter { $0 == 204 }.count == 1, "statuses: \(statuses)")
        #expect(statuses.filter { $0 == 401 }.count == 49)
        #expect(try cluster.count("uploads") == 1)
        #expect(try cluster.count("events WHERE kind = 'upload_accepted'") == 1)
    }

    @Test("publishing and cleanup: a server that does not get the lock skips the run and says so")
    func publishingLock() throws {
        let cluster = try Cluster(servers: 2, signing: ChunkSigning(key: ECPrivateKey.generate()))
        // Server 1 is publishing (it holds the lock) when server 0's timer fires.
        let held = try #require(try cluster.stores[1].acquireJobLock(.publishing))
        let skipped = try #require(cluster.servers[0].jobs.publishNow())
        #expect(skipped.skipped)
        #expect(skipped.published.isEmpty)
        // A skipped run is the other server's to record.
        #expect(try cluster.stores[0].jobRun(.publishing) == nil)
        #expect(cluster.logs.all.contains { $0.contains("publishing: skipped: another server holds the lock") })
        let cleanup = try #require(try cluster.stores[1].acquireJobLock(.cleanup))
        #expect(cluster.servers[0].jobs.cleanUpNow()?.skipped == true)
        #expect(cluster.logs.all.contains { $0.contains("cleanup: skipped: another server holds the lock") })
        cleanup.release()
        held.release()
        let run = try #require(cluster.servers[0].jobs.publishNow())
        #expect(!run.skipped)
        // A run that published nothing is recorded too: every server's watch sees it.
        #expect(try cluster.stores[1].jobRun(.publishing) != nil)
        #expect(try cluster.stores[1].lastChunkIndex() == 0, "no keys: nothing to publish")
    }

    @Test(
        "the database lost while serving: 503 with the error body and Retry-After, then served again; nothing acknowledged is lost"
    )
    func databaseLost() async throws {
        let cluster = try Cluster(servers: 1)
        let codes = ["9K2RAY8UUQ", "2HX3RQF4KK"]
        for code in codes {
            _ = try cluster.stores[0].authorize(
                otpHash: OtpHash(hex: Phone.hash(code))!, symptomsStartedOn: Date().utcDay.adding(days: -3),
                by: "rossi", now: Date(), lifetime: .seconds(600))
        }
        let body = Phone.uploadBody(keys: Phone.dailyKeys(3))
        let url = cluster.phone(0, "v1/ingestion/upload")
        let first = try await HTTP.send(
            "POST", url, headers: Phone.headers(token: Phone.hash(codes[0]), clock: Phone.now), body: body)
        #expect(first.status == 204)

        try cluster.database(available: false)
        let during = try await HTTP.send(
            "POST", url, headers: Phone.headers(token: Phone.hash(codes[1]), clock: Phone.now), body: body)
        #expect(during.status == 503)
        #expect(during.errorCode == 1003)
        #expect(during.header("Retry-After") == "5")
        #expect(during.detail?.contains("retry") == true)
        #expect(cluster.logs.all.contains { $0.contains("cannot reach the database") })

        try cluster.database(available: true)
        let after = try await HTTP.send(
            "POST", url, headers: Phone.headers(token: Phone.hash(codes[1]), clock: Phone.now), body: body)
        #expect(after.status == 204, "the code refused during the outage is still usable")
        #expect(try cluster.count("uploads") == 2)
    }
}

/// A plain libpq connection for setting up and inspecting test databases.
final class AdminConnection {
    private let conn: OpaquePointer?

    init(_ url: String) throws {
        conn = PQconnectdb(url)
        guard PQstatus(conn) == CONNECTION_OK else {
            defer { PQfinish(conn) }
            throw AdminError(message: String(cString: PQerrorMessage(conn)))
        }
    }

    deinit { PQfinish(conn) }

    func execute(_ sql: String) throws {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        guard [PGRES_COMMAND_OK, PGRES_TUPLES_OK].contains(PQresultStatus(result)) else {
            throw AdminError(message: String(cString: PQresultErrorMessage(result)))
        }
    }

    func integer(_ sql: String) throws -> Int64 {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 else {
            throw AdminError(message: String(cString: PQresultErrorMessage(result)))
        }
        return Int64(String(cString: PQgetvalue(result, 0, 0))) ?? -1
    }
}

struct AdminError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
