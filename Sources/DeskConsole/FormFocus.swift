/// Which field of a form takes typed keys (sign-in, first admin, a staff account, a HIS
/// client): Tab and ↓ go to the next field, ⇧Tab and ↑ to the previous one, both wrapping, and
/// Enter goes on until the last field, where it submits.
///
/// Pure: the focus and the form's fields in, the focus out. The key maps stay the screens'
/// own (their help texts differ); what a submit checks and sends is the form's.
public enum FormFocus {
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
