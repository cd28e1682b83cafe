import DeskText
import JSONText

/// One thing wrong with a theme file, worded to say what to fix.
public enum ThemeProblem: Hashable, Sendable, CustomStringConvertible {
    case malformedJSON(offset: Int, reason: String)
    /// A value of the wrong kind at a path such as `roles.title.attrs`.
    case wrongType(path: String, expected: String, found: String)
    case unknownField(path: String, field: String, allowed: [String])
    case unknownRole(String)
    case duplicateRole(String)
    case unknownColor(role: String, field: String, value: String)
    case unknownAttribute(role: String, value: String)
    case missingRoles([String])

    public var description: String {
        switch self {
        case .malformedJSON(let offset, let reason):
            return tr("theme.problem.malformed", ["offset": String(offset), "reason": reason])
        case .wrongType(let path, let expected, let found):
            return tr("theme.problem.wrongType", ["path": path, "expected": expected, "found": found])
        case .unknownField(let path, let field, let allowed):
            return tr(
                path.isEmpty ? "theme.problem.unknownField" : "theme.problem.unknownFieldIn",
                ["field": field, "path": path, "allowed": allowed.joined(separator: ", ")])
        case .unknownRole(let name):
            return tr(
                "theme.problem.unknownRole",
                ["name": name, "roles": Role.allCases.map(\.rawValue).joined(separator: ", ")])
        case .duplicateRole(let name):
            return tr("theme.problem.duplicateRole", ["name": name])
        case .unknownColor(let role, let field, let value):
            return tr(
                "theme.problem.unknownColour",
                [
                    "role": role, "field": field, "value": value,
                    "names": ThemeColor.names.keys.sorted().joined(separator: ", "),
                ])
        case .unknownAttribute(let role, let value):
            return tr(
                "theme.problem.unknownAttribute",
                ["role": role, "value": value, "names": Theme.attributeNames.map(\.name).joined(separator: ", ")])
        case .missingRoles(let names):
            return tr("theme.problem.missingRoles", ["names": names.joined(separator: ", ")])
        }
    }
}

/// Every problem found in a theme file, reported at once so one edit fixes them all.
public struct ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name the theme was loaded as (usually its file name without `.json`).
    public var themeName: String
    public var problems: [ThemeProblem]

    public init(themeName: String, problems: [ThemeProblem]) {
        self.themeName = themeName
        self.problems = problems
    }

    public var description: String {
        tr("theme.problems", ["theme": themeName, "count": trCount("theme.problemCount", problems.count)]) + "\n"
            + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}

extension Theme {
    /// Attribute names accepted in theme files, in the order messages list them.
    public static let attributeNames: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("underline", .underline), ("reverse", .reverse), ("dim", .dim),
    ]

    /// Reads a theme file:
    /// `{"name": "default", "roles": {"title": {"fg": "bright-white", "bg": "blue", "attrs": ["bold"]}, …}}`.
    ///
    /// `fg`/`bg` are a ``ThemeColor/names`` name, `"default"` or an integer 0–255 (omitted:
    /// default); `attrs` lists bold/underline/reverse/dim. Every ``Role`` must be present, so a
    /// new role can never silently fall back to plain text. The theme's name is the file's
    /// `"name"`, else `name`. All problems are collected before throwing.
    public static func parse(json: String, name: String) throws(ThemeError) -> Theme {
        let document: JSONValue
        do {
            document = try JSONReader.parse(json)
        } catch {
            throw ThemeError(themeName: name, problems: [.malformedJSON(offset: error.offset, reason: error.reason)])
        }
        var problems: [ThemeProblem] = []
        guard case .object(let top) = document else {
            throw ThemeError(
                themeName: name,
                problems: [
                    .wrongType(path: tr("theme.document"), expected: tr("json.kind.object"), found: document.kind)
                ]
            )
        }
        var themeName = name
        var roles: [JSONValue.Member]?
        for member in top {
            switch member.key {
            case "name":
                if case .string(let text) = member.value, !text.isEmpty {
                    themeName = text
                } else {
                    problems.append(
                        .wrongType(
                            path: "name", expected: tr("theme.expected.nonEmptyString"), found: member.value.kind))
                }
            case "description": break
            case "roles":
                if case .object(let members) = member.value {
                    roles = members
                } else {
                    problems.append(
                        .wrongType(path: "roles", expected: tr("json.kind.object"), found: member.value.kind))
                    roles = []
                }
            default:
                problems.append(.unknownField(path: "", field: member.key, allowed: ["name", "description", "roles"]))
            }
        }
        var appearances: [Role: RoleAppearance] = [:]
        for member in roles ?? [] {
            guard let role = Role(rawValue: member.key) else {
                problems.append(.unknownRole(member.key))
                continue
            }
            guard appearances[role] == nil else {
                problems.append(.duplicateRole(member.key))
                continue
            }
            appearances[role] = appearance(member.value, role: member.key, problems: &problems)
        }
        let missing = Role.allCases.filter { appearances[$0] == nil }.map(\.rawValue)
        if !missing.isEmpty { problems.append(.missingRoles(missing)) }
        guard problems.isEmpty else { throw ThemeError(themeName: name, problems: problems) }
        return Theme(name: themeName, appearances: appearances)
    }

    private static func appearance(_ value: JSONValue, role: String, problems: inout [ThemeProblem]) -> RoleAppearance {
        guard case .object(let members) = value else {
            problems.append(
                .wrongType(path: "roles.\(role)", expected: tr("theme.expected.role"), found: value.kind))
            return RoleAppearance()
        }
        var result = RoleAppearance()
        for member in members {
            switch member.key {
            case "fg": result.foreground = color(member.value, role: role, field: "fg", problems: &problems)
            case "bg": result.background = color(member.value, role: role, field: "bg", problems: &problems)
            case "attrs":
                guard case .array(let items) = member.value else {
                    problems.append(
                        .wrongType(
                            path: "roles.\(role).attrs", expected: tr("theme.expected.names"), found: member.value.kind)
                    )
                    continue
                }
                for item in items {
                    if case .string(let text) = item, let known = attributeNames.first(where: { $0.name == text }) {
                        result.attributes.insert(known.attribute)
                    } else if case .string(let text) = item {
                        problems.append(.unknownAttribute(role: role, value: text))
                    } else {
                        problems.append(
                            .wrongType(
                                path: "roles.\(role).attrs", expected: tr("theme.expected.names"),
                                found: tr("theme.found.listHolding", ["kind": item.kind])))
                    }
                }
            default:
                problems.append(
                    .unknownField(path: "roles.\(role)", field: member.key, allowed: ["fg", "bg", "attrs"]))
            }
        }
        return result
    }

    private static func color(_ value: JSONValue, role: String, field: String, problems: inout [ThemeProblem])
        -> ThemeColor
    {
        switch value {
        case .string("default"): return .terminalDefault
        case .string(let text):
            if let index = ThemeColor.names[text] { return .indexed(index) }
            problems.append(.unknownColor(role: role, field: field, value: text))
        case .number(let text):
            if let index = Int(text), (0...255).contains(index) { return .indexed(index) }
            problems.append(.unknownColor(role: role, field: field, value: text))
        default:
            problems.append(
                .wrongType(
                    path: "roles.\(role).\(field)", expected: tr("theme.expected.colour"), found: value.kind))
        }
        return .terminalDefault
    }
}
