import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The statements the shared reads use, in one adapter's dialect.
struct ReadStatements: Sendable {
    var selectAuthorization, selectKeys, selectUpload, selectUploadChunks: String

    static let sqlite = ReadStatements(.sqlite)
    static let postgres = ReadStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        selectAuthorization = dialect.text(SQL.selectAuthorization)
        selectKeys = dialect.text(SQL.selectKeys)
        selectUpload = dialect.text(SQL.selectUpload)
        selectUploadChunks = dialect.text(SQL.selectUploadChunks)
    }
}

/// Reads shared by every adapter: rows to values, once (the columns of `SQL`'s selects).
struct StoreReads<DB: SQLRunning> {
    let db: DB
    let sql: ReadStatements

    /// The authorisation of the bearer token `otpHash`; the record names the code by it.
    func authorization(_ otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try authorization(storedKey: otpHash.stored, naming: otpHash)
    }

    /// The authorisation stored under `storedKey` (``OtpHash/stored``), its record naming the
    /// code by `naming` (the token where the caller has it, else the stored key: same tag).
    func authorization(storedKey: OtpHash, naming otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        let rows = try db.query(sql.selectAuthorization, [.text(storedKey.hex)], operation: "read authorization") {
            row -> OtpAuthorization? in
            guard let day = CivilDay(iso: row.text(1)) else { return nil }
            return OtpAuthorization(
                otpHash: otpHash, symptomsStartedOn: day, authorizedAt: Date(unixMilliseconds: row.integer(2)),
                expiresAt: Date(unixMilliseconds: row.integer(3)), authorizedBy: row.text(4),
                state: OtpAuthorization.State(rawValue: row.text(5)) ?? .consumed,
                consumedAt: row.optionalInteger(6).map(Date.init(unixMilliseconds:)))
        }
        return rows.first ?? nil
    }

    /// The upload with its keys and chunks (call inside one read transaction).
    func upload(id: Int64) throws(StoreError) -> StoredUpload? {
        let keys = try db.query(sql.selectKeys, [.integer(id)], operation: "read upload") { row in
            AcceptedKey(
                key: TemporaryExposureKey(
                    keyData: row.blob(0), rollingStartNumber: row.integer(1), rollingPeriod: row.integer(2)),
                transmissionRiskLevel: Int(row.integer(3)),
                reportType: ReportType(rawValue: Int(row.integer(4))) ?? .unknown,
                daysSinceOnsetOfSymptoms: Int(row.integer(5)))
        }
        let rows = try db.query(sql.selectUpload, [.integer(id)], operation: "read upload") { row -> StoredUpload? in
            guard let hash = OtpHash(hex: row.text(0)), let day = CivilDay(iso: row.text(2)) else { return nil }
            return StoredUpload(
                id: id, otpHash: hash, receivedAt: Date(unixMilliseconds: row.integer(1)), symptomsStartedOn: day,
                province: row.optionalText(3), clientClock: row.integer(4), clockSkewSeconds: row.integer(5),
                keysDropped: Int(row.integer(6)), droppedReasons: row.text(7), summaryCount: Int(row.integer(8)),
                keys: keys)
        }
        guard var upload = rows.first ?? nil else { return nil }
        upload.publishedInChunks = try db.query(sql.selectUploadChunks, [.integer(id)], operation: "read upload") {
            $0.integer(0)
        }
        return upload
    }

    static func event(_ row: DB.Row) -> DeskEvent {
        DeskEvent(
            id: row.integer(0), at: Date(unixMilliseconds: row.integer(1)),
            kind: DeskEvent.Kind(rawValue: row.text(2)) ?? .analyticsReceived,
            otpHash: row.optionalText(3).flatMap(OtpHash.init(hex:)), actor: row.optionalText(4), detail: row.text(5))
    }

    /// `min, max` of chunk indexes as a range; nil when there are none.
    static func indexRange(_ row: DB.Row) -> ClosedRange<Int64>? {
        guard let low = row.optionalInteger(0), let high = row.optionalInteger(1), low <= high else { return nil }
        return low...high
    }
}
