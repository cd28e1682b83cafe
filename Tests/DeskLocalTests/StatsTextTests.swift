import DeskContract
import DeskCore
import DeskText
import Foundation
import Testing

/// The CSV export and the text summary of a report: the layout, formula characters made inert,
/// an empty report said plainly, and no division by zero anywhere.
@Suite struct StatsTextTests {
    /// 2026-11-29T10:00:00.000Z.
    static let start = Date(unixMilliseconds: 1_795_946_400_000)

    static func report() -> StatsReport {
        let query = try! StatsQuery.make(from: start, to: start.addingTimeInterval(2 * 3_600), bucket: .hour).get()
        var report = StatsReport(query: query, generatedAt: start.addingTimeInterval(7_200))
        report.authorized = StatsSeries(values: [3, 1])
        report.checked = StatsSeries(values: [2, 1])
        report.uploaded = StatsSeries(values: [2, 0])
        report.medianSecondsToUpload = 4_320
        report.operators = [
            OperatorStats(name: "ana", authorized: 3, checked: 3, uploaded: 2),
            OperatorStats(name: "=cmd", authorized: 1, checked: 0, uploaded: 0),
        ]
        report.uploads = StatsSeries(values: [2, 0])
        report.keysAccepted = StatsSeries(values: [4, 0])
        report.keysDropped = StatsSeries(values: [2, 0])
        report.keysDroppedByReason = [ReasonCount(reason: "too_old", count: 2)]
        report.uploadsRefused = [ReasonCount(reason: "expired", count: 1)]
        report.keysPerUpload[1] = 1
        report.keysPerUpload[15] = 1
        report.realRequests = StatsSeries(values: [5, 2])
        report.dummyRequests = StatsSeries(values: [3, 2])
        report.analyticsReports = StatsSeries(values: [0, 2])
        report.provinces = [
            ProvinceStats(
                code: "MI", reports: 1, bluetoothActive: 1, notificationsAllowed: 0, exposureNotifications: 1),
            ProvinceStats(
                code: "-Z", reports: 1, bluetoothActive: 0, notificationsAllowed: 0, exposureNotifications: 0),
        ]
        report.registrations = StatsSeries(values: [0, 4])
        report.lookups = StatsSeries(values: [0, 1])
        report.tracers = [TracerStats(name: "tina", lookups: 1)]
        report.pseudoIDs = PseudoIDCapacity(used: 12)
        return report
    }

    static func lines(_ csv: String) -> [String] {
        #expect(csv.hasSuffix("\r\n"))
        return csv.components(separatedBy: "\r\n").dropLast()
    }

    @Test("the CSV layout: range, series per bucket, totals, shares, operators, provinces, reasons, histogram")
    func csvLayout() {
        let lines = Self.lines(StatsCSV.encode(Self.report()))
        #expect(lines.first == "section,figure,key,label,bucket_start,value")
        #expect(lines.contains("range,from,,,,2026-11-29T10:00:00.000Z"))
        #expect(lines.contains("range,bucket,,,,hour"))
        #expect(!lines.contains { $0.hasPrefix("range,note") })
        #expect(lines.contains("series,authorized,,,2026-11-29T10:00:00.000Z,3"))
        #expect(lines.contains("series,authorized,,,2026-11-29T11:00:00.000Z,1"))
        #expect(lines.filter { $0.hasPrefix("series,") }.count == 14 * 2)
        #expect(lines.contains("total,authorized,,,,4"))
        #expect(lines.contains("total,median_seconds_to_upload,,,,4320"))
        #expect(lines.contains("total,pseudo_ids_used,,,,12"))
        #expect(lines.contains("share,checked_share,,,,0.75"))
        #expect(lines.contains("share,dummy_share,,,,0.4167"))
        #expect(lines.contains("share,keys_per_chunk,,,,"), "no chunk: nothing to divide by")
        #expect(lines.contains("operator,uploaded,ana,,,2"))
        #expect(lines.contains("province,reports,MI,Milano,,1"))
        #expect(lines.contains("reason,keys_dropped,too_old,,,2"))
        #expect(lines.contains("reason,uploads_refused,expired,,,1"))
        #expect(lines.contains("histogram,keys_per_upload,15+,,,1"))
        #expect(lines.contains("histogram,keys_per_upload,0,,,0"))
        #expect(lines.contains("tracer,lookups,tina,,,1"))
    }

    @Test("formula characters in names and codes are made inert")
    func csvFormulas() {
        let lines = Self.lines(StatsCSV.encode(Self.report()))
        #expect(lines.contains("operator,authorized,'=cmd,,,1"))
        #expect(lines.contains("province,reports,'-Z,,,1"), "an unknown code keeps no name")
        #expect(!lines.contains { $0.contains(",=") || $0.contains(",-Z") })
    }

    @Test("an empty report: a note, zeros, empty shares, no division by zero")
    func emptyReport() {
        let report = StatsReport(query: Self.report().query, generatedAt: Self.start)
        let lines = Self.lines(StatsCSV.encode(report))
        #expect(lines.contains("range,note,,,,no data in this range"))
        #expect(lines.contains("total,median_seconds_to_upload,,,,"))
        #expect(lines.contains("share,uploaded_share,,,,"))
        let text = StatsText.summary(report, title: "last 2 hours")
        #expect(text.contains("No data in this range."))
        let figures = text.filter { !$0.hasPrefix("Pseudo-ids:") }.joined()
        #expect(!figures.lowercased().contains("nan") && !figures.contains("%"))
    }

    @Test("the text summary: tiles with shares, the funnel with its median, top operators, provinces")
    func textSummary() {
        let text = StatsText.summary(Self.report(), title: "last 2 hours")
        #expect(text[0] == "Statistics, last 2 hours: 2026-11-29 10:00 to 2026-11-29 12:00 UTC, 2 hourly buckets")
        #expect(
            text.contains { $0.hasPrefix("Codes authorised") && $0.contains("checked 3 (75 %), uploaded 2 (50 %)") })
        #expect(text.contains { $0.hasPrefix("Phone requests") && $0.contains("(42 % dummy)") })
        #expect(text.contains { $0.hasPrefix("Chunks published") && !$0.contains("per chunk") })
        #expect(text.contains("  median time to upload: 1 h 12 min"))
        #expect(text.contains { $0.hasPrefix("  ana ") && $0.hasSuffix("3        3         2") })
        #expect(text.contains { $0.hasPrefix("  MI    Milano") })
        #expect(text.contains { $0.contains("(not a province)") })
        #expect(text.contains("Pseudo-ids: \(PseudoIDCapacity(used: 12).summary)"))
        #expect(text.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test("keys dropped by reason: the reasons' names in English, their words in Italian")
    func droppedReasons() {
        let list = [ReasonCount(reason: "too_old", count: 2), ReasonCount(reason: "someday_new", count: 1)]
        #expect(Language.$scoped.withValue(.en) { StatsText.reasons(list) } == "too_old 2, someday_new 1")
        #expect(Language.$scoped.withValue(.it) { StatsText.reasons(list) } == "2 troppo vecchie, someday_new 1")
    }

    @Test("a province's name is in ASCII in the text, in UTF-8 in the CSV")
    func provinceNames() {
        var report = Self.report()
        report.provinces = [
            ProvinceStats(code: "FC", reports: 2, bluetoothActive: 1, notificationsAllowed: 1, exposureNotifications: 0)
        ]
        let text = StatsText.summary(report)
        #expect(text.contains { $0.hasPrefix("  FC    Forli Cesena") })
        #expect(text.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(Self.lines(StatsCSV.encode(report)).contains("province,reports,FC,Forlì Cesena,,2"))
    }

    @Test("tab and carriage return lead a formula too: made inert like = + - @")
    func csvFormulaWhitespace() {
        var report = Self.report()
        report.operators = [
            OperatorStats(name: "\t=cmd", authorized: 1, checked: 0, uploaded: 0),
            OperatorStats(name: "\r=cmd", authorized: 1, checked: 0, uploaded: 0),
            OperatorStats(name: "\r\n=cmd", authorized: 1, checked: 0, uploaded: 0),
            OperatorStats(name: "ok\t", authorized: 1, checked: 0, uploaded: 0),
        ]
        let csv = StatsCSV.encode(report)
        #expect(csv.contains("operator,authorized,'\t=cmd,,,1\r\n"))
        #expect(csv.contains("operator,authorized,\"'\r=cmd\",,,1\r\n"))
        #expect(csv.contains("operator,authorized,\"'\r\n=cmd\",,,1\r\n"))
        #expect(csv.contains("operator,authorized,ok\t,,,1\r\n"), "only a leading one")
        #expect(!csv.contains(",\t=") && !csv.contains("\"\r="))
    }

    @Test("huge figures (the most a server may send, or more) print without trapping")
    func hugeFigures() {
        var report = Self.report()
        let most: Int64 = 1 << 53  // the most StaffWire reads
        report.authorized = StatsSeries(values: [1, 0])
        report.checked = StatsSeries(values: [most, most])
        report.realRequests = StatsSeries(values: [.max, .max])
        report.dummyRequests = StatsSeries(values: [.max, 1])
        report.keysAccepted = StatsSeries(values: [.max, .max])
        report.uploads = StatsSeries(values: [1, 0])
        report.keysPublished = StatsSeries(values: [.max, 0])
        report.chunks = StatsSeries(values: [1, 0])
        report.uploadsRefused = [
            ReasonCount(reason: "expired", count: .max), ReasonCount(reason: "consumed", count: .max),
        ]
        let text = StatsText.summary(report)
        #expect(text.contains { $0.hasPrefix("Phone requests") && $0.contains("\(Int64.max)") })
        #expect(text.contains { $0.hasPrefix("Uploads refused") && $0.contains("\(Int64.max)") })
        #expect(text.contains { $0.hasPrefix("Codes authorised") && $0.contains("checked \(2 * most) (") })
        let lines = Self.lines(StatsCSV.encode(report))
        #expect(lines.contains("total,real_requests,,,,\(Int64.max)"))
        #expect(lines.contains("share,dummy_share,,,,0.5"))
        #expect(lines.contains("share,keys_per_upload_mean,,,,\(Int64.max)"))
        #expect(StatsText.percent(.infinity) == "\(Int64.max) %" && StatsText.percent(.nan) == "0 %")
    }

    @Test("durations read as a person would say them")
    func durations() {
        #expect(StatsText.duration(0) == "0 s")
        #expect(StatsText.duration(59) == "59 s")
        #expect(StatsText.duration(72) == "1 min")
        #expect(StatsText.duration(4_320) == "1 h 12 min")
        #expect(StatsText.duration(7_200) == "2 h")
        #expect(StatsText.duration(3 * 86_400 + 4 * 3_600 + 60) == "3 d 4 h")
        #expect(StatsText.percent(nil) == nil && StatsText.percent(2.0 / 3.0) == "67 %")
    }
}
