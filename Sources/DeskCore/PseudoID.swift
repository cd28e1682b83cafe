import CivilCalendar
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A pseudo-id: 20 bytes, the first 16 are `0x88` (the design's 32 hexadecimal 8s), the last 4
/// random. Only the last 4 bytes tell pseudo-ids apart, so at most 2^32 exist.
public struct PseudoID: Hashable, Sendable, Comparable {
    /// The 4 random bytes, big-endian.
    public let suffix: UInt32

    public init(suffix: UInt32) { self.suffix = suffix }

    public static let byteCount = 20
    public static let prefixByte: UInt8 = 0x88
    public static let prefixLength = 16
    /// Every pseudo-id the design allows: 2^32.
    public static let capacity: Int64 = 1 << 32

    /// The pseudo-id in a 20-byte beacon; nil when the beacon lacks the `0x88…` prefix (a foreign beacon).
    public init?<Bytes: RandomAccessCollection>(beacon: Bytes) where Bytes.Element == UInt8, Bytes.Index == Int {
        guard beacon.count == PseudoID.byteCount else { return nil }
        let start = beacon.startIndex
        for offset in 0..<PseudoID.prefixLength where beacon[start + offset] != PseudoID.prefixByte {
            return nil
        }
        var value: UInt32 = 0
        for offset in PseudoID.prefixLength..<PseudoID.byteCount {
            value = value << 8 | UInt32(beacon[start + offset])
        }
        suffix = value
    }

    /// 40 lowercase hex characters, as the login response lists them.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 40 else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(20)
        var index = 0
        while index < 40 {
            guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
            decoded.append(high << 4 | low)
            index += 2
        }
        self.init(beacon: decoded)
    }

    public var bytes: [UInt8] {
        [UInt8](repeating: PseudoID.prefixByte, count: PseudoID.prefixLength) + [
            UInt8(suffix >> 24), UInt8(suffix >> 16 & 0xff), UInt8(suffix >> 8 & 0xff), UInt8(suffix & 0xff),
        ]
    }

    public var hex: String { String(repeating: "88", count: PseudoID.prefixLength) + PseudoID.hex8(suffix) }

    static func hex8(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for shift in stride(from: 28, through: 0, by: -4) {
            text.append(digits[Int(value >> UInt32(shift) & 0xf)])
        }
        return text
    }

    public static func < (lhs: PseudoID, rhs: PseudoID) -> Bool { lhs.suffix < rhs.suffix }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// How full the pseudo-id space is.
public struct PseudoIDCapacity: Hashable, Sendable {
    public var used: Int64
    public var capacity: Int64 = PseudoID.capacity

    public init(used: Int64) { self.used = used }

    public var fraction: Double { Double(used) / Double(capacity) }
    /// Past half: registration still works but each new pseudo-id takes more tries to find.
    public var isWarning: Bool { used * 2 > capacity }
    /// Whether `count` more pseudo-ids fit.
    public func fits(_ count: Int) -> Bool { used + Int64(count) <= capacity }

    /// "12 000 000 of 4 294 967 296 pseudo-ids used (0.28 %)".
    public var summary: String {
        let percent = (fraction * 10_000).rounded() / 100
        return trCount(
            "messages.pseudoIDs.summary", Int(clamping: used),
            ["used": String(used), "capacity": String(capacity), "percent": Language.current.decimal("\(percent)")])
    }
}
