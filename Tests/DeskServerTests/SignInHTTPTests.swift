import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import DeskServer
import Foundation
import Testing

/// Issue 18 on the staff handler as values: the first admin's setup token, and the budgets that
/// admit sign-ins to the password hash (429 with Retry-After before any hash).
@Suite("Staff sign-in hardening over HTTP")
struct SignInHTTPTests {
    static let json = StaffHTTPTests.json
    static func body(_ object: [String: Any]) -> Data { StaffHTTPTests.body(object) }

    func staff(_ f: ServerFixture, _ path: String) -> URL {
        URL(string: f.internalURL.absoluteString + "/staff/v1" + path)!
    }

    @Test(
        "the first admin needs the setup token: none or a wrong one is 403 {2003} naming the rule, never echoed; the right one once; then 409"
    )
    func setupToken() async throws {
        let f = try ServerFixture(sockets: false, setupToken: SetupToken(token: "tdsetup_right-token-123"))
        func setup(_ token: String?) async throws -> Reply {
            var fields: [String: Any] = ["name": "root", "password": "admin-pass-1234"]
            if let token { fields["setup_token"] = token }
            return try await f.send("POST", staff(f, "/setup"), headers: Self.json, body: Self.body(fields))
        }

        let none = try await setup(nil)
        let wrong = try await setup("tdsetup_guessed-token-9")
        let right = try await setup("tdsetup_right-token-123")
        let again = try await setup("tdsetup_right-token-123")

        for refused in [none, wrong] {
            #expect(refused.status == 403)
            #expect(refused.errorCode == 2003)
            #expect(refused.detail?.contains("one-time setup token that tracedesk serve printed at start") == true)
            #expect(!refused.text.contains("guessed") && !refused.text.contains("right-token"))
        }
        #expect(right.status == 201)
        #expect(again.status == 409)
        #expect(again.errorCode == 2009)
        #expect(try f.store.staffCount() == 1)
    }

    @Test("sign-ins past an address's budget are 429 {2029} with Retry-After, before any hash; successes cost nothing")
    func addressBudget() async throws {
        // The server's clock stands still: the budget (one sign-in each 20 s) does not refill
        // while a slow machine takes seconds over the sign-ins, only when the test moves it.
        let clock = FixedClock(Date())
        let f = try ServerFixture(
            sockets: false,
            configure: {
                $0.signInPerAddressPerMinute = 3
                $0.signInBurstPerAddress = 3
                $0.signInPerNamePerMinute = 0
            }, clock: clock)
        _ = try await StaffHTTPTests.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        func signIn(_ password: String) async throws -> Reply {
            try await f.send(
                "POST", staff(f, "/sessions"), headers: Self.json,
                body: Self.body(["name": "root", "password": password]))
        }

        // Five right passwords in a row: each gives its token back.
        for _ in 1...5 { #expect(try await signIn("admin-pass-1234").status == 201) }
        // Three wrong ones use the budget up; the fourth is refused before its hash.
        for _ in 1...3 { #expect(try await signIn("not-the-pass").status == 401) }
        let refused = try await signIn("not-the-pass")

        #expect(refused.status == 429)
        #expect(refused.errorCode == 2029)
        let seconds = try #require(refused.header("Retry-After").flatMap { Int($0) })
        #expect(seconds >= 1 && seconds <= 20)
        #expect(refused.detail == "too many sign-ins from this address: wait \(seconds) s, then try again")
        #expect(!refused.text.contains("not-the-pass") && !refused.text.contains("root"))
        #expect(f.server.metrics.render().contains(#"tracedesk_staff_sign_ins_refused_total{reason="address"} 1"#))
        // Once the wait is over on the server's clock, the address is admitted again.
        clock.advance(seconds: Double(seconds) + 1)
        #expect(try await signIn("admin-pass-1234").status == 201)
    }

    @Test("wrong passwords for one name past its budget are 429 for that name only; an unknown name is refused alike")
    func nameBudget() async throws {
        // A clock that stands still: no refill (one each 30 s) however slow the sign-ins are,
        // until the test moves it.
        let clock = FixedClock(Date())
        let f = try ServerFixture(
            sockets: false,
            configure: {
                $0.signInPerAddressPerMinute = 0
                $0.signInPerNamePerMinute = 2
            }, clock: clock)
        _ = try await StaffHTTPTests.token(f, "/setup", ["name": "root", "password": "admin-pass-1234"])
        func signIn(_ name: String, _ password: String) async throws -> Reply {
            try await f.send(
                "POST", staff(f, "/sessions"), headers: Self.json,
                body: Self.body(["name": name, "password": password]))
        }

        var answers: [String: [Int]] = [:]
        for name in ["root", "nobody"] {
            for _ in 1...3 { answers[name, default: []].append(try await signIn(name, "not-the-pass").status) }
        }
        let other = try await signIn("ana", "not-the-pass")
        let refused = try await signIn("root", "admin-pass-1234")

        #expect(answers["root"] == [401, 401, 429])
        #expect(answers["nobody"] == [401, 401, 429])
        #expect(other.status == 401)
        #expect(refused.status == 429)
        #expect(refused.detail?.hasPrefix("too many failed sign-ins with this name: wait ") == true)
        // Past its Retry-After on the server's clock, the name's right password is checked again.
        let wait = try #require(refused.header("Retry-After").flatMap { Int($0) })
        clock.advance(seconds: Double(wait) + 1)
        #expect(try await signIn("root", "admin-pass-1234").status == 201)
    }
}

/// ``SignInAdmission`` on its own: places, buckets and what gives a token back.
@Suite("Sign-in admission")
struct SignInAdmissionTests {
    @Test("one address holds at most its places on the queue; another address is not held back")
    func places() {
        let admission = SignInAdmission(placesPerAddress: 2, perAddressPerMinute: 0, perNamePerMinute: 0)
        let first = admission.admit(address: "10.0.0.2", name: "a", now: 0)
        let second = admission.admit(address: "10.0.0.2", name: "b", now: 0)
        #expect(admission.admit(address: "10.0.0.2", name: "c", now: 0) == .failure(.placesFull))
        #expect((try? admission.admit(address: "10.0.0.1", name: "a", now: 0).get()) != nil)
        if case .success(let ticket) = first { admission.finish(ticket, .failedAfterCheck, now: 0) }
        #expect((try? admission.admit(address: "10.0.0.2", name: "c", now: 0).get()) != nil)
        _ = second
    }

    @Test("an address's budget refills at its rate, up to its burst; waits and successes give their token back")
    func addressBucket() throws {
        let admission = SignInAdmission(placesPerAddress: 0, perAddressPerMinute: 2, perNamePerMinute: 0)
        let one = try admission.admit(address: "x", name: "a", now: 0).get()
        admission.finish(one, .refusedUnchecked, now: 0)
        let two = try admission.admit(address: "x", name: "a", now: 0).get()
        admission.finish(two, .failedAfterCheck, now: 0)
        let three = try admission.admit(address: "x", name: "a", now: 0).get()
        admission.finish(three, .failedAfterCheck, now: 0)
        #expect(admission.admit(address: "x", name: "a", now: 0) == .failure(.address(retryAfter: 30)))
        #expect((try? admission.admit(address: "x", name: "a", now: 30).get()) != nil)

        // A burst of 1 at 60 a minute: one at once, the next a second later.
        let narrow = SignInAdmission(placesPerAddress: 0, perAddressPerMinute: 60, perNamePerMinute: 0, addressBurst: 1)
        narrow.finish(try narrow.admit(address: "y", name: "a", now: 0).get(), .failedAfterCheck, now: 0)
        #expect(narrow.admit(address: "y", name: "a", now: 0.5) == .failure(.address(retryAfter: 1)))
        #expect((try? narrow.admit(address: "y", name: "a", now: 1).get()) != nil)
    }

    @Test("a name's budget counts wrong passwords only")
    func nameBucket() throws {
        let admission = SignInAdmission(placesPerAddress: 0, perAddressPerMinute: 0, perNamePerMinute: 1)
        admission.finish(try admission.admit(address: "x", name: "Ana", now: 0).get(), .succeeded, now: 0)
        admission.finish(try admission.admit(address: "y", name: "ana", now: 0).get(), .refusedUnchecked, now: 0)
        admission.finish(try admission.admit(address: "z", name: " ana", now: 0).get(), .failedAfterCheck, now: 0)
        #expect(admission.admit(address: "w", name: "ana", now: 1) == .failure(.name(retryAfter: 59)))
        #expect((try? admission.admit(address: "w", name: "bob", now: 1).get()) != nil)
    }
}

/// The remote console's first admin carries the token.
@Suite("Setup token through RemoteDesk")
struct RemoteSetupTokenTests {
    @Test("RemoteDesk asks for the setup token and sends it: refused without it, the first admin made with it")
    func remoteSetupToken() async throws {
        let f = try ServerFixture(setupToken: SetupToken(token: "tdsetup_right-token-123"))
        let desk = RemoteDesk(url: f.internalURL)
        #expect(desk.firstAdminNeedsSetupToken)
        var refused: ServiceError?
        do {
            _ = try await desk.createFirstAdmin(name: "root", password: "admin-pass-1234", setupToken: nil)
        } catch {
            refused = error
        }
        guard case .forbidden(let text) = refused else {
            Issue.record("expected 403, got \(String(describing: refused))")
            return
        }
        #expect(text.contains("setup token"))
        let admin = try await desk.createFirstAdmin(
            name: "root", password: "admin-pass-1234", setupToken: "tdsetup_right-token-123")
        #expect(admin.user == "root" && admin.role == .admin)
    }
}
