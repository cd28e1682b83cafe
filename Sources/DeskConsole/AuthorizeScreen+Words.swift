import CivilCalendar
import DeskContract
import DeskCore
import DeskText

/// The operator's words for the rules DeskCore checks (codes, symptom onset), in the console's
/// language: DeskCore keeps its English messages for the command line and the logs.
extension OtpError {
    /// ``message`` in the current language.
    public var shownMessage: String {
        switch self {
        case .empty: return tr("console.authorize.otp.empty")
        case .forbiddenCharacter(let character, let position):
            return tr(
                "console.authorize.otp.forbidden",
                ["character": OtpError.describe(character), "position": String(position)])
        case .tooShort(let count): return trCount("console.authorize.otp.tooShort", count)
        case .tooLong(let count): return trCount("console.authorize.otp.tooLong", count)
        case .checkCharacterMismatch: return tr("console.authorize.otp.mismatch")
        }
    }

    /// A character named so it shows even when it is a space or a look-alike.
    static func describe(_ character: Character) -> String {
        switch character {
        case "0": return tr("console.authorize.otp.zero")
        case "O": return tr("console.authorize.otp.letterO")
        default:
            if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F {
                return tr("console.authorize.otp.control")
            }
            return "'\(character)'"
        }
    }
}

extension SymptomOnsetError {
    /// ``message`` in the current language.
    public var shownMessage: String {
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

extension SymptomOnset.Verdict {
    /// ``warning`` in the current language; nil when there is none.
    public var shownWarning: String? {
        guard warning != nil else { return nil }
        return tr(
            "console.authorize.onset.old", ["daysAgo": String(daysAgo), "days": String(SymptomOnset.publishedKeyDays)])
    }
}

extension AuthorizeScreen {
    /// "today", "yesterday", "3 days ago" in the current language.
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

    /// The review dialog's first button, which the help looks for.
    static var authoriseButton: String { tr("console.authorize.review.authorise") }
}

extension AuthorizeRefusal {
    /// ``message`` in the current language.
    public var shownMessage: String {
        switch self {
        case .code(let error): return error.shownMessage
        case .symptomOnset(let error): return error.shownMessage
        }
    }
}
