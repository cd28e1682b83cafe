import CivilCalendar
import DeskText

/// The day the citizen's symptoms started (or, without symptoms, the day of the test).
///
/// Checked against *today in UTC*, as the server checks `symptoms_started_on`
/// (shared/spec/immuni-rules.md): not in the future, at most 180 days back. More than 14 days
/// back is allowed but warned about: no keys that old are published, so the upload would
/// carry nothing useful.
public enum SymptomOnset {
    public static let maximumDaysBack = 180
    public static let publishedKeyDays = 14

    /// A day that can be authorised, possibly with a warning for the operator.
    public struct Verdict: Hashable, Sendable {
        public let day: CivilDay
        public let daysAgo: Int
        /// Set when the day is accepted but the operator should double-check it (in the
        /// current language).
        public var warning: String? {
            guard daysAgo > SymptomOnset.publishedKeyDays else { return nil }
            return tr(
                "console.authorize.onset.old",
                ["daysAgo": String(daysAgo), "days": String(SymptomOnset.publishedKeyDays)])
        }
    }

    /// Accepts or refuses `day` as a symptom-onset date on `today`.
    public static func check(_ day: CivilDay, today: CivilDay) throws(SymptomOnsetError) -> Verdict {
        let daysAgo = today.days(since: day)
        if daysAgo < 0 { throw .inFuture(day, today: today) }
        if daysAgo > maximumDaysBack { throw .tooOld(day, daysAgo: daysAgo) }
        return Verdict(day: day, daysAgo: daysAgo)
    }

    /// The earliest day that can be entered on `today`.
    public static func earliest(today: CivilDay) -> CivilDay { today.adding(days: -maximumDaysBack) }

    /// "today", "yesterday", "3 days ago", in the current language.
    public static func relative(_ day: CivilDay, today: CivilDay) -> String {
        let daysAgo = today.days(since: day)
        switch daysAgo {
        case 0: return tr("console.authorize.onset.today")
        case 1: return tr("console.authorize.onset.yesterday")
        case -1: return tr("console.authorize.onset.tomorrow")
        case ..<0: return trCount("console.authorize.onset.inDays", -daysAgo)
        default: return trCount("console.authorize.onset.daysAgo", daysAgo)
        }
    }
}

/// Why a symptom-onset day was refused. Messages say what to do next.
public enum SymptomOnsetError: Error, Hashable, Sendable {
    case inFuture(CivilDay, today: CivilDay)
    case tooOld(CivilDay, daysAgo: Int)
    case notADate(String)

    /// In the current language.
    public var message: String {
        switch self {
        case .inFuture(let day, let today):
            return tr("console.authorize.onset.inFuture", ["day": day.iso, "today": today.iso])
        case .tooOld(let day, let daysAgo):
            return tr(
                "console.authorize.onset.tooOld",
                ["day": day.iso, "daysAgo": String(daysAgo), "maximum": String(SymptomOnset.maximumDaysBack)])
        case .notADate(let text):
            let shown = text.count > 20 ? String(text.prefix(20)) + "…" : text
            return tr("console.authorize.onset.notADate", ["text": shown])
        }
    }
}
