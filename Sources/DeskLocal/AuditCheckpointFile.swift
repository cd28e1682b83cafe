import DeskCore
import DeskCrypto
import Foundation

/// A file of audit checkpoints, one JSON line each (``AuditCheckpoint/line``), outside the store.
///
/// Lines are only ever appended (`O_APPEND`, then `fsync`), so a crash leaves at worst a last
/// line cut short, which verification names as damaged; the lines before it stay good. The file
/// is created 0600: it holds no secret, but only the one who checkpoints should write it.
public struct AuditCheckpointFile: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    /// A file that cannot be used, with what to do.
    public struct Problem: Error, Hashable, Sendable {
        public var message: String
    }

    /// The file's text; "" when it does not exist yet (`mustExist` false).
    public func text(mustExist: Bool) throws(Problem) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist {
                throw Problem(
                    message:
                        "there is no checkpoint file \(path): check the path (tracedesk audit checkpoint writes one)")
            }
            return ""
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(message: "cannot read the checkpoint file \(path): check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(message: "\(path) is not a checkpoint file (not UTF-8 text): check the path")
        }
        return text
    }

    /// The lines of the file checked against `key`.
    public func lines(key: ECPublicKey, mustExist: Bool) throws(Problem) -> [AuditCheckpointLine] {
        AuditCheckpoint.read(file: try text(mustExist: mustExist), key: key)
    }

    /// Appends one checkpoint as a line and syncs it to disk. A file whose last line lacks its
    /// newline (a write cut short) gets one first, so the new line stands on its own.
    public func append(_ checkpoint: AuditCheckpoint) throws(Problem) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Problem(
                message:
                    "cannot open \(path) to append a checkpoint: \(String(cString: strerror(errno))); check the path and its folder's permissions"
            )
        }
        defer { close(fd) }
        var bytes = Array((checkpoint.line + "\n").utf8)
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > 0, let last = try? lastByte(), last != 0x0A {
            bytes.insert(0x0A, at: 0)
        }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw Problem(
                message:
                    "could not write the checkpoint to \(path) completely (\(String(cString: strerror(errno)))): check the disk; verify the file before relying on its last line"
            )
        }
    }

    private func lastByte() throws -> UInt8? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let end = try handle.seekToEnd()
        guard end > 0 else { return nil }
        try handle.seek(toOffset: end - 1)
        return try handle.read(upToCount: 1)?.first
    }
}

extension AuditCheckpointLine {
    /// The checkpoint when the line is one signed by the key it was checked against.
    public var signed: AuditCheckpoint? {
        if case .signed(let checkpoint) = state { return checkpoint }
        return nil
    }
}
