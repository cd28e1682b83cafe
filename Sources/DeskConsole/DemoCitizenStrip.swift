import CivilCalendar
import DeskCore
import DeskText
import Foundation
import TerminalKit

/// `tracedesk demo` only: the simulated citizen on the phone with the operator, in a one-line
/// strip above the footer of the authorise screen. It shows the code to read out (grouped as the
/// app shows it), the symptom onset and what the citizen's phone has done. The code is a
/// simulated one; it is drawn here and nowhere else (never logged).
public struct DemoCitizenStrip: Hashable, Sendable {
    /// What the citizen's phone has done.
    public enum Phase: Hashable, Sendable {
        /// Polling check-otp: the code is not authorised yet.
        case waiting
        /// check-otp answered "authorised" at this time; the upload follows.
        case checked(Date)
        /// The upload was accepted at this time.
        case uploaded(Date)
        /// The upload was refused with this HTTP status (0: no answer).
        case refused(Int)
    }

    /// The code as the app holds it (10 characters).
    public var code: String
    public var symptomsStartedOn: CivilDay
    public var phase: Phase

    public init(code: String, symptomsStartedOn: CivilDay, phase: Phase) {
        self.code = code
        self.symptomsStartedOn = symptomsStartedOn
        self.phase = phase
    }

    /// The strip's text, the long form when it fits in `width` columns, else the short one
    /// (which fits in 80): " Demo call · code KJ2-3IWY-5UJ · onset 2026-11-27 · phone: waiting for you".
    public func text(width: Int, timeZone: TimeZone, ascii: Bool) -> String {
        let g = Glyphs(ascii: ascii)
        let code = OtpRules.group(self.code)
        let day = symptomsStartedOn.iso
        let long: String
        let short: String
        switch phase {
        case .waiting:
            long = tr("console.frame.demo.waitingLong")
            short = tr("console.frame.demo.waitingShort")
        case .checked(let at):
            long = tr("console.frame.demo.checkedLong", ["time": AuthorizeScreen.clock(at, timeZone)])
            short = tr("console.frame.demo.checkedShort", ["time": AuthorizeScreen.clock(at, timeZone)])
        case .uploaded(let at):
            long = tr("console.frame.demo.uploaded", ["time": AuthorizeScreen.clock(at, timeZone)])
            short = tr("console.frame.demo.uploaded", ["time": AuthorizeScreen.clock(at, timeZone)])
        case .refused(let status):
            long =
                status == 0
                ? tr("console.frame.demo.noAnswerLong")
                : tr("console.frame.demo.refusedLong", ["status": String(status)])
            short =
                status == 0
                ? tr("console.frame.demo.noAnswerShort")
                : tr("console.frame.demo.refusedShort", ["status": String(status)])
        }
        let full = g(tr("console.frame.demo.stripLong", ["code": code, "day": day, "phone": long]))
        if DisplayWidth.of(full) <= width { return full }
        return g(tr("console.frame.demo.stripShort", ["code": code, "day": day, "phone": short]))
    }

    /// Draws the strip in `area` (one row).
    public func render(into buffer: inout Buffer, area: Rect, timeZone: TimeZone, ascii: Bool) {
        buffer.fill(area, with: Cell(" ", style: Style(.accent, .reverse)))
        buffer.put(
            text(width: area.width, timeZone: timeZone, ascii: ascii), x: area.x, y: area.y,
            style: Style(.accent, [.reverse, .bold]),
            clip: area)
    }
}
