import DeskCore
import DeskCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the store keeps a code: never the bearer token itself.
///
/// An app's bearer token is the code's SHA-256 (``OtpHash``); a store that kept it would let
/// anyone who reads the file upload keys under a live authorisation. So every `otp_hash`
/// column (authorisations, events, uploads) holds a one-way function of the token instead:
/// the token's first 6 hex digits, its tag (already public: screens, the watch and the audit
/// log name a code by it), then the first 58 hex digits of the SHA-256 of the token's text.
/// Keeping the tag lets every tag stay what it was, in old rows and new.
///
/// What it does not stop: a code has about 42 bits (9 symbols of 25), so a reader with time
/// and a GPU can still find a code by trying them all (docs/security.md).
/// Migration 10 rewrote the rows written before (`Migrations`).
extension OtpHash {
    /// The store's form of this bearer token, as an `OtpHash` value (same length, same tag).
    public var stored: OtpHash {
        OtpHash(hex: Self.storedHex(hex)) ?? self
    }

    /// The store's form of a bearer token's hex text (64 lowercase hex digits).
    static func storedHex(_ token: String) -> String {
        String(token.prefix(6)) + String(SHA256.hex(token).prefix(58))
    }
}

extension Store {
    /// The watch of the code whose bearer token is `otpHash`.
    public func codeWatch(otpHash: OtpHash, now: Date, policy: PublishingPolicy) throws(StoreError) -> StoredCodeWatch?
    {
        try codeWatch(storedKey: otpHash.stored, now: now, policy: policy)
    }
}
