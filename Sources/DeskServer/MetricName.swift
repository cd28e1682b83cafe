#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The name of every series `GET /metrics` serves, with its Prometheus type and HELP text.
///
/// A name is counted or set only through this type (``Metrics/count(_:_:by:)``,
/// ``Metrics/set(_:_:to:)``), so no series can exist without its HELP and TYPE lines, and a
/// misspelt name does not compile. The order of the cases is the order of the text.
public enum MetricName: String, CaseIterable, Sendable {
    case httpRequestsTotal = "tracedesk_http_requests_total"
    case httpRequestDurationSeconds = "tracedesk_http_request_duration_seconds"
    case httpHeadsRefusedTotal = "tracedesk_http_heads_refused_total"
    case otpAuthorizationsTotal = "tracedesk_otp_authorizations_total"
    case hisAuthorizationsTotal = "tracedesk_his_authorizations_total"
    case hisAuthFailuresTotal = "tracedesk_his_auth_failures_total"
    case checksTotal = "tracedesk_checks_total"
    case uploadsTotal = "tracedesk_uploads_total"
    case keysAcceptedTotal = "tracedesk_keys_accepted_total"
    case keysDroppedTotal = "tracedesk_keys_dropped_total"
    case phoneRequestsTotal = "tracedesk_phone_requests_total"
    case dummyShare = "tracedesk_dummy_share"
    case analyticsTotal = "tracedesk_analytics_total"
    case publishingEnabled = "tracedesk_publishing_enabled"
    case publishingRunsTotal = "tracedesk_publishing_runs_total"
    case chunksPublishedTotal = "tracedesk_chunks_published_total"
    case keysPublishedTotal = "tracedesk_keys_published_total"
    case keysWaiting = "tracedesk_keys_waiting"
    case lastChunkIndex = "tracedesk_last_chunk_index"
    case cleanupRunsTotal = "tracedesk_cleanup_runs_total"
    case cleanupDeletedTotal = "tracedesk_cleanup_deleted_total"
    case statsRollupRunsTotal = "tracedesk_stats_rollup_runs_total"
    case auditCheckpointsTotal = "tracedesk_audit_checkpoints_total"
    case auditCheckpointEntries = "tracedesk_audit_checkpoint_entries"
    case statsHoursRolledUpTotal = "tracedesk_stats_hours_rolled_up_total"
    case apricotCodesTotal = "tracedesk_apricot_codes_total"
    case otpGuessFailuresTotal = "tracedesk_otp_guess_failures_total"
    case otpGuessesLimitedTotal = "tracedesk_otp_guesses_limited_total"
    case apricotLoginsTotal = "tracedesk_apricot_logins_total"
    case apricotContactFilesTotal = "tracedesk_apricot_contact_files_total"
    case apricotContactRecordsTotal = "tracedesk_apricot_contact_records_total"
    case apricotPseudoIdsUsed = "tracedesk_apricot_pseudo_ids_used"
    case apricotPseudoIdsUsedRatio = "tracedesk_apricot_pseudo_ids_used_ratio"
    case smsMessagesTotal = "tracedesk_sms_messages_total"
    case staffSignInsRefusedTotal = "tracedesk_staff_sign_ins_refused_total"
    case logWriteFailuresTotal = "tracedesk_log_write_failures_total"
    case uptimeSeconds = "tracedesk_uptime_seconds"

    /// The Prometheus type of the series.
    public enum Kind: String, Sendable { case counter, gauge, summary }

    public var type: Kind {
        switch self {
        case .httpRequestsTotal, .httpHeadsRefusedTotal, .otpAuthorizationsTotal, .hisAuthorizationsTotal,
            .hisAuthFailuresTotal, .checksTotal, .uploadsTotal, .keysAcceptedTotal, .keysDroppedTotal,
            .phoneRequestsTotal, .analyticsTotal, .publishingRunsTotal, .chunksPublishedTotal, .keysPublishedTotal,
            .cleanupRunsTotal, .cleanupDeletedTotal, .statsRollupRunsTotal, .auditCheckpointsTotal,
            .statsHoursRolledUpTotal, .apricotCodesTotal, .otpGuessFailuresTotal, .otpGuessesLimitedTotal,
            .apricotLoginsTotal, .apricotContactFilesTotal, .apricotContactRecordsTotal, .smsMessagesTotal,
            .staffSignInsRefusedTotal, .logWriteFailuresTotal:
            return .counter
        case .dummyShare, .publishingEnabled, .keysWaiting, .lastChunkIndex, .auditCheckpointEntries,
            .apricotPseudoIdsUsed, .apricotPseudoIdsUsedRatio, .uptimeSeconds:
            return .gauge
        case .httpRequestDurationSeconds: return .summary
        }
    }

    /// The HELP line's text: what is counted, and by which labels.
    public var help: String {
        switch self {
        case .httpRequestsTotal:
            return "HTTP requests answered, by listener, route, method and status."
        case .httpRequestDurationSeconds:
            return "Time from the request's headers to the end of the response, by route (delays included)."
        case .httpHeadsRefusedTotal:
            return
                "Connections closed by the head gate: timeout, evicted, malformed, kept_timeout (a kept connection without its next head in time) before their head was whole; busy (max_connections) and address_busy (max_connections_per_address), answered 503."
        case .otpAuthorizationsTotal:
            return "POST /v1/otp outcomes."
        case .hisAuthorizationsTotal:
            return "POST /v1/otp outcomes per HIS client (authorized, already_authorized, invalid, rate_limited)."
        case .hisAuthFailuresTotal:
            return
                "POST /v1/otp refused 401, by reason (missing, unknown, revoked, no_certificate, unknown_certificate)."
        case .checksTotal:
            return "Real check-otp requests by answer."
        case .uploadsTotal:
            return "Real uploads by result (stored, refused: 401)."
        case .keysAcceptedTotal:
            return "Keys stored for publishing."
        case .keysDroppedTotal:
            return "Keys dropped by the per-key rules, by reason."
        case .phoneRequestsTotal:
            return "Phone requests that passed validation, by route and traffic."
        case .dummyShare:
            return "Share of dummy requests among validated phone requests since start."
        case .analyticsTotal:
            return "Analytics requests by kind and result."
        case .publishingEnabled:
            return "1 when a signing key is loaded and chunks are published; 0 when the server runs without one."
        case .publishingRunsTotal:
            return "Publishing runs by result (ok, skipped, unsigned, failed)."
        case .chunksPublishedTotal:
            return "Chunks published by this server."
        case .keysPublishedTotal:
            return "Real keys published in chunks by this server."
        case .keysWaiting:
            return "Unpublished keys after the last run: ready, under embargo, or too old (lost)."
        case .lastChunkIndex:
            return "Highest chunk index in the store after the last run."
        case .cleanupRunsTotal:
            return "Retention runs by result (ok, skipped, failed)."
        case .cleanupDeletedTotal:
            return "Records deleted by retention, by kind."
        case .statsRollupRunsTotal:
            return "Statistics rollup runs by result (ok, failed)."
        case .auditCheckpointsTotal:
            return
                "Audit checkpoint checks by result (written, unchanged, failed: the chain or the file does not agree)."
        case .auditCheckpointEntries:
            return "Audit entries anchored by the last checkpoint this server wrote."
        case .statsHoursRolledUpTotal:
            return "Closed hours of statistics rolled up by this server."
        case .apricotCodesTotal:
            return "APRICOT SMS code requests by result (sent, too_soon, number_refused, invalid)."
        // Issue 18, point 10a.
        case .otpGuessFailuresTotal:
            return "Wrong codes on check-otp and upload by route (what the guess limit counts per client address)."
        case .otpGuessesLimitedTotal:
            return "check-otp and upload requests answered 429 by the guess limit (otp_guess_limit), by route."
        case .apricotLoginsTotal:
            return
                "APRICOT sign-ins by result (new_user, returning, wrong_code, expired, too_many_attempts, full, invalid)."
        case .apricotContactFilesTotal:
            return
                "APRICOT contact-file uploads by result (stored, replaced, refused, not_signed_in, rate_limited, invalid)."
        case .apricotContactRecordsTotal:
            return "Records in the contact files stored."
        case .apricotPseudoIdsUsed:
            return "Pseudo-ids that exist (of 4294967296 the design allows)."
        case .apricotPseudoIdsUsedRatio:
            return
                "Share of the pseudo-id space used; registration warns past 0.5 and stops when a user no longer fits."
        case .smsMessagesTotal:
            return "SMS messages handed to the gateway, by gateway."
        case .staffSignInsRefusedTotal:
            return
                "Sign-ins (and first-admin requests) refused 429 before the password hash, by budget (places, address, name)."
        case .logWriteFailuresTotal:
            return "Log lines dropped because they could not be written (full disk, gone reader)."
        case .uptimeSeconds:
            return "Seconds since this server started."
        }
    }
}
