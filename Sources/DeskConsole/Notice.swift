import CivilCalendar
import DeskCore
import DeskText
import Foundation
import TerminalKit

/// A one-line outcome shown on a screen: what just worked, or what went wrong and what to do.
///
/// Its symbol says the kind as text (✓ ✗ …), so the meaning never rests on the colour alone.
public struct Notice: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case ok, error, info, working }
    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    public static func ok(_ text: String) -> Notice { Notice(.ok, text) }
    public static func error(_ text: String) -> Notice { Notice(.error, text) }
    public static func info(_ text: String) -> Notice { Notice(.info, text) }
    public static func working(_ text: String) -> Notice { Notice(.working, text) }

    /// The text with its symbol: "✓ added ana", "✗ wrong password", "… signing in".
    public var line: String {
        switch kind {
        case .ok: return "✓ " + text
        case .error: return "✗ " + text
        case .info: return text
        case .working: return "… " + text
        }
    }

    public var style: Style {
        switch kind {
        case .ok: return Style(.ok, .bold)
        case .error: return Style(.error, .bold)
        case .info: return Style(.normal)
        case .working: return Style(.accent)
        }
    }

    /// Draws the notice word-wrapped from (`x`, `y`) in at most `rows` rows of `width` columns;
    /// a cut-off last row ends in "…". Returns the rows used.
    @discardableResult
    public func render(into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int) -> Int {
        ConsoleText.putWrapped(line, style: style, into: &buffer, x: x, y: y, width: width, rows: rows)
    }

    /// As ``render(into:x:y:width:rows:)``, its symbols in ASCII when `ascii` ("ok", "x", "...").
    @discardableResult
    func render(into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int, ascii: Bool) -> Int {
        ConsoleText.putWrapped(
            Glyphs(ascii: ascii)(line), style: style, into: &buffer, x: x, y: y, width: width, rows: rows,
            ascii: ascii)
    }
}

/// Small text helpers the console's screens share: local times, wrapped messages, labelled
/// fields and password fields.
enum ConsoleText {
    /// `2026-11-29 14:02` (or with seconds) in `zone`.
    static func dateTime(_ date: Date, _ zone: TimeZone, seconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String {
            let v = n ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        let year = parts.year ?? 0
        var text = "\(year)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
        if seconds { text += ":" + two(parts.second) }
        return text
    }

    /// "2026-11-29 14:02:00 local · 2026-11-29 13:02:00 UTC": the detail panes' first line.
    static func localAndUTC(_ date: Date, _ zone: TimeZone) -> String {
        let utc = TimeZone(identifier: "UTC") ?? zone
        return tr(
            "console.frame.localAndUTC",
            ["local": dateTime(date, zone, seconds: true), "utc": dateTime(date, utc, seconds: true)])
    }

    /// The calendar day `date` falls on in `zone`.
    static func day(of date: Date, in zone: TimeZone) -> CivilDay {
        CivilDay(
            unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)), offsetSeconds: zone.secondsFromGMT(for: date)
        )
    }

    /// The instant a day starts in `zone` (local midnight).
    static func start(of day: CivilDay, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = DateComponents(year: day.year, month: day.month, day: day.day)
        return calendar.date(from: parts) ?? Date(timeIntervalSince1970: Double(day.unixSecondsAtMidnightUTC))
    }

    /// Word-wraps `text` into at most `rows` rows; a cut-off last row ends in "…" (`...` on an
    /// ASCII terminal, as the buffer's ``Buffer/glyphs`` say: `ascii` is kept for callers that
    /// draw into a buffer of their own).
    @discardableResult
    static func putWrapped(
        _ text: String, style: Style, into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int,
        ascii: Bool = false
    ) -> Int {
        guard width > 0, rows > 0 else { return 0 }
        let glyphs = ascii ? Glyphs.asciiOnly : buffer.glyphs
        let lines = TextWrap.wrap(glyphs(text), width: width)
        for (offset, line) in lines.prefix(rows).enumerated() {
            var shown = line
            if offset == rows - 1, lines.count > rows {
                shown = glyphs.truncate(line + " " + glyphs.ellipsis, to: width)
                if !shown.hasSuffix(" " + glyphs.ellipsis) {
                    // The last word was cut to make room: end on a whole word, then the ellipsis.
                    let room = max(0, width - DisplayWidth.of(glyphs.ellipsis) - 1)
                    let head = DisplayWidth.prefix(line, fitting: room).text
                    let whole = head.lastIndex(of: " ").map { head[..<$0] } ?? head
                    shown = String(whole) + " " + glyphs.ellipsis
                }
            }
            buffer.put(shown, x: x, y: y + offset, style: style, maxWidth: width)
        }
        return min(rows, lines.count)
    }

    /// Draws a password field: one • per character, never the characters themselves.
    static func renderSecret(
        _ field: TextFieldState, into buffer: inout Buffer, area: Rect, focused: Bool, placeholder: String = ""
    ) {
        var masked = TextFieldState(String(repeating: "•", count: field.text.count))
        masked.cursor = field.cursor
        masked.render(into: &buffer, area: area, focused: focused, placeholder: placeholder)
    }

    /// A field's label with the focus marker: "› User name" (focused) or "  User name".
    static func putLabel(_ label: String, focused: Bool, into buffer: inout Buffer, x: Int, y: Int, clip: Rect) {
        buffer.put(focused ? "›" : " ", x: x, y: y, style: Style(.accent), clip: clip)
        buffer.put(label, x: x + 2, y: y, style: Style(focused ? .header : .normal), clip: clip)
    }

    /// The verdict under a field as typed: "✓ …" (ok) or "✗ …" (error), word-wrapped in at most
    /// `rows` rows. Returns the rows used.
    @discardableResult
    static func putVerdict(
        _ problem: String?, ok: String, into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int = 1
    ) -> Int {
        if let problem {
            return putWrapped("✗ " + problem, style: Style(.error), into: &buffer, x: x, y: y, width: width, rows: rows)
        } else if !ok.isEmpty {
            return putWrapped("✓ " + ok, style: Style(.ok), into: &buffer, x: x, y: y, width: width, rows: rows)
        }
        return 0
    }

    /// A new password field: any printable character, at most ``PasswordRules/maximumLength``.
    static func passwordField() -> TextFieldState {
        TextFieldState(maxLength: PasswordRules.maximumLength)
    }

    /// A user-name field: at most ``StaffName/maximumLength`` characters.
    static func nameField(_ text: String = "") -> TextFieldState {
        TextFieldState(text, maxLength: StaffName.maximumLength)
    }
}
