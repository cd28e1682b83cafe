import DeskCrypto
import Testing

/// ``ConstantTime``: the one comparison of secrets (its time is not measured here: no test may
/// depend on the machine's speed; what is checked is that it answers like `==`).
@Suite("Constant-time comparison")
struct ConstantTimeTests {
    @Test(
        "bytes: equal only with the same length and every byte the same",
        arguments: [
            ([UInt8](), [UInt8](), true),
            ([1, 2, 3], [1, 2, 3], true),
            ([1, 2, 3], [1, 2, 4], false),
            ([9, 2, 3], [1, 2, 3], false),
            ([1, 2, 3], [1, 2], false),
            ([], [0], false),
            ([UInt8](repeating: 0xAB, count: 64), [UInt8](repeating: 0xAB, count: 64), true),
        ])
    func bytes(a: [UInt8], b: [UInt8], equal: Bool) {
        #expect(ConstantTime.equal(a, b) == equal)
        #expect(ConstantTime.equal(b, a) == equal)
    }

    @Test(
        "texts: by their UTF-8 bytes",
        arguments: [
            ("", "", true), ("abc", "abc", true), ("abc", "abd", false), ("abc", "ab", false),
            ("é", "e\u{301}", false), (SHA256.hex("x"), SHA256.hex("x"), true),
            (SHA256.hex("x"), SHA256.hex("y"), false),
        ])
    func texts(a: String, b: String, equal: Bool) {
        #expect(ConstantTime.equal(a, b) == equal)
    }
}
