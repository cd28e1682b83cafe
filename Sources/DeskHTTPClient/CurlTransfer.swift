import CCurl
import Foundation

/// One request's libcurl easy handle and what its callbacks collect.
///
/// Threading rule: made by the caller's task; from `start` on, its handle and buffers are
/// touched only by the engine's thread. `finish` may be called from there or from a
/// cancellation (both under the engine's lock), and resumes the caller exactly once.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPClient.Request
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorStorage: UnsafeMutablePointer<CChar>
    private var continuation: CheckedContinuation<Result<HTTPClient.Response, HTTPClientError>, Never>?
    private var finished = false
    /// Set by a cancellation that came before the engine's thread took the transfer.
    var cancelled = false

    // Filled by the callbacks, on the engine's thread.
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var status: Int?
    var overLimit = false

    init(_ request: HTTPClient.Request) throws(HTTPClientError) {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            request.url.host != nil
        else { throw .invalidRequest("only http:// and https:// URLs with a host are sent") }
        self.request = request
        errorStorage = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorStorage.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        cleanUp()
        errorStorage.deallocate()
    }

    /// Who to resume; set by the engine, under its lock, as the transfer starts.
    func setContinuation(
        _ continuation: CheckedContinuation<Result<HTTPClient.Response, HTTPClientError>, Never>
    ) {
        self.continuation = continuation
    }

    /// Makes and configures the easy handle (engine thread). False when libcurl refused.
    func prepare() -> Bool {
        CurlGlobal.once()
        guard let easy = curl_easy_init() else { return false }
        self.easy = easy
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(ccurl_setopt_string(easy, CURLOPT_URL, request.url.absoluteString))
        check(ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check(ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        check(ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout)))
        check(ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.deadline)))
        check(ccurl_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxAnswerBytes)))
        check(ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorStorage))
        check(ccurl_setopt_write(easy, CURLOPT_WRITEFUNCTION, curlWriteBody))
        check(ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        check(ccurl_setopt_write(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        check(ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, me))
        check(ccurl_setopt_pointer(easy, CURLOPT_PRIVATE, me))
        let method = request.method.uppercased()
        if let body = request.body {
            check(ccurl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if body.isEmpty {
                check(ccurl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
            } else {
                // Copied by libcurl before the call returns.
                check(
                    body.withUnsafeBytes { bytes in
                        ccurl_setopt_pointer(
                            easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    })
            }
            if method != "POST" { check(ccurl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)) }
        } else if method == "GET" {
            check(ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1))
        } else if method == "HEAD" {
            check(ccurl_setopt_long(easy, CURLOPT_NOBODY, 1))
        } else if method == "POST" {
            check(ccurl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            check(ccurl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
        } else {
            check(ccurl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
        // No `Expect: 100-continue` (a wait of up to a second before large bodies).
        var list = curl_slist_append(nil, "Expect:")
        for (name, value) in request.headers { list = curl_slist_append(list, "\(name): \(value)") }
        headerList = list
        check(ccurl_setopt_list(easy, CURLOPT_HTTPHEADER, list))
        return ok
    }

    /// libcurl's words for the last failure, printable.
    var errorText: String {
        String(cString: errorStorage).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The outcome of a finished transfer (engine thread).
    func outcome(_ code: CURLcode) -> Result<HTTPClient.Response, HTTPClientError> {
        guard code == CURLE_OK else {
            var osError = 0
            if let easy { _ = ccurl_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError) }
            return .failure(
                HTTPClientError.classify(
                    code, detail: errorText, osError: Int32(truncatingIfNeeded: osError), answered: status != nil,
                    overLimit: overLimit, limit: request.maxAnswerBytes))
        }
        guard let status else { return .failure(.notHTTP) }
        return .success(HTTPClient.Response(status: status, headers: headers, body: body))
    }

    /// Resumes the caller once; later calls do nothing. Call under the engine's lock.
    func finish(_ result: Result<HTTPClient.Response, HTTPClientError>) {
        guard !finished else { return }
        finished = true
        continuation?.resume(returning: result)
        continuation = nil
    }

    var isFinished: Bool { finished }

    /// Frees the easy handle and the header list (after it left the multi handle).
    func cleanUp() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// A header line: a status line starts a new answer (after a 100 Continue, say).
    func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            let parts = trimmed.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) : nil
            headers = []
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        headers.append((name, value))
    }
}

/// The body callback: appends, or refuses past the cap (libcurl then ends with a write error).
private func curlWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.request.maxAnswerBytes else {
        transfer.overLimit = true
        return 0
    }
    if let data, length > 0 {
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
    }
    return length
}

/// The header callback: one whole header line at a time.
private func curlWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if let data, length > 0 {
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        transfer.header(line)
    }
    return length
}

/// `curl_global_init`, once per process, before the first handle (it is not thread-safe).
enum CurlGlobal {
    private static let done: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        return true
    }()

    static func once() { _ = done }
}
