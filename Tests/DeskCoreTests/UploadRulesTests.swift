import CivilCalendar
import DeskCore
import Foundation
import Testing

@Suite("Upload key rules")
struct UploadRulesTests {
    /// 2020-10-13 02:00 UTC (facts §4 worked example).
    static let now = Date(timeIntervalSince1970: 1_602_554_400)
    static let clock: Int64 = 1_602_554_400
    static let symptoms = CivilDay(iso: "2020-10-10")!

    static func key(_ byte: UInt8, _ start: Int64, _ period: Int64 = 144, length: Int = 16) -> TemporaryExposureKey {
        TemporaryExposureKey(
            keyData: [UInt8](repeating: byte, count: length), rollingStartNumber: start, rollingPeriod: period)
    }

    func evaluate(_ keys: [TemporaryExposureKey], clock: Int64 = clock, symptoms: CivilDay = symptoms)
        -> UploadEvaluation
    {
        UploadRules.evaluate(keys: keys, serverNow: Self.now, clientClock: clock, symptomsStartedOn: symptoms)
    }

    @Test("facts §4: keys before symptoms − 2 days are dropped, the rest labelled with TRL 8 and days since onset")
    func workedExample() {
        let starts: [Int64] = [2_669_904, 2_670_048, 2_670_192, 2_670_336, 2_670_480, 2_670_768, 2_670_912]
        let result = evaluate(starts.enumerated().map { Self.key(UInt8($0.offset + 1), $0.element) })
        #expect(
            result.dropped == [
                .init(index: 0, reason: .beforeRiskWindow), .init(index: 1, reason: .beforeRiskWindow),
            ])
        #expect(result.accepted.map(\.key.rollingStartNumber) == Array(starts.dropFirst(2)))
        #expect(result.accepted.map(\.daysSinceOnsetOfSymptoms) == [-2, -1, 0, 2, 3])
        #expect(result.accepted.allSatisfy { $0.transmissionRiskLevel == 8 && $0.reportType == .confirmedTest })
        #expect(result.clockSkewSeconds == 0)
        #expect(!result.clockSkewFlagged)
    }

    @Test("each broken key is dropped with its own reason; the others are kept")
    func perKeyReasons() {
        let base: Int64 = 2_670_480  // 2020-10-10
        let keys = [
            Self.key(1, base),
            Self.key(2, base - 144, length: 15),  // not 16 bytes
            Self.key(3, base - 288, 0),  // period 0
            Self.key(4, base - 432, 145),  // period 145
            Self.key(1, base - 576),  // same key data as #0
            Self.key(5, base),  // same (start, period) as #0
            Self.key(6, base + 1),  // not a whole day from the earliest
            Self.key(7, base + 144 * 4),  // 2020-10-14: after the phone's clock
        ]
        let result = evaluate(keys)
        #expect(
            result.dropped.map(\.reason) == [
                .keyLength, .rollingPeriod, .rollingPeriod, .duplicateKeyData, .duplicateInterval, .misaligned, .future,
            ])
        #expect(result.dropped.map(\.index) == [1, 2, 3, 4, 5, 6, 7])
        #expect(result.accepted.map(\.key.keyData.first) == [1])
        #expect(result.droppedCounts.first { $0.reason == .rollingPeriod }?.count == 2)
    }

    @Test("a misaligned earliest key is dropped alone; on a tie the earliest key sets the alignment")
    func alignmentReference() {
        let base: Int64 = 2_670_480
        let result = evaluate([Self.key(1, base - 144 + 10), Self.key(2, base - 144 * 2 + 144), Self.key(3, base)])
        #expect(result.dropped == [.init(index: 0, reason: .misaligned)])
        let tie = evaluate([Self.key(1, base + 10 - 144), Self.key(2, base)])
        #expect(tie.dropped == [.init(index: 1, reason: .misaligned)])
    }

    @Test("future is judged by the phone's clock, and a skew over 24 h is flagged")
    func clockSkew() {
        // The phone is two days behind: yesterday's key (by the server) is in its future.
        let phone = Self.clock - 2 * 86_400
        let result = evaluate([Self.key(1, 2_670_768)], clock: phone)
        #expect(result.dropped.map(\.reason) == [.future])
        #expect(result.clockSkewSeconds == 2 * 86_400)
        #expect(result.clockSkewFlagged)
        let fine = evaluate([Self.key(1, 2_670_768)], clock: Self.clock - 3600)
        #expect(fine.accepted.count == 1)
        #expect(!fine.clockSkewFlagged)
    }

    @Test("keys that ended more than 14 days ago are too old; days since onset is clamped to ±14")
    func ageAndClamp() {
        let old = 2_670_480 - 144 * 15  // 2020-09-25, ended 09-26: 17 days before now
        let result = evaluate(
            [Self.key(1, Int64(old)), Self.key(2, 2_670_768)], symptoms: CivilDay(iso: "2020-09-01")!)
        #expect(result.dropped == [.init(index: 0, reason: .tooOld)])
        #expect(result.accepted.first?.daysSinceOnsetOfSymptoms == 14)
    }

    @Test("an empty list is fine; a configured profile changes the labels")
    func profile() {
        #expect(evaluate([]).accepted.isEmpty)
        let profile = RiskProfile(transmissionRiskLevel: 5, reportType: .selfReport, daysBeforeSymptoms: 0)
        let result = UploadRules.evaluate(
            keys: [Self.key(1, 2_670_336), Self.key(2, 2_670_480)], serverNow: Self.now, clientClock: Self.clock,
            symptomsStartedOn: Self.symptoms, profile: profile)
        #expect(result.dropped.map(\.reason) == [.beforeRiskWindow])
        #expect(result.accepted.first?.transmissionRiskLevel == 5)
        #expect(result.accepted.first?.reportType == .selfReport)
    }

    @Test("the province list has the apps' 108 codes")
    func provinces() {
        #expect(Province.all.count == 108)
        #expect(Province.named("RM")?.name == "Roma")
        #expect(Province.named("EX")?.region == "Abroad")
        #expect(Province.named("XX") == nil)
        #expect(Province.named("rm") == nil)
    }
}
