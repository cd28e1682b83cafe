import Foundation
import Testing

@testable import DeskText

/// The catalogue's own rules: the same keys in every language, none twice, the same
/// placeholders on both sides, no empty text; lookups fall back to English and are counted.
@Suite struct CatalogueTests {
    @Test("every key of one language is in the other, and none is there twice")
    func sameKeys() {
        var keys: [Language: Set<String>] = [:]
        for language in Language.allCases {
            var seen: Set<String> = []
            var twice: [String] = []
            for (key, _) in Catalogue.entries(language) where !seen.insert(key).inserted { twice.append(key) }
            #expect(twice.isEmpty, "keys twice in \(language): \(twice.sorted())")
            keys[language] = seen
        }
        let english = keys[.en] ?? []
        for language in Language.allCases where language != .en {
            let theirs = keys[language] ?? []
            #expect(
                english.subtracting(theirs).isEmpty, "missing in \(language): \(english.subtracting(theirs).sorted())")
            #expect(theirs.subtracting(english).isEmpty, "only in \(language): \(theirs.subtracting(english).sorted())")
        }
    }

    @Test("a message names the same placeholders in every language")
    func samePlaceholders() {
        let english = Dictionary(Catalogue.entries(.en), uniquingKeysWith: { first, _ in first })
        for language in Language.allCases where language != .en {
            for (key, text) in Catalogue.entries(language) {
                guard let source = english[key] else { continue }
                #expect(
                    Catalogue.placeholders(text) == Catalogue.placeholders(source),
                    "\(key): \(language) has \(Catalogue.placeholders(text).sorted()), en has \(Catalogue.placeholders(source).sorted())"
                )
            }
        }
    }

    @Test("no message is empty or has a key's shape instead of words")
    func noEmptyText() {
        for language in Language.allCases {
            for (key, text) in Catalogue.entries(language) {
                #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(key) is empty in \(language)")
                #expect(text != key, "\(key) is its own text in \(language)")
            }
        }
    }

    @Test("a count's message has both forms in each language")
    func countForms() {
        for language in Language.allCases {
            let keys = Set(Catalogue.entries(language).map(\.0))
            for key in keys where key.hasSuffix(".one") {
                let other = String(key.dropLast(4)) + ".other"
                #expect(keys.contains(other), "\(key) without \(other) in \(language)")
            }
        }
    }

    @Test("placeholders are filled; unknown braces stay as they are")
    func fill() {
        #expect(Catalogue.fill("{a} and {b}", ["a": "1", "b": "2"]) == "1 and 2")
        #expect(Catalogue.fill("{a} {unknown} {", ["a": "x"]) == "x {unknown} {")
        #expect(Catalogue.fill("no braces", [:]) == "no braces")
        #expect(Catalogue.fill("{a}{a}", ["a": "é"]) == "éé")
        #expect(Catalogue.placeholders("{a} {b_2} {} {not a name}") == ["a", "b_2"])
    }

    @Test("a key missing everywhere shows words, never the key, and is counted")
    func missingKey() {
        let before = Catalogue.missingLookups
        let text = Language.$scoped.withValue(.it) { tr("no.such.key") }
        #expect(text == "(testo mancante)")
        #expect(!text.contains("no.such.key"))
        #expect(Catalogue.missingLookups > before)
    }

    @Test("the task's language wins over the process's, in both directions")
    func scopedLanguage() {
        #expect(Language.$scoped.withValue(.it) { tr("common.yes") } == "sì")
        #expect(Language.$scoped.withValue(.en) { tr("common.yes") } == "yes")
    }

    @Test(
        "the language in force: --lang, then the settings file, then LC_ALL, LC_MESSAGES, LANG",
        arguments: [
            ("it", nil, [:], Language.it, Language.Source.option),
            (nil, "it", ["LANG": "en_US.UTF-8"], .it, .settingsFile),
            ("en", "it", ["LC_ALL": "it_IT.UTF-8"], .en, .option),
            (nil, nil, ["LANG": "it_IT.UTF-8"], .it, .environment("LANG")),
            (nil, nil, ["LC_ALL": "en_GB.UTF-8", "LANG": "it_IT.UTF-8"], .en, .environment("LC_ALL")),
            (nil, nil, ["LC_MESSAGES": "it_CH", "LANG": "en_US.UTF-8"], .it, .environment("LC_MESSAGES")),
            (nil, nil, ["LC_ALL": "", "LANG": "it"], .it, .environment("LANG")),
            (nil, nil, ["LC_ALL": "C", "LANG": "it_IT.UTF-8"], .en, .fallback),
            (nil, nil, ["LANG": "de_DE.UTF-8"], .en, .fallback),
            (nil, nil, [:], .en, .fallback),
        ] as [(String?, String?, [String: String], Language, Language.Source)])
    func resolve(
        option: String?, file: String?, environment: [String: String], language: Language, source: Language.Source
    ) {
        let resolved = Language.resolve(option: option, settingsFile: file, environment: environment)
        #expect(resolved.language == language)
        #expect(resolved.source == source)
    }

    @Test(
        "Accept-Language: the spoken range of highest weight, the first of equals; q=0, * and others count for nothing",
        arguments: [
            ("it-IT,it;q=0.9,en;q=0.8", Language.it),
            ("en-GB,en;q=0.9,it;q=0.8", .en),
            ("fr-FR, it;q=0.7, en;q=0.5", .it),
            ("it;q=0, en", .en),
            ("en;q=0.5,it;q=0.5", .en),
            ("*", nil),
            ("fr,de;q=0.9", nil),
            ("", nil),
            (";;,,=q", nil),
            ("it;q=abc, en;q=0.1", .en),
            ("it;q=2", nil),
            (" it ; q = 0.4 ", .it),
        ] as [(String, Language?)])
    func acceptLanguage(header: String, language: Language?) {
        #expect(Language.ofAcceptLanguage(header) == language)
    }

    @Test("a desk's refusal is worded in the task's language; English stays as it was")
    func refusalWords() {
        let en = Language.$scoped.withValue(.en) { tr("errors.case.noSuch", ["id": "7"]) }
        let it = Language.$scoped.withValue(.it) { tr("errors.case.noSuch", ["id": "7"]) }
        #expect(en == "no case 7: check the number in the case list")
        #expect(it == "nessun caso 7: controlla il numero nell'elenco dei casi")
    }

    @Test("dates in each language's own words")
    func dates() {
        let en = Language.$scoped.withValue(.en) { DateWords.day(year: 2026, month: 12, day: 1, weekday: 2) }
        let it = Language.$scoped.withValue(.it) { DateWords.day(year: 2026, month: 12, day: 1, weekday: 2) }
        #expect(en == "Tue 1 Dec 2026")
        #expect(it == "mar 1 dic 2026")
        #expect(Language.$scoped.withValue(.it) { DateWords.month(5, short: false) } == "maggio")
    }

    @Test("a decimal in each language's own form: a point in English, a comma in Italian")
    func decimals() {
        #expect(Language.en.decimal("8.5") == "8.5")
        #expect(Language.it.decimal("8.5") == "8,5")
        #expect(Language.it.decimal("<0.01%") == "<0,01%")
        #expect(Language.it.decimal("1.00 M") == "1,00 M")
        #expect(Language.it.decimal("12") == "12")
    }
}
