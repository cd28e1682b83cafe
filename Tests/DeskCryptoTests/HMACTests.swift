import DeskCrypto
import Testing

@Suite struct HMACTests {
    @Test("HMAC-SHA256 matches RFC 4231 test cases 1 and 2")
    func rfc4231() {
        let key1 = [UInt8](repeating: 0x0b, count: 20)
        #expect(
            Hex.encode(HMAC.sha256(key: key1, message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            HMAC.sha256Hex(key: Array("Jefe".utf8), "what do ya want for nothing?")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("uniform random numbers stay below their bound and reach both ends of a small range")
    func uniform() {
        var seen = Set<UInt32>()
        for _ in 0..<2_000 {
            let value = SecureRandom.uniform(6)
            #expect(value < 6)
            seen.insert(value)
        }
        #expect(seen == [0, 1, 2, 3, 4, 5])
        #expect(SecureRandom.uniform(1) == 0)
    }
}
