import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The supervisor's statistics (``StatsReport``), read from the system of record.
///
/// Figures that count things by the time they happened (events, uploads, analytics) are rolled
/// up per closed hour into a table of their own, so a 14-day range reads a few hundred rows per
/// figure instead of every event; the hours not rolled up yet (the current one) are counted from
/// the source rows. Rolled-up hours never change afterwards. Same rules as ``Store``: one
/// transaction per call, safe from any thread, errors without bound values.
public protocol StatsStore: Sendable {
    /// Every figure of `query`, counted at `now` (rolls up the hours that closed since the last
    /// rollup first). The funnel's codes are those authorised in the range.
    func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport

    /// Rolls up every hour that closed before `now` and is not rolled up yet (at most the
    /// longest query's span back); returns how many hours it rolled up. Safe to run from several
    /// servers at once: an hour is rolled up once.
    @discardableResult
    func rollUpStatistics(now: Date) throws(StoreError) -> Int

    /// What the tracing indicators count (``FollowUpFacts``) over the cases opened in `query`'s
    /// range, at `now`, read in one snapshot; ``followUpIndicators(_:now:settings:)`` computes
    /// the figures from them. `settings` says when a due follow-up is overdue.
    func followUpFacts(_ query: StatsQuery, now: Date, settings: FollowUpSettings) throws(StoreError) -> FollowUpFacts
}
