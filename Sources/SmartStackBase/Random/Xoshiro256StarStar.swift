/// xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
/// ACM TOMS 2021; reference C: https://prng.di.unimi.it/xoshiro256starstar.c).
///
/// The toolkit's workhorse generator: 256 bits of state, period 2^256 - 1, about 3 ns per
/// output in a release build. Bit-exact with the reference C, so outputs are frozen across
/// Swift versions and platforms. Seed it from one `UInt64` (expanded with SplitMix64, as
/// the authors recommend) or derive independent streams with `StreamSeed.generator`.
///
/// Pass it on as `inout some RandomNumberGenerator` (or a generic `G`), not as an
/// existential `any RandomNumberGenerator`, which is about 4 times slower.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable, Hashable {
  /// The four state words `s[0] ... s[3]` of the reference implementation. Never all 0.
  @usableFromInline package var s0, s1, s2, s3: UInt64

  /// The four state words `s[0] ... s[3]` of the reference implementation.
  @inlinable public var state: (UInt64, UInt64, UInt64, UInt64) { (s0, s1, s2, s3) }

  /// A generator whose state is the first four outputs of `SplitMix64(seed: seed)`.
  ///
  /// With seed 42 the first outputs are 1546998764402558742, 6990951692964543102,
  /// 12544586762248559009, ...
  @inlinable
  public init(seed: UInt64) {
    var expander = SplitMix64(seed: seed)
    s0 = expander.next()
    s1 = expander.next()
    s2 = expander.next()
    s3 = expander.next()
  }

  /// A generator with the given state words. An all-zero state (a fixed point of the
  /// generator) is replaced by the state of `init(seed: 0)`.
  @inlinable
  public init(state: (UInt64, UInt64, UInt64, UInt64)) {
    (s0, s1, s2, s3) = state
    if state == (0, 0, 0, 0) { self = Xoshiro256StarStar(seed: 0) }
  }

  /// The next 64 random bits: `rotl(s1 * 5, 7) * 9`, then the state advances.
  ///
  /// Always inlined: callers that draw from many places (the bandit's Beta draws) then keep
  /// the state in registers instead of passing it to a call by address.
  ///
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  public mutating func next() -> UInt64 {
    let result = Xoshiro256StarStar.rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = Xoshiro256StarStar.rotateLeft(s3, 45)
    return result
  }

  /// Advances the state as if by 2^128 calls to `next()`: starting from one seed, `jump()`
  /// yields up to 2^128 non-overlapping subsequences of length 2^128.
  ///
  /// - Complexity: O(256) `next()` steps.
  public mutating func jump() {
    apply(jumpPolynomial: Xoshiro256StarStar.jumpPolynomial)
  }

  /// Advances the state as if by 2^192 calls to `next()` (the reference `long_jump`).
  ///
  /// - Complexity: O(256) `next()` steps.
  public mutating func longJump() {
    apply(jumpPolynomial: Xoshiro256StarStar.longJumpPolynomial)
  }

  static package let jumpPolynomial: [UInt64] = [
    0x180E_C6D3_3CFD_0ABA, 0xD5A6_1266_F0C9_392C, 0xA958_2618_E03F_C9AA, 0x39AB_DC45_29B1_661C,
  ]
  static package let longJumpPolynomial: [UInt64] = [
    0x76E1_5D3E_FEFD_CBBF, 0xC500_4E44_1C52_2FB3, 0x7771_0069_854E_E241, 0x3910_9BB0_2ACB_E635,
  ]

  /// The reference jump: XOR together the states at the set bits of the polynomial,
  /// advancing once per bit.
  mutating package func apply(jumpPolynomial: [UInt64]) {
    var t0: UInt64 = 0
    var t1: UInt64 = 0
    var t2: UInt64 = 0
    var t3: UInt64 = 0
    for word in jumpPolynomial {
      for bit in 0..<64 as Range<UInt64> {
        if word & (1 << bit) != 0 {
          t0 ^= s0
          t1 ^= s1
          t2 ^= s2
          t3 ^= s3
        }
        _ = next()
      }
    }
    (s0, s1, s2, s3) = (t0, t1, t2, t3)
  }

  /// `x` rotated left by `k` bits, `0 < k < 64`. Always inlined, with masking shifts: inside
  /// this module the optimizer otherwise kept it as a call with checked shifts in large
  /// callers, two calls per `next()`.
  @inlinable @inline(__always)
  static package func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
    (x &<< k) | (x &>> (64 &- k))
  }

}
