import DeskText

/// One entry of a ``KeyMap``: the keys that trigger an action and how help describes it.
///
/// Bindings are the single source of truth for what a key does: the screen's `update` looks
/// actions up here, and the footer and the `?` help overlay are generated from the same list,
/// so they can never disagree with the behaviour.
public struct Binding<Action> {
    /// Keys that trigger the action; the first is the one a footer shows first.
    public var keys: [Key]
    public var action: Action
    /// Short imperative text ("Quit", "Next field").
    public var help: String
    /// Help-overlay section ("global", "this screen", "calendar").
    public var group: String
    /// Whether the footer lists this binding (help always does).
    public var shownInFooter: Bool
    /// A shorter text for the footer ("Detail" for "Detail: timeline and sightings"); nil: the
    /// help text.
    public var footer: String?
    /// The command's name in the palette (`:export`, `:monitor`); nil: the palette does not
    /// list it. Names are lowercase words joined by `-`; the key conventions test checks that a
    /// convention key (Esc, Tab, `/`, `?`, `q`…) carries the name of its one meaning.
    public var name: String?

    public init(
        _ keys: [Key], _ action: Action, help: String, group: String = tr("terminal.group.screen"),
        shownInFooter: Bool = true,
        footer: String? = nil, name: String? = nil
    ) {
        self.keys = keys
        self.name = name
        self.action = action
        self.help = help
        self.group = group
        self.shownInFooter = shownInFooter
        self.footer = footer
    }

    /// What the footer says for this binding: ``footer``, else ``help``.
    public var footerText: String { footer ?? help }

    /// The keys as help writes them: "q/Esc".
    public var keysLabel: String {
        keys.map(\.description).joined(separator: "/")
    }

    /// The same binding with its action converted (to embed a widget's map in a screen's).
    public func map<Other>(_ transform: (Action) -> Other) -> Binding<Other> {
        Binding<Other>(
            keys, transform(action), help: help, group: group, shownInFooter: shownInFooter, footer: footer,
            name: name)
    }
}

/// A binding without its action: what help, the palette, the docs' key tables and the key
/// conventions test read, for key maps of any action type alike.
public struct KeyRow: Hashable, Sendable {
    public var keys: [Key]
    /// The keys as help writes them ("q/Esc"); a row with no keys ("A…9") has only this.
    public var label: String
    public var help: String
    public var group: String
    public var name: String?
    public var shownInFooter: Bool

    public init(
        keys: [Key], label: String? = nil, help: String, group: String, name: String? = nil, shownInFooter: Bool = false
    ) {
        self.keys = keys
        self.label = label ?? keys.map(\.description).joined(separator: "/")
        self.help = help
        self.group = group
        self.name = name
        self.shownInFooter = shownInFooter
    }
}

extension Binding: Sendable where Action: Sendable {}
extension Binding: Equatable where Action: Equatable {}
extension Binding: Hashable where Action: Hashable {}

/// An ordered list of ``Binding``s: key → action lookup, footer hints and help sections.
///
/// When two bindings share a key, the earlier one wins, so a screen lists its own bindings
/// before the global ones it appends (see ``merging(_:)``).
public struct KeyMap<Action> {
    public var bindings: [Binding<Action>]

    public init(_ bindings: [Binding<Action>]) {
        self.bindings = bindings
    }

    /// The action bound to `key`, or nil if the key is not bound.
    public func action(for key: Key) -> Action? {
        for binding in bindings where binding.keys.contains(key) {
            return binding.action
        }
        return nil
    }

    /// Footer hints, in binding order: `(keys: "q/Esc", help: "Back")`.
    public var footerHints: [(keys: String, help: String)] {
        bindings.filter(\.shownInFooter).map { (keys: $0.keysLabel, help: $0.footerText) }
    }

    /// Help sections in the order their groups first appear; every binding is listed.
    public var helpSections: [(group: String, rows: [(keys: String, help: String)])] {
        var order: [String] = []
        var rows: [String: [(keys: String, help: String)]] = [:]
        for binding in bindings {
            if rows[binding.group] == nil {
                order.append(binding.group)
                rows[binding.group] = []
            }
            rows[binding.group, default: []].append((keys: binding.keysLabel, help: binding.help))
        }
        return order.map { (group: $0, rows: rows[$0] ?? []) }
    }

    /// This map followed by `other`: this map's bindings win on shared keys.
    public func merging(_ other: KeyMap<Action>) -> KeyMap<Action> {
        KeyMap(bindings + other.bindings)
    }

    /// The bindings without their actions.
    public var rows: [KeyRow] {
        bindings.map {
            KeyRow(
                keys: $0.keys, label: $0.keysLabel, help: $0.help, group: $0.group, name: $0.name,
                shownInFooter: $0.shownInFooter)
        }
    }

    /// The bindings the palette lists (those with a ``Binding/name``), in order, each name once.
    public var namedBindings: [Binding<Action>] {
        var seen: Set<String> = []
        return bindings.filter { binding in
            guard let name = binding.name else { return false }
            return seen.insert(name).inserted
        }
    }

    /// The same map with every action converted.
    public func map<Other>(_ transform: (Action) -> Other) -> KeyMap<Other> {
        KeyMap<Other>(bindings.map { $0.map(transform) })
    }
}

extension KeyMap: Sendable where Action: Sendable {}
extension KeyMap: Equatable where Action: Equatable {}
extension KeyMap: Hashable where Action: Hashable {}
