/// What a piece of text means on screen; a ``Theme`` turns a role into colours and attributes.
///
/// Widgets ask for roles, never colours, so every screen works in any theme and in monochrome.
/// Meaning is never carried by the role alone: text or a symbol (✓ ✗ !) says it too.
public enum Role: String, CaseIterable, Codable, Hashable, Sendable {
    case normal
    case muted
    case title
    case header
    case border
    case borderFocused
    case selection
    case input
    case inputFocused
    case ok
    case warning
    case error
    case accent
    case keyHint
    case keyLabel
    case shadow

    /// One letter per role, for role-map snapshots.
    public var letter: Character {
        switch self {
        case .normal: return "."
        case .muted: return "m"
        case .title: return "T"
        case .header: return "H"
        case .border: return "b"
        case .borderFocused: return "B"
        case .selection: return "S"
        case .input: return "i"
        case .inputFocused: return "I"
        case .ok: return "o"
        case .warning: return "w"
        case .error: return "e"
        case .accent: return "a"
        case .keyHint: return "k"
        case .keyLabel: return "K"
        case .shadow: return "s"
        }
    }
}

/// Attributes a widget may add on top of its role (a theme may add more).
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let underline = TextAttributes(rawValue: 1 << 1)
    public static let reverse = TextAttributes(rawValue: 1 << 2)
    public static let dim = TextAttributes(rawValue: 1 << 3)
}

/// A role plus extra attributes: everything a cell knows about how it looks.
public struct Style: Hashable, Sendable {
    public var role: Role
    public var attributes: TextAttributes

    public init(_ role: Role = .normal, _ attributes: TextAttributes = []) {
        self.role = role
        self.attributes = attributes
    }

    public static let normal = Style(.normal)
}
