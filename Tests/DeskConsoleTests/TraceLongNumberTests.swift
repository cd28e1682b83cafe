import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The numbers a tracer must call are never cut (issue 20, defect 1): the phone column is as
/// wide as the longest number and the columns after it give way, at every size and in ASCII.
@Suite("Contact table: long numbers")
struct TraceLongNumberTests {
    /// The fixture's contacts, the second with a 15-digit number (the longest E.164 allows).
    static func lookup() throws -> TraceLookup {
        var contacts = TraceFixture.contacts()
        let long = try #require(PhoneNumber(e164: "+999000010000001"))
        contacts[1].summary.phone = long
        return TraceFixture.lookup(contacts: contacts)
    }

    @Test("every number whole, the outcome column giving way", arguments: [(80, 24), (120, 40), (200, 50)])
    func wholeNumbers(_ size: (Int, Int)) throws {
        let lookup = try Self.lookup()
        for ascii in [false, true] {
            let state = TraceFixture.looked(width: size.0, height: size.1, ascii: ascii, lookup)
            let text = Fixture.render(state).text
            for contact in lookup.contacts {
                #expect(text.contains(contact.summary.phone.spaced), "\(contact.summary.phone.spaced) at \(size)")
            }
            assertSnapshot(
                Fixture.render(state), named: "trace-\(size.0)x\(size.1)-long-number\(ascii ? "-ascii" : "")")
        }
    }
}
