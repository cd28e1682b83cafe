import DeskCore
import DeskServer
import Foundation

extension StoreLocation {
    /// The tracing desk's APRICOT settings (`TRACEDESK_DEFAULT_COUNTRY_CODE`,
    /// `TRACEDESK_CLOSE_CONTACT_MINUTES`…), read as `tracedesk serve` reads them (the server's
    /// settings table, ``ServerConfig/apricotSettings(environment:)``, owns their names and
    /// ranges), so a lookup on the embedded store counts as the server does. Here, not in
    /// DeskCLI, so that the command line's shared parts build on no server.
    static func apricotSettings(command: String) throws(UsageError) -> ApricotSettings {
        switch ServerConfig.apricotSettings(environment: ProcessInfo.processInfo.environment) {
        case .success(let settings): return settings
        case .failure(let error): throw UsageError(error.message, command: command)
        }
    }

    /// The contact follow-up settings (`TRACEDESK_FOLLOW_UP_PERIOD_DAYS`…), read as `serve` reads them.
    static func followUpSettings(command: String) throws(UsageError) -> FollowUpSettings {
        switch ServerConfig.followUpSettings(environment: ProcessInfo.processInfo.environment) {
        case .success(let settings): return settings
        case .failure(let error): throw UsageError(error.message, command: command)
        }
    }
}
