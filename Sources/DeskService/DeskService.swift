import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff use cases, whatever reaches the data: ``LocalDesk`` over a store, or (later) a
/// remote desk over the staff API. Screens and CLI commands talk only to this protocol.
///
/// Threading rule: callable from any task. Privacy rule: codes go in as typed text and are
/// hashed before they reach a store; results and errors never echo a code.
public protocol DeskService: Sendable {
    /// Who is acting and against what, for title bars ("rossi @ ~/.local/share/…/tracedesk.sqlite").
    var identity: DeskIdentity { get }

    /// The current instant by the desk's clock (countdowns are measured against it).
    func now() -> Date

    /// Authorises the upload of the app showing `code`, for symptoms that started on a day.
    func authorize(code: String, symptomsStartedOn: CivilDay) async throws(ServiceError) -> AuthorizeResult

    /// What the desk knows about `code` now.
    func status(of code: String) async throws(ServiceError) -> OtpStatus
}

/// Who is acting, and where the data lives.
public struct DeskIdentity: Hashable, Sendable {
    public var user: String
    public var location: String
    public init(user: String, location: String) {
        self.user = user
        self.location = location
    }
}

/// The answer to an authorisation request.
public enum AuthorizeResult: Hashable, Sendable {
    /// Authorised: the app must upload before `record.expiresAt`.
    case authorized(OtpAuthorization)
    /// An earlier authorisation of the same code is still running; nothing changed.
    case alreadyAuthorized(OtpAuthorization)
    /// Refused before anything was stored.
    case invalid(AuthorizeRefusal)
}

/// Why an authorisation was refused; the message says what to do next.
public enum AuthorizeRefusal: Hashable, Sendable {
    case code(OtpError)
    case symptomOnset(SymptomOnsetError)

    public var message: String {
        switch self {
        case .code(let error): return error.message
        case .symptomOnset(let error): return error.message
        }
    }
}

/// Why a use case could not run at all (as opposed to a refusal it decided on).
public enum ServiceError: Error, Hashable, Sendable {
    /// The request itself is wrong; the message says how.
    case invalid(String)
    /// The data cannot be reached (store locked, file damaged, server down).
    case unavailable(String)
    /// A fault that retrying soon will not fix (a damaged or read-only store, a failed
    /// statement). Only ``PhoneDesk`` tells it apart from `unavailable`, for the HTTP status.
    case failed(String)

    public var message: String {
        switch self {
        case .invalid(let text), .unavailable(let text), .failed(let text): return text
        }
    }
}
