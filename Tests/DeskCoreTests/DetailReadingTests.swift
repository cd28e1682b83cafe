import DeskCore
import Testing

/// Reading details that are not today's: rows written by earlier versions (keys added since
/// are optional) still read; what is not the kind's detail reads as nil, never a trap.
@Suite("Typed details: reading old and broken rows")
struct DetailReadingTests {
    @Test(
        "rows from before a key was added still read",
        arguments: [
            (DeskEvent.Kind.uploadAccepted, #"{"keys_accepted":1,"keys_dropped":0,"dropped":{},"province":null}"#),
            (.uploadAccepted, #"{"upload_id":1,"keys_accepted":3}"#),
            (.chunkPublished, #"{"chunk":42,"keys":1,"padding":0,"upload_ids":[7]}"#),
            (.contactFileReceived, #"{"day":"2026-11-28","records":1,"distinct_beacons":1,"unknown_beacons":0}"#),
            (.contactFileReceived, #"{"day":"2026-11-20","records":1440,"replaced":false}"#),
            (.staffAction, #"{"action":"a_newer_action","target":"neri"}"#),
        ])
    func oldRows(_ kind: DeskEvent.Kind, _ json: String) {
        #expect(DeskEvent.Detail(kind: kind, json: json)?.kind == kind)
    }

    @Test("an old row reads as the value it says, and writes back to its own bytes")
    func oldChunkRoundTrip() throws {
        let json = #"{"chunk":42,"keys":1,"padding":0,"upload_ids":[7]}"#
        let detail = try #require(DeskEvent.Detail(kind: .chunkPublished, json: json))
        guard case .chunkPublished(let chunk) = detail else {
            Issue.record("not a chunk: \(detail)")
            return
        }
        #expect(chunk.copiesSkipped == nil && chunk.windowStart == nil && chunk.uploadIDs == [7])
        #expect(detail.json == json)
    }

    @Test(
        "what is not the kind's detail is nil",
        arguments: [
            "", "not json", "[1,2]", "42", "\"text\"", "{", #"{"status":5}"#, #"{"keys_accepted":"many"}"#, "{}",
            #"{"chunk":1e400}"#, #"{"chunk":1.5}"#, "\u{0}",
            #"{"pseudo_ids":99999999999999999999}"#, #"{"dropped":{"too_old":"two"},"keys_accepted":1}"#,
        ])
    func broken(_ json: String) {
        for kind in DeskEvent.Kind.allCases {
            #expect(DeskEvent.Detail(kind: kind, json: json) == nil, "\(kind.rawValue) read \(json)")
        }
        for action in AuditAction.known where action != .signOut && action != .hisClientRevoked {
            #expect(AuditEntry.Detail(kind: action, json: json) == nil, "\(action) read \(json)")
        }
    }

    @Test("a day that is not a calendar day is not an authorisation's detail")
    func badDay() {
        let json = #"{"symptoms_started_on":"yesterday","expires_at_ms":1}"#
        #expect(DeskEvent.Detail(kind: .otpAuthorized, json: json) == nil)
        #expect(AuditEntry.Detail(kind: .otpAuthorized, json: json) == nil)
    }

    @Test("an action this version does not know has no typed detail")
    func unknownAction() {
        #expect(AuditEntry.Detail(kind: AuditAction(rawValue: "vaccine_pass_issued"), json: "{}") == nil)
    }
}
