import DeskCore
import DeskText

/// The lookup's summary lines as the contact-trace screen and `tracedesk trace` both print
/// them, so the two cannot disagree (the clock skew with its sign, the days covered, the
/// counts). Every character is one column wide, so `count` is the width.
public enum TraceText {
    /// "1 day", "3 days".
    public static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    /// The clock skew, server minus phone, with its sign: "+3 s", "−2 min 5 s", "+1 h 4 min".
    public static func skew(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "−" : "+"
        let value = seconds.magnitude
        if value < 60 { return "\(sign)\(value) s" }
        if value < 3600 { return "\(sign)\(value / 60) min \(value % 60) s" }
        return "\(sign)\(value / 3600) h \(value / 60 % 60) min"
    }

    /// "Uploads: 3 days, 2026-11-27 – 2026-11-29 (3 days covered) · clock skew +3 s", or
    /// "Uploads: none yet". When the line would pass `width` columns the days covered are left
    /// out first, so the clock skew stays.
    public static func uploads(_ patient: TracePatient, width: Int = .max) -> String {
        guard patient.daysUploaded > 0 else { return tr("cli.trace.uploads.none") }
        var line = trCount("cli.trace.uploads.days", patient.daysUploaded)
        var covered = ""
        if let first = patient.firstDay, let last = patient.lastDay {
            line += ", \(first.iso) – \(last.iso)"
            covered = " (" + trCount("cli.trace.uploads.covered", last.days(since: first) + 1) + ")"
        }
        let skewText = " · " + tr("cli.trace.uploads.skew", ["skew": skew(patient.skewSeconds)])
        return line + ((line + covered + skewText).count <= width ? covered : "") + skewText
    }

    /// "2345 sightings · 120 unresolved · 4 contacts, 2 close".
    public static func counts(_ lookup: TraceLookup) -> String {
        let close = lookup.contacts.reduce(0) { $0 + ($1.summary.isCloseContact ? 1 : 0) }
        return trCount("cli.trace.counts.sightings", lookup.totalSightings) + " · "
            + trCount("cli.trace.counts.unresolved", lookup.unresolved) + " · "
            + trCount("cli.trace.counts.contacts", lookup.contacts.count) + ", "
            + trCount("cli.trace.counts.close", close)
    }
}
