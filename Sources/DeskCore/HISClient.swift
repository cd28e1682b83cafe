#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A hospital information system (HIS) that may authorise codes over `POST /v1/otp`: named and
/// added by an admin, it authenticates with an API key (or a TLS client certificate whose
/// subject names it) and is what events, the audit log and the statistics name as the actor.
///
/// Privacy rule: the key is never part of this value; the store keeps only its SHA-256.
public struct HISClient: Hashable, Sendable {
    public var name: String
    public var createdAt: Date
    public var createdBy: String
    /// Authorisations a minute this client may make on each server; nil: the server's
    /// `his_rate_per_minute`.
    public var ratePerMinute: Int?
    /// Revoked by an admin: its key and certificate are refused from then on. Not reversible
    /// (add a new client: the name stays taken, so old events keep naming one system).
    public var revokedAt: Date?
    public var revokedBy: String?

    public init(
        name: String, createdAt: Date, createdBy: String, ratePerMinute: Int? = nil, revokedAt: Date? = nil,
        revokedBy: String? = nil
    ) {
        self.name = name
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.ratePerMinute = ratePerMinute
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
    }

    public var isRevoked: Bool { revokedAt != nil }

    /// "active" or "revoked".
    public var stateName: String { isRevoked ? "revoked" : "active" }

    /// The actor of what this client does, in events, audit entries and statistics.
    public var actor: String { HISClientName.actor(name) }
}

/// HIS client names: chosen by admins, shown in the audit log and as a metrics label, so they
/// follow the rules of staff names (a letter, then a-z, digits, `. - _`, at most 32).
public enum HISClientName {
    /// What an HIS client's actor starts with. A colon never appears in a staff name, so an
    /// actor `his:NAME` cannot be mistaken for a person, however the names are chosen.
    public static let actorPrefix = "his:"

    /// The actor of the client `name`.
    public static func actor(_ name: String) -> String { actorPrefix + name }

    /// The actor every `POST /v1/otp` had before clients had names (kept in old events), and
    /// the actor under `his_auth` `none`.
    public static let anonymousActor = "his-api"

    /// The name in its stored form (lowercase), or what is wrong with it.
    public static func normalize(_ text: String) -> Result<String, StaffInputError> {
        StaffName.normalize(text, noun: .client)
    }
}

/// The rate limit of one HIS client: authorisations a minute (a setting, with a per-client
/// override). Bounds what a stolen key can do before it is revoked; the top of the range is
/// "no limit to speak of" (load tests, the simulation).
public enum HISRate {
    public static let allowed = 1...1_000_000
}
