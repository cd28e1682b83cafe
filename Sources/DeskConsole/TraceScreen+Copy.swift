import DeskCore
import DeskText
import TerminalKit

// `y` on the contacts table: the selected contact's phone number, whole, in E.164.
// Audited like a view: the desk records the copy first (`copy_phone`, never the number), and
// only its success copies; the notice never shows the number.
extension TraceScreen {
    static func copyPhone(_ state: inout State) -> [Command] {
        guard let lookup = state.lookup, let contact = state.selectedContact else {
            state.notice = CopyResult.nothing(tr("console.trace.copyNothing")).notice
            return []
        }
        state.notice = .working(tr("console.trace.copyRecording"))
        return [
            .copyPhone(
                patientUserID: lookup.patient.userID, contactUserID: contact.summary.userID,
                purpose: state.lookupPurpose, phone: contact.summary.phone.e164)
        ]
    }

    /// The desk recorded the copy: copy it, unless another patient was looked up meanwhile.
    static func phoneCopyRecorded(_ state: inout State, _ clip: ClipboardCopy, patient: Int64) -> [Command] {
        guard state.lookup?.patient.userID == patient else { return [] }
        return [.copy(clip)]
    }
}
