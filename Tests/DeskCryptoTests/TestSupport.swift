import DeskTestSupport
import Foundation

/// A failed helper command, with what it printed.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs command-line tools (`openssl`, `python3`) through `/usr/bin/env`.
///
/// Async and non-blocking on purpose: Swift Testing runs every suite on the shared cooperative
/// thread pool (two threads on this machine), and a test that blocked a thread in
/// `waitUntilExit` would starve other suites' async work.
enum Command {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `arguments` (the tool first) in `directory`, feeding `input` on stdin; returns when it
    /// exits. Output goes through files, so no pipe can fill up.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL? = nil, input: Data? = nil) async throws -> Output {
        try await withTemporaryDirectory { scratch in
            let outURL = scratch.appendingPathComponent("stdout")
            let errURL = scratch.appendingPathComponent("stderr")
            let status = try await ChildProcess.runDetached(
                "/usr/bin/env", arguments, in: directory?.path, input: .bytes(Array(input ?? Data())),
                stdout: .file(outURL.path), stderr: .file(errURL.path))
            return Output(status: status, stdout: try Data(contentsOf: outURL), stderr: try errURL.text())
        }
    }

    /// Like ``run(_:in:input:)`` but throws unless the command exits with status 0.
    @discardableResult
    static func check(_ arguments: [String], in directory: URL? = nil, input: Data? = nil) async throws -> Output {
        let output = try await run(arguments, in: directory, input: input)
        guard output.status == 0 else {
            throw CommandFailure(
                description: "\(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        }
        return output
    }
}

extension URL {
    /// The file's contents as text.
    func text() throws -> String { try String(contentsOf: self, encoding: .utf8) }

    /// The file's contents as bytes.
    func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: self)) }

    func write(_ text: String) throws { try Data(text.utf8).write(to: self) }

    func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: self) }
}
