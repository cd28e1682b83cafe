import DeskAPI
import DeskServer
import Foundation
import Testing

/// The server's routing against the endpoint table, on the internal handler as values: every
/// endpoint of the table is served at its method and path, and those that need a session refuse
/// a request without one.
@Suite("Staff endpoint table against the server")
struct StaffEndpointHTTPTests {
    func url(_ f: ServerFixture, _ endpoint: StaffEndpoint) -> URL {
        URL(string: f.internalURL.absoluteString + StaffWire.prefix + endpoint.path(segment: "ana"))!
    }

    @Test("every endpoint that needs a session is 401 {2001} without a bearer token")
    func signedIn() async throws {
        let f = try ServerFixture(sockets: false)
        for endpoint in StaffEndpoint.table where endpoint.signedIn {
            let reply = try await f.send(
                endpoint.method, url(f, endpoint), headers: ["Content-Type": "application/json"],
                body: endpoint.method == "POST" ? Data("{}".utf8) : nil)
            #expect(reply.status == 401, "\(endpoint.method) \(endpoint.template)")
            #expect(reply.errorCode == 2001, "\(endpoint.method) \(endpoint.template)")
        }
    }

    @Test("every endpoint that needs none is answered without a token: by the table's statuses or 400")
    func open() async throws {
        let f = try ServerFixture(sockets: false)
        for endpoint in StaffEndpoint.table where !endpoint.signedIn {
            let reply = try await f.send(
                endpoint.method, url(f, endpoint), headers: ["Content-Type": "application/json"],
                body: endpoint.method == "POST" ? Data("{}".utf8) : nil)
            let expected = endpoint.method == "POST" ? [400] : endpoint.accept
            #expect(expected.contains(reply.status), "\(endpoint.method) \(endpoint.template): \(reply.status)")
        }
    }
}
