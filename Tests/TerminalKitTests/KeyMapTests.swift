import Testing

@testable import TerminalKit

@Suite struct KeyMapTests {
    enum Action: Hashable, Sendable { case quit, help, confirm, refresh, screenOnly }

    static let map = KeyMap<Action>([
        Binding([.enter], .confirm, help: "Confirm"),
        Binding([.char("r"), .function(5)], .refresh, help: "Refresh", shownInFooter: false),
        Binding([.char("q"), .escape], .quit, help: "Quit", group: "global"),
        Binding([.char("?")], .help, help: "Help", group: "global"),
        Binding([.char("q")], .screenOnly, help: "Shadowed", group: "global", shownInFooter: false),
    ])

    @Test(arguments: [
        (Key.enter, Action?.some(.confirm)),
        (.char("r"), .refresh),
        (.function(5), .refresh),
        (.char("q"), .quit),
        (.escape, .quit),
        (.char("x"), nil),
    ])
    func lookup(_ key: Key, _ want: Action?) {
        #expect(Self.map.action(for: key) == want)
    }

    @Test func footerHintsSkipHiddenBindings() {
        let hints = Self.map.footerHints
        #expect(hints.map(\.keys) == ["Enter", "q/Esc", "?"])
        #expect(hints.map(\.help) == ["Confirm", "Quit", "Help"])
    }

    @Test func helpSectionsGroupInFirstAppearanceOrder() {
        let sections = Self.map.helpSections
        #expect(sections.map(\.group) == ["this screen", "global"])
        #expect(sections[0].rows.map(\.keys) == ["Enter", "r/F5"])
        #expect(sections[1].rows.map(\.help) == ["Quit", "Help", "Shadowed"])
    }

    @Test func mergingKeepsEarlierBindingsFirst() {
        let screen = KeyMap<Action>([Binding([.char("q")], .screenOnly, help: "Back")])
        let merged = screen.merging(Self.map)
        #expect(merged.action(for: .char("q")) == .screenOnly)
        #expect(merged.action(for: .escape) == .quit)
    }

    @Test func mapConvertsActions() {
        let names = Self.map.map { "\($0)" }
        #expect(names.action(for: .enter) == "confirm")
        #expect(names.footerHints.count == 3)
    }
}
