/// Derivation of independent, reproducible random streams from one master seed.
///
/// An experiment has one master seed. Everything random in it draws from a stream named by
/// a path of components, e.g. `(replicate r, user u)` for simulated people or
/// `(replicate r, stableHash("recency"))` for a strategy's own randomness. A stream depends
/// only on the master seed and its path, never on which other streams exist or the order
/// they run in, so parallel runs stay byte-identical.
///
/// ```swift
/// var people = StreamSeed.generator(seed, 1, UInt64(replicate))
/// var strategyRandom = StreamSeed.generator(seed, 2, UInt64(replicate),
///                                           StreamSeed.stableHash(strategy.name))
/// ```
public enum StreamSeed {
  /// The golden-ratio constant `0x9E3779B97F4A7C15` (odd, so multiplying by it is a
  /// bijection on `UInt64`).
  @inlinable public static var golden: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  /// The seed of the stream at path `components` under `master`.
  ///
  /// Definition: `h = master`; then for each component `c`, in order,
  /// `h = SplitMix64.mix((h ^ (c &* golden)) &+ golden)`, i.e. the first output of
  /// `SplitMix64(seed: h ^ c &* golden)`. Returns `h`. So:
  /// - with no components the result is `master` itself;
  /// - with one component it is `SplitMix64(seed: master ^ (c &* golden)).next()`;
  /// - the order of the components matters, and so does their number
  ///   (`derive(m, 0) != derive(m)`).
  ///
  /// - Complexity: O(k) for k components.
  public static func derive(_ master: UInt64, _ components: UInt64...) -> UInt64 {
    derive(master, components: components)
  }

  /// `derive(_:_:...)` with the components as an array.
  public static func derive(_ master: UInt64, components: [UInt64]) -> UInt64 {
    var h = master
    for component in components {
      h = SplitMix64.mix((h ^ (component &* golden)) &+ golden)
    }
    return h
  }

  /// A xoshiro256** generator seeded with `derive(master, components...)`.
  public static func generator(_ master: UInt64, _ components: UInt64...) -> Xoshiro256StarStar {
    Xoshiro256StarStar(seed: derive(master, components: components))
  }

  /// A xoshiro256** generator seeded with `derive(master, components: components)`.
  public static func generator(_ master: UInt64, components: [UInt64]) -> Xoshiro256StarStar {
    Xoshiro256StarStar(seed: derive(master, components: components))
  }

  /// FNV-1a, 64-bit, over the UTF-8 bytes of `text` (offset basis `0xcbf29ce484222325`,
  /// prime `0x100000001b3`): a stable name-to-number map for stream components, identical
  /// in every process (unlike `hashValue`, which is seeded per process).
  ///
  /// `stableHash("") == 0xcbf29ce484222325`, `stableHash("a") == 0xaf63dc4c8601ec8c`.
  ///
  /// - Complexity: O(n) in the UTF-8 length.
  public static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }
}
