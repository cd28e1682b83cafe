import CivilCalendar
import DeskText

/// One line of a case's history as the store writes it, and back.
///
/// The store keeps each line as English text (`case_history.text`, the staff API's `text`): that
/// record stays as it was written, whatever the language of whoever reads it later. ``stored``
/// makes that text (the one place its words are decided) and ``init(stored:)`` reads it back,
/// so a screen can show ``words``, the same line in the reader's language; a line this type did
/// not write (an older form, a future one) is shown as it was stored.
public enum CaseHistoryLine: Hashable, Sendable {
    /// "opened (symptom onset 2026-11-28): 3 new follow-ups, 1 follow-up of other cases joined"
    case opened(kind: IndexDayKind, day: CivilDay, created: Int, joined: Int)
    /// "the patient was follow-up 16 of case 2, case 5"
    case cameFrom(followUp: Int64, cases: [Int64])
    /// "follow-up 16 became case 9"
    case becameCase(followUp: Int64, caseID: Int64)
    /// "closed (recovered): 2 follow-ups ended — moved abroad"
    case closed(reason: CaseCloseReason, ended: Int, note: String)
    /// "follow-up 16 added by hand"
    case added(followUp: Int64)
    /// "follow-up 16: wrong number (wrong number)": the outcome, then the new state if it changed.
    case attempt(followUp: Int64, outcome: CallOutcome, state: FollowUpState?)
    /// "follow-up 16: checked, no symptoms, isolating (completed)"
    case check(followUp: Int64, symptoms: Bool, isolating: Bool, state: FollowUpState?)
    /// "follow-up 16 assigned to tina"
    case assigned(followUp: Int64, tracer: String)
    /// "follow-up 16: lost to follow-up": time's effect (the actor is the server).
    case settled(followUp: Int64, state: FollowUpState)

    /// The English text the store keeps.
    public var stored: String { Language.$scoped.withValue(.en) { words } }

    /// The line in the current language.
    public var words: String {
        switch self {
        case .opened(let kind, let day, let created, let joined):
            return tr(
                "history.opened",
                [
                    "kind": tr("console.case.indexKind.\(kind.rawValue)"), "day": day.iso,
                    "created": trCount("history.newFollowUps", created), "joined": trCount("history.followUps", joined),
                ])
        case .cameFrom(let followUp, let cases):
            return tr(
                "history.cameFrom",
                [
                    "followUp": String(followUp),
                    "cases": cases.map { tr("history.case", ["id": String($0)]) }.joined(separator: ", "),
                ])
        case .becameCase(let followUp, let caseID):
            return tr("history.becameCase", ["followUp": String(followUp), "case": String(caseID)])
        case .closed(let reason, let ended, let note):
            let line = tr(
                "history.closed",
                ["reason": tr("console.case.reason.\(reason.rawValue)"), "ended": trCount("history.followUps", ended)])
            return note.isEmpty ? line : line + " — " + note
        case .added(let followUp):
            return tr("history.added", ["followUp": String(followUp)])
        case .attempt(let followUp, let outcome, let state):
            return tr(
                "history.attempt",
                ["followUp": String(followUp), "outcome": tr("console.queue.outcome.\(outcome.rawValue)")])
                + Self.changed(state)
        case .check(let followUp, let symptoms, let isolating, let state):
            return tr(
                "history.check",
                [
                    "followUp": String(followUp),
                    "symptoms": tr(symptoms ? "history.symptoms" : "history.noSymptoms"),
                    "isolating": tr(isolating ? "history.isolating" : "history.notIsolating"),
                ]) + Self.changed(state)
        case .assigned(let followUp, let tracer):
            return tr("history.assigned", ["followUp": String(followUp), "tracer": tracer])
        case .settled(let followUp, let state):
            return tr(
                "history.settled", ["followUp": String(followUp), "state": tr("console.queue.state.\(state.rawValue)")])
        }
    }

    private static func changed(_ state: FollowUpState?) -> String {
        state.map { " (" + tr("console.queue.state.\($0.rawValue)") + ")" } ?? ""
    }

    /// The line `text` is, when this type wrote it (in English); nil for any other text.
    public init?(stored text: String) {
        guard let line = Self.read(text), line.stored == text else { return nil }
        self = line
    }

    /// `text` for a screen: the line in the current language, or the text itself when it is not
    /// one of these lines.
    public static func shown(_ text: String) -> String { CaseHistoryLine(stored: text)?.words ?? text }

    // MARK: Reading the English text back

    private static func read(_ text: String) -> CaseHistoryLine? {
        if let rest = text.dropPrefix("opened (") { return opened(rest) }
        if let rest = text.dropPrefix("the patient was follow-up ") {
            guard let (id, cases) = rest.split(once: " of ") else { return nil }
            let ids = cases.components(", ").map { $0.dropPrefix("case ").flatMap { Int64($0) } }
            guard let followUp = Int64(id), !ids.isEmpty, !ids.contains(nil) else { return nil }
            return .cameFrom(followUp: followUp, cases: ids.compactMap { $0 })
        }
        if let rest = text.dropPrefix("closed (") { return closed(rest) }
        guard let rest = text.dropPrefix("follow-up ") else { return nil }
        let digits = rest.prefix(while: \.isNumber)
        guard let followUp = Int64(digits) else { return nil }
        let after = String(rest.dropFirst(digits.count))
        if after == " added by hand" { return .added(followUp: followUp) }
        if let tracer = after.dropPrefix(" assigned to ") { return .assigned(followUp: followUp, tracer: tracer) }
        if let caseID = after.dropPrefix(" became case ").flatMap({ Int64($0) }) {
            return .becameCase(followUp: followUp, caseID: caseID)
        }
        guard let said = after.dropPrefix(": ") else { return nil }
        let (words, state) = trailingState(said)
        if let check = words.dropPrefix("checked, ") {
            let parts = check.components(", ")
            guard parts.count == 2, ["symptoms", "no symptoms"].contains(parts[0]),
                ["isolating", "not isolating"].contains(parts[1])
            else { return nil }
            return .check(
                followUp: followUp, symptoms: parts[0] == "symptoms", isolating: parts[1] == "isolating", state: state)
        }
        if let outcome = CallOutcome.allCases.first(where: { $0.label == words }) {
            return .attempt(followUp: followUp, outcome: outcome, state: state)
        }
        if state == nil, let settled = FollowUpState.allCases.first(where: { $0.label == words }) {
            return .settled(followUp: followUp, state: settled)
        }
        return nil
    }

    /// "wrong number (wrong number)" → ("wrong number", .wrongNumber); no state in brackets → nil.
    private static func trailingState(_ text: String) -> (String, FollowUpState?) {
        for state in FollowUpState.allCases {
            if let words = text.dropSuffix(" (\(state.label))") { return (words, state) }
        }
        return (text, nil)
    }

    private static func opened(_ rest: String) -> CaseHistoryLine? {
        guard let (head, counts) = rest.split(once: "): "),
            let kind = IndexDayKind.allCases.first(where: { head.hasPrefix($0.label + " ") }),
            let day = CivilDay(iso: String(head.dropFirst(kind.label.count + 1))),
            let (created, joined) = counts.split(once: ", "),
            let made = count(created, "new follow-up"),
            let joinedWords = joined.dropSuffix(" of other cases joined"), let others = count(joinedWords, "follow-up")
        else { return nil }
        return .opened(kind: kind, day: day, created: made, joined: others)
    }

    private static func closed(_ rest: String) -> CaseHistoryLine? {
        guard let (label, after) = rest.split(once: "): "),
            let reason = CaseCloseReason.allCases.first(where: { $0.label == label })
        else { return nil }
        let (endedWords, note) = after.split(once: " — ") ?? (after, "")
        guard let words = endedWords.dropSuffix(" ended"), let ended = count(words, "follow-up") else { return nil }
        return .closed(reason: reason, ended: ended, note: note)
    }

    /// "3 follow-ups" / "1 follow-up" → the number.
    private static func count(_ text: String, _ noun: String) -> Int? {
        guard let (number, words) = text.split(once: " "), let n = Int(number) else { return nil }
        return words == (n == 1 ? noun : noun + "s") ? n : nil
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }

    fileprivate func dropSuffix(_ suffix: String) -> String? {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : nil
    }

    /// Split at the first `separator`.
    fileprivate func split(once separator: String) -> (String, String)? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(separator) {
                return (String(self[..<index]), String(self[index...].dropFirst(separator.count)))
            }
            index = self.index(after: index)
        }
        return nil
    }

    fileprivate func components(_ separator: String) -> [String] {
        var parts: [String] = []
        var rest = self
        while let (head, tail) = rest.split(once: separator) {
            parts.append(head)
            rest = tail
        }
        parts.append(rest)
        return parts
    }
}
