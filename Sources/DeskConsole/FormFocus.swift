import DeskText
import TerminalKit

/// Which field of a form takes typed keys (sign-in, first admin, a staff account, a HIS
/// client): Tab and ↓ go to the next field, ⇧Tab and ↑ to the previous one, both wrapping, and
/// Enter goes on until the last field, where it submits.
///
/// Pure: the focus and the form's fields in, the focus out. A staff account's and a HIS
/// client's forms share their key map (``keyMap(submitHelp:submitName:)``: only what Enter says
/// differs); what a submit checks and sends is the form's.
public enum FormFocus {
    /// What a form's keys do besides typing.
    public enum Action: Hashable, Sendable { case submit, nextField, previousField, cancel }

    /// A form's keys besides typing (help and the key conventions test read them): Enter submits
    /// (`submitHelp`, named `submitName` in the key docs), Tab/↓ and ⇧Tab/↑ move, Esc goes back.
    public static func keyMap(submitHelp: String, submitName: String) -> KeyMap<Action> {
        let group = tr("console.frame.group.form")
        return KeyMap([
            Binding([.enter], .submit, help: submitHelp, group: group, name: submitName),
            Binding(
                [.tab, .down], .nextField, help: tr("console.frame.hint.nextField"), group: group, name: "next-field"),
            Binding(
                [.backTab, .up], .previousField, help: tr("console.frame.key.previousField"), group: group,
                shownInFooter: false, name: "previous-field"),
            Binding([.escape], .cancel, help: tr("console.frame.hint.cancel"), group: group, name: "back"),
        ])
    }

    /// The field `offset` places away, wrapping round; the first when `focus` is not a field.
    public static func step<Field: Equatable>(_ focus: Field, by offset: Int, in fields: [Field]) -> Field {
        guard !fields.isEmpty else { return focus }
        let index = fields.firstIndex(of: focus) ?? 0
        let count = fields.count
        return fields[((index + offset) % count + count) % count]
    }

    /// Enter: moves `focus` to the next field and answers false, or answers true on the last
    /// field (the form submits).
    public static func advance<Field: Equatable>(_ focus: inout Field, in fields: [Field]) -> Bool {
        guard focus != fields.last else { return true }
        focus = step(focus, by: 1, in: fields)
        return false
    }
}
