/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014; reference C by Sebastiano Vigna, https://prng.di.unimi.it/splitmix64.c).
///
/// A 64-bit state advanced by the golden-ratio increment `0x9E3779B97F4A7C15` and passed
/// through a bijective finaliser. Period 2^64. The toolkit uses it to expand seeds
/// (`Xoshiro256StarStar.init(seed:)`) and to mix stream components (`StreamSeed`); it is
/// also a fine small generator for tests. Its output sequence is frozen: it never depends
/// on the Swift version.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
  /// The golden-ratio increment, ⌊2^64 / φ⌋ rounded to odd.
  @inlinable public static var increment: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  /// The current state; the next output is `mix(state &+ increment)`.
  public var state: UInt64

  /// A generator whose first output is `SplitMix64.mix(seed &+ 0x9E3779B97F4A7C15)`.
  @inlinable
  public init(seed: UInt64) {
    self.state = seed
  }

  /// The next 64 random bits.
  ///
  /// - Complexity: O(1), a handful of integer operations.
  @inlinable
  public mutating func next() -> UInt64 {
    state &+= SplitMix64.increment
    return SplitMix64.mix(state)
  }

  /// The SplitMix64 finaliser (a variant of MurmurHash3's fmix64, constants from Stafford's
  /// "Mix13"): a bijection on `UInt64` with strong avalanche.
  @inlinable
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
