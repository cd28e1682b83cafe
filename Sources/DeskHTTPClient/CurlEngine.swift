import CCurl
import Foundation

/// A libcurl multi handle and the thread that drives it: every transfer of one ``HTTPClient``.
///
/// One thread waits in `curl_multi_poll` for all of a client's sockets and timers, so a
/// hundred requests in flight hold one thread, not a hundred. Other threads only hand over
/// (`start`, `cancel`, `stop`) under the lock and wake the poll up (`curl_multi_wakeup`, which
/// libcurl allows from any thread); every other libcurl call is made on the engine's thread.
/// So a cancellation never waits for libcurl, and libcurl never calls back into a task.
final class CurlEngine: @unchecked Sendable {
    private let lock = NSLock()
    private var multi: UnsafeMutableRawPointer?
    private var incoming: [CurlTransfer] = []
    private var cancelling: [CurlTransfer] = []
    private var stopping = false
    /// Transfers in the multi handle, by easy handle: the engine thread's alone.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(options: HTTPClient.Options) {
        CurlGlobal.once()
        multi = curl_multi_init()
        if let multi {
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, options.keptConnections)
        }
        let thread = Thread { [self] in run() }
        thread.name = "http-client"
        thread.start()
    }

    /// Hands `transfer` to the engine; `continuation` is resumed with its outcome.
    func start(
        _ transfer: CurlTransfer,
        _ continuation: CheckedContinuation<Result<HTTPClient.Response, HTTPClientError>, Never>
    ) {
        lock.withLock {
            transfer.setContinuation(continuation)
            if transfer.cancelled || stopping || multi == nil {
                transfer.finish(.failure(.cancelled))
                return
            }
            incoming.append(transfer)
            wakeUp()
        }
    }

    /// Ends `transfer` at once (from a task's cancellation handler: never blocks).
    func cancel(_ transfer: CurlTransfer) {
        lock.withLock {
            guard !transfer.isFinished, !transfer.cancelled else { return }
            transfer.cancelled = true
            cancelling.append(transfer)
            wakeUp()
        }
    }

    /// Ends every transfer (cancelled) and the thread; the client is gone.
    func stop() {
        lock.withLock {
            stopping = true
            wakeUp()
        }
    }

    /// Under the lock.
    private func wakeUp() {
        if let multi { _ = curl_multi_wakeup(multi) }
    }

    private func run() {
        guard let multi = lock.withLock({ self.multi }) else { return }
        while true {
            let (new, cancelled, stop) = lock.withLock { () -> ([CurlTransfer], [CurlTransfer], Bool) in
                defer {
                    incoming = []
                    cancelling = []
                }
                return (incoming, cancelling, stopping)
            }
            if stop {
                end(multi, pending: new)
                return
            }
            for transfer in new { add(transfer, to: multi) }
            for transfer in cancelled { remove(transfer, from: multi, result: .failure(.cancelled)) }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active[easy]
                else { continue }
                let code = ccurl_message_result(message)
                remove(transfer, from: multi, result: transfer.outcome(code))
            }
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func add(_ transfer: CurlTransfer, to multi: UnsafeMutableRawPointer) {
        let cancelled = lock.withLock { transfer.cancelled }
        guard !cancelled else {
            lock.withLock { transfer.finish(.failure(.cancelled)) }
            return
        }
        guard transfer.prepare(), let easy = transfer.easy, curl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.cleanUp()
            lock.withLock { transfer.finish(.failure(.failed(detail: "libcurl could not set up the request"))) }
            return
        }
        active[easy] = transfer
    }

    /// Takes `transfer` out of the multi handle (closing its connection if the exchange was not
    /// over), frees its handle and resumes its caller.
    private func remove(
        _ transfer: CurlTransfer, from multi: UnsafeMutableRawPointer,
        result: Result<HTTPClient.Response, HTTPClientError>
    ) {
        if let easy = transfer.easy, active.removeValue(forKey: easy) != nil {
            _ = curl_multi_remove_handle(multi, easy)
        }
        transfer.cleanUp()
        lock.withLock { transfer.finish(result) }
    }

    private func end(_ multi: UnsafeMutableRawPointer, pending: [CurlTransfer]) {
        for transfer in Array(active.values) { remove(transfer, from: multi, result: .failure(.cancelled)) }
        lock.withLock {
            for transfer in pending { transfer.finish(.failure(.cancelled)) }
            self.multi = nil
        }
        curl_multi_cleanup(multi)
    }
}
