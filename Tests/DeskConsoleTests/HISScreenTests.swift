import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The admin's HIS screen inside the frame: the table, the add form, the key shown once, the
/// revoke confirmation, the desk's answers; and its snapshots at 80×24.
@Suite("HIS clients screen")
struct HISScreenTests {
    static let admin = Fixture.session("admin", role: .admin)
    static let clients = [
        HISClient(name: "niguarda", createdAt: Fixture.now - 86_400, createdBy: "admin", ratePerMinute: 30),
        HISClient(
            name: "old-lab", createdAt: Fixture.now - 10 * 86_400, createdBy: "admin", revokedAt: Fixture.now - 3_600,
            revokedBy: "boss"),
        HISClient(name: "san-matteo", createdAt: Fixture.now - 7_200, createdBy: "boss"),
    ]
    static let key = "tdh_" + String(repeating: "K", count: 43)

    func loaded() -> ConsoleApp.State {
        var app = Fixture.app(session: Self.admin)
        #expect(Fixture.press(.function(4), into: &app) == [.his(.load)])
        _ = ConsoleApp.update(&app, .his(.loaded(Self.clients)))
        return app
    }

    @Test("F4 opens the screen and loads it once; the table lists name, state, rate and who made each")
    func table() {
        var app = loaded()
        #expect(app.page == .his)
        let text = Fixture.render(app).text
        #expect(text.contains("Hospital systems (HIS clients) (3)"))
        #expect(text.contains("niguarda"))
        #expect(text.contains("revoked"))
        #expect(text.contains("default"))
        #expect(Fixture.press(.function(2), into: &app).isEmpty == false || app.page == .staff)
        #expect(Fixture.press(.function(4), into: &app).isEmpty)
    }

    @Test("a: name and rate, Enter field by field, then an add command; a bad name is refused as typed")
    func add() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("1st", into: &app)
        #expect(app.his.form?.nameProblem == "a client name starts with a letter (a-z)")
        _ = Fixture.press(.backspace, .backspace, .backspace, into: &app)
        Fixture.type("Careggi", into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        Fixture.type("12x0", into: &app)
        #expect(app.his.form?.rate.text == "120")
        #expect(Fixture.press(.enter, into: &app) == [.his(.add(name: "careggi", ratePerMinute: 120))])
        #expect(app.his.form?.submitting == true)
    }

    @Test("the key of a client just added is shown until Enter or Esc, then forgotten; the list reloads")
    func keyShownOnce() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("careggi", into: &app)
        _ = Fixture.press(.enter, .enter, into: &app)
        let added = NewHISClient(
            client: HISClient(name: "careggi", createdAt: Fixture.now, createdBy: "admin"), key: Self.key)
        #expect(ConsoleApp.update(&app, .his(.added(added))) == [.his(.load)])
        #expect(app.his.form == nil)
        #expect(Fixture.render(app).text.contains(Self.key))
        // A stray key does not hide it unread.
        _ = Fixture.press(.char("x"), into: &app)
        #expect(app.his.shownKey == added)
        _ = Fixture.press(.enter, into: &app)
        #expect(app.his.shownKey == nil)
        #expect(!Fixture.render(app).text.contains(Self.key))
    }

    @Test("the desk's refusal stays in the form with what was typed")
    func refused() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("niguarda", into: &app)
        _ = Fixture.press(.enter, .enter, into: &app)
        let message = "the HIS client name niguarda is taken (revoked clients keep their names): choose another"
        _ = ConsoleApp.update(&app, .his(.changeFailed(message)))
        #expect(app.his.form?.notice == .error(message))
        #expect(app.his.form?.name.text == "niguarda")
        #expect(app.his.form?.submitting == false)
    }

    @Test("x asks first, naming the client; y revokes; a revoked client is not asked about again")
    func revoke() {
        var app = loaded()
        _ = Fixture.press(.char("x"), into: &app)
        #expect(app.his.confirm != nil)
        #expect(Fixture.render(app).text.contains("Revoke niguarda?"))
        #expect(Fixture.press(.char("y"), into: &app) == [.his(.revoke(name: "niguarda"))])
        _ = ConsoleApp.update(&app, .his(.revoked(Self.clients[0])))
        _ = Fixture.press(.down, .char("x"), into: &app)
        #expect(app.his.confirm == nil)
        #expect(app.his.notice == .info("old-lab is revoked already"))
    }

    @Test("80×24: the list, the add form and the key shown once", arguments: ["list", "add", "key"])
    func snapshots(_ scenario: String) {
        var app = loaded()
        switch scenario {
        case "add":
            _ = Fixture.press(.char("a"), into: &app)
            Fixture.type("careggi", into: &app)
        case "key":
            let added = NewHISClient(
                client: HISClient(name: "careggi", createdAt: Fixture.now, createdBy: "admin"), key: Self.key)
            _ = ConsoleApp.update(&app, .his(.added(added)))
        default:
            _ = Fixture.press(.down, into: &app)
        }
        assertSnapshot(Fixture.render(app), named: "his-80x24-\(scenario)")
    }
}
