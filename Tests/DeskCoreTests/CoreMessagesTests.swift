import CivilCalendar
import DeskCore
import DeskCrypto
import DeskText
import JSONText
import Testing

/// The core's own messages (codes, phone numbers, symptom onset, purposes, statistics inputs,
/// the SMS outbox, key files, JSON syntax) in the language in force: English exactly as it was,
/// Italian where the console or the command line shows them.
@Suite struct CoreMessagesTests {
    static func both(_ make: () -> String) -> (en: String, it: String) {
        (Language.$scoped.withValue(.en) { make() }, Language.$scoped.withValue(.it) { make() })
    }

    @Test("a code's problems")
    func codes() {
        let forbidden = Self.both { OtpError.forbiddenCharacter("B", position: 2).message }
        #expect(forbidden.en == "'B' at position 2 is never in a code: ask the citizen to read it again")
        #expect(forbidden.it.contains("posizione 2") && forbidden.it != forbidden.en)
        let zero = Self.both { OtpError.forbiddenCharacter("0", position: 1).message }
        #expect(zero.en == "'0' (zero) at position 1 is never in a code: ask the citizen to read it again")
        let short = Self.both { OtpError.tooShort(count: 1).message }
        #expect(short.en == "the code has 1 character, it needs 10: ask for the rest")
        #expect(
            Self.both { OtpError.tooShort(count: 4).message }.en
                == "the code has 4 characters, it needs 10: ask for the rest")
        let mismatch = Self.both { OtpError.checkCharacterMismatch.message }
        #expect(mismatch.en == "check character does not match: ask the citizen to read the code again")
        #expect(mismatch.it != mismatch.en)
    }

    @Test("a symptom-onset day's problems and warning")
    func onset() throws {
        let today = CivilDay(year: 2026, month: 12, day: 3)!
        let future = Self.both { SymptomOnsetError.inFuture(today.adding(days: 1), today: today).message }
        #expect(
            future.en == "2026-12-04 is in the future (today is 2026-12-03 UTC): symptom onset cannot be after today")
        #expect(future.it.hasPrefix("2026-12-04") && future.it != future.en)
        let notADate = Self.both { SymptomOnsetError.notADate("2026-02-30").message }
        #expect(notADate.en == "'2026-02-30' is not a date: use YYYY-MM-DD")
        #expect(notADate.it != notADate.en)
        let verdict = try SymptomOnset.check(today.adding(days: -20), today: today)
        let warning = Self.both { verdict.warning ?? "" }
        #expect(
            warning.en
                == "20 days ago: no keys older than 14 days are published; confirm the date with the citizen")
        #expect(warning.it.contains("20") && warning.it != warning.en)
        let relative = Self.both { SymptomOnset.relative(today.adding(days: -1), today: today) }
        #expect(relative.en == "yesterday" && relative.it == "ieri")
    }

    @Test("a phone number's and a purpose's problems")
    func phoneAndPurpose() {
        let letters = Self.both { PhoneNumberError.notADigit.message }
        #expect(
            letters.en
                == "a phone number has only digits (spaces, dashes, dots and brackets are fine): type it like +39 333 123 4567, or without the country code"
        )
        #expect(letters.it != letters.en)
        let short = Self.both { PhoneNumberError.tooShort(digits: 5).message }
        #expect(
            short.en == "5 digits with the country code is too short for a phone number (8 to 15): check the number")
        #expect(short.it.contains("5") && short.it != short.en)
        let purpose = Self.both { TracePurposeError.tooLong(300).message }
        #expect(purpose.en == "the purpose has 300 characters, at most 200: shorten it")
        #expect(purpose.it == "il motivo ha 300 caratteri, al massimo 200: accorcialo")
    }

    @Test("statistics inputs, the pseudo-id space and the SMS outbox")
    func statsAndSms() {
        let range = Self.both {
            if case .failure(let e) = StatsRange.parse("3d") { return e.message }
            return ""
        }
        #expect(range.en == "the range must be one of today, 1h, 24h, 7d or 14d")
        #expect(range.it != range.en && range.it.contains("14d"))
        let summary = Self.both { PseudoIDCapacity(used: 12_000_000).summary }
        #expect(summary.en == "12000000 of 4294967296 pseudo-ids used (0.28 %)")
        #expect(summary.it == "12000000 pseudo-id usati su 4294967296 (0,28 %)")
        let dropped = Self.both { SmsTextDropped.used.explanation }
        #expect(dropped.en == "text dropped: its code was used")
        #expect(dropped.it == "testo eliminato: il suo codice è stato usato")
    }

    @Test("a key file's problem, and JSON's")
    func keysAndJSON() {
        let pem = Self.both { CryptoError.notAPrivateKeyPEM.message }
        #expect(
            pem.en
                == "No PEM private key found: expected a \"BEGIN PRIVATE KEY\" (PKCS#8) or \"BEGIN EC PRIVATE KEY\" (SEC1) block; export the P-256 key in one of these forms."
        )
        #expect(pem.it.hasPrefix("Nessuna chiave privata PEM"))
        let syntax = Self.both {
            do throws(JSONSyntaxError) {
                _ = try JSONReader.parse("{1: 2}")
                return ""
            } catch { return error.reason }
        }
        #expect(syntax.en == "expected a quoted key")
        #expect(syntax.it == "attesa una chiave tra virgolette")
        #expect(Self.both { JSONValue.number("1").kind } == ("a number", "un numero"))
    }

    @Test("an audit chain's break: English as the check writes it and the wire carries it, Italian shown")
    func auditBreaks() {
        let breaks: [(AuditBreak, String)] = [
            (.missing(id: 4, from: 3, to: 3), "mancano le voci 3…3: cancellate dal registro"),
            (.outOfOrder(id: 5, after: 7), "l'id 5 è fuori ordine dopo 7"),
            (
                .firstNotStart(id: 1),
                "la prima voce non apre la catena: voci precedenti sono state rimosse o è stata modificata"
            ),
            (
                .previousMismatch(id: 9, previous: 8),
                "il suo hash precedente non corrisponde alla voce 8: la voce 8 è stata modificata o sostituita"
            ),
            (
                .contentsMismatch(id: 7),
                "il contenuto non corrisponde al suo hash: la voce è stata modificata dopo essere stata scritta"
            ),
        ]
        for (broken, italian) in breaks {
            let shown = Self.both { broken.shownReason }
            #expect(shown.en == broken.reason)
            #expect(shown.it == italian)
            #expect(Language.$scoped.withValue(.it) { broken.reason } == shown.en, "the reason itself stays English")
        }
        #expect(
            AuditBreak.contentsMismatch(id: 7).reason
                == "its contents do not match its hash: the entry was edited after it was written")
        #expect(AuditBreak.missing(id: 4, from: 3, to: 3).reason == "entries 3…3 are missing: deleted from the log")
        let unknown = AuditBreak(id: 2, reason: "edited by an older server's words")
        #expect(Language.$scoped.withValue(.it) { unknown.shownReason } == "edited by an older server's words")
    }
}
