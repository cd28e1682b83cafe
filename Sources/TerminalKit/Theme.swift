/// A colour as a theme names it.
public enum ThemeColor: Hashable, Sendable {
    /// The terminal's own foreground or background (works on light and dark terminals).
    case terminalDefault
    /// One of the 256 indexed colours; 0–15 are the ANSI colours every terminal has.
    case indexed(Int)

    /// Names accepted in theme files, with their ANSI index.
    public static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "bright-black": 8, "gray": 8, "grey": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11,
        "bright-blue": 12, "bright-magenta": 13, "bright-cyan": 14, "bright-white": 15,
    ]
}

/// How one role looks: colours plus attributes.
public struct RoleAppearance: Hashable, Sendable {
    public var foreground: ThemeColor
    public var background: ThemeColor
    public var attributes: TextAttributes

    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        attributes: TextAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}

/// Maps every ``Role`` to an appearance. Loaded from `themes/NAME.json` (see ``Theme/parse(json:name:)``).
///
/// A monochrome theme uses attributes only (bold, reverse, underline), never colour: it is what
/// `NO_COLOR` and `--no-color` select, and what a terminal without colours gets.
public struct Theme: Hashable, Sendable {
    public var name: String
    public var appearances: [Role: RoleAppearance]

    public init(name: String, appearances: [Role: RoleAppearance]) {
        self.name = name
        self.appearances = appearances
    }

    /// True when no role uses a colour.
    public var isMonochrome: Bool {
        appearances.values.allSatisfy { $0.foreground == .terminalDefault && $0.background == .terminalDefault }
    }

    /// The appearance of a styled cell: the role's, plus the style's own attributes.
    public func appearance(for style: Style) -> RoleAppearance {
        var base = appearances[style.role] ?? appearances[.normal] ?? RoleAppearance()
        base.attributes.formUnion(style.attributes)
        return base
    }

    /// This theme with every colour removed; attributes kept. Each role also gets the
    /// monochrome theme's attributes, so roles that relied on colour alone stay distinguishable.
    public var withoutColor: Theme {
        var result = Theme.monochrome
        result.name = name + " (no colour)"
        for role in Role.allCases {
            let own = appearances[role]?.attributes ?? []
            let mono = Theme.monochrome.appearances[role]?.attributes ?? []
            result.appearances[role] = RoleAppearance(attributes: own.union(mono))
        }
        return result
    }

    /// The built-in monochrome theme (identical to `themes/monochrome.json`).
    public static let monochrome = Theme(
        name: "monochrome",
        appearances: [
            .normal: RoleAppearance(),
            .muted: RoleAppearance(attributes: .dim),
            .title: RoleAppearance(attributes: [.bold, .reverse]),
            .header: RoleAppearance(attributes: [.bold, .underline]),
            .border: RoleAppearance(),
            .borderFocused: RoleAppearance(attributes: .bold),
            .selection: RoleAppearance(attributes: .reverse),
            .input: RoleAppearance(attributes: .underline),
            .inputFocused: RoleAppearance(attributes: [.bold, .underline]),
            .ok: RoleAppearance(attributes: .bold),
            .warning: RoleAppearance(attributes: .bold),
            .error: RoleAppearance(attributes: [.bold, .reverse]),
            .accent: RoleAppearance(attributes: .bold),
            .keyHint: RoleAppearance(),
            .keyLabel: RoleAppearance(attributes: .reverse),
            .shadow: RoleAppearance(attributes: .dim),
        ]
    )
}
