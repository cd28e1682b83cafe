import DeskCore
import Testing

@Suite struct RequestHeadTests {
    static func verdict(_ text: String, maxBytes: Int = 1_024) -> RequestHead.Verdict {
        RequestHead.inspect(Array(text.utf8), maxBytes: maxBytes)
    }

    @Test(
        "heads that break no rule are complete at their blank line, whatever follows",
        arguments: [
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /v1/ingestion/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
            "GET /v1/settings?platform=android&build=1 HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Tab:\tv\r\n\r\n",
            "\r\nGET / HTTP/1.0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: x\r\ncontent-LENGTH: \t12 \r\nContent-Length-Extra: +1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /hidden HTTP/1.1\r\n\r\n",
        ])
    func clean(text: String) {
        let end = text.utf8.distance(
            from: text.utf8.startIndex, to: text.range(of: "\r\n\r\n")!.upperBound.samePosition(in: text.utf8)!)
        #expect(Self.verdict(text) == .complete(length: end))
    }

    @Test(
        "heads still arriving are incomplete, even one byte at a time",
        arguments: ["", "GET", "GET / HTTP/1.1\r", "GET / HTTP/1.1\r\nHost: x\r\n", "GET / HTTP/1.1\r\nX-A: b\r\n\r"])
    func incomplete(text: String) {
        #expect(Self.verdict(text) == .incomplete)
    }

    @Test(
        "what a proxy may frame differently is refused, naming the rule",
        arguments: [
            ("POST / HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n", "between a header name and its colon"),
            ("POST / HTTP/1.1\r\nContent-Length: +0\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\nContent-Length: -0\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\ncontent-length: 0, 0\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\nContent-Length: 0x0\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\nCONTENT-LENGTH: 1e0\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", "Content-Length must be one decimal number"),
            ("POST / HTTP/1.1\r\nTransfer-Encoding\t: chunked\r\n\r\n", "between a header name and its colon"),
            ("POST / HTTP/1.1\r\nX-A: b\r\n c\r\n\r\n", "obsolete line folding"),
            ("POST / HTTP/1.1\r\nTransfer-Encoding:\r\n\tchunked\r\n\r\n", "obsolete line folding"),
            ("POST / HTTP/1.1\nHost: x\n\n", "bare LF"),
            ("POST / HTTP/1.1\r\nHost: x\n\r\n", "bare LF"),
            ("POST / HTTP/1.1\r\nHost: x\rContent-Length: 5\r\n\r\n", "bare CR"),
            ("POST / HTTP/1.1\r\n Host: x\r\n\r\n", "obsolete line folding"),
            ("POST / HTTP/1.1\r\n: x\r\n\r\n", "must start with a name"),
            ("POST / HTTP/1.1\r\nNo colon here\r\n\r\n", "between a header name and its colon"),
            ("POST / HTTP/1.1\r\nNocolon\r\n\r\n", "name: value"),
            ("POST / HTTP/1.1\r\nX(a): b\r\n\r\n", "header name may hold only"),
            ("POST / HTTP/1.1\r\nX-A: b\u{0}c\r\n\r\n", "control characters"),
            ("GET  / HTTP/1.1\r\n\r\n", "METHOD SP TARGET SP HTTP/1.1"),
            ("GET / HTTP/1.1 \r\n\r\n", "METHOD SP TARGET SP HTTP/1.1"),
            ("GET /\r\n\r\n", "METHOD SP TARGET SP HTTP/1.1"),
            (" GET / HTTP/1.1\r\n\r\n", "METHOD SP TARGET SP HTTP/1.1"),
            ("GET /\u{7F} HTTP/1.1\r\n\r\n", "only visible characters"),
        ])
    func refused(text: String, rule: String) {
        guard case .refused(let detail) = Self.verdict(text) else {
            Issue.record("not refused: \(text.debugDescription)")
            return
        }
        #expect(detail.contains(rule), "\(detail)")
    }

    @Test("a refusal never repeats what was sent (a header may carry a token)")
    func noEcho() {
        let secret = "Bearer 0123456789abcdef"
        for text in [
            "POST / HTTP/1.1\r\nAuthorization : \(secret)\r\n\r\n", "POST / HTTP/1.1\nAuthorization: \(secret)\n\n",
        ] {
            guard case .refused(let detail) = Self.verdict(text) else {
                Issue.record("not refused")
                continue
            }
            #expect(!detail.contains("0123456789"))
        }
    }

    @Test("a head longer than the limit is refused, a head of exactly the limit is not")
    func length() {
        let head = "GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 100))\r\n\r\n"
        #expect(Self.verdict(head, maxBytes: head.utf8.count) == .complete(length: head.utf8.count))
        guard case .refused(let detail) = Self.verdict(head, maxBytes: head.utf8.count - 1) else {
            Issue.record("not refused")
            return
        }
        #expect(detail.contains("longer than"))
    }
}
