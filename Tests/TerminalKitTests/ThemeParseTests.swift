import Foundation
import JSONText
import Testing

@testable import TerminalKit

@Suite struct ThemeParseTests {
    /// The repository's `themes/` folder, found from this file's path (Tests/TerminalKitTests/…).
    static let themesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes")

    static func load(_ name: String) throws -> Theme {
        let text = try String(contentsOf: themesFolder.appendingPathComponent(name + ".json"), encoding: .utf8)
        return try Theme.parse(json: text, name: name)
    }

    /// A theme document with every role `{}` except the overrides (raw JSON per role).
    static func document(_ overrides: [String: String] = [:], dropping: Set<String> = [], extra: String = "") -> String
    {
        var entries = Role.allCases.filter { !dropping.contains($0.rawValue) }.map { role in
            "\"\(role.rawValue)\": \(overrides[role.rawValue] ?? "{}")"
        }
        if !extra.isEmpty { entries.append(extra) }
        return "{\"name\": \"t\", \"roles\": {" + entries.joined(separator: ", ") + "}}"
    }

    static func problems(_ json: String) -> [ThemeProblem] {
        do {
            _ = try Theme.parse(json: json, name: "t")
            return []
        } catch {
            return error.problems
        }
    }

    @Test(arguments: ["default", "high-contrast", "monochrome"])
    func shippedThemesParse(_ name: String) throws {
        let theme = try Self.load(name)
        #expect(theme.name == name)
        #expect(Set(theme.appearances.keys) == Set(Role.allCases))
    }

    @Test func monochromeFileEqualsTheBuiltInTheme() throws {
        #expect(try Self.load("monochrome") == Theme.monochrome)
        #expect(Theme.monochrome.isMonochrome)
    }

    @Test func defaultThemeUsesOnlyTheSixteenAnsiColours() throws {
        let theme = try Self.load("default")
        let colours = theme.appearances.values.flatMap { [$0.foreground, $0.background] }
        #expect(colours.allSatisfy { if case .indexed(let n) = $0 { n < 16 } else { true } })
        #expect(theme.appearances[.normal] == RoleAppearance())
        #expect(
            theme.appearances[.title]
                == RoleAppearance(foreground: .indexed(15), background: .indexed(4), attributes: .bold))
    }

    @Test func highContrastReversesTheSelection() throws {
        #expect(try Self.load("high-contrast").appearances[.selection]?.attributes.contains(.reverse) == true)
    }

    @Test func coloursAcceptNamesDefaultAndNumbers() throws {
        let theme = try Theme.parse(
            json: Self.document([
                "ok": #"{"fg": "bright-green", "bg": 236, "attrs": ["bold", "dim"]}"#, "error": #"{"fg": "default"}"#,
            ]),
            name: "t")
        #expect(
            theme.appearances[.ok]
                == RoleAppearance(foreground: .indexed(10), background: .indexed(236), attributes: [.bold, .dim]))
        #expect(theme.appearances[.error] == RoleAppearance())
    }

    @Test func nameFallsBackToTheFileName() throws {
        let json = Self.document().replacingOccurrences(of: "\"name\": \"t\", ", with: "")
        #expect(try Theme.parse(json: json, name: "mine").name == "mine")
    }

    @Test func everyProblemIsReportedAtOnce() {
        let json = Self.document(
            ["title": #"{"fg": "purple", "bg": 300, "attrs": ["blink", "bold"], "fore": 1}"#],
            dropping: ["accent", "shadow"], extra: #""titel": {}"#)
        #expect(
            Self.problems(json) == [
                .unknownColor(role: "title", field: "fg", value: "purple"),
                .unknownColor(role: "title", field: "bg", value: "300"),
                .unknownAttribute(role: "title", value: "blink"),
                .unknownField(path: "roles.title", field: "fore", allowed: ["fg", "bg", "attrs"]),
                .unknownRole("titel"),
                .missingRoles(["accent", "shadow"]),
            ])
    }

    @Test(arguments: [
        (#"{"roles": {"ok": {}"#, 19),
        (#"{"roles": {"ok": {},}}"#, 20),
        (#"{"roles" {}}"#, 9),
        ("", 0),
        (#"{"name": "x"} extra"#, 14),
        (#"{"name": "unterminated}"#, 23),
    ])
    func malformedJSONGivesTheByteOffset(_ json: String, _ offset: Int) {
        let found = Self.problems(json)
        #expect(found.count == 1)
        if case .malformedJSON(let at, _) = found.first {
            #expect(at == offset)
        } else {
            Issue.record("expected a malformed-JSON problem, got \(found)")
        }
    }

    @Test func wrongTypesAreNamedByPath() {
        #expect(Self.problems(#"[1]"#) == [.wrongType(path: "(document)", expected: "an object", found: "a list")])
        let problems = Self.problems(Self.document(["ok": #"{"attrs": "bold", "fg": true}"#, "error": "3"]))
        #expect(
            problems == [
                .wrongType(path: "roles.ok.attrs", expected: "a list of names", found: "a string"),
                .wrongType(path: "roles.ok.fg", expected: "a colour name, \"default\" or 0–255", found: "true/false"),
                .wrongType(path: "roles.error", expected: "an object like {\"fg\": \"red\"}", found: "a number"),
            ])
    }

    @Test func duplicateRolesAndMissingRolesObject() {
        #expect(Self.problems(Self.document(extra: #""ok": {}"#)) == [.duplicateRole("ok")])
        #expect(Self.problems(#"{"name": "x"}"#) == [.missingRoles(Role.allCases.map(\.rawValue))])
    }

    @Test func messagesSayWhatToFix() {
        let error = ThemeError(
            themeName: "mine",
            problems: [
                .unknownColor(role: "title", field: "fg", value: "purple"),
                .missingRoles(["shadow"]),
                .malformedJSON(offset: 12, reason: "expected “:” after the key “roles”"),
            ])
        let text = error.description
        #expect(text.hasPrefix("theme “mine” has 3 problems:\n"))
        #expect(
            text.contains(
                "role “title”: unknown fg colour “purple”: use default, a number 0–255 or one of black, blue,"))
        #expect(text.contains("missing roles shadow: every role needs an entry"))
        #expect(text.contains("malformed JSON at byte 12: expected “:” after the key “roles”; fix the syntax there"))
    }

    @Test func stringEscapesDecode() throws {
        let value = try JSONReader.parse(#"{"a": "x\"\\\/\n\u00e9\ud83d\ude42"}"#)
        #expect(value == .object([JSONValue.Member(key: "a", value: .string("x\"\\/\né🙂"))]))
    }

    @Test func withoutColorKeepsAttributesAndDropsColours() throws {
        let plain = try Self.load("high-contrast").withoutColor
        #expect(plain.isMonochrome)
        #expect(plain.appearances[.header]?.attributes == [.bold, .underline])
        #expect(plain.appearances[.selection]?.attributes == [.bold, .reverse])
    }
}
