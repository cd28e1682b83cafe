import Foundation
import Testing

@testable import DeskText

/// The operating commands' output (`cli.out.…`: chunks, cleanup, serve, demo, simulate): English
/// as these commands always printed it, Italian in the health service's words.
@Suite struct CLIOutputTests {
    static let english = Dictionary(English.cliOutput, uniquingKeysWith: { first, _ in first })
    static let italian = Dictionary(Italian.cliOutput, uniquingKeysWith: { first, _ in first })

    @Test("both tables are in the catalogue, under cli.out.")
    func registered() {
        let all = Set(Catalogue.entries(.it).map(\.0))
        #expect(!Self.italian.isEmpty)
        #expect(Self.italian.keys.allSatisfy { all.contains($0) && $0.hasPrefix("cli.out.") })
        #expect(Set(Self.english.keys) == Set(Self.italian.keys))
    }

    @Test("every Italian text is translated, but for GAEN's batch, the app's bundle id and the latency columns")
    func translated() {
        let same =
            Set(["cli.out.chunks.show.label.batch", "cli.out.chunks.show.app"])
            .union(["endpoint", "p50", "p95", "p99"].map { "cli.out.simulation.column.\($0)" })
        let untranslated = Self.english.keys.filter { Self.italian[$0] == Self.english[$0] && !same.contains($0) }
        #expect(untranslated.isEmpty, "the same in both: \(untranslated.sorted())")
    }

    @Test("Italian names a chunk a lotto and the store an archivio (options and placeholders aside)")
    func vocabulary() {
        for (key, text) in Self.italian {
            var words = text
            for name in ["--store", "_STORE", "{store}"] { words = words.replacingOccurrences(of: name, with: "") }
            #expect(!words.contains("chunk"), "\(key): \(text)")
            #expect(!words.contains("store"), "\(key): \(text)")
        }
    }

    @Test("a few lines as the commands print them, in each language")
    func lines() {
        func both(_ key: String, _ arguments: [String: String] = [:]) -> (String, String) {
            (
                Catalogue.text(key, arguments, in: .en),
                Catalogue.text(key, arguments, in: .it)
            )
        }
        #expect(
            both("cli.out.chunks.show.beyondNewest", ["index": "7", "last": "1"])
                == ("there is no chunk 7: the newest is 1", "il lotto 7 non esiste: il più recente è il 1"))
        #expect(
            both("cli.out.chunks.show.batch", ["number": "1", "size": "2"]) == ("1 of 2", "1 di 2"))
        #expect(
            both("cli.out.chunks.show.notVerified", ["source": "k.pem"])
                == ("DOES NOT VERIFY with k.pem", "NON SI VERIFICA con k.pem"))
        #expect(
            both("cli.out.serve.settings.title").1
                == "Impostazioni (chiave nel file, variabile d'ambiente, valore attuale, significato):")
        // Each count with its own noun (cli.out.simulate.requests, .errors), in the line's language.
        func progress(_ language: Language, requests: Int, errors: Int) -> String {
            Language.$scoped.withValue(language) {
                tr(
                    "cli.out.simulate.progress",
                    [
                        "elapsed": "3", "total": "60", "requests": trCount("cli.out.simulate.requests", requests),
                        "errors": trCount("cli.out.simulate.errors", errors),
                    ])
            }
        }
        #expect(progress(.en, requests: 12, errors: 0) == "3 s of 60 s: 12 requests, 0 errors")
        #expect(progress(.it, requests: 12, errors: 0) == "3 s di 60 s: 12 richieste, 0 errori")
        #expect(progress(.it, requests: 1, errors: 1) == "3 s di 60 s: 1 richiesta, 1 errore")
    }
}
