import Foundation
import Testing

@testable import DeskText

/// A count before a noun takes the noun's form for that count (issue 22): "1 esecuzione",
/// "2 esecuzioni", "1 run", never "1 runs"; English stays as it was for every other count.
@Suite struct CountWordsTests {
    static func both(_ make: () -> String) -> (en: String, it: String) {
        (Language.$scoped.withValue(.en) { make() }, Language.$scoped.withValue(.it) { make() })
    }

    @Test("a bench line's counts each take their own plural")
    func benchLines() {
        func lookup(_ runs: Int) -> (en: String, it: String) {
            Self.both {
                tr(
                    "cli.bench.trace.lookup",
                    ["runs": trCount("cli.bench.count.runs", runs), "median": "1.5", "min": "1.0", "max": "2.0"])
            }
        }
        #expect(lookup(1).en == "lookup in LocalDesk, 1 run: median 1.5 ms (min 1.0, max 2.0)")
        #expect(lookup(5).en == "lookup in LocalDesk, 5 runs: median 1.5 ms (min 1.0, max 2.0)")
        #expect(lookup(1).it == "ricerca in LocalDesk, 1 esecuzione: mediana 1.5 ms (min 1.0, max 2.0)")
        #expect(lookup(2).it == "ricerca in LocalDesk, 2 esecuzioni: mediana 1.5 ms (min 1.0, max 2.0)")

        func published(_ keys: Int, _ chunks: Int) -> (en: String, it: String) {
            Self.both {
                tr(
                    "cli.bench.publish.published",
                    [
                        "keys": trCount("cli.bench.publish.keys", keys),
                        "chunks": trCount("cli.bench.count.chunks", chunks), "bytes": "900",
                    ])
            }
        }
        #expect(published(1, 1).en == "published 1 key in 1 chunk (900 bytes of zip)")
        #expect(published(100_000, 3).en == "published 100000 keys in 3 chunks (900 bytes of zip)")
        #expect(published(1, 1).it == "1 chiave pubblicata in 1 lotto (900 byte di zip)")
        #expect(published(4, 2).it == "4 chiavi pubblicate in 2 lotti (900 byte di zip)")

        let authorize = Self.both {
            tr("cli.bench.staff.authorize", ["authorizations": trCount("cli.bench.count.times", 1)])
        }
        #expect(authorize.en == "authorise a fresh valid code, 1 time, SQLite store:")
        #expect(authorize.it == "autorizzare un codice valido nuovo, 1 volta, archivio SQLite:")
        let uploads = Self.both {
            tr(
                "cli.bench.apricot.upload",
                [
                    "records": trCount("cli.bench.count.records", 28_800), "bytes": "5",
                    "uploads": trCount("cli.bench.count.uploads", 1),
                ])
        }
        #expect(uploads.en == "contact file of 28800 records (5 bytes), 1 upload (each replaces the last):")
        #expect(
            uploads.it
                == "file dei contatti di 28800 record (5 byte), 1 caricamento (ognuno sostituisce il precedente):")
        let patient = Self.both {
            tr(
                "cli.bench.trace.patient",
                [
                    "days": trCount("cli.bench.count.files", 1), "sightings": trCount("cli.bench.count.sightings", 1),
                    "distinct": trCount("cli.bench.trace.distinct", 1),
                    "contacts": trCount("cli.bench.count.contacts", 1), "close": trCount("cli.bench.trace.close", 1),
                    "unresolved": trCount("cli.bench.trace.unresolved", 1),
                ])
        }
        #expect(
            patient.en == "patient: 1 file, 1 sighting, 1 distinct pseudo-id heard → 1 contact (1 close), 1 unresolved")
        #expect(
            patient.it
                == "paziente: 1 file, 1 avvistamento, 1 pseudo-id distinto ricevuto → 1 contatto (1 stretto), 1 non risolto"
        )
        let written = Self.both {
            tr("cli.bench.events.written", ["written": trCount("cli.bench.events.count", 1), "seconds": "1"])
        }
        #expect(written.en == "wrote 1 event in 1 s")
        #expect(written.it == "1 evento scritto in 1 s")
    }

    @Test("the console's counts: checks, kept and dropped keys, new events, read sightings")
    func consoleCounts() {
        #expect(Self.both { trCount("console.frame.watch.times", 3) } == ("3 times", "3 volte"))
        #expect(Self.both { trCount("console.frame.watch.times", 1) } == ("1 time", "1 volta"))
        let received = Self.both {
            tr(
                "console.frame.event.acceptedDropped",
                [
                    "accepted": trCount("console.frame.count.accepted", 1),
                    "dropped": trCount("console.frame.count.dropped", 1),
                ])
        }
        #expect(received == ("1 accepted, 1 dropped", "1 accettata, 1 scartata"))
        #expect(Self.both { trCount("console.monitor.pausedNew", 1) }.it == "‖ in pausa, 1 nuovo")
        #expect(Self.both { trCount("console.monitor.pausedNew", 4) }.en == "‖ paused, 4 new")
        #expect(Self.both { trCount("console.trace.detail.read", 1) } == ("1 read", "1 letto"))
        #expect(
            Self.both { trCount("console.frame.event.ended", 1) } == ("1 follow-up ended", "1 sorveglianza conclusa"))
    }

    @Test("the command line's counts: audit entries, chunk keys, simulated requests")
    func commandLineCounts() {
        let intact = Self.both { trCount("cli.audit.intact", 1, ["entries": "1", "hash": "ab", "head": "7"]) }
        #expect(intact == ("intact: 1 entry, head ab (entry 7)", "integro: 1 voce, testa ab (voce 7)"))
        let many = Self.both { trCount("cli.audit.intact", 12, ["entries": "12", "hash": "ab", "head": "7"]) }
        #expect(many.en == "intact: 12 entries, head ab (entry 7)")
        let chunk = Self.both { trCount("cli.chunks.published", 1, ["index": "3", "keys": "1"]) }
        #expect(chunk == ("chunk 3: 1 key", "lotto 3: 1 chiave"))
        let progress = Self.both {
            tr(
                "cli.out.simulate.progress",
                [
                    "elapsed": "5", "total": "60", "requests": trCount("cli.out.simulate.requests", 1),
                    "errors": trCount("cli.out.simulate.errors", 1),
                ])
        }
        #expect(progress == ("5 s of 60 s: 1 request, 1 error", "5 s di 60 s: 1 richiesta, 1 errore"))
    }

    /// Texts whose number before a plural noun is never 1 (a fixed limit, a setting's range, a
    /// decimal mean, a bench option's minimum), so that one form is right: each with why.
    static let neverOne: Set<String> = [
        "console.authorize.onset.tooOld",  // more than SymptomOnset.maximumDaysBack (180) back
        "console.authorize.onset.old",  // more than publishedKeyDays (14) back, and those 14
        "console.dashboard.tile.keysEach",  // a decimal mean
        "console.dashboard.dayAndTime",  // "ore" is "at" here, not hours
        "cli.stats.rest.perUpload",  // a decimal mean
        "cli.stats.rest.perChunk",  // a decimal mean
        "cli.out.chunks.show.notKept",  // retention_days, 10 to 30
        "cli.out.cleanup.done",  // the retention settings, 10 days and more
        "errors.trace.sightingsPage",  // the fixed page size
        "errors.case.listSize",  // the fixed list size
        "errors.assign.tooMany",  // the fixed limit
        "messages.stats.fiveMinutes",  // the fixed limit of 5-minute buckets
        "cli.bench.apricot.codeRequest",  // --registrations is at least 2
        "cli.bench.apricot.registration",  // --registrations is at least 2
        "cli.bench.stats.seeding",  // --uploads at least 10, --events at least 100 (days: a count)
        "cli.bench.monitor.keystrokes",  // a key every 50 ms for at least a second
        "console.authorize.atMostBack",  // SymptomOnset.maximumDaysBack, 180
        "cli.input.dayTooOld",  // SymptomOnset.maximumDaysBack, 180
        "messages.stats.tooLong",  // the longest range, a fixed number of days
        "cli.followup.assign.tooMany",  // the fixed limit
    ]

    @Test("no text puts a placeholder before a plural noun unless it is a count's .other form")
    func noFixedPlural() {
        let nouns: [Language: [String]] = [
            .en: [
                "runs", "times", "chunks", "days", "contacts", "uploads", "keys", "entries", "cases", "follow-ups",
                "cells", "frames", "sightings", "lookups", "requests", "errors", "patients", "phones", "citizens",
                "codes", "hashes", "records", "hours",
            ],
            .it: [
                "volte", "esecuzioni", "lotti", "giorni", "contatti", "caricamenti", "chiavi", "voci", "casi",
                "sorveglianze", "celle", "fotogrammi", "avvistamenti", "ricerche", "richieste", "errori", "pazienti",
                "telefoni", "cittadini", "codici", "ore", "nuovi", "letti", "scartate", "accettate", "sconosciuti",
                "pronte", "presenti",
            ],
        ]
        let keys = Set(Catalogue.entries(.en).map { $0.0.hasSuffix(".one") ? String($0.0.dropLast(4)) : $0.0 })
        #expect(Self.neverOne.subtracting(keys).isEmpty, "not in the catalogue: \(Self.neverOne.subtracting(keys))")
        for language in Language.allCases {
            let pattern = try! Regex("\\{[A-Za-z]+\\} (" + nouns[language]!.joined(separator: "|") + ")\\b")
            for (key, text) in Catalogue.entries(language) where !key.hasSuffix(".other") {
                let bare = key.hasSuffix(".one") ? String(key.dropLast(4)) : key
                guard !Self.neverOne.contains(bare) else { continue }
                #expect(text.firstMatch(of: pattern) == nil, "\(key) in \(language): \(text)")
            }
        }
    }
}
