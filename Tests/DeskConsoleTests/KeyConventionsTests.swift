import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// One key, one meaning (issue 20, convention 2), over every key map of the console: the
/// registry ``ConsoleApp/allKeyTables``, which every page and mode's maps must be part of.
@Suite("Key conventions")
struct KeyConventionsTests {
    /// Known departures, each with its reason; anything else that breaks a convention fails.
    /// None today: the tracer's phone field and the lock screen clear with Ctrl-U, and Esc
    /// there has no level to go back to.
    static let exceptions: Set<String> = []

    /// Inside the palette ^P/^N move, as in every fuzzy finder; it is the palette already.
    static let paletteOwn: Set<Key> = [.ctrl("p")]

    @Test("every convention key carries its one meaning in every key map")
    func conventions() {
        var problems: [String] = []
        for table in ConsoleApp.allKeyTables {
            for row in table.rows {
                for key in row.keys {
                    if table.id == "palette", Self.paletteOwn.contains(key) { continue }
                    for convention in ConsoleApp.keyConventions where convention.keys.contains(key) {
                        guard !Self.exceptions.contains("\(table.id) \(key)") else { continue }
                        if !convention.names.contains(row.name ?? "") {
                            problems.append(
                                "\(table.id): \(key) is \"\(row.help)\" (name \(row.name ?? "none")), "
                                    + "but means \(convention.names.sorted()) everywhere")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    @Test("each screen has a letter of its own that no key map binds to anything else, and an F-key")
    func screenLetters() {
        var letters: [Key: String] = [:]
        for (_, table) in ConsoleApp.roleScreenMaps {
            for row in table.rows {
                let name = row.name ?? ""
                #expect(ConsoleApp.screenNames.contains(name), "\(table.id): \(name)")
                #expect(row.keys.contains { if case .function = $0 { true } else { false } }, "\(name): an F-key")
                let own = row.keys.filter(\.isCharacter)
                #expect(own.count == 1, "\(name): one letter")
                for key in own {
                    if let other = letters[key], other != name { Issue.record("\(key) is both \(other) and \(name)") }
                    letters[key] = name
                }
            }
        }
        #expect(Set(letters.values) == ConsoleApp.screenNames, "every screen has its letter")
        var problems: [String] = []
        for table in ConsoleApp.allKeyTables where !table.id.hasPrefix("screens.") {
            for row in table.rows {
                for key in row.keys {
                    if let screen = letters[key] {
                        problems.append("\(table.id): \(key) is \"\(row.help)\", but it is the key of :\(screen)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }

    @Test("Tab never switches screens, for any role")
    func tabStays() {
        for role in StaffRole.allCases {
            var app = Fixture.app(session: Fixture.session("someone", role: role))
            let page = app.page
            _ = Fixture.press(.tab, .tab, .backTab, into: &app)
            #expect(app.page == page, "\(role)")
        }
    }

    @Test("no two bindings of one map share a key, and every map is registered once")
    func registry() {
        let ids = ConsoleApp.allKeyTables.map(\.id)
        #expect(Set(ids).count == ids.count, "ids are unique")
        for table in ConsoleApp.allKeyTables {
            var seen: Set<Key> = []
            for row in table.rows {
                for key in row.keys {
                    #expect(seen.insert(key).inserted, "\(table.id): \(key) bound twice (the second never runs)")
                }
            }
        }
    }

    /// Pages and modes, reached as a person would.
    static var contexts: [(String, ConsoleApp.State)] {
        var list: [(String, ConsoleApp.State)] = []
        func add(_ name: String, _ state: ConsoleApp.State) { list.append((name, state)) }
        var signedOut = Fixture.signedOut()
        add("sign in", signedOut)
        signedOut.demoAccounts = DemoAccounts(accounts: [])
        add("sign in, demo", signedOut)
        _ = ConsoleApp.update(&signedOut, .accountsChecked(needsFirstAdmin: true))
        add("first admin", signedOut)

        var op = Fixture.app()
        add("authorise form", op)
        Fixture.type(Fixture.code, into: &op)
        _ = Fixture.press(.char("y"), .enter, into: &op)
        add("review", op)
        _ = Fixture.press(.enter, into: &op)
        _ = ConsoleApp.update(&op, .authorize(.authorizeFinished(.authorized(Fixture.record()))))
        add("result", op)
        _ = Fixture.press(.char("q"), into: &op)
        add("quit?", op)
        var monitor = Fixture.app()
        _ = Fixture.press(.function(3), into: &monitor)
        add("monitor", monitor)
        _ = Fixture.press(.char("/"), into: &monitor)
        add("monitor filter", monitor)
        var locked = Fixture.app()
        _ = ConsoleApp.update(&locked, .sessionEnded("over"))
        add("lock", locked)

        var sup = Fixture.app(session: Fixture.session("sara", role: .supervisor))
        add("dashboard", sup)
        _ = Fixture.press(.char("p"), into: &sup)
        add("province", sup)
        sup = Fixture.app(session: Fixture.session("sara", role: .supervisor))
        _ = Fixture.press(.char("e"), into: &sup)
        add("dashboard export", sup)

        var admin = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = ConsoleApp.update(&admin, .staff(.loaded(Fixture.accounts)))
        add("staff", admin)
        var form = admin
        _ = Fixture.press(.char("a"), into: &form)
        add("staff form", form)
        var disable = admin
        _ = Fixture.press(.down, .char("d"), into: &disable)
        add("staff confirm", disable)
        var audit = admin
        _ = Fixture.press(.function(3), into: &audit)
        add("audit", audit)
        _ = Fixture.press(.char("/"), into: &audit)
        add("audit filter", audit)
        var his = admin
        _ = Fixture.press(.function(4), into: &his)
        add("his", his)
        _ = Fixture.press(.char("a"), into: &his)
        add("his form", his)

        var tracer = Fixture.onTrace(Fixture.app(session: Fixture.session("tina", role: .tracer)))
        add("trace phone", tracer)
        Fixture.type("3331234567", into: &tracer)
        _ = Fixture.press(.enter, into: &tracer)
        add("trace purpose", tracer)
        _ = Fixture.press(.char("?"), into: &tracer)
        add("trace help", tracer)

        var queue = QueueFixture.app()
        add("queue", queue)
        var queueDetail = queue
        _ = Fixture.press(.enter, into: &queueDetail)
        add("queue person", queueDetail)
        var outcome = queue
        _ = Fixture.press(.char("o"), into: &outcome)
        add("queue outcome", outcome)
        _ = Fixture.press(.char("j"), .char("j"), .char("j"), .char("c"), into: &queue)
        add("queue check", queue)
        var filter = QueueFixture.app()
        _ = Fixture.press(.char("/"), into: &filter)
        add("queue filter", filter)
        var supervising = QueueFixture.app(session: QueueFixture.supervisor)
        add("supervisor queue", supervising)
        var supervisingDetail = supervising
        _ = Fixture.press(.enter, into: &supervisingDetail)
        add("supervisor queue person", supervisingDetail)
        _ = Fixture.press(.char("t"), into: &supervising)
        add("supervisor picker", supervising)
        return list
    }

    @Test("every page and mode uses only registered key maps, and help lists them")
    func contextsAreRegistered() {
        let ids = Set(ConsoleApp.allKeyTables.map(\.id))
        for (name, state) in Self.contexts {
            for table in ConsoleApp.keyTables(state) {
                #expect(ids.contains(table.id), "\(name): \(table.id) is not in ConsoleApp.allKeyTables")
            }
        }
    }
}

@Suite("Esc where there is no level to go back to")
struct EscKeepsTypedTextTests {
    @Test("the tracer's phone number: Esc keeps it, Ctrl-U clears it")
    func tracerPhone() {
        var state = TraceFixture.app()
        Fixture.type("333 123 4567", into: &state)
        _ = Fixture.press(.escape, into: &state)
        #expect(state.trace.phone.text == "333 123 4567")
        _ = Fixture.press(.ctrl("u"), into: &state)
        #expect(state.trace.phone.text.isEmpty)
    }

    @Test("the lock screen's password: Esc keeps it, Ctrl-U clears it")
    func lockPassword() {
        var state = Fixture.app()
        _ = ConsoleApp.update(&state, .sessionEnded("idle"))
        Fixture.type("secret words", into: &state)
        _ = Fixture.press(.escape, into: &state)
        #expect(state.lock?.password.text == "secret words")
        _ = Fixture.press(.ctrl("u"), into: &state)
        #expect(state.lock?.password.text.isEmpty == true)
    }
}
