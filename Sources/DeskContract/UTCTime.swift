import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one way an instant is written as text: on the staff API (`StaffWire`), in the CSV
/// exports and in the CLI's output alike.
public enum UTCTime {
    /// `2026-11-29T10:00:00.000Z`: UTC, whole milliseconds (what the stores keep).
    public static func text(_ date: Date) -> String {
        let ms = date.unixMilliseconds
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let millis = ms - seconds * 1000
        let day = CivilDay(unixSeconds: seconds)
        let secondOfDay = seconds - day.unixSecondsAtMidnightUTC
        func pad(_ n: Int64, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(day.iso)T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
