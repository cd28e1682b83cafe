import DeskText
import Foundation

/// The words of a wait for the desk: "… Authorising" at first, and once it has lasted more than
/// half a second a spinner and the seconds waited ("/ Authorising… 3 s"), so a slow desk never
/// looks like a frozen screen. The spinner is ASCII, so it draws under any locale; it turns with
/// the console's ticks (4 a second).
public enum WaitText {
    /// A wait shorter than this shows no spinner (most answers come sooner).
    public static let spinnerAfter: TimeInterval = 0.5
    static let frames: [Character] = ["|", "/", "-", "\\"]

    /// `label` while waiting since `since` (nil: just started).
    public static func line(_ label: String, since: Date?, now: Date?) -> String {
        guard let spinner = spinner(since: since, now: now) else { return "… " + label }
        return "\(spinner.frame) \(label)… \(spinner.seconds) s"
    }

    /// The same wait as a notice line ("… signing in…", then "… signing in… / 2 s").
    public static func working(_ label: String, since: Date?, now: Date?) -> Notice {
        guard let spinner = spinner(since: since, now: now) else { return .working(label + "…") }
        return .working("\(label)… \(spinner.frame) \(spinner.seconds) s")
    }

    /// The spinner's frame and the whole seconds waited, once the wait is long enough.
    static func spinner(since: Date?, now: Date?) -> (frame: Character, seconds: Int)? {
        guard let since, let now, case let waited = now.timeIntervalSince(since), waited > spinnerAfter else {
            return nil
        }
        return (frames[Int(waited * 4) % frames.count], Int(waited))
    }
}

/// A sign-in's waits, shared by the sign-in and the lock screen: the spinner while the desk
/// checks the password, and a refusal's "wait N s" counted down to "you can sign in again".
public struct SignInWait: Hashable, Sendable {
    /// The console's clock at the last tick (the frame passes it on).
    public var now: Date?
    /// When the sign-in was sent; nil while none runs.
    public var since: Date?
    /// A refusal that said "wait N s": when the wait ends, and the message to count down.
    public var ends: Date?
    public var message: String?

    public init() {}

    /// The sign-in was sent: its notice.
    public mutating func started() -> Notice {
        since = now
        ends = nil
        message = nil
        return WaitText.working(tr("console.frame.wait.signingIn"), since: nil, now: nil)
    }

    /// The desk refused (or could not be reached): the notice, its "wait N s" to count down.
    public mutating func failed(_ text: String) -> Notice {
        since = nil
        if let seconds = Self.seconds(in: text), let now {
            ends = now.addingTimeInterval(Double(seconds))
            message = text
        } else {
            ends = nil
            message = nil
        }
        return .error(text)
    }

    /// A tick: the notice to show now, or nil to keep the one shown.
    public mutating func ticked(_ now: Date, signingIn: Bool) -> Notice? {
        self.now = now
        if signingIn { return WaitText.working(tr("console.frame.wait.signingIn"), since: since, now: now) }
        guard let ends, let message, let range = message.range(of: Self.pattern, options: .regularExpression) else {
            return nil
        }
        let left = Int(ends.timeIntervalSince(now).rounded(.up))
        guard left > 0 else {
            self.ends = nil
            self.message = nil
            return .info(tr("console.frame.wait.over"))
        }
        return .error(message.replacingCharacters(in: range, with: "wait \(left) s"))
    }

    static let pattern = #"wait \d+ s"#

    /// The seconds of a refusal's "wait N s" (the desk's throttling words); nil without one.
    static func seconds(in message: String) -> Int? {
        guard let range = message.range(of: pattern, options: .regularExpression) else { return nil }
        return Int(message[range].dropFirst(5).dropLast(2))
    }
}
