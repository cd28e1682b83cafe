import CivilCalendar
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

public enum SmsDeliveryStatus: String, Hashable, Sendable {
    /// In the outbox gateway: kept for admins to read; no delivery happens.
    case held
    case pending
    case sent
    case failed
}

/// One SMS message (the text includes the code: shown only to admins by `tracedesk sms outbox`).
public struct SmsMessage: Hashable, Sendable {
    public var id: Int64
    public var phone: PhoneNumber
    public var text: String
    public var gateway: String
    public var status: SmsDeliveryStatus
    public var attempts: Int
    public var detail: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Why `text` is empty: the code it carried is dead, so the store keeps no more of it.
    public var textDropped: SmsTextDropped?

    public init(
        id: Int64, phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, attempts: Int,
        detail: String, createdAt: Date, updatedAt: Date, textDropped: SmsTextDropped? = nil
    ) {
        self.textDropped = textDropped
        self.id = id
        self.phone = phone
        self.text = text
        self.gateway = gateway
        self.status = status
        self.attempts = attempts
        self.detail = detail
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The detail the outbox gateway stores (English, as every stored detail).
    public static let heldInOutbox = "kept in the outbox (sms_gateway outbox): no SMS is sent"

    /// ``detail`` for a person: the outbox gateway's in the current language, any other as stored.
    public var shownDetail: String { detail == SmsMessage.heldInOutbox ? tr("messages.sms.outboxHeld") : detail }
}

/// Why an SMS's text was dropped from the outbox: its code can no longer be used.
public enum SmsTextDropped: String, Hashable, Sendable {
    case expired
    case used
    /// A newer code was sent to the same phone.
    case replaced

    /// For `tracedesk sms outbox`: what happened, and that nothing is lost.
    public var explanation: String {
        switch self {
        case .expired: tr("messages.sms.dropped.expired")
        case .used: tr("messages.sms.dropped.used")
        case .replaced: tr("messages.sms.dropped.replaced")
        }
    }
}
