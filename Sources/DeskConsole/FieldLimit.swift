import DeskText
import TerminalKit

/// The length limit of a text field, said out loud: a paste that did not fit is cut, and the
/// operator is told so (``cut(_:by:_:)``); near the limit a counter shows how much is left
/// (``counter(_:)``).
enum FieldLimit {
    /// The message when `key`, a character, found the field already full (`edit` is what the
    /// field made of it); nil otherwise. A paste arrives as characters, so its first character
    /// past the limit says it; the rest find the message there already.
    static func cut(_ field: TextFieldState, by key: Key, _ edit: TextFieldEdit) -> String? {
        guard case .char = key, edit == .unchanged, let limit = field.maxLength, field.text.count >= limit else {
            return nil
        }
        return tr("console.frame.field.cut", ["limit": String(limit)])
    }

    /// "185/200" once the text is within a tenth of its limit (at least 5 characters); nil
    /// before, and for fields without one.
    static func counter(_ field: TextFieldState) -> String? {
        guard let limit = field.maxLength else { return nil }
        let count = field.text.count
        guard count >= limit - max(5, limit / 10) else { return nil }
        return "\(count)/\(limit)"
    }
}
