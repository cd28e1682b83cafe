import DeskContract
import DeskCore
import DeskHTTPClient
import DeskStore
import Dispatch
import Foundation
import JSONText

/// Where APRICOT's SMS codes go (spec/apricot-protocol.md, "Registration"). Every message is
/// first put in the store's outbox; the gateway decides what happens next.
///
/// Threading rule: `send` is called from server threads and returns at once (it never waits
/// for a provider). Privacy rule: neither the text (it holds the code) nor the phone number
/// ever reaches a log line, a metric or an error message.
public protocol SmsGateway: Sendable {
    /// "outbox" or "http": what the outbox's `gateway` column says.
    var name: String { get }

    /// Hands one message over. Throws when the store cannot take it, or when the gateway cannot
    /// take another message now (`.unavailable`: the phone may ask again later).
    func send(to phone: PhoneNumber, message: SmsCodeText) throws(ServiceError)

    /// False while the gateway cannot take another message (the http gateway's queue is full):
    /// a code asked for now would not be sent, so none should be made.
    var acceptsMore: Bool { get }
}

extension SmsGateway {
    public var acceptsMore: Bool { true }
}

/// The text of an SMS that carries a one-time code, with the code kept apart from the words
/// around it, so that a gateway can store the text with the code masked and give the plain
/// text only to the provider.
public struct SmsCodeText: Hashable, Sendable {
    /// Where the code goes in a template.
    public static let placeholder = "{code}"
    /// What stands for the code in a masked text.
    public static let mask = "******"
    public let code: String
    public let template: String
    /// When the code stops working: the outbox drops the text then (nil: when it is used or
    /// replaced).
    public let expiresAt: Date?

    /// - Parameter template: the words of the message, with ``placeholder`` where the code goes.
    public init(code: String, template: String, expiresAt: Date? = nil) {
        self.code = code
        self.template = template
        self.expiresAt = expiresAt
    }

    /// The text the phone receives.
    public var plain: String { template.replacingOccurrences(of: Self.placeholder, with: code) }
    /// The text with the code replaced by ``mask``: what the store keeps for a message that
    /// leaves the machine.
    public var masked: String { template.replacingOccurrences(of: Self.placeholder, with: Self.mask) }

    /// The 6-digit code in a message's plain text (the first run of exactly six digits), or nil:
    /// how tests, `tracedesk bench apricot` and training deployments read a code from the outbox.
    public static func code(in text: String) -> String? {
        text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).first { $0.count == 6 }.map(String.init)
    }
}

/// The default gateway: messages are stored with status `held` and shown to admins by
/// `tracedesk sms outbox`; nothing leaves the machine (training and test deployments). The
/// stored text holds the code in plain: reading it from the outbox is this gateway's purpose,
/// so a deployment with real phones must use ``HTTPSmsGateway``.
public struct OutboxSmsGateway: SmsGateway {
    public let store: any Store
    public let clock: any Clock
    public var name: String { "outbox" }

    public init(store: any Store, clock: any Clock = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    public func send(to phone: PhoneNumber, message: SmsCodeText) throws(ServiceError) {
        do {
            _ = try store.enqueueSms(
                phone: phone, text: message.plain, gateway: name, status: .held,
                detail: SmsMessage.heldInOutbox, now: clock.now(),
                textExpiresAt: message.expiresAt)
        } catch {
            throw ServiceError(error)
        }
    }
}

/// A provider's HTTP API: each message is stored `pending` with its code masked (the plain text
/// lives only in the sender's memory), then POSTed as JSON
/// `{"to": "+39…", "text": "…"}` to `url` with `Authorization: Bearer <api key>` by a background
/// sender. A 2xx answer marks it `sent`; a 5xx, a 429 or a connection failure is retried with
/// doubling waits (`firstRetry`, 2×, 4×…, at most `maxRetryWait`) up to `maxAttempts` attempts,
/// and never once the message is `maxAge` old (its code has expired), then `failed`; any other
/// answer fails it at once (a request the provider will never accept). Every attempt's result is
/// recorded with ``ApricotStore/recordSmsDelivery(id:status:detail:now:)``.
public final class HTTPSmsGateway: SmsGateway, @unchecked Sendable {
    public struct Options: Sendable {
        public var url: URL
        public var apiKey: String
        public var maxAttempts: Int
        public var firstRetry: Duration
        public var timeout: Duration
        /// Messages waiting or being sent at once; past this a new message fails at once
        /// (recorded `failed`): a provider that is down must not grow memory without bound.
        public var maxQueued: Int
        /// No attempt is made once a message is this old: its code has expired (the code
        /// lifetime, 5 minutes), and a late SMS would only confuse.
        public var maxAge: Duration
        /// The longest wait between two attempts, however many came before.
        public var maxRetryWait: Duration

        public init(
            url: URL, apiKey: String, maxAttempts: Int = 5, firstRetry: Duration = .seconds(2),
            timeout: Duration = .seconds(10), maxQueued: Int = 10_000, maxAge: Duration = .seconds(300),
            maxRetryWait: Duration = .seconds(60)
        ) {
            self.url = url
            self.apiKey = apiKey
            self.maxAttempts = maxAttempts
            self.firstRetry = firstRetry
            self.timeout = timeout
            self.maxQueued = maxQueued
            self.maxAge = maxAge
            self.maxRetryWait = maxRetryWait
        }
    }

    public let store: any Store
    public let clock: any Clock
    public let options: Options
    let log: @Sendable (String) -> Void
    private let client = HTTPClient()
    private let lock = SimpleLock()
    private var queued = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    public var name: String { "http" }

    public init(
        store: any Store, clock: any Clock = SystemClock(), options: Options,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.store = store
        self.clock = clock
        self.options = options
        self.log = log
    }

    public func send(to phone: PhoneNumber, message: SmsCodeText) throws(ServiceError) {
        let queuedAt = clock.now()
        let admitted = lock.withLock { () -> Bool in
            guard queued < options.maxQueued else { return false }
            queued += 1
            return true
        }
        guard admitted else {
            // Stored failed with no attempt (none was made), so admins see it in the outbox.
            let id = try? store.enqueueSms(
                phone: phone, text: message.masked, gateway: name, status: .failed,
                detail: "not sent: \(options.maxQueued) messages were already waiting for the provider",
                now: queuedAt)
            log(
                "SMS message \(id.map(String.init) ?? "(not stored)") not sent: \(options.maxQueued) messages already wait for the provider"
            )
            throw .unavailable(Self.queueFull)
        }
        let id: Int64
        do {
            id = try store.enqueueSms(
                phone: phone, text: message.masked, gateway: name, status: .pending, detail: "", now: queuedAt)
        } catch {
            finished()
            throw ServiceError(error)
        }
        let body = JSONValue.object([
            .init(key: "to", value: .string(phone.e164)), .init(key: "text", value: .string(message.plain)),
        ])
        let payload = Array(body.serialized.utf8)
        Task.detached { [self] in
            await deliver(id, payload, queuedAt: queuedAt)
            finished()
        }
    }

    /// How many messages are waiting or being sent now.
    public var pending: Int { lock.withLock { queued } }

    public var acceptsMore: Bool { lock.withLock { queued < options.maxQueued } }

    /// What `send` throws (`.unavailable`) when the queue is full.
    public static let queueFull = "the SMS provider is behind: the queue of messages is full"

    /// Returns once no message is waiting or being sent (tests; a stopping server, with its grace).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = lock.withLock { () -> Bool in
                if queued == 0 { return true }
                idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func finished() {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            queued -= 1
            guard queued == 0 else { return [] }
            defer { idleWaiters = [] }
            return idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The attempts of one message, each recorded; waits between them hold no thread.
    private func deliver(_ id: Int64, _ payload: [UInt8], queuedAt: Date) async {
        for attempt in 1...max(1, options.maxAttempts) {
            let outcome = await post(payload)
            switch outcome {
            case .delivered(let status):
                record(id, .sent, "provider answered \(status) (attempt \(attempt))")
                return
            case .refused(let status):
                record(id, .failed, "provider refused the message with \(status) (attempt \(attempt)): not retried")
                log("SMS message \(id) refused by the provider with HTTP \(status): check sms_http_url and the key")
                return
            case .redirected(let status):
                record(
                    id, .failed,
                    "provider answered \(status), a redirect (attempt \(attempt)): redirects are not followed, so the key and the code never go to another address; not retried, set sms_http_url to the final address"
                )
                log(
                    "SMS message \(id) not sent: the provider answered HTTP \(status), a redirect: set sms_http_url to the final address"
                )
                return
            case .retry(let reason):
                if attempt == options.maxAttempts {
                    record(id, .failed, "\(reason) (attempt \(attempt) of \(options.maxAttempts)): gave up")
                    log("SMS message \(id) not delivered after \(attempt) attempts: \(reason)")
                    return
                }
                let wait = Self.retryWait(after: attempt, first: options.firstRetry, cap: options.maxRetryWait)
                let age = clock.now().timeIntervalSince(queuedAt) + wait.seconds
                if age >= options.maxAge.seconds {
                    record(
                        id, .failed,
                        "\(reason) (attempt \(attempt) of \(options.maxAttempts)): gave up, the code expires (\(Int(options.maxAge.seconds)) s after it was made) before another attempt"
                    )
                    log("SMS message \(id) not delivered: its code expired while the provider failed (\(reason))")
                    return
                }
                record(id, .pending, "\(reason) (attempt \(attempt) of \(options.maxAttempts)): retrying")
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// The wait after failed attempt `attempt` (1-based): `first`, doubling, at most `cap`.
    public static func retryWait(after attempt: Int, first: Duration, cap: Duration) -> Duration {
        var wait = first
        for _ in 1..<max(1, attempt) {
            guard wait < cap else { break }
            wait = wait * 2
        }
        return min(wait, cap)
    }

    enum Outcome {
        case delivered(Int)
        case refused(Int)
        /// A 3xx: not followed (the key and the code would go to another origin), not retried.
        case redirected(Int)
        case retry(String)
    }

    /// The largest answer read: only its status matters.
    static let maximumAnswerBytes = 64 << 10

    /// One attempt, within `timeout` (connecting included). Redirects are not followed: the
    /// key and the code would go to another origin, so a 3xx is the answer.
    private func post(_ payload: [UInt8]) async -> Outcome {
        let request = HTTPClient.Request(
            "POST", options.url,
            headers: [
                ("Content-Type", "application/json; charset=utf-8"), ("Authorization", "Bearer \(options.apiKey)"),
            ], body: payload, connectTimeout: options.timeout, deadline: options.timeout,
            maxAnswerBytes: Self.maximumAnswerBytes)
        let status: Int
        do {
            status = try await client.send(request).status
        } catch {
            // The reasons name at most the provider's host, never the message.
            return .retry(Self.reason(error))
        }
        switch status {
        case 200..<300: return .delivered(status)
        case 300..<400: return .redirected(status)
        case 429, 500..<600: return .retry("provider answered \(status)")
        default: return .refused(status)
        }
    }

    /// What went wrong with an attempt, in the outbox's words.
    static func reason(_ error: HTTPClientError) -> String {
        switch error {
        case .cannotConnect(let reason): "provider unreachable (\(reason))"
        case .timedOut(connecting: true): "provider unreachable (no connection in time)"
        case .timedOut(connecting: false): "provider unreachable (no answer in time)"
        case .tls: "provider unreachable (TLS failed)"
        case .cutOff: "provider unreachable (the connection closed before its answer)"
        case .tooLarge(let limit): "the provider's answer was larger than \(limit) bytes"
        case .notHTTP: "the provider's answer was not HTTP"
        case .cancelled: "provider unreachable (the request was cancelled)"
        case .invalidRequest: "provider unreachable (sms_http_url is not an http or https URL)"
        case .failed: "provider unreachable (the request failed)"
        }
    }

    private func record(_ id: Int64, _ status: SmsDeliveryStatus, _ detail: String) {
        do {
            try store.recordSmsDelivery(id: id, status: status, detail: detail, now: clock.now())
        } catch {
            log("SMS message \(id): its delivery status could not be recorded: \(error.message)")
        }
    }
}
