/// One temporary exposure key as it appears in `export.bin` (protobuf `TemporaryExposureKey`).
///
/// Optional properties are proto2 presence: nil means the field is not on the wire. The values
/// are not checked here (a 3-byte key encodes fine); validation rules live with the publisher.
/// Privacy: `keyData` is health data; nothing in this module prints it.
public struct ExportKey: Hashable, Sendable {
    /// Field 1: the 16-byte TEK.
    public var keyData: [UInt8]
    /// Field 2 (int32, deprecated by EN v1.5 but still set by Google and Immuni): 0…8.
    public var transmissionRiskLevel: Int32?
    /// Field 3 (int32): ENIntervalNumber (Unix seconds / 600) when the key started. Always written.
    public var rollingStartIntervalNumber: Int32
    /// Field 4 (int32): validity in 10-minute intervals. nil = omitted, which readers take as 144.
    public var rollingPeriod: Int32?
    /// Field 5 (enum ReportType): 1 confirmed test … 5 revoked.
    public var reportType: Int32?
    /// Field 6 (sint32, zigzag on the wire): days between symptom onset and the key's day.
    public var daysSinceOnsetOfSymptoms: Int32?

    /// The rolling period a reader applies when field 4 is absent.
    public static let defaultRollingPeriod: Int32 = 144

    public init(
        keyData: [UInt8], transmissionRiskLevel: Int32? = nil, rollingStartIntervalNumber: Int32,
        rollingPeriod: Int32? = nil, reportType: Int32? = nil, daysSinceOnsetOfSymptoms: Int32? = nil
    ) {
        self.keyData = keyData
        self.transmissionRiskLevel = transmissionRiskLevel
        self.rollingStartIntervalNumber = rollingStartIntervalNumber
        self.rollingPeriod = rollingPeriod
        self.reportType = reportType
        self.daysSinceOnsetOfSymptoms = daysSinceOnsetOfSymptoms
    }

    /// The rolling period in effect: ``rollingPeriod``, or 144 when it is omitted.
    public var effectiveRollingPeriod: Int32 { rollingPeriod ?? Self.defaultRollingPeriod }
}

/// Which key signed a chunk (protobuf `SignatureInfo`), in `export.bin` and in each
/// `export.sig` signature.
///
/// Field 2 (`android_package`) is deprecated and ignored when read, never written. Field 1
/// (`app_bundle_id`) is deprecated too; it is kept when read so old files can be shown, and
/// written only when non-nil and non-empty.
public struct ExportSignatureInfo: Hashable, Sendable {
    /// Field 1 (deprecated): Immuni wrote `it.ministerodellasalute.immuni`.
    public var appBundleID: String?
    /// Field 3: the key version for rotation, e.g. `v1`. Empty when read from a file without it.
    public var verificationKeyVersion: String
    /// Field 4: the key alias, the mobile country code (`222` for Italy). Empty when absent.
    public var verificationKeyID: String
    /// Field 5: the ASN.1 OID of the signature algorithm. Empty when absent from a file.
    public var signatureAlgorithm: String

    /// ECDSA with SHA-256, the only algorithm Apple accepts.
    public static let ecdsaP256SHA256 = "1.2.840.10045.4.3.2"

    public init(
        appBundleID: String? = nil, verificationKeyVersion: String, verificationKeyID: String,
        signatureAlgorithm: String = ExportSignatureInfo.ecdsaP256SHA256
    ) {
        self.appBundleID = appBundleID
        self.verificationKeyVersion = verificationKeyVersion
        self.verificationKeyID = verificationKeyID
        self.signatureAlgorithm = signatureAlgorithm
    }
}

/// The content of `export.bin` (protobuf `TemporaryExposureKeyExport` after a 16-byte header).
///
/// ``exportBin()`` writes every field in field-number order, so the bytes equal those of
/// Google's reference server for the same values (the known-answer vector proves it).
/// ``init(exportBin:)`` reads with proto2 rules: unknown fields are skipped, the last value of
/// a repeated singular field wins, absent fields take their proto2 defaults (0, "", nil).
public struct ExportFile: Hashable, Sendable {
    /// Field 1 (fixed64): start of the server-arrival window, UTC Unix seconds.
    public var startTimestamp: UInt64
    /// Field 2 (fixed64): end of that window.
    public var endTimestamp: UInt64
    /// Field 3: origin region (`222`, `US`).
    public var region: String
    /// Field 4: 1-based batch number; always 1 in files we publish.
    public var batchNum: Int32
    /// Field 5: batch size; always 1 in files we publish.
    public var batchSize: Int32
    /// Field 6: one per signature in export.sig, newest signing key first.
    public var signatureInfos: [ExportSignatureInfo]
    /// Field 7: newly released keys.
    public var keys: [ExportKey]
    /// Field 8: keys published earlier whose report type changed.
    public var revisedKeys: [ExportKey]

    /// `EK Export v1` followed by four spaces: the first 16 bytes of every export.bin.
    public static let header: [UInt8] = Array("EK Export v1    ".utf8)

    public init(
        startTimestamp: UInt64, endTimestamp: UInt64, region: String, batchNum: Int32 = 1, batchSize: Int32 = 1,
        signatureInfos: [ExportSignatureInfo] = [], keys: [ExportKey] = [], revisedKeys: [ExportKey] = []
    ) {
        self.startTimestamp = startTimestamp
        self.endTimestamp = endTimestamp
        self.region = region
        self.batchNum = batchNum
        self.batchSize = batchSize
        self.signatureInfos = signatureInfos
        self.keys = keys
        self.revisedKeys = revisedKeys
    }
}

/// One signature of export.bin (protobuf `TEKSignature`), as listed in export.sig.
public struct ExportSignature: Hashable, Sendable {
    /// Field 1: which key made the signature. Android reads key id, version and algorithm from
    /// here, not from export.bin.
    public var signatureInfo: ExportSignatureInfo
    /// Field 2: must match export.bin (always 1).
    public var batchNum: Int32
    /// Field 3: always 1.
    public var batchSize: Int32
    /// Field 4: ECDSA signature over all of export.bin, header included, in X9.62 DER
    /// (a SEQUENCE of two INTEGERs, usually 70–72 bytes), not raw r‖s.
    public var signature: [UInt8]

    public init(signatureInfo: ExportSignatureInfo, batchNum: Int32 = 1, batchSize: Int32 = 1, signature: [UInt8]) {
        self.signatureInfo = signatureInfo
        self.batchNum = batchNum
        self.batchSize = batchSize
        self.signature = signature
    }
}
