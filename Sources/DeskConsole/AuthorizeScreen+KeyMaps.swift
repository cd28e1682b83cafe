import TerminalKit

extension AuthorizeScreen {
    /// Form-level commands (the fields handle their own editing keys).
    public enum FormAction: Hashable, Sendable { case nextField, previousField, review, quit }

    /// Commands of the result panel.
    public enum ResultAction: Hashable, Sendable { case nextCall, edit, retry, quit }

    /// Checked before a field sees the key. `q` is not here: it is a code character.
    public static let formKeyMap = KeyMap<FormAction>([
        Binding([.enter], .review, help: "Review", name: "review"),
        Binding([.tab], .nextField, help: "Next field", name: "next-field"),
        Binding([.backTab], .previousField, help: "Previous field", shownInFooter: false, name: "previous-field"),
        Binding(
            [.ctrl("c"), .ctrl("q"), .function(10)], .quit, help: "Quit", group: "global", shownInFooter: false,
            name: "quit"),
    ])

    public static let resultKeyMap = KeyMap<ResultAction>([
        Binding([.char("n")], .nextCall, help: "Next call", name: "next"),
        Binding([.char("e"), .escape], .edit, help: "Back to the form", name: "back"),
        Binding([.char("r")], .retry, help: "Retry (after a store error)", shownInFooter: false, name: "retry"),
        Binding([.char("q")], .quit, help: "Quit (asks first while the code is live)", footer: "Quit", name: "quit"),
    ])

    /// Keys the code field takes besides characters (and the text field's own).
    public enum CodeAction: Hashable, Sendable { case clear }

    /// Ctrl-U clears the whole code, wherever the cursor is; Esc clears nothing (it is "back"
    /// everywhere, and the code field is the form's first level).
    public static let codeFieldKeyMap = KeyMap<CodeAction>([
        Binding([.ctrl("u")], .clear, help: "Clear the code", group: "code", name: "clear")
    ])

    /// Keys of the symptom-onset field that the footer shows (the full list is in help).
    public static let onsetFooter = KeyMap<String>([
        Binding([.char("t")], "today", help: "Today", group: "symptom onset", name: "today"),
        Binding([.char("y")], "yesterday", help: "Yesterday", group: "symptom onset", name: "yesterday"),
        Binding(
            [.escape], "back", help: "Back to the code", group: "symptom onset", shownInFooter: false, name: "back"),
    ])
}
