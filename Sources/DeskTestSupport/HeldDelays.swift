import DeskCore
import Foundation

/// A ``WaitClock`` whose sleeps last until the test calls ``release()``: a delay the server
/// waits out is certain to be running while the test does what it must meanwhile (stop the
/// server, look at what is pending), and ends when the test says so, however fast the machine.
///
/// A held sleep does not end on cancellation (the server never cancels its timers).
///
/// Threading rule: safe from any task or thread.
public final class HeldDelays: @unchecked Sendable {
    private let lock = NSLock()
    private var released = false
    private var sleeping = 0
    private var taken: [Duration] = []
    private var resumes: [CheckedContinuation<Void, Never>] = []

    public init() {}

    /// The clock to give the code under test (its `now` stands still).
    public var clock: WaitClock {
        WaitClock(
            now: { .zero },
            sleep: { [self] duration in
                await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
                    let now = lock.withLock { () -> Bool in
                        taken.append(duration)
                        if released { return true }
                        sleeping += 1
                        resumes.append(resume)
                        return false
                    }
                    if now { resume.resume() }
                }
            })
    }

    /// Ends every sleep now and every later one at once.
    public func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            released = true
            sleeping = 0
            defer { resumes = [] }
            return resumes
        }
        for resume in waiting { resume.resume() }
    }

    /// Sleeps begun and not yet ended.
    public var waiting: Int { lock.withLock { sleeping } }
    /// Each sleep asked for, in order.
    public var asked: [Duration] { lock.withLock { taken } }
}
