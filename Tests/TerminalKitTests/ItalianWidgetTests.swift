import CivilCalendar
import DeskText
import Testing

@testable import TerminalKit

/// The widgets speak the language of the task (issue 22): Italian weekdays, months, keys,
/// titles and refusals, with the English ones unchanged beside them.
@Suite struct ItalianWidgetTests {
    static let today = CivilDay(iso: "2026-12-01") ?? CivilDay(daysSinceEpoch: 0)

    static func calendar(_ language: Language) -> [String] {
        Language.$scoped.withValue(language) {
            var buffer = Buffer(width: MonthCalendar.width, height: MonthCalendar.height)
            MonthCalendar(selected: today, today: today).render(into: &buffer, area: buffer.area)
            return buffer.lines
        }
    }

    @Test func theCalendarNamesMonthAndWeekdaysInItalian() {
        expectLines(
            Self.calendar(.it),
            lines(
                """
                    dicembre 2026
                 lu ma me gi ve sa do
                   [ 1] 2  3  4  5  6
                  7  8  9 10 11 12 13
                 14 15 16 17 18 19 20
                 21 22 23 24 25 26 27
                 28 29 30 31

                    mar 1 dic 2026
                """))
        #expect(Self.calendar(.en)[0].contains("December 2026"))
        #expect(Self.calendar(.en)[1] == " Mo Tu We Th Fr Sa Su")
        #expect(Self.calendar(.en)[8].contains("Tue 1 Dec 2026"))
    }

    @Test func aDateFieldRefusesAndHintsInItalian() {
        Language.$scoped.withValue(.it) {
            var field = DateFieldState(today: Self.today, maximum: Self.today)
            for character in "3/" { _ = field.handle(.char(character)) }
            #expect(field.handle(.enter) == .refused("«3/» non è una data: scrivi AAAA-MM-GG, GG/MM, -N giorni"))
            var later = DateFieldState(today: Self.today, maximum: Self.today)
            for character in "2026-12-05" { _ = later.handle(.char(character)) }
            #expect(later.handle(.enter) == .refused("2026-12-05 è dopo l'ultimo giorno ammesso (2026-12-01)"))
            var buffer = Buffer(width: 40, height: 1)
            DateFieldState(value: Self.today, today: Self.today).render(
                into: &buffer, area: buffer.area, focused: false)
            #expect(buffer.lines[0] == "2026-12-01  mar 1 dic 2026")
        }
    }

    @Test func helpPaletteAndDialogInItalian() {
        Language.$scoped.withValue(.it) {
            var buffer = Buffer(width: 40, height: 14)
            HelpOverlayState(keyMap: HelpOverlayState.keyMap).render(into: &buffer, area: buffer.area)
            let help = buffer.lines.joined(separator: "\n")
            #expect(help.contains("Aiuto"))
            #expect(help.contains("Chiudi l'aiuto"))
            #expect(help.contains("PagGiù/Spazio"))
            #expect(!help.contains("Help"))

            var palette = Buffer(width: 60, height: 10)
            CommandPaletteState(entries: []).render(into: &palette, area: palette.area)
            let shown = palette.lines.joined(separator: "\n")
            #expect(shown.contains("Comando"))
            #expect(shown.contains("scrivi un comando (Esc chiude)"))
            #expect(shown.contains("nessun comando corrisponde"))

            let dialog = DialogState.confirm(title: "T", message: "M")
            #expect(dialog.buttons.map(\.label) == ["Conferma", "Annulla"])
            #expect(Key.enter.description == "Invio")
            #expect(TextFieldState.keyMap.helpSections.first?.group == "campo di testo")
        }
        #expect(Language.$scoped.withValue(.en) { Key.enter.description } == "Enter")
        #expect(Language.$scoped.withValue(.en) { HelpOverlayState(sections: []).title } == "Help")
    }

    @Test func italianAccentsInASCIIAreApostrophes() {
        var buffer = Buffer(width: 30, height: 1, glyphs: .asciiOnly)
        buffer.put("attività · è «sì» PagGiù", x: 0, y: 0)
        expectLines(buffer.lines, ["attivita' - e' \"si'\" PagGiu'"])
    }
}
