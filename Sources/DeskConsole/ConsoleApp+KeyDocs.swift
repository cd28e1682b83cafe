import DeskCore
import DeskText
import TerminalKit

/// The key tables of the guides, made from the key maps themselves (one fact in one place):
/// `docs/operator-guide.md` shows ``conventionsMarkdown()``, each role's guide
/// ``keysMarkdown(for:)``. A test fails when a guide's generated block differs; it rewrites them
/// with `TRACEDESK_WRITE_KEY_DOCS=1 swift test --filter KeyDocs`. The guides are English: the tables are
/// made in English whatever the language of the process.
extension ConsoleApp {
    /// The key maps each role's guide lists, with the heading of each ("Authorise: the form").
    static let guideTables: [StaffRole: [(id: String, title: String)]] = [
        .operator: [
            ("screens.operator", "Screens"), ("authorize.form", "Authorise: the form"),
            ("authorize.code", "Authorise: the code field"), ("authorize.onset", "Authorise: the symptom onset"),
            ("date-field", "Authorise: the date field and calendar"), ("authorize.result", "Authorise: the result"),
            ("dialog.review", "Authorise: the review dialog"), ("monitor", "Monitor"),
            ("monitor.filter", "Monitor: typing a filter"),
        ],
        .tracer: [
            ("screens.tracer", "Screens"), ("queue", "Queue"), ("queue.detail", "Queue: a person"),
            ("queue.outcome", "Queue: the outcome with a note"), ("queue.check", "Queue: the daily check"),
            ("queue.case", "A case"), ("queue.case-close", "A case: closing it"),
            ("trace.phone", "Look-up: the phone number"),
            ("trace.phone-back", "Look-up: the number, over a shown look-up"),
            ("trace.purpose", "Open a case: the reference and the index day"), ("trace.loading", "Looking up"),
            ("trace", "Contacts"),
            ("trace.detail", "Contact detail"), ("trace.outcome", "Call outcome"), ("trace.export", "Export"),
            ("monitor.filter", "Contacts: typing a filter"),
        ],
        .supervisor: [
            ("screens.supervisor", "Screens"), ("dashboard", "Dashboard"),
            ("dashboard.province", "Dashboard: the province"), ("dashboard.export", "Dashboard: export"),
            ("monitor", "Monitor"), ("monitor.filter", "Monitor: typing a filter"),
            ("queue.supervisor", "Queue"), ("queue.supervisor-detail", "Queue: a person"),
            ("queue.picker", "Queue: whose queue, reassign to, the person's cases"),
            ("queue.case", "A case"), ("queue.case-close", "A case: closing it"),
        ],
        .admin: [
            ("screens.admin", "Screens"), ("staff", "Staff"), ("staff.form", "Staff: the account form"),
            ("staff.role", "Staff: the role picker"), ("dialog.confirm", "Any confirmation"), ("his", "HIS clients"),
            ("his.form", "HIS clients: the add form"),
            ("audit", "Audit log"), ("audit.filter", "Audit: the filter form"),
            ("audit.action", "Audit: the action picker"), ("audit.day", "Audit: the day"),
        ],
    ]

    /// The one table of the keys that mean the same everywhere, then each screen's own keys.
    public static func conventionsMarkdown() -> String {
        Language.$scoped.withValue(.en) { englishConventionsMarkdown() }
    }

    private static func englishConventionsMarkdown() -> String {
        var lines = ["| Key | Means, on every screen |", "|---|---|"]
        for convention in keyConventions {
            lines.append("| \(keysCell(convention.keys)) | \(cell(convention.meaning)) |")
        }
        lines += [
            "", "Every screen has an F-key and a capital letter of its own (the letter is typed where a field",
            "takes letters; then the F-key or the palette switches):", "",
            "| Role | Screen | Keys | Palette |", "|---|---|---|---|",
        ]
        for (role, table) in roleScreenMaps {
            for row in table.rows {
                lines.append(
                    "| \(role.rawValue) | \(cell(row.help)) | \(keysCell(row.keys)) | `:\(row.name ?? "")` |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A role's screens' keys, one table, section by section, as help lists them.
    public static func keysMarkdown(for role: StaffRole) -> String {
        Language.$scoped.withValue(.en) { englishKeysMarkdown(for: role) }
    }

    private static func englishKeysMarkdown(for role: StaffRole) -> String {
        let tables = Dictionary(allKeyTables.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines = ["| Where | Keys | What it does | Palette |", "|---|---|---|---|"]
        for (id, title) in guideTables[role] ?? [] {
            guard let table = tables[id] else { continue }
            for row in table.rows where !row.keys.isEmpty {
                let name = row.name.map { unlistedNames.contains($0) ? "" : "`:\($0)`" } ?? ""
                lines.append("| \(cell(title)) | \(keysCell(row.keys)) | \(cell(row.help)) | \(name) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func keysCell(_ keys: [Key]) -> String {
        keys.map { "`" + ($0 == .char("`") ? "'`'" : $0.description) + "`" }.joined(separator: " ")
            .replacingOccurrences(of: "|", with: "\\|")
    }

    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
