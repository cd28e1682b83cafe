// swift-tools-version:6.0
// TraceDesk: a terminal console for contact-tracing staff, and the backend it drives.
// Dependency rule: every arrow points toward DeskCore / CivilCalendar; only adapters import C.
import PackageDescription

let package = Package(
    name: "TraceDesk",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tracedesk", targets: ["tracedesk"])
    ],
    targets: [
        // C libraries from Debian's archive (system-library targets: module.modulemap + shim.h).
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Pure Swift.
        .target(name: "CivilCalendar"),
        .target(name: "JSONText", dependencies: ["DeskText"]),
        // The message catalogue (English, Italian) and the language in force.
        .target(name: "DeskText"),
        .target(name: "DeskCore", dependencies: ["CivilCalendar", "JSONText", "DeskText"]),
        // The staff use cases as a contract (protocol, errors, results, checks, texts): no store, no C.
        .target(name: "DeskContract", dependencies: ["DeskCore", "CivilCalendar", "DeskText"]),
        // The wire form of the contract and the phones' requests; depends on the contract, not the reverse.
        .target(name: "DeskAPI", dependencies: ["DeskContract", "DeskCore", "CivilCalendar", "JSONText"]),
        .target(name: "TerminalKit", dependencies: ["CivilCalendar", "JSONText", "DeskText"]),

        // Adapters and layers.
        .target(name: "DeskCrypto", dependencies: ["DeskCore", "COpenSSL", "DeskText"]),
        // Every log line: a write(2) that cannot trap (the server's log, the CLI's errors).
        .target(name: "DeskLog", dependencies: ["DeskCore"]),
        // The one HTTP client (libcurl): RemoteDesk, DeviceCheck, the SMS provider, simulated phones.
        .target(name: "DeskHTTPClient", dependencies: ["CCurl"]),
        .target(
            name: "DeskStore",
            dependencies: ["DeskCore", "DeskCrypto", "CivilCalendar", "CSQLite", "CLibpq", "DeskText"]),
        // The contract over a store (LocalDesk), the phones' desks, the jobs.
        .target(
            name: "DeskLocal",
            dependencies: [
                "DeskContract", "DeskCore", "DeskStore", "DeskCrypto", "DeskExport", "JSONText",
                "CivilCalendar", "DeskHTTPClient", "DeskText",
            ]
        ),
        // The contract over a server's staff API (RemoteDesk).
        .target(
            name: "DeskRemote",
            dependencies: [
                "DeskContract", "DeskAPI", "DeskCore", "DeskCrypto", "JSONText", "CivilCalendar", "DeskHTTPClient",
                "DeskText",
            ]
        ),
        .target(name: "DeskExport", dependencies: ["DeskCrypto", "CZip"]),
        .target(
            name: "DeskServer",
            dependencies: [
                "DeskLocal", "DeskContract", "DeskAPI", "DeskStore", "DeskCore", "DeskCrypto", "CivilCalendar",
                "JSONText", "DeskLog", "CMicroHTTPD", "DeskText",
            ]
        ),
        // Simulated phones and a simulated HIS over real HTTP: the demo and the load generator.
        .target(
            name: "DeskSimulation",
            dependencies: [
                "DeskCore", "DeskCrypto", "DeskContract", "DeskLocal", "DeskStore", "CivilCalendar", "DeskHTTPClient",
            ]
        ),
        // The command line's shared parts: arguments, exit statuses, terminal-safe output, the
        // store's location (tracedesk's commands and the benchmarks).
        // It builds on no server: the APRICOT settings read as `tracedesk serve` reads them are read in tracedesk.
        .target(name: "DeskCLI", dependencies: ["DeskContract", "DeskLog", "DeskStore", "DeskCore", "DeskText"]),
        // `tracedesk bench`: the benchmarks and their bulk seeding, kept out of the production modules.
        .target(
            name: "DeskBench",
            dependencies: [
                "DeskCLI", "DeskConsole", "DeskContract", "DeskLocal", "DeskRemote", "DeskCore", "DeskCrypto",
                "DeskServer", "DeskStore", "TerminalKit", "TerminalNcurses", "CivilCalendar", "DeskText",
            ]
        ),
        // Benchmarks/http-client.sh: the HTTP client's engines (libcurl, URLSession) measured.
        .executableTarget(
            name: "http-client-probe", dependencies: ["DeskHTTPClient"], path: "Benchmarks/HTTPClientProbe"),
        .target(name: "TerminalNcurses", dependencies: ["TerminalKit", "CNcursesw"]),
        // The console knows the contract only: whoever starts it passes a desk in.
        .target(
            name: "DeskConsole",
            dependencies: ["TerminalKit", "DeskContract", "DeskCore", "CivilCalendar", "JSONText", "DeskText"]),
        .executableTarget(
            name: "tracedesk",
            dependencies: [
                "DeskConsole", "DeskContract", "DeskLocal", "DeskRemote", "DeskStore", "DeskCore", "DeskCrypto",
                "TerminalKit", "TerminalNcurses", "DeskServer", "DeskAPI", "JSONText", "CivilCalendar", "DeskExport",
                "DeskSimulation", "DeskCLI", "DeskBench", "DeskLog", "DeskText",
            ]
        ),

        // Shared by the test targets only, one target: FakeDesk (the contract in memory), the
        // console's driver on a test backend, waits that fail loudly, temporary folders, free
        // ports; cheap password hashing, a SQLite store in a temporary folder, a server started on
        // loopback. (`swift test` links every test target into one binary, so keeping the store-free
        // parts apart saved nothing.)
        .target(
            name: "DeskTestSupport",
            dependencies: [
                "DeskContract", "DeskCore", "CivilCalendar", "DeskConsole", "TerminalKit", "DeskCrypto",
                "DeskStore", "DeskLocal", "DeskServer", "DeskText",
            ]
        ),

        // Tests.
        .testTarget(name: "DeskHTTPClientTests", dependencies: ["DeskHTTPClient", "DeskTestSupport"]),
        .testTarget(
            name: "DeskCoreTests", dependencies: ["DeskCore", "CivilCalendar", "DeskCrypto", "DeskText", "JSONText"]),
        .testTarget(
            name: "DeskCryptoTests",
            dependencies: [
                "DeskTestSupport",
                "DeskCrypto", "DeskLocal", "DeskContract", "DeskCore", "DeskServer", "DeskStore", "CivilCalendar",
                "DeskHTTPClient",
            ]
        ),
        .testTarget(name: "DeskExportTests", dependencies: ["DeskExport", "DeskCrypto", "DeskTestSupport"]),
        .testTarget(
            name: "DeskStoreTests",
            dependencies: [
                "DeskTestSupport", "DeskStore", "DeskCore", "DeskCrypto", "CivilCalendar",
                "CSQLite", "CLibpq",
            ]),
        .testTarget(
            name: "DeskLocalTests",
            dependencies: [
                "DeskTestSupport",
                "DeskLocal", "DeskContract", "DeskStore", "DeskCore", "CivilCalendar", "DeskExport", "DeskCrypto",
                "DeskText",
            ]
        ),
        // The JSONTestSuite's parsing cases (Tests/Vectors/json) against the reader.
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText"]),
        .testTarget(name: "DeskTextTests", dependencies: ["DeskText"]),
        // The table of commands: parsing, help, man pages and completions (no store, no server).
        .testTarget(name: "DeskCLITests", dependencies: ["DeskCLI", "DeskText"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit", "CivilCalendar", "JSONText"]),
        .testTarget(
            name: "DeskAPITests", dependencies: ["DeskAPI", "DeskContract", "DeskCore", "CivilCalendar", "JSONText"]),
        .testTarget(
            name: "DeskServerTests",
            dependencies: [
                "DeskTestSupport",
                "DeskServer", "DeskLocal", "DeskRemote", "DeskContract", "DeskStore", "DeskCore", "DeskCrypto",
                "DeskAPI", "CivilCalendar", "JSONText", "CSQLite", "DeskExport", "CLibpq", "DeskHTTPClient",
            ]
        ),
        // The service contract suite: the same use-case checks against LocalDesk and against
        // RemoteDesk → a real server on loopback → LocalDesk.
        .testTarget(
            name: "ServiceContractTests",
            dependencies: [
                "DeskTestSupport",
                "DeskContract", "DeskLocal", "DeskRemote", "DeskServer", "DeskStore", "DeskCore", "DeskCrypto",
                "DeskAPI", "CivilCalendar", "JSONText",
            ]
        ),
        .testTarget(
            name: "DeskSimulationTests",
            dependencies: [
                "DeskTestSupport",
                "DeskSimulation", "DeskServer", "DeskContract", "DeskLocal", "DeskStore", "DeskCore", "DeskCrypto",
                "CivilCalendar",
            ]
        ),
        .testTarget(name: "TerminalNcursesTests", dependencies: ["TerminalNcurses", "TerminalKit", "CNcursesw"]),
        // The screens and the program loop over FakeDesk: the contract only, no store, no server.
        .testTarget(
            name: "DeskConsoleTests",
            dependencies: [
                "DeskConsole", "TerminalKit", "DeskContract", "DeskTestSupport", "DeskCore", "CivilCalendar",
                "DeskText",
            ],
            exclude: ["Snapshots"]
        ),
        // The console over LocalDesk on a real SQLite file, or RemoteDesk against a real server.
        .testTarget(
            name: "DeskConsoleIntegrationTests",
            dependencies: [
                "DeskConsole", "TerminalKit", "DeskContract", "DeskTestSupport", "DeskLocal", "DeskRemote", "DeskStore",
                "DeskCore", "CivilCalendar", "DeskCrypto", "DeskServer",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
