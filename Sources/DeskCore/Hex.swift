/// Bytes as text.
public enum Hex {
    /// Lowercase hex, two digits a byte: a beacon's form on the wire, in CSV and on screen.
    public static func lowercase(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return text
    }
}
