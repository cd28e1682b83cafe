/// The strict reading of an HTTP/1.1 request head (RFC 9112 §2-§5), as raw bytes arrive.
///
/// Why: libmicrohttpd 0.9.75 accepts a space before a header's colon (`Transfer-Encoding :
/// chunked`, then read as no body at all), obsolete line folding and bare-LF or bare-CR line
/// ends, whatever its "strict" option says. A proxy in front that frames such a request
/// differently forwards a second request hidden in the body, and the server answers it:
/// request smuggling. The server therefore reads each head itself first and refuses anything
/// a proxy could read another way; only a head that passes here reaches libmicrohttpd.
///
/// Pure: bytes in, a verdict out; the caller keeps the bytes (it peeks, the head stays unread).
public enum RequestHead {
    public enum Verdict: Equatable, Sendable {
        /// No rule broken so far; the blank line that ends the head has not arrived.
        case incomplete
        /// A whole head that breaks no rule, `length` bytes including the blank line.
        case complete(length: Int)
        /// A rule broken; `detail` names it and says what to send instead (never the bytes).
        case refused(detail: String)
    }

    /// The verdict on the first bytes a client sent on a connection (`maxBytes`: the largest
    /// head accepted; past it without a blank line, refused).
    public static func inspect(_ bytes: some Collection<UInt8>, maxBytes: Int) -> Verdict {
        var lineStart = true
        var lineNumber = 0
        // Within the current line: seen the colon of a header field, and the line so far.
        var sawColon = false
        var nameLength = 0
        // The header's name (lower case, while short enough to be one this checks) and, for
        // Content-Length, its value: libmicrohttpd answers a value such as `+0`, `0x0` or
        // `0, 0` with its own HTML head, sent twice, instead of refusing it.
        var name: [UInt8] = []
        var value: [UInt8] = []
        var lineLength = 0
        var spacesInRequestLine = 0
        var previousSpace = false
        var previousCR = false
        var count = 0
        for byte in bytes {
            count += 1
            if count > maxBytes {
                return .refused(
                    detail: "the request head is longer than \(maxBytes) bytes: send fewer or shorter headers")
            }
            if previousCR {
                previousCR = false
                guard byte == lf else { return .refused(detail: crRule) }
                // End of a line.
                if lineLength == 0 {
                    // Empty lines before the request line are tolerated (RFC 9112 §2.2); after
                    // it, the empty line ends the head.
                    if lineNumber > 0 { return .complete(length: count) }
                } else {
                    if lineNumber > 0 && !sawColon {
                        return .refused(detail: "every header line must be name: value")
                    }
                    if lineNumber > 0 && name == contentLength && !isDecimal(value) {
                        return .refused(
                            detail: "Content-Length must be one decimal number of bytes (digits only, no sign or list)")
                    }
                    if lineNumber == 0 && spacesInRequestLine != 2 {
                        return .refused(detail: "the request line must be METHOD SP TARGET SP HTTP/1.1")
                    }
                    lineNumber += 1
                }
                lineStart = true
                sawColon = false
                nameLength = 0
                lineLength = 0
                name.removeAll(keepingCapacity: true)
                value.removeAll(keepingCapacity: true)
                continue
            }
            switch byte {
            case cr:
                previousCR = true
                continue
            case lf:
                return .refused(detail: "line ends must be CRLF, not a bare LF")
            default:
                break
            }
            defer {
                lineStart = false
                lineLength += 1
            }
            if lineNumber == 0 {
                // The request line: visible characters separated by single spaces.
                if byte == space {
                    if lineStart || previousSpace {
                        return .refused(detail: "the request line must be METHOD SP TARGET SP HTTP/1.1")
                    }
                    spacesInRequestLine += 1
                    previousSpace = true
                    continue
                }
                previousSpace = false
                if byte < 0x21 || byte == 0x7F {
                    return .refused(detail: "the request line may hold only visible characters and single spaces")
                }
                continue
            }
            if lineStart && (byte == space || byte == tab) {
                return .refused(detail: "obsolete line folding is not accepted: send each header on one line")
            }
            if !sawColon {
                if byte == colon {
                    guard nameLength > 0 else { return .refused(detail: "a header line must start with a name") }
                    sawColon = true
                } else if isTokenCharacter(byte) {
                    nameLength += 1
                    if name.count <= contentLength.count {
                        name.append(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0))
                    }
                } else if byte == space || byte == tab {
                    return .refused(detail: "no whitespace is allowed between a header name and its colon")
                } else {
                    return .refused(detail: "a header name may hold only letters, digits and !#$%&'*+-.^_`|~")
                }
            } else if byte != tab && (byte < 0x20 || byte == 0x7F) {
                return .refused(detail: "a header value may not hold control characters")
            } else if name == contentLength && value.count <= 20 {
                value.append(byte)
            }
        }
        return .incomplete
    }

    /// A Content-Length value: digits only, between optional spaces or tabs (RFC 9110 §8.6).
    static func isDecimal(_ value: [UInt8]) -> Bool {
        let trimmed = value.drop { $0 == space || $0 == tab }.reversed().drop { $0 == space || $0 == tab }
        return !trimmed.isEmpty && trimmed.count <= 19
            && trimmed.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static let contentLength = Array("content-length".utf8)

    /// RFC 9110 §5.6.2's `tchar`.
    public static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static let crRule = "line ends must be CRLF, not a bare CR"
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let colon = UInt8(ascii: ":")
}
