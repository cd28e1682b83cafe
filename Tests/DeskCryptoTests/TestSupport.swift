import Foundation

/// A failed helper command, with what it printed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs command-line tools (`openssl`, `python3`) through `/usr/bin/env`.
enum Command {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `arguments` (the tool first) in `directory`, feeding `input` on stdin; waits for it.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL? = nil, input: Data? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // The tools used here print a few kilobytes at most, well under a pipe's buffer.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
    }

    /// Like ``run(_:in:input:)`` but throws unless the command exits with status 0.
    @discardableResult
    static func check(_ arguments: [String], in directory: URL? = nil, input: Data? = nil) throws -> Output {
        let output = try run(arguments, in: directory, input: input)
        guard output.status == 0 else {
            throw CommandFailure(
                description: "\(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        }
        return output
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tracedesk-crypto-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

extension URL {
    /// The file's contents as text.
    func text() throws -> String { try String(contentsOf: self, encoding: .utf8) }

    /// The file's contents as bytes.
    func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: self)) }

    func write(_ text: String) throws { try Data(text.utf8).write(to: self) }

    func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: self) }
}
