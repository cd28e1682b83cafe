import CivilCalendar
import DeskContract
import DeskCore
import DeskText

extension AuthorizeScreen {
    /// "today", "yesterday", "3 days ago" in the current language.
    public static func relative(_ day: CivilDay, today: CivilDay) -> String {
        SymptomOnset.relative(day, today: today)
    }

    /// The review dialog's first button, which the help looks for.
    static var authoriseButton: String { tr("console.authorize.review.authorise") }
}
