import DeskText
import TerminalKit

extension AuthorizeScreen {
    /// Form-level commands (the fields handle their own editing keys).
    public enum FormAction: Hashable, Sendable { case nextField, previousField, review, quit }

    /// Commands of the result panel.
    public enum ResultAction: Hashable, Sendable { case nextCall, edit, retry, quit }

    /// Checked before a field sees the key. `q` is not here: it is a code character.
    /// The quit binding's text, which the frame's footer looks for.
    static var quitHelp: String { tr("console.authorize.key.quit") }

    public static var formKeyMap: KeyMap<FormAction> {
        KeyMap([
            Binding([.enter], .review, help: tr("console.authorize.key.review"), name: "review"),
            Binding(
                [.tab], .nextField, help: tr("console.authorize.key.nextField"),
                footer: tr("console.authorize.key.nextFieldShort"),
                name: "next-field"),
            Binding(
                [.backTab], .previousField, help: tr("console.authorize.key.previousField"), shownInFooter: false,
                name: "previous-field"),
            Binding(
                [.ctrl("c"), .ctrl("q"), .function(10)], .quit, help: tr("console.authorize.key.quit"),
                group: tr("console.frame.group.global"), shownInFooter: false,
                name: "quit"),
        ])
    }

    public static var resultKeyMap: KeyMap<ResultAction> {
        KeyMap([
            Binding(
                [.char("n")], .nextCall, help: tr("console.authorize.key.nextCall"),
                footer: tr("console.authorize.footer.nextCall"), name: "next"),
            Binding(
                [.char("e"), .escape], .edit, help: tr("console.authorize.key.backToForm"),
                footer: tr("console.authorize.footer.backToForm"), name: "back"),
            Binding([.char("r")], .retry, help: tr("console.authorize.key.retry"), shownInFooter: false, name: "retry"),
            Binding(
                [.char("q")], .quit, help: tr("console.authorize.key.quitAsks"),
                footer: tr("console.authorize.key.quit"),
                name: "quit"),
        ])
    }

    /// Keys the code field takes besides characters (and the text field's own).
    public enum CodeAction: Hashable, Sendable { case clear }

    /// Ctrl-U clears the whole code, wherever the cursor is; Esc clears nothing (it is "back"
    /// everywhere, and the code field is the form's first level).
    public static var codeFieldKeyMap: KeyMap<CodeAction> {
        KeyMap([
            Binding(
                [.ctrl("u")], .clear, help: tr("console.authorize.key.clearCode"),
                group: tr("console.frame.group.code"), name: "clear")
        ])
    }

    /// Keys of the symptom-onset field that the footer shows (the full list is in help).
    public static var onsetFooter: KeyMap<String> {
        KeyMap([
            Binding(
                [.char("t")], "today", help: tr("console.authorize.key.today"), group: tr("console.frame.group.onset"),
                name: "today"),
            Binding(
                [.char("y")], "yesterday", help: tr("console.authorize.key.yesterday"),
                group: tr("console.frame.group.onset"), name: "yesterday"),
            Binding(
                [.escape], "back", help: tr("console.authorize.key.backToCode"), group: tr("console.frame.group.onset"),
                shownInFooter: false,
                name: "back"),
        ])
    }
}
