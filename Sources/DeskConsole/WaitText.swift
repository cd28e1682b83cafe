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
