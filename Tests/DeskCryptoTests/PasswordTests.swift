import DeskCore
import DeskCrypto
import Foundation
import Testing

@Suite struct PasswordHasherTests {
    let cheap = PasswordHasher(logN: 10, r: 8, p: 1)

    @Test("RFC 7914 §12: scrypt(\"password\", \"NaCl\", N=1024, r=8, p=16) verifies through the stored form")
    func rfcVector() {
        let key = [UInt8](
            hex:
                "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
        let stored = "$scrypt$ln=10,r=8,p=16$\(Base64.encodeURL(Array("NaCl".utf8)))$\(Base64.encodeURL(key))"
        #expect(PasswordHasher.verify("password", against: stored))
        #expect(!PasswordHasher.verify("passwore", against: stored))
    }

    @Test("a hash carries its parameters and a fresh salt, and verifies only its password")
    func roundTrip() throws {
        let first = try cheap.hash("correct horse battery")
        let second = try cheap.hash("correct horse battery")
        #expect(first.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(first != second, "salts differ")
        #expect(PasswordHasher.verify("correct horse battery", against: first))
        #expect(PasswordHasher.verify("correct horse battery", against: second))
        #expect(!PasswordHasher.verify("correct horse batterY", against: first))
        #expect(!PasswordHasher.verify("", against: first))
        #expect(!first.contains("correct"))
    }

    @Test("weaker parameters are noticed, so the next sign-in rehashes")
    func weaker() throws {
        let old = try cheap.hash("correct horse battery")
        #expect(PasswordHasher(logN: 11, r: 8, p: 1).isWeaker(old))
        #expect(!cheap.isWeaker(old))
        #expect(PasswordHasher().isWeaker("not a hash"))
    }

    @Test(
        "stored strings that cannot be read never verify",
        arguments: [
            "", "$scrypt$", "$bcrypt$ln=10,r=8,p=1$c2FsdA$a2V5",
            "$scrypt$ln=99,r=8,p=1$c2FsdHNhbHQ$"
                + String(repeating: "A", count: 43),
            "$scrypt$ln=10,r=8$c2FsdHNhbHQ$" + String(repeating: "A", count: 43),
            "$scrypt$ln=10,r=8,p=1$!!!$" + String(repeating: "A", count: 43),
        ])
    func unreadable(stored: String) {
        #expect(!PasswordHasher.verify("anything at all", against: stored))
        #expect(!PasswordHasher.isReadable(stored))
    }

    @Test("session tokens: 32 random bytes with a recognisable prefix; stored as SHA-256 hex")
    func tokens() {
        let a = SessionToken.make()
        let b = SessionToken.make()
        #expect(a != b)
        #expect(SessionToken.looksValid(a) && a.hasPrefix("tds_") && a.count == 47)
        #expect(!SessionToken.looksValid("tds_short") && !SessionToken.looksValid(String(a.dropFirst(4))))
        #expect(SessionToken.hash(a).count == 64 && SessionToken.hash(a) != SessionToken.hash(b))
    }
}

@Suite struct AuditChainTests {
    func chain(_ count: Int) -> [AuditEntry] {
        var out: [AuditEntry] = []
        var previous = AuditChain.genesis
        for id in 1...Int64(count) {
            let at = Date(unixMilliseconds: 1_795_946_400_000 + id * 1_000)
            let hash = AuditChain.hash(
                id: id, atMilliseconds: at.unixMilliseconds, actor: "ana", action: "sign_in", target: "ana",
                detail: #"{"n":\#(id)}"#, previousHash: previous)
            out.append(
                AuditEntry(
                    id: id, at: at, actor: "ana", action: .signIn, target: "ana", detail: #"{"n":\#(id)}"#,
                    previousHash: previous, hash: hash))
            previous = hash
        }
        return out
    }

    @Test("an untouched chain verifies, whole or page by page")
    func intact() {
        let entries = chain(10)
        #expect(AuditChain.check(entries, after: nil) == nil)
        #expect(AuditChain.check(Array(entries[5...]), after: (id: 5, hash: entries[4].hash)) == nil)
    }

    @Test("an edited entry is named; so is the one after an entry edited with its hash recomputed")
    func edited() {
        var entries = chain(10)
        entries[3].detail = #"{"n":99}"#
        #expect(AuditChain.check(entries, after: nil)?.id == 4)
        #expect(AuditChain.check(entries, after: nil)?.reason.contains("do not match its hash") == true)
        entries[3].hash = AuditChain.hash(
            id: 4, atMilliseconds: entries[3].at.unixMilliseconds, actor: "ana", action: "sign_in", target: "ana",
            detail: entries[3].detail, previousHash: entries[3].previousHash)
        #expect(
            AuditChain.check(entries, after: nil)
                == AuditBreak(
                    id: 5, reason: "its previous-hash does not match entry 4: entry 4 was edited or replaced"))
    }

    @Test("a deleted entry, and deleted first entries, are found")
    func deleted() {
        var entries = chain(10)
        entries.remove(at: 6)
        #expect(
            AuditChain.check(entries, after: nil)
                == AuditBreak(
                    id: 8, reason: "entries 7…7 are missing: deleted from the log"))
        #expect(AuditChain.check(Array(chain(5).dropFirst()), after: nil)?.id == 2)
    }

    @Test("a target of nil and an empty target hash differently; so do shifted fields")
    func unambiguous() {
        let a = AuditEntry.canonicalBytes(
            id: 1, atMilliseconds: 5, actor: "ab", action: "c", target: nil, detail: "{}", previousHash: "0")
        let b = AuditEntry.canonicalBytes(
            id: 1, atMilliseconds: 5, actor: "ab", action: "c", target: "", detail: "{}", previousHash: "0")
        let c = AuditEntry.canonicalBytes(
            id: 1, atMilliseconds: 5, actor: "a", action: "bc", target: nil, detail: "{}", previousHash: "0")
        #expect(a != b && a != c && b != c)
    }
}

extension [UInt8] {
    fileprivate init(hex: String) {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = out
    }
}
