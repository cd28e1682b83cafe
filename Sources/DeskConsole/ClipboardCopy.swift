import DeskText
import Foundation
import TerminalKit

/// What `y` copies on a screen: the text, and what the notice calls it.
///
/// The program writes it to the terminal (``TerminalBackend/copyToClipboard(_:)``, OSC 52)
/// unless copying is turned off (`--no-copy`, `TRACEDESK_COPY=off`: ``Program/copyEnabled``).
/// A phone number is copied only after the desk audited the copy
/// (``DeskService/recordPhoneCopy(_:patientUserID:contactUserID:purpose:)``); its notice never
/// shows the number.
public struct ClipboardCopy: Hashable, Sendable {
    public var text: String
    /// What the notice names: "phone number", "code tag 3fa2c1", "row".
    public var what: String

    public init(_ text: String, what: String) {
        self.text = text
        self.what = what
    }

    /// A table row as text: its cells joined by two spaces, empty cells left out.
    public static func row(_ cells: [String], what: String = tr("console.frame.copy.row")) -> ClipboardCopy {
        ClipboardCopy(
            cells.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "  "),
            what: what)
    }
}

/// What became of a copy, for the screen's notice.
public enum CopyResult: Hashable, Sendable {
    case copied(what: String, cut: Bool)
    /// Copying is turned off by the setting.
    case off
    /// The terminal could not be written to.
    case unavailable
    /// The desk did not record the copy (the audit call failed): nothing was copied.
    case refused(String)
    /// Nothing to copy here (an empty table).
    case nothing(String)

    /// The words the screen shows.
    public var notice: Notice {
        switch self {
        case .copied(let what, let cut):
            return .ok(
                cut
                    ? tr("console.frame.copy.copiedCut", ["what": what, "bytes": String(Clipboard.maximumBytes)])
                    : tr("console.frame.copy.copied", ["what": what]))
        case .off:
            return .info(tr("console.frame.copy.off"))
        case .unavailable:
            return .error(tr("console.frame.copy.unavailable"))
        case .refused(let message):
            return .error(tr("console.frame.copy.refused", ["message": message]))
        case .nothing(let text):
            return .info(text)
        }
    }
}
