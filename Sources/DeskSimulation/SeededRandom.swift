/// A small, fast, seedable generator (SplitMix64) for the simulation: the same seed gives the
/// same phones, keys, households and encounters on every machine. Not for secrets.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator of its own for one part of the simulation (a phone, a day…), so that what
    /// one part draws never depends on the order in which concurrent parts ran.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededRandom(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// A wait drawn from an exponential distribution with this mean (a Poisson process's gaps).
    public mutating func exponential(mean: Double) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        return -mean * log(u)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
