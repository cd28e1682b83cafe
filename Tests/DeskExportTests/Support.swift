import DeskCrypto
import DeskExport
import DeskTestSupport
import Foundation

/// The published and generated GAEN vectors, copied into the repository (Tests/Vectors, with
/// the README that names their sources) so that a clean clone anywhere can run these tests.
enum Vectors {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DeskExportTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Vectors", isDirectory: true)

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func publicKey(_ name: String) throws -> ECPublicKey {
        try ECPublicKey(pem: String(decoding: try bytes(name), as: UTF8.self))
    }
}

/// A failed helper command, with what it printed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs command-line tools (`openssl`, `python3`) through `/usr/bin/env`.
///
/// Async and non-blocking on purpose: Swift Testing runs suites on the shared cooperative pool
/// (two threads on this machine), and blocking one in `waitUntilExit` would starve the others.
enum Command {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `arguments` (the tool first) in `directory`; returns when it exits. Output goes
    /// through files, so no pipe can fill up.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL) async throws -> Output {
        let outURL = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
        defer { for url in [outURL, errURL] { try? FileManager.default.removeItem(at: url) } }
        let status = try await ChildProcess.runDetached(
            "/usr/bin/env", arguments, in: directory.path, stdout: .file(outURL.path), stderr: .file(errURL.path))
        return Output(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Like ``run(_:in:)`` but throws unless the command exits with status 0.
    @discardableResult
    static func check(_ arguments: [String], in directory: URL) async throws -> Output {
        let output = try await run(arguments, in: directory)
        guard output.status == 0 else {
            throw CommandFailure(
                description: "\(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        }
        return output
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tracedesk-export-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

extension URL {
    func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: self)) }

    func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: self) }

    func write(_ text: String) throws { try Data(text.utf8).write(to: self) }
}

/// SplitMix64: a small seeded generator, so "random" inputs are the same on every run and a
/// failure can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}

/// One entry of a zip's central directory, read by hand (independently of libzip).
struct ZipDirectoryEntry: Equatable {
    let name: String
    /// 0 stored, 8 deflate.
    let method: UInt16
    /// MS-DOS modification time and date fields.
    var dosTime: UInt16 = 0
    var dosDate: UInt16 = 0x21
}

/// The central directory of `zip`, in order; nil if the end record cannot be found.
func centralDirectory(_ zip: [UInt8]) -> [ZipDirectoryEntry]? {
    func u16(_ at: Int) -> Int { Int(zip[at]) | Int(zip[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    guard zip.count >= 22 else { return nil }
    // The end-of-central-directory record: signature 0x06054b50, at most 64 KiB of comment after.
    guard
        let end = stride(from: zip.count - 22, through: max(0, zip.count - 22 - 65_535), by: -1).first(where: {
            u32($0) == 0x0605_4B50
        })
    else { return nil }
    var entries: [ZipDirectoryEntry] = []
    var offset = u32(end + 16)
    for _ in 0..<u16(end + 10) {
        guard offset + 46 <= zip.count, u32(offset) == 0x0201_4B50 else { return nil }
        let nameLength = u16(offset + 28)
        let name = String(decoding: zip[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
        entries.append(
            ZipDirectoryEntry(
                name: name, method: UInt16(u16(offset + 10)), dosTime: UInt16(u16(offset + 12)),
                dosDate: UInt16(u16(offset + 14))))
        offset += 46 + nameLength + u16(offset + 30) + u16(offset + 32)
    }
    return entries
}

/// Writes a zip with python3's zipfile module: `entries` are (name, size in bytes of 0x41)
/// pairs, in order, deflated. Duplicate names are written as given.
func pythonZip(_ entries: [(String, Int)], in directory: URL) async throws -> [UInt8] {
    let spec = entries.map { "(\(pythonString($0.0)), \($0.1))" }.joined(separator: ", ")
    let script = """
        import warnings, zipfile
        warnings.simplefilter("ignore")
        with zipfile.ZipFile("made.zip", "w", zipfile.ZIP_DEFLATED) as z:
            for name, size in [\(spec)]:
                z.writestr(name, b"A" * size)
        """
    try directory.appendingPathComponent("make_zip.py").write(script)
    try await Command.check(["python3", "make_zip.py"], in: directory)
    return try directory.appendingPathComponent("made.zip").bytes()
}

/// `text` as a Python string literal (ASCII names only are used).
private func pythonString(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
