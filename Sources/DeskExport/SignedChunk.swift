import DeskCrypto

/// A chunk ready to publish: export.bin signed with the server's P-256 key, export.sig, and
/// the zip holding both.
///
/// The signature covers every byte of export.bin, header included (spec §0 item 3).
public struct SignedChunk: Sendable {
    /// The chunk file to publish.
    public let zip: [UInt8]
    public let exportBin: [UInt8]
    public let exportSig: [UInt8]

    /// Builds export.bin from `file`, signs it with `signer` (ECDSA P-256 / SHA-256, DER), writes
    /// export.sig with one TEKSignature (batch 1 of 1) carrying the file's only SignatureInfo,
    /// and zips the two. Throws unless `file` has exactly one SignatureInfo naming
    /// ``ExportSignatureInfo/ecdsaP256SHA256``, and is batch 1 of 1.
    public static func make(file: ExportFile, signer: ECPrivateKey) throws(ExportError) -> SignedChunk {
        guard file.signatureInfos.count == 1, let info = file.signatureInfos.first else {
            throw .signatureInfoCount(file.signatureInfos.count)
        }
        guard info.signatureAlgorithm == ExportSignatureInfo.ecdsaP256SHA256 else {
            throw .unsupportedSignatureAlgorithm(info.signatureAlgorithm)
        }
        guard file.batchNum == 1, file.batchSize == 1 else {
            throw .notSingleBatch(batchNum: file.batchNum, batchSize: file.batchSize)
        }
        let exportBin = file.exportBin()
        let signature = ExportSignature(
            signatureInfo: info, batchNum: 1, batchSize: 1, signature: signer.signDER(exportBin))
        let exportSig = ExportSignatureList.encode([signature])
        let zip = try ChunkArchive.zip(exportBin: exportBin, exportSig: exportSig)
        return SignedChunk(zip: zip, exportBin: exportBin, exportSig: exportSig)
    }
}

/// What a chunk zip holds, decoded, for `tracedesk chunks show` and for tests.
///
/// Reading never checks the keys against the publishing rules; it only requires a well-formed
/// zip, export.bin and export.sig. Privacy: the value holds key bytes; show counts and
/// metadata, not keys.
public struct ChunkInspection: Sendable {
    public let file: ExportFile
    public let signatures: [ExportSignature]
    /// SHA-256 of the whole export.bin, header included.
    public let exportBinSHA256: [UInt8]
    /// export.bin exactly as stored in the zip, which is what the signatures cover.
    public let exportBin: [UInt8]

    /// Unzips and decodes; throws the first problem found.
    public init(zip: [UInt8]) throws(ExportError) {
        let (exportBin, exportSig) = try ChunkArchive.unzip(zip)
        try self.init(exportBin: exportBin, exportSig: exportSig)
    }

    /// Decodes an already unzipped pair.
    public init(exportBin: [UInt8], exportSig: [UInt8]) throws(ExportError) {
        self.file = try ExportFile(exportBin: exportBin)
        self.signatures = try ExportSignatureList.decode(exportSig)
        self.exportBin = exportBin
        self.exportBinSHA256 = SHA256.digest(exportBin)
    }

    /// True when some signature in export.sig verifies over the whole export.bin with
    /// `publicKey`. It does not compare key ids or versions; a caller that cares checks them.
    public func signatureVerifies(with publicKey: ECPublicKey) -> Bool {
        signatures.contains { publicKey.verifyDER(signature: $0.signature, message: exportBin) }
    }
}
