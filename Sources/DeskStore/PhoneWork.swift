import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The statements of the phone API's simpler writes, in one adapter's dialect.
struct PhoneStatements: Sendable {
    var insertEvent, markChecked, claimCheckEvent, countDummy, dummyCounts, allowanceExists, grantAllowance,
        useAllowance: String
    var insertOperationalInfo, dropExpiredSalts, claimSalt, saltUsed: String

    static let sqlite = PhoneStatements(.sqlite)
    static let postgres = PhoneStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        let text = dialect.text
        insertEvent = text(SQL.insertEvent)
        markChecked = text(SQL.markChecked)
        claimCheckEvent = text(SQL.claimCheckEvent)
        // PostgreSQL names the row it adds to, and its sum of a BIGINT is a NUMERIC.
        countDummy = dialect == .sqlite ? SQL.countDummy : PGSQL.countDummy
        dummyCounts = dialect == .sqlite ? SQL.dummyCounts : PGSQL.dummyCounts
        allowanceExists = text(SQL.allowanceExists)
        grantAllowance = text(SQL.grantAllowance)
        useAllowance = text(SQL.useAllowance)
        insertOperationalInfo = text(SQL.insertOperationalInfo)
        dropExpiredSalts = text(SQL.dropExpiredSalts)
        claimSalt = text(SQL.claimSalt)
        saltUsed = text(SQL.saltUsed)
    }
}

/// Events, checks, dummy counts and analytics: one implementation for every adapter, run on
/// the connection (and inside the transaction, where there is one) the adapter provides.
struct PhoneWork<DB: SQLRunning> {
    let db: DB
    let sql: PhoneStatements
    let reads: ReadStatements

    func appendEvent(
        kind: DeskEvent.Kind, at ms: Int64, otpHash: OtpHash?, actor: String?, detail: String
    ) throws(StoreError) {
        try appendEvent(kind: kind, at: ms, storedKey: otpHash?.stored, actor: actor, detail: detail)
    }

    /// ``appendEvent(kind:at:otpHash:actor:detail:)`` with the code's ``OtpHash/stored`` form
    /// already made (before the write lock, by the caller).
    func appendEvent(
        kind: DeskEvent.Kind, at ms: Int64, storedKey: OtpHash?, actor: String?, detail: String
    ) throws(StoreError) {
        try db.run(
            sql.insertEvent,
            [
                .integer(ms), .text(kind.rawValue), storedKey.map { .text($0.hex) } ?? .null,
                actor.map { .text($0) } ?? .null, .text(detail),
            ], operation: "append event")
    }

    /// The code's status at `now` (in a transaction). A check of a known code is counted on its
    /// authorisation (`check_count`, `last_checked_at_ms`); the first that finds the code usable
    /// since its latest authorisation is marked on it (`checked_at_ms`, the statistics'
    /// "checked"). An `otp_checked` event is written for at most one check of a code every
    /// ``checkEventInterval``: a phone retrying, or a flood of checks of one code, is one line in
    /// the monitor, not thousands (issue 18, point 10c).
    func recordCheck(otpHash: OtpHash, now: Date) throws(StoreError) -> OtpStatus {
        let status = OtpStatus(try StoreReads(db: db, sql: reads).authorization(otpHash), now: now)
        guard status != .unknown else { return status }
        let nowMs = now.unixMilliseconds
        let key = SQLValue.text(otpHash.stored.hex)
        var usable: Int64 = 0
        if case .authorized = status { usable = 1 }
        try db.run(
            sql.markChecked, [.integer(nowMs), .integer(usable), .integer(nowMs), key], operation: "record check")
        let claimed = try db.run(
            sql.claimCheckEvent, [.integer(nowMs), key, .integer(nowMs - Self.checkEventInterval)],
            operation: "record check")
        if claimed == 1 {
            try appendEvent(
                kind: .otpChecked, at: nowMs, otpHash: otpHash, actor: nil,
                detail: DeskEvent.Detail.OtpChecked(status: status.name).json)
        }
        return status
    }

    /// The detail of an `otp_guesses_limited` event: the route and the wait; never the address.
    static func guessesLimitedDetail(route: String, retryAfterSeconds: Int) -> String {
        DeskEvent.Detail.OtpGuessesLimited(route: route, retryAfterSeconds: retryAfterSeconds).json
    }

    /// The shortest time between two `otp_checked` events of one code, in milliseconds.
    static var checkEventInterval: Int64 { 5_000 }

    /// An `upload_refused` event for a code known here (in a transaction).
    func refuseUpload(otpHash: OtpHash, status: OtpStatus, at ms: Int64) throws(StoreError) {
        guard status != .unknown else { return }
        try appendEvent(
            kind: .uploadRefused, at: ms, otpHash: otpHash, actor: nil,
            detail: DeskEvent.Detail.UploadRefused(reason: status.name).json)
    }

    /// Counted per 5-minute slot (migration 7; rows before it are hour-aligned), so the 1-hour
    /// statistics show dummy traffic per bucket. Readers by hour (the monitor's traffic share)
    /// bound by an hour's start, which is a slot's start too.
    func countDummy(route: String, now: Date) throws(StoreError) {
        let slot = StatsBucket.fiveMinutes.floor(now.unixMilliseconds)
        try db.run(sql.countDummy, [.integer(slot), .text(route)], operation: "count dummy traffic")
    }

    func dummyCounts(since: Date) throws(StoreError) -> [String: Int64] {
        let hour = since.unixMilliseconds / 3_600_000 * 3_600_000
        let rows = try db.query(sql.dummyCounts, [.integer(hour)], operation: "read dummy traffic") {
            ($0.text(0), $0.integer(1))
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    func analyticsTokenAuthorized(tokenHash: String, month: CivilDay) throws(StoreError) -> Bool {
        let rows = try db.query(
            sql.allowanceExists, [.text(tokenHash), .text(month.firstOfMonth.iso), .integer(Date().unixMilliseconds)],
            operation: "read analytics token"
        ) { $0.integer(0) }
        return (rows.first ?? 0) > 0
    }

    /// In a transaction.
    func grantAnalyticsAllowances(_ allowances: [AnalyticsAllowance], expiresAt: Date) throws(StoreError) {
        for allowance in allowances {
            try db.run(
                sql.grantAllowance,
                [
                    .text(allowance.tokenHash), .text(allowance.month.iso), .integer(allowance.withExposure ? 1 : 0),
                    .integer(expiresAt.unixMilliseconds),
                ], operation: "grant analytics allowances")
        }
    }

    /// In a transaction: uses the allowance up (if any), then stores the record.
    func recordOperationalInfo(
        _ info: OperationalInfo, allowance: AnalyticsAllowance?, now: Date
    ) throws(StoreError) -> Bool {
        if let allowance {
            let used = try db.run(
                sql.useAllowance,
                [
                    .text(allowance.tokenHash), .text(allowance.month.iso), .integer(allowance.withExposure ? 1 : 0),
                    .integer(now.unixMilliseconds),
                ], operation: "use analytics allowance")
            guard used == 1 else { return false }
        }
        try insertOperationalInfo(info, at: now.unixMilliseconds)
        return true
    }

    /// In a transaction: claims the salt, then stores the record.
    func recordOperationalInfo(
        _ info: OperationalInfo, salt: String, now: Date, saltExpiresAt: Date
    ) throws(StoreError) -> Bool {
        try db.run(sql.dropExpiredSalts, [.integer(now.unixMilliseconds)], operation: "claim salt")
        let claimed = try db.run(
            sql.claimSalt, [.text(salt), .integer(saltExpiresAt.unixMilliseconds)], operation: "claim salt")
        guard claimed == 1 else { return false }
        try insertOperationalInfo(info, at: now.unixMilliseconds)
        return true
    }

    func attestationSaltUsed(_ salt: String, now: Date) throws(StoreError) -> Bool {
        (try db.query(sql.saltUsed, [.text(salt), .integer(now.unixMilliseconds)], operation: "read salt") {
            $0.integer(0)
        }.first ?? 0) > 0
    }

    /// The record and its event.
    private func insertOperationalInfo(_ info: OperationalInfo, at nowMs: Int64) throws(StoreError) {
        try db.run(
            sql.insertOperationalInfo,
            [
                .integer(nowMs), .text(info.platform.rawValue), .text(info.province.code),
                info.build.map { .integer(Int64($0)) } ?? .null, .integer(info.exposurePermission ? 1 : 0),
                .integer(info.bluetoothActive ? 1 : 0), .integer(info.notificationPermission ? 1 : 0),
                .integer(info.exposureNotification ? 1 : 0),
                info.exposureNotification ? .text(info.lastRiskyExposureOn.iso) : .null,
            ], operation: "store operational info")
        try appendEvent(
            kind: .analyticsReceived, at: nowMs, otpHash: nil, actor: nil,
            detail: DeskEvent.Detail.AnalyticsReceived(
                platform: info.platform.rawValue, province: info.province.code,
                exposureNotification: info.exposureNotification
            ).json)
    }
}
