import DeskText
import Foundation
import TerminalKit

/// `/` on an admin list (staff accounts, HIS clients): filters the rows in place as you type,
/// like the monitor's filter. Every word typed must appear in the row's words (name, role,
/// state…), in any case; Enter keeps the filter and gives the keys back to the table, Esc
/// clears it (while typing, or afterwards). The screens keep their selection on the same row
/// while it is still shown, else on the first row shown.
public struct ListFilter: Hashable, Sendable {
    public var field = TextFieldState(maxLength: 40)
    /// Keys go to the field.
    public var editing = false

    public init() {}

    /// What the filter field does with a key.
    public enum Edit: Hashable, Sendable {
        /// The text changed (or the cursor moved): the rows shown may change.
        case edited
        /// Enter: the filter stays, the table has the keys again.
        case kept
        /// Esc: the filter is cleared and closed.
        case cleared
    }

    public static var keyMap: KeyMap<Edit> {
        KeyMap([
            Binding([.enter], .kept, help: tr("console.frame.filter.keep"), group: tr("console.frame.group.filter")),
            Binding(
                [.escape], .cleared, help: tr("console.frame.filter.clear"), group: tr("console.frame.group.filter")),
        ])
    }

    /// The words typed, lowercased.
    public var words: [String] {
        field.text.lowercased().split(whereSeparator: { $0 == " " }).map(String.init)
    }

    public var isActive: Bool { !words.isEmpty }

    /// Whether a row whose words are `haystack` (lowercased) is shown.
    public func matches(_ haystack: String) -> Bool {
        let words = self.words
        return words.isEmpty || words.allSatisfy { haystack.contains($0) }
    }

    /// Handles a key while ``editing``.
    public mutating func handle(_ key: Key) -> Edit {
        switch Self.keyMap.action(for: key) {
        case .kept:
            editing = false
            return .kept
        case .cleared:
            self = ListFilter()
            return .cleared
        case .edited, nil:
            _ = field.handle(key)
            return .edited
        }
    }

    /// The part of a list's title that shows the filter: " · / tra" while typing or kept.
    public var titleSuffix: String {
        if editing { return " · / " + field.text }
        return isActive ? tr("console.frame.filter.suffix", ["text": field.text, "esc": Key.escape.description]) : ""
    }
}
