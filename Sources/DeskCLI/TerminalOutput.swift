import DeskLog

// What every command prints: messages on stderr through the one log writer, and lines on stdout
// made safe for the terminal.

package func printError(_ message: String) {
    // Never FileHandle here: its write traps on a full disk (see LogWriter).
    LogWriter.standardError.line("tracedesk: " + terminalSafe(message))
}

/// `text` with control characters (C0, DEL, C1) shown as "?", but for tab and newline: text
/// from a server or a store (a message, an audit detail) must not drive the terminal with
/// escape sequences (ESC, CSI), move the cursor back over what was printed (CR, BS) or ring it;
/// tabs and newlines only lay text out, and multi-line messages and tab-separated lists need them.
package func terminalSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isNeutralised) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { out.append(isNeutralised(scalar) ? "?" : scalar) }
    return String(out)
}

/// Control characters but `\t` and `\n`.
package func isNeutralised(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\t" || scalar == "\n" { return false }
    return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

/// One line on stdout, made safe for the terminal (see ``terminalSafe(_:)``).
package func say(_ text: String) {
    print(terminalSafe(text))
}
