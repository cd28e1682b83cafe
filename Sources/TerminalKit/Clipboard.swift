/// Copying to the terminal's clipboard with OSC 52: `ESC ] 52 ; c ; <base64> BEL`, written to
/// the terminal itself, so it reaches the clipboard of the machine the user sits at, over SSH
/// and through tmux (`set -g set-clipboard on`), with no X11 or Wayland tool on this one.
///
/// The program asks (``TerminalBackend/copyToClipboard(_:)``); the backend writes the sequence;
/// ``TestBackend`` records it. What is copied is bounded (``maximumBytes``), cut at a character.
public enum Clipboard {
    /// At most this many bytes of text are copied (tmux and terminals refuse or cut longer
    /// sequences; a table row is far shorter).
    public static let maximumBytes = 4096

    /// What a copy request became.
    public enum Outcome: Hashable, Sendable {
        /// Written to the terminal, `cut` when the text was longer than ``maximumBytes``.
        case copied(cut: Bool)
        /// This terminal cannot copy (no terminal to write to).
        case unavailable
    }

    /// The text as copied: at most ``maximumBytes`` bytes, cut at a character, control
    /// characters other than tab and newline dropped; and whether it was cut.
    public static func bounded(_ text: String) -> (text: String, cut: Bool) {
        var out = ""
        var bytes = 0
        for character in text {
            if character.unicodeScalars.contains(where: {
                $0.value < 0x20 && $0 != "\t" && $0 != "\n" || $0.value == 0x7F
            }) {
                continue
            }
            let size = character.utf8.count
            if bytes + size > maximumBytes { return (out, true) }
            out.append(character)
            bytes += size
        }
        return (out, false)
    }

    /// The OSC 52 sequence that sets the clipboard (`c`) to `text` (already bounded).
    public static func sequence(for text: String) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + base64(Array(text.utf8)) + [0x07]
    }

    /// Standard base64 (RFC 4648, with padding), as OSC 52 wants it.
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [
                alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)],
                alphabet[Int(n & 63)],
            ]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let n = UInt32(bytes[index]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], 0x3D, 0x3D]
        } else if rest == 2 {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], 0x3D]
        }
        return out
    }
}

extension TerminalBackend {
    /// A backend that cannot copy says so.
    public func copyToClipboard(_ text: String) -> Clipboard.Outcome { .unavailable }
}
