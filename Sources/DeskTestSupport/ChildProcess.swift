import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test runs (sqlite3, openssl, python3, chattr…), started with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` by copying each
/// `dirent`'s whole 256-byte name, which reads past glibc's buffer now and then and crashes the
/// test process (swift-corelibs-foundation pull request 5472; seen here in CI as a signal 11 in
/// `Process.run()` under `__memcpy`).
///
/// Threading: ``wait()`` and ``isRunning`` from any thread; ``closeInput()`` once.
public final class ChildProcess: @unchecked Sendable {
    /// What the program reads.
    public enum Input: Sendable {
        /// `/dev/null`.
        case none
        /// These bytes, then end of file.
        case bytes([UInt8])
        /// A pipe the test writes with ``write(_:)`` and ends with ``closeInput()``.
        case pipe
    }

    /// Where a program's output goes.
    public enum Output: Sendable {
        case discard
        /// Written to this file (created or truncated, mode 0600).
        case file(String)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    private let lock = NSLock()
    private var input: Int32
    private var exitStatus: Int32?
    private let inputFile: String?

    /// Starts `path` with `arguments`; `directory`, when given, is the program's working
    /// directory (through `env -C`, which needs no `posix_spawn` extension).
    public init(
        _ path: String, _ arguments: [String], in directory: String? = nil, input: Input = .none,
        stdout: Output = .discard, stderr: Output = .discard
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var writeEnd: Int32 = -1
        var readEnd: Int32 = -1
        var inputFile: String?
        switch input {
        case .none:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .bytes(let bytes):
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-child-\(UUID().uuidString)"
            ).path
            guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
                throw Failure(description: "cannot write the input file \(file)")
            }
            inputFile = file
            posix_spawn_file_actions_addopen(&actions, 0, file, O_RDONLY, 0)
        case .pipe:
            var ends: [Int32] = [-1, -1]
            // Close-on-exec at once (pipe2 is not in Swift's Glibc): another test's child must
            // not hold this pipe open.
            guard pipe(&ends) == 0 else {
                throw Failure(description: "pipe failed: \(String(cString: strerror(errno)))")
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            readEnd = ends[0]
            writeEnd = ends[1]
            posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        }
        for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let file):
                posix_spawn_file_actions_addopen(&actions, fd, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        let program = directory == nil ? path : "/usr/bin/env"
        let words = [program] + (directory.map { ["-C", $0, path] } ?? []) + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, nil, &argv, environ)
        if readEnd >= 0 { close(readEnd) }
        guard result == 0 else {
            if writeEnd >= 0 { close(writeEnd) }
            if let inputFile { unlink(inputFile) }
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        pid = child
        self.input = writeEnd
        self.inputFile = inputFile
    }

    /// Runs the program to its end; its exit status (128 + the signal when a signal ended it).
    @discardableResult
    public static func run(
        _ path: String, _ arguments: [String], in directory: String? = nil, input: Input = .none,
        stdout: Output = .discard, stderr: Output = .discard
    ) throws -> Int32 {
        try ChildProcess(path, arguments, in: directory, input: input, stdout: stdout, stderr: stderr).wait()
    }

    /// ``run(_:_:in:input:stdout:stderr:)`` on a thread of its own, so that a suite's
    /// cooperative threads are not held while the program runs.
    public static func runDetached(
        _ path: String, _ arguments: [String], in directory: String? = nil, input: Input = .none,
        stdout: Output = .discard, stderr: Output = .discard
    ) async throws -> Int32 {
        let child = try ChildProcess(path, arguments, in: directory, input: input, stdout: stdout, stderr: stderr)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: child.wait()) }.start()
        }
    }

    /// Writes to the program's input (``Input/pipe``).
    public func write(_ bytes: [UInt8]) throws {
        let fd = lock.withLock { input }
        guard fd >= 0 else { throw Failure(description: "the input is not a pipe, or was closed") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "writing to the program failed: \(String(cString: strerror(errno)))")
            }
            written += n
        }
    }

    /// Ends the program's input (``Input/pipe``): it reads end of file.
    public func closeInput() {
        let fd = lock.withLock { () -> Int32 in
            let fd = input
            input = -1
            return fd
        }
        if fd >= 0 { close(fd) }
    }

    /// Waits for the program to end; its exit status (128 + the signal when a signal ended it).
    public func wait() -> Int32 {
        if let done = lock.withLock({ exitStatus }) { return done }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return finished(raw)
    }

    /// Whether the program has not ended yet.
    public var isRunning: Bool {
        if lock.withLock({ exitStatus }) != nil { return false }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            _ = finished(raw)
            return false
        }
        return result == 0
    }

    /// Sends SIGTERM (nothing once it has ended).
    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    private func finished(_ raw: Int32) -> Int32 {
        let status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        lock.withLock { exitStatus = status }
        closeInput()
        if let inputFile { unlink(inputFile) }
        return status
    }

    deinit {
        closeInput()
        if let inputFile { unlink(inputFile) }
    }
}
