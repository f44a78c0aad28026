/// SplitMix64: a tiny, fast, well-distributed generator whose sequence is fixed by its seed on
/// every platform, so `fleetkit sample --seed N` writes byte-identical files everywhere.
/// (`SystemRandomNumberGenerator` cannot be seeded, and Foundation's generators differ by OS.)
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    public mutating func double(_ range: ClosedRange<Double>) -> Double { range.lowerBound + unit() * (range.upperBound - range.lowerBound) }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// A derived generator, so adding draws to one part of the fleet does not shift every other part.
    public func fork(_ salt: UInt64) -> SeededRandom { SeededRandom(seed: state ^ (salt &* 0xD6E8_FEB8_6659_FD93)) }
}
