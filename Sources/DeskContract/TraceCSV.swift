import DeskCore
import DeskText
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The contacts of a lookup as CSV (RFC 4180): what the contact-trace screen's `e` and
/// `tracedesk trace --csv` write, with the same columns. Times are UTC in the staff API's form.
///
/// Escaping: a field with a comma, a quote, CR or LF is quoted, its quotes doubled. Free text a
/// person typed (an outcome's note, who recorded it) that starts with `=`, `+`, `-`, `@`, a tab
/// or a carriage return gets a leading `'`, so a spreadsheet opening the file does not run it as
/// a formula; phone numbers are E.164 and kept as they are.
public enum TraceCSV {
    public static let columns = [
        "contact_user_id", "phone", "close_contact", "minutes", "most_minutes_on_one_day", "days", "sightings",
        "first_seen", "last_seen", "outcome", "outcome_note", "outcome_by", "outcome_at",
    ]

    /// The header and one line per contact, in the order given; lines end in CRLF.
    public static func contacts(_ contacts: [TraceContact]) -> String {
        var text = columns.joined(separator: ",") + "\r\n"
        for contact in contacts { text += row(contact).map(field).joined(separator: ",") + "\r\n" }
        return text
    }

    static func row(_ contact: TraceContact) -> [String] {
        let summary = contact.summary
        return [
            String(summary.userID), summary.phone.e164, summary.isCloseContact ? "yes" : "no", String(summary.minutes),
            String(summary.mostMinutesOnOneDay), String(summary.days), String(summary.sightings),
            summary.firstSeen.map(UTCTime.text) ?? "", summary.lastSeen.map(UTCTime.text) ?? "",
            contact.currentOutcome.rawValue, typed(contact.outcome?.note ?? ""), typed(contact.outcome?.by ?? ""),
            contact.outcome.map { UTCTime.text($0.at) } ?? "",
        ]
    }

    /// Free text with a leading formula character made inert: `=`, `+`, `-`, `@`, and a tab or
    /// carriage return (a spreadsheet may skip them and read the formula after).
    static func typed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// One field, quoted when it must be.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Writes a file whole or not at all: the bytes go to a short-named temporary file beside the
/// target, are flushed, and the temporary file is linked (or renamed, to overwrite) into place,
/// then the folder is flushed. A crash or a full disk leaves the target as it was (and at worst
/// a `.tracedesk-….tmp` file beside it).
///
/// In steps, for an export that must be audited only once it can be written:
/// ``check(_:)``, ``stage(_:for:overwrite:)`` (the bytes are on disk, under the temporary
/// name), then the caller's audit, then ``Staged/commit()`` (or ``Staged/discard()`` when the
/// audit failed). ``write(_:to:overwrite:)`` does it all at once.
public enum AtomicFile {
    public enum Failure: Error, Hashable, Sendable {
        /// The target exists and overwriting was not asked for.
        case exists(String)
        case failed(String)

        public var message: String {
            switch self {
            case .exists(let path): return tr("messages.file.exists", ["path": path])
            case .failed(let text): return text
            }
        }
    }

    /// The longest file name (one path component) Linux file systems take, in bytes.
    public static let maximumNameBytes = Int(NAME_MAX)

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// What is wrong with `path` as a file to write, before anything is asked or written: the
    /// folder must exist, the target must not be a folder, the name must fit the file system.
    public static func check(_ path: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue)
        {
            throw .failed(
                tr(
                    "messages.file.isFolder",
                    ["path": path, "example": (path.hasSuffix("/") ? path : path + "/") + "trace.csv"]))
        }
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        if name.utf8.count > maximumNameBytes {
            throw .failed(
                tr(
                    "messages.file.nameTooLong",
                    ["bytes": String(name.utf8.count), "maximum": String(maximumNameBytes)]))
        }
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .failed(tr("messages.file.noFolder", ["folder": directory]))
        }
    }

    /// Bytes written and flushed under a temporary name beside their target, not yet in place.
    public struct Staged: Sendable {
        public let path: String
        let temporary: String
        let directory: String
        let overwrite: Bool

        /// Puts the file in place: linked (fails if the target appeared meanwhile) or renamed
        /// over the target with `overwrite`; then flushes the folder. On failure nothing is
        /// left behind.
        public func commit() throws(Failure) {
            if !overwrite {
                // link(2) fails when the target exists: no race with a file made meanwhile.
                if link(temporary, path) != 0 {
                    let code = errno
                    unlink(temporary)
                    if code == EEXIST { throw .exists(path) }
                    throw .failed(
                        tr("messages.file.writeFailed", ["path": path, "reason": String(cString: strerror(code))]))
                }
                unlink(temporary)
            } else if rename(temporary, path) != 0 {
                let code = errno
                unlink(temporary)
                throw .failed(
                    tr("messages.file.writeFailed", ["path": path, "reason": String(cString: strerror(code))]))
            }
            let folder = open(directory, O_RDONLY | O_DIRECTORY)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        }

        /// Removes the temporary file: the target is left as it was.
        public func discard() { unlink(temporary) }
    }

    /// Checks `path`, then writes `bytes` (mode 0600: the file holds personal data) to a
    /// temporary file beside it and flushes them. With `overwrite` false an existing file is
    /// refused before anything is written.
    public static func stage(_ bytes: [UInt8], for path: String, overwrite: Bool) throws(Failure) -> Staged {
        try check(path)
        if !overwrite, exists(path) { throw .exists(path) }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        // Short, whatever the target's length: a long target name still leaves room for it.
        let temporary = directory + "/.tracedesk-" + UUID().uuidString.prefix(8).lowercased() + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw .failed(
                tr("messages.file.cannotWriteIn", ["folder": directory, "reason": String(cString: strerror(errno))]))
        }
        var written = 0
        var problem: String?
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    problem = String(cString: strerror(errno))
                    return
                }
                written += n
            }
        }
        if problem == nil, fsync(fd) != 0 { problem = String(cString: strerror(errno)) }
        close(fd)
        if let problem {
            unlink(temporary)
            throw .failed(tr("messages.file.writeFailed", ["path": path, "reason": problem]))
        }
        return Staged(path: path, temporary: temporary, directory: directory, overwrite: overwrite)
    }

    /// Writes `bytes` to `path` whole or not at all (``stage(_:for:overwrite:)`` then
    /// ``Staged/commit()``).
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(Failure) {
        try stage(bytes, for: path, overwrite: overwrite).commit()
    }
}
