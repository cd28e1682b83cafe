/// Base64 in the two alphabets of RFC 4648, with strict decoding.
///
/// Foundation's `Data(base64Encoded:)` has no URL alphabet and accepts non-canonical input, and JWS
/// needs both: compact JWS segments are base64url without padding (RFC 7515 §2), while `x5c`
/// certificates and the SafetyNet nonce use the standard alphabet with padding.
public enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Standard base64 (`+`, `/`) with `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: standardAlphabet, pad: true)
    }

    /// base64url (`-`, `_`) without padding, as JWS segments use.
    public static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: urlAlphabet, pad: false)
    }

    /// Decodes standard base64; nil unless the text is canonical: length a multiple of 4, `=`
    /// padding only at the end, no whitespace, no characters outside the alphabet, unused bits zero.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var body = chars[...]
        var padding = 0
        while padding < 2, body.last == UInt8(ascii: "=") {
            body = body.dropLast()
            padding += 1
        }
        return decode(body, urlAlphabet: false)
    }

    /// Decodes base64url without padding; nil for padding, whitespace, foreign characters, an
    /// impossible length or non-zero unused bits.
    public static func decodeURL(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8)[...], urlAlphabet: true)
    }

    private static func encode(_ input: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            out.append(alphabet[Int(value >> 18 & 0x3F)])
            out.append(alphabet[Int(value >> 12 & 0x3F)])
            out.append(alphabet[Int(value >> 6 & 0x3F)])
            out.append(alphabet[Int(value & 0x3F)])
            index += 3
        }
        let rest = input.count - index
        if rest == 1 {
            let value = UInt32(input[index]) << 16
            out.append(alphabet[Int(value >> 18 & 0x3F)])
            out.append(alphabet[Int(value >> 12 & 0x3F)])
            if pad { out.append(contentsOf: Array("==".utf8)) }
        } else if rest == 2 {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            out.append(alphabet[Int(value >> 18 & 0x3F)])
            out.append(alphabet[Int(value >> 12 & 0x3F)])
            out.append(alphabet[Int(value >> 6 & 0x3F)])
            if pad { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 6-bit value of one character, or nil if it is outside the alphabet.
    private static func sextet(_ char: UInt8, urlAlphabet: Bool) -> UInt32? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(char - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(char - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(char - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+") where !urlAlphabet: return 62
        case UInt8(ascii: "/") where !urlAlphabet: return 63
        case UInt8(ascii: "-") where urlAlphabet: return 62
        case UInt8(ascii: "_") where urlAlphabet: return 63
        default: return nil
        }
    }

    /// Decodes unpadded characters (the padding, if any, already removed).
    private static func decode(_ chars: ArraySlice<UInt8>, urlAlphabet: Bool) -> [UInt8]? {
        // A final group of one character cannot carry a whole byte.
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in chars {
            guard let value = sextet(char, urlAlphabet: urlAlphabet) else { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Canonical form: the bits left over after the last whole byte are zero.
        guard accumulator == 0 else { return nil }
        return out
    }
}
