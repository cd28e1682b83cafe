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

        // Pure Swift.
        .target(name: "CivilCalendar"),
        .target(name: "JSONText"),
        .target(name: "DeskCore", dependencies: ["CivilCalendar", "JSONText"]),
        .target(name: "DeskAPI", dependencies: ["DeskCore", "CivilCalendar", "JSONText"]),
        .target(name: "TerminalKit", dependencies: ["CivilCalendar", "JSONText"]),

        // Adapters and layers.
        .target(name: "DeskCrypto", dependencies: ["DeskCore", "COpenSSL"]),
        .target(name: "DeskStore", dependencies: ["DeskCore", "DeskCrypto", "CivilCalendar", "CSQLite", "CLibpq"]),
        .target(
            name: "DeskService",
            dependencies: ["DeskCore", "DeskStore", "DeskCrypto", "DeskExport", "DeskAPI", "JSONText", "CivilCalendar"]
        ),
        .target(name: "DeskExport", dependencies: ["DeskCrypto", "CZip"]),
        .target(
            name: "DeskServer",
            dependencies: [
                "DeskService", "DeskAPI", "DeskStore", "DeskCore", "DeskCrypto", "CivilCalendar", "JSONText",
                "CMicroHTTPD",
            ]
        ),
        // Simulated phones and a simulated HIS over real HTTP: the demo and the load generator.
        .target(
            name: "DeskSimulation",
            dependencies: ["DeskCore", "DeskCrypto", "DeskService", "DeskStore", "CivilCalendar"]
        ),
        .target(name: "TerminalNcurses", dependencies: ["TerminalKit", "CNcursesw"]),
        .target(name: "DeskConsole", dependencies: ["TerminalKit", "DeskService", "DeskAPI", "DeskCore"]),
        .executableTarget(
            name: "tracedesk",
            dependencies: [
                "DeskConsole", "DeskService", "DeskStore", "DeskCore", "DeskCrypto", "TerminalKit", "TerminalNcurses",
                "DeskServer", "DeskAPI", "JSONText", "CivilCalendar", "DeskExport", "DeskSimulation",
            ]
        ),

        // What the test targets share (waits that fail loudly, temporary folders, servers on
        // loopback, cheap password hashing); used only by test targets.
        .target(
            name: "DeskTestSupport",
            dependencies: ["DeskCore", "DeskCrypto", "DeskStore", "DeskService", "DeskServer"]
        ),

        // Tests.
        .testTarget(name: "DeskCoreTests", dependencies: ["DeskCore", "CivilCalendar", "DeskCrypto"]),
        .testTarget(
            name: "DeskCryptoTests",
            dependencies: [
                "DeskTestSupport", "DeskCrypto", "DeskService", "DeskCore", "DeskServer", "DeskStore", "CivilCalendar",
            ]
        ),
        .testTarget(name: "DeskExportTests", dependencies: ["DeskExport", "DeskCrypto"]),
        .testTarget(
            name: "DeskStoreTests",
            dependencies: [
                "DeskTestSupport", "DeskStore", "DeskCore", "DeskCrypto", "CivilCalendar", "CSQLite", "CLibpq",
            ]),
        .testTarget(
            name: "DeskServiceTests",
            dependencies: [
                "DeskTestSupport", "DeskService", "DeskStore", "DeskCore", "CivilCalendar", "DeskExport", "DeskCrypto",
            ]
        ),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit", "CivilCalendar", "JSONText"]),
        .testTarget(name: "DeskAPITests", dependencies: ["DeskAPI", "DeskCore", "CivilCalendar", "JSONText"]),
        .testTarget(
            name: "DeskServerTests",
            dependencies: [
                "DeskTestSupport",
                "DeskServer", "DeskService", "DeskStore", "DeskCore", "DeskCrypto", "DeskAPI", "CivilCalendar",
                "JSONText", "CSQLite", "DeskExport", "CLibpq",
            ]
        ),
        // The service contract suite: the same use-case checks against LocalDesk and against
        // RemoteDesk → a real server on loopback → LocalDesk.
        .testTarget(
            name: "ServiceContractTests",
            dependencies: [
                "DeskTestSupport",
                "DeskService", "DeskServer", "DeskStore", "DeskCore", "DeskCrypto", "DeskAPI", "CivilCalendar",
                "JSONText",
            ]
        ),
        .testTarget(
            name: "DeskSimulationTests",
            dependencies: [
                "DeskTestSupport",
                "DeskSimulation", "DeskServer", "DeskService", "DeskStore", "DeskCore", "DeskCrypto", "CivilCalendar",
            ]
        ),
        .testTarget(name: "TerminalNcursesTests", dependencies: ["TerminalNcurses", "TerminalKit", "CNcursesw"]),
        .testTarget(
            name: "DeskConsoleTests",
            dependencies: [
                "DeskTestSupport",
                "DeskConsole", "TerminalKit", "DeskService", "DeskStore", "DeskCore", "CivilCalendar", "DeskCrypto",
                "DeskServer",
            ],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
