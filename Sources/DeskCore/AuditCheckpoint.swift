import CivilCalendar
import DeskText
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A signed statement "the audit log had `entries` entries, the last with hash `headHash`",
/// kept outside the store: the anchor that makes a rewrite of the store's chain visible.
///
/// Why: whoever can write the store can drop its triggers, edit an entry and recompute every
/// later hash; the chain alone then still verifies. A checkpoint is signed with an audit key the
/// store does not hold, so such a writer cannot make one for the rewritten chain, and the hash at
/// each checkpoint's count no longer matches. `firstHash` (entry 1's hash) says which log the
/// checkpoint belongs to. One checkpoint is one line of JSON text (``line``), so a file of them
/// can be read, appended to and copied with ordinary tools.
public struct AuditCheckpoint: Hashable, Sendable {
    /// The version tag: the `format` member of a line, and the first line of the signed bytes
    /// (domain separation: no other signature of the key can be taken for a checkpoint).
    public static let format = "tracedesk-audit-checkpoint-v1"

    /// Entries in the chain (= the id of the last one; ids have no gaps).
    public var entries: Int64
    /// The hash of entry `entries` (64 zeros when there is none yet).
    public var headHash: String
    /// The hash of entry 1 (64 zeros when there is none yet): which audit log this is.
    public var firstHash: String
    /// When it was made, in whole milliseconds.
    public var at: Date
    /// Which key signed it: the first 16 hex digits of the SHA-256 of its public key (DER).
    public var keyID: String
    /// ECDSA P-256 over ``signedBytes``, DER, base64.
    public var signature: String

    public init(entries: Int64, headHash: String, firstHash: String, at: Date, keyID: String, signature: String) {
        self.entries = entries
        self.headHash = headHash
        self.firstHash = firstHash
        self.at = Date(unixMilliseconds: at.unixMilliseconds)
        self.keyID = keyID
        self.signature = signature
    }

    /// The bytes the signature covers: the format tag, then every field but the signature,
    /// each length-prefixed (as ``AuditEntry/canonicalBytes``), so no two checkpoints share them.
    public var signedBytes: [UInt8] {
        var out = Array((Self.format + "\n").utf8)
        for text in [String(entries), headHash, firstHash, String(at.unixMilliseconds), keyID] {
            let bytes = Array(text.utf8)
            out += Array("\(bytes.count):".utf8) + bytes
            out.append(0x0A)
        }
        return out
    }

    /// The checkpoint as one line of JSON (no newline), members in a fixed order.
    public var line: String {
        JSONValue.object([
            .init(key: "format", value: .string(Self.format)),
            .init(key: "entries", value: .number(String(entries))),
            .init(key: "head_hash", value: .string(headHash)),
            .init(key: "first_hash", value: .string(firstHash)),
            .init(key: "at", value: .string(Self.timeText(at))),
            .init(key: "key_id", value: .string(keyID)),
            .init(key: "signature", value: .string(signature)),
        ]).serialized
    }

    /// Reads one line; the reason it is not a checkpoint otherwise (never quoting the line).
    public static func parse(_ line: String) -> Result<AuditCheckpoint, AuditCheckpointLineProblem> {
        let value: JSONValue
        do {
            value = try JSONReader.parse(line)
        } catch {
            return .failure(.init(tr("audit.parse.notJSON", ["reason": error.reason, "offset": String(error.offset)])))
        }
        guard case .object(let members) = value else { return .failure(.init(tr("audit.parse.notObject"))) }
        let names = ["format", "entries", "head_hash", "first_hash", "at", "key_id", "signature"]
        var seen: [String: JSONValue] = [:]
        for member in members {
            guard names.contains(member.key) else {
                return .failure(.init(tr("audit.parse.unknownMember", ["member": String(member.key.prefix(40))])))
            }
            guard seen[member.key] == nil else {
                return .failure(.init(tr("audit.parse.twice", ["member": member.key])))
            }
            seen[member.key] = member.value
        }
        func text(_ name: String) -> String? {
            if case .string(let s)? = seen[name] { return s }
            return nil
        }
        for name in names where seen[name] == nil {
            return .failure(.init(tr("audit.parse.missing", ["member": name])))
        }
        guard text("format") == format else {
            return .failure(.init(tr("audit.parse.format", ["format": format])))
        }
        guard case .number(let count)? = seen["entries"], count.utf8.count <= 18,
            count.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let entries = Int64(count)
        else { return .failure(.init(tr("audit.parse.entries"))) }
        guard let head = text("head_hash"), isHash(head) else {
            return .failure(.init(tr("audit.parse.headHash")))
        }
        guard let first = text("first_hash"), isHash(first) else {
            return .failure(.init(tr("audit.parse.firstHash")))
        }
        guard let atText = text("at"), let at = parseTime(atText) else {
            return .failure(.init(tr("audit.parse.at")))
        }
        guard let key = text("key_id"), key.utf8.count == 16, isHex(key) else {
            return .failure(.init(tr("audit.parse.keyID")))
        }
        guard let signature = text("signature"), !signature.isEmpty, signature.utf8.count <= 200 else {
            return .failure(.init(tr("audit.parse.signature")))
        }
        return .success(
            AuditCheckpoint(
                entries: entries, headHash: head, firstHash: first, at: at, keyID: key, signature: signature))
    }

    static func isHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    static func isHash(_ text: String) -> Bool { text.utf8.count == 64 && isHex(text) }

    /// `2026-12-01T17:00:00.000Z`: UTC, milliseconds, fixed width.
    public static func timeText(_ date: Date) -> String {
        let ms = date.unixMilliseconds
        let dayMs: Int64 = 86_400_000
        let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
        let rest = ms - days * dayMs
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let milli = rest % 1000
        let milliText = milli < 10 ? "00\(milli)" : milli < 100 ? "0\(milli)" : "\(milli)"
        return CivilDay(daysSinceEpoch: Int(days)).iso + "T" + two(rest / 3_600_000) + ":" + two(rest / 60_000 % 60)
            + ":" + two(rest / 1000 % 60) + "." + milliText + "Z"
    }

    static func parseTime(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        guard chars.count == 24, chars[10] == 0x54, chars[13] == 0x3A, chars[16] == 0x3A, chars[19] == 0x2E,
            chars[23] == 0x5A, let day = CivilDay(iso: String(decoding: chars[0..<10], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            guard chars[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int64(String(decoding: chars[range], as: UTF8.self))
        }
        guard let h = number(11..<13), let m = number(14..<16), let s = number(17..<19), let ms = number(20..<23),
            h < 24, m < 60, s < 60
        else { return nil }
        let total = Int64(day.daysSinceEpoch) * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000 + ms
        return Date(unixMilliseconds: total)
    }
}

/// Why a line is not a checkpoint.
public struct AuditCheckpointLineProblem: Error, Hashable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
