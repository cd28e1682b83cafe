import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``StatsReport`` as CSV: what `tracedesk stats --csv` prints and the dashboard's `e` writes.
/// PLACEHOLDER (issue 9 in progress): the real layout replaces this.
public enum StatsCSV {
    public static func encode(_ report: StatsReport) -> String {
        "figure,value\n"
    }
}
