import Testing

@testable import DeskServer

/// `GET /metrics` is read by Prometheus and by people's dashboards: its lines are pinned here,
/// so that turning the metric names into a type changes none of them.
@Suite("Metrics text")
struct MetricsTextTests {
    /// A server's counters after a little traffic of every kind the renderer treats apart.
    static func sample() -> Metrics {
        let metrics = Metrics()
        metrics.recordExchange(
            ExchangeSummary(
                listener: "public", method: "POST", route: "/v1/otp", status: 200, durationNanoseconds: 1_500_000_000))
        metrics.recordExchange(
            ExchangeSummary(
                listener: "internal", method: "GET", route: "/metrics", status: 200, durationNanoseconds: 250_000_000))
        metrics.count(.phoneRequestsTotal, #"route="/v1/ingestion/check",traffic="dummy""#)
        metrics.count(.phoneRequestsTotal, #"route="/v1/ingestion/check",traffic="real""#, by: 3)
        metrics.count(.keysAcceptedTotal, by: 14)
        metrics.count(.keysDroppedTotal, #"reason="too_old""#, by: 2)
        metrics.set(.keysWaiting, #"state="ready""#, to: 5)
        metrics.set(.apricotPseudoIdsUsedRatio, to: 0.125)
        metrics.set(.publishingEnabled, to: 1)
        return metrics
    }

    /// Every line but the two whose values belong to the process (its log writer, its age).
    static func pinnedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.hasPrefix("tracedesk_uptime_seconds ") && !$0.hasPrefix("tracedesk_log_write_failures_total ")
        }
    }

    @Test("the text is unchanged: every HELP and TYPE line in order, then the values counted")
    func text() {
        let lines = Self.pinnedLines(Self.sample().render())
        let expected = Self.pinnedLines(Self.expected)
        #expect(lines == expected)
        if lines != expected {
            for (index, line) in lines.enumerated() where index >= expected.count || expected[index] != line {
                print("line \(index): \(line)")
            }
        }
    }

    @Test("every metric has one HELP and one TYPE line, in the order of the enum")
    func everyNameHasHelp() {
        let text = Metrics().render()
        for name in MetricName.allCases {
            #expect(text.components(separatedBy: "# HELP \(name.rawValue) ").count == 2, "\(name.rawValue)")
            #expect(text.contains("# TYPE \(name.rawValue) \(name.type.rawValue)\n"), "\(name.rawValue)")
        }
        let helped = text.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }.map {
            String($0.dropFirst(7).prefix { $0 != " " })
        }
        #expect(helped == MetricName.allCases.map(\.rawValue))
    }

    static let expected = #"""
        # HELP tracedesk_http_requests_total HTTP requests answered, by listener, route, method and status.
        # TYPE tracedesk_http_requests_total counter
        tracedesk_http_requests_total{listener="internal",route="/metrics",method="GET",status="200"} 1
        tracedesk_http_requests_total{listener="public",route="/v1/otp",method="POST",status="200"} 1
        # HELP tracedesk_http_request_duration_seconds Time from the request's headers to the end of the response, by route (delays included).
        # TYPE tracedesk_http_request_duration_seconds summary
        tracedesk_http_request_duration_seconds_sum{route="/metrics"} 0.25
        tracedesk_http_request_duration_seconds_count{route="/metrics"} 1
        tracedesk_http_request_duration_seconds_sum{route="/v1/otp"} 1.5
        tracedesk_http_request_duration_seconds_count{route="/v1/otp"} 1
        # HELP tracedesk_http_heads_refused_total Connections closed by the head gate: timeout, evicted, malformed, kept_timeout (a kept connection without its next head in time) before their head was whole; busy (max_connections) and address_busy (max_connections_per_address), answered 503.
        # TYPE tracedesk_http_heads_refused_total counter
        # HELP tracedesk_otp_authorizations_total POST /v1/otp outcomes.
        # TYPE tracedesk_otp_authorizations_total counter
        # HELP tracedesk_his_authorizations_total POST /v1/otp outcomes per HIS client (authorized, already_authorized, invalid, rate_limited).
        # TYPE tracedesk_his_authorizations_total counter
        # HELP tracedesk_his_auth_failures_total POST /v1/otp refused 401, by reason (missing, unknown, revoked, no_certificate, unknown_certificate).
        # TYPE tracedesk_his_auth_failures_total counter
        # HELP tracedesk_checks_total Real check-otp requests by answer.
        # TYPE tracedesk_checks_total counter
        # HELP tracedesk_uploads_total Real uploads by result (stored, refused: 401).
        # TYPE tracedesk_uploads_total counter
        # HELP tracedesk_keys_accepted_total Keys stored for publishing.
        # TYPE tracedesk_keys_accepted_total counter
        tracedesk_keys_accepted_total 14
        # HELP tracedesk_keys_dropped_total Keys dropped by the per-key rules, by reason.
        # TYPE tracedesk_keys_dropped_total counter
        tracedesk_keys_dropped_total{reason="too_old"} 2
        # HELP tracedesk_phone_requests_total Phone requests that passed validation, by route and traffic.
        # TYPE tracedesk_phone_requests_total counter
        tracedesk_phone_requests_total{route="/v1/ingestion/check",traffic="dummy"} 1
        tracedesk_phone_requests_total{route="/v1/ingestion/check",traffic="real"} 3
        # HELP tracedesk_dummy_share Share of dummy requests among validated phone requests since start.
        # TYPE tracedesk_dummy_share gauge
        tracedesk_dummy_share 0.25
        # HELP tracedesk_analytics_total Analytics requests by kind and result.
        # TYPE tracedesk_analytics_total counter
        # HELP tracedesk_publishing_enabled 1 when a signing key is loaded and chunks are published; 0 when the server runs without one.
        # TYPE tracedesk_publishing_enabled gauge
        tracedesk_publishing_enabled 1
        # HELP tracedesk_publishing_runs_total Publishing runs by result (ok, skipped, unsigned, failed).
        # TYPE tracedesk_publishing_runs_total counter
        # HELP tracedesk_chunks_published_total Chunks published by this server.
        # TYPE tracedesk_chunks_published_total counter
        # HELP tracedesk_keys_published_total Real keys published in chunks by this server.
        # TYPE tracedesk_keys_published_total counter
        # HELP tracedesk_keys_waiting Unpublished keys after the last run: ready, under embargo, or too old (lost).
        # TYPE tracedesk_keys_waiting gauge
        tracedesk_keys_waiting{state="ready"} 5
        # HELP tracedesk_last_chunk_index Highest chunk index in the store after the last run.
        # TYPE tracedesk_last_chunk_index gauge
        # HELP tracedesk_cleanup_runs_total Retention runs by result (ok, skipped, failed).
        # TYPE tracedesk_cleanup_runs_total counter
        # HELP tracedesk_cleanup_deleted_total Records deleted by retention, by kind.
        # TYPE tracedesk_cleanup_deleted_total counter
        # HELP tracedesk_stats_rollup_runs_total Statistics rollup runs by result (ok, failed).
        # TYPE tracedesk_stats_rollup_runs_total counter
        # HELP tracedesk_audit_checkpoints_total Audit checkpoint checks by result (written, unchanged, failed: the chain or the file does not agree).
        # TYPE tracedesk_audit_checkpoints_total counter
        # HELP tracedesk_audit_checkpoint_entries Audit entries anchored by the last checkpoint this server wrote.
        # TYPE tracedesk_audit_checkpoint_entries gauge
        # HELP tracedesk_stats_hours_rolled_up_total Closed hours of statistics rolled up by this server.
        # TYPE tracedesk_stats_hours_rolled_up_total counter
        # HELP tracedesk_apricot_codes_total APRICOT SMS code requests by result (sent, too_soon, number_refused, invalid).
        # TYPE tracedesk_apricot_codes_total counter
        # HELP tracedesk_otp_guess_failures_total Wrong codes on check-otp and upload by route (what the guess limit counts per client address).
        # TYPE tracedesk_otp_guess_failures_total counter
        # HELP tracedesk_otp_guesses_limited_total check-otp and upload requests answered 429 by the guess limit (otp_guess_limit), by route.
        # TYPE tracedesk_otp_guesses_limited_total counter
        # HELP tracedesk_apricot_logins_total APRICOT sign-ins by result (new_user, returning, wrong_code, expired, too_many_attempts, full, invalid).
        # TYPE tracedesk_apricot_logins_total counter
        # HELP tracedesk_apricot_contact_files_total APRICOT contact-file uploads by result (stored, replaced, refused, not_signed_in, rate_limited, invalid).
        # TYPE tracedesk_apricot_contact_files_total counter
        # HELP tracedesk_apricot_contact_records_total Records in the contact files stored.
        # TYPE tracedesk_apricot_contact_records_total counter
        # HELP tracedesk_apricot_pseudo_ids_used Pseudo-ids that exist (of 4294967296 the design allows).
        # TYPE tracedesk_apricot_pseudo_ids_used gauge
        # HELP tracedesk_apricot_pseudo_ids_used_ratio Share of the pseudo-id space used; registration warns past 0.5 and stops when a user no longer fits.
        # TYPE tracedesk_apricot_pseudo_ids_used_ratio gauge
        tracedesk_apricot_pseudo_ids_used_ratio 0.125
        # HELP tracedesk_sms_messages_total SMS messages handed to the gateway, by gateway.
        # TYPE tracedesk_sms_messages_total counter
        # HELP tracedesk_staff_sign_ins_refused_total Sign-ins (and first-admin requests) refused 429 before the password hash, by budget (places, address, name).
        # TYPE tracedesk_staff_sign_ins_refused_total counter
        # HELP tracedesk_log_write_failures_total Log lines dropped because they could not be written (full disk, gone reader).
        # TYPE tracedesk_log_write_failures_total counter
        # HELP tracedesk_uptime_seconds Seconds since this server started.
        # TYPE tracedesk_uptime_seconds gauge

        """#
}
