import CivilCalendar
import DeskCore
import DeskText
import Testing

/// A case's history: the English lines the store keeps (the words it always wrote), read back,
/// and shown in Italian.
@Suite struct CaseHistoryLineTests {
    static let day = CivilDay(iso: "2026-11-28")!

    /// Each line with the text the store wrote before it had this type, and its Italian.
    static let lines: [(CaseHistoryLine, String, String)] = [
        (
            .opened(kind: .symptomOnset, day: day, created: 3, joined: 1),
            "opened (symptom onset 2026-11-28): 3 new follow-ups, 1 follow-up of other cases joined",
            "aperto (inizio sintomi 2026-11-28): 3 sorveglianze nuove; unite di altri casi: 1 sorveglianza"
        ),
        (
            .opened(kind: .testDay, day: day, created: 1, joined: 0),
            "opened (test day 2026-11-28): 1 new follow-up, 0 follow-ups of other cases joined",
            "aperto (data del test 2026-11-28): 1 sorveglianza nuova; unite di altri casi: 0 sorveglianze"
        ),
        (
            .cameFrom(followUp: 16, cases: [2, 5]), "the patient was follow-up 16 of case 2, case 5",
            "il paziente era la sorveglianza 16 di caso 2, caso 5"
        ),
        (
            .becameCase(followUp: 16, caseID: 9), "follow-up 16 became case 9",
            "la sorveglianza 16 è diventata il caso 9"
        ),
        (
            .closed(reason: .openedInError, ended: 2, note: "typed twice, see case 4"),
            "closed (opened in error): 2 follow-ups ended — typed twice, see case 4",
            "chiuso (aperto per errore), terminate: 2 sorveglianze — typed twice, see case 4"
        ),
        (
            .closed(reason: .recovered, ended: 1, note: ""), "closed (recovered): 1 follow-up ended",
            "chiuso (guarito), terminate: 1 sorveglianza"
        ),
        (.added(followUp: 7), "follow-up 7 added by hand", "sorveglianza 7 aggiunta a mano"),
        (
            .attempt(followUp: 16, outcome: .wrongNumber, state: .wrongNumber),
            "follow-up 16: wrong number (wrong number)",
            "sorveglianza 16: numero errato (numero errato)"
        ),
        (
            .attempt(followUp: 16, outcome: .noAnswer, state: nil), "follow-up 16: no answer",
            "sorveglianza 16: non risponde"
        ),
        (
            .check(followUp: 3, symptoms: false, isolating: true, state: nil),
            "follow-up 3: checked, no symptoms, isolating",
            "sorveglianza 3: verificata, senza sintomi, in isolamento"
        ),
        (
            .check(followUp: 3, symptoms: true, isolating: false, state: .completed),
            "follow-up 3: checked, symptoms, not isolating (completed)",
            "sorveglianza 3: verificata, con sintomi, non in isolamento (concluso)"
        ),
        (.assigned(followUp: 12, tracer: "tina"), "follow-up 12 assigned to tina", "sorveglianza 12 affidata a tina"),
        (.settled(followUp: 12, state: .lost), "follow-up 12: lost to follow-up", "sorveglianza 12: irreperibile"),
    ]

    @Test("the store's English lines are the words it always wrote, and read back to the same line")
    func roundTrip() {
        for (line, english, _) in Self.lines {
            #expect(line.stored == english)
            #expect(CaseHistoryLine(stored: english) == line, "\(english)")
            #expect(Language.$scoped.withValue(.en) { CaseHistoryLine.shown(english) } == english)
        }
    }

    @Test("a stored line is shown in Italian to an Italian reader; the note stays as typed")
    func italian() {
        for (_, english, italian) in Self.lines {
            #expect(Language.$scoped.withValue(.it) { CaseHistoryLine.shown(english) } == italian)
        }
    }

    @Test(
        "a text this type did not write is shown as it was stored",
        arguments: [
            "", "follow-up", "follow-up x: reached", "follow-up 3: danced",
            "opened (soon 2026-11-28): 1 new follow-up, 0 follow-ups of other cases joined",
            "closed (recovered): 1 follow-ups ended", "follow-up 3: checked, maybe, isolating",
            "the patient was follow-up 4 of nobody",
            "follow-up 16: wrong number (wrong number) (reached)",
        ])
    func unknown(text: String) {
        #expect(CaseHistoryLine(stored: text) == nil)
        #expect(Language.$scoped.withValue(.it) { CaseHistoryLine.shown(text) } == text)
    }
}

/// The cleanup's line: English in the server's log whatever the language, the reader's on the
/// command line.
@Suite struct CleanupReportWordsTests {
    @Test("the log's summary is English in any language; the command line's words follow the language")
    func words() {
        var report = CleanupReport()
        report.uploads = 3
        report.keys = 1
        report.closedCases = 2
        let english = "deleted 3 uploads, 1 key, 2 closed cases"
        #expect(Language.$scoped.withValue(.it) { report.summary } == english)
        #expect(Language.$scoped.withValue(.en) { report.words } == english)
        #expect(
            Language.$scoped.withValue(.it) { report.words } == "cancellati: 3 caricamenti, 1 chiave, 2 casi chiusi")
        #expect(Language.$scoped.withValue(.it) { CleanupReport().words } == "nulla da cancellare")
        #expect(CleanupReport().summary == "nothing to delete")
    }
}
