import Foundation

/// A standard normal sampler (mean 0, variance 1) by the ziggurat method, with 256 layers.
///
/// Marsaglia & Tsang, "The Ziggurat Method for Generating Random Variables", Journal of
/// Statistical Software 5(8), 2000, with the layer and the uniform taken from independent
/// bits as Doornik recommends ("An Improved Ziggurat Method to Generate Normal Random
/// Samples", 2005). Exact: the tail beyond `r` and the wedges are sampled by rejection
/// against the true density, nothing is approximated.
///
/// ## Tables
/// With `f(x) = exp(-x²/2)` (the unnormalised density of |X|), `r = 3.6541528853610088`
/// and `v = r f(r) + ∫_r^∞ f`, the area under `f` is covered by 256 horizontal layers of
/// area `v` each: boundaries `x[1] = r > x[2] > ... > x[255] > x[256] = 0` with
/// `x[i] (f(x[i+1]) - f(x[i])) = v`. Layer 0 is the base, `[0, x[0]] × [0, f(r)]` with
/// `x[0] = v / f(r)`: its part beyond `r` stands for the tail. Layer `i >= 1` is
/// `[0, x[i]] × [f(x[i]), f(x[i+1])]`. `init()` computes the tables (a pure function of
/// the constants above); they live in copy-on-write arrays, so copies of a sampler, or of a
/// strategy holding one, share them and cost nothing.
///
/// ## One variate
/// Draw one 64-bit output `w`: layer `i = w & 255`, sign from bit 8, `u` from the top 53
/// bits (`(w >> 11) · 2^-53`, in [0, 1)), and `x = u · x[i]`.
/// 1. `x < x[i+1]`: the point lies under the curve; return `±x` (98.5 % of draws).
/// 2. `i == 0` (and so `x >= r`): return `±(r + t)` with `t` from the exact tail
///    (Marsaglia 1964): repeat `t = -log(u1) / r`, `e = -log(u2)` until `2e > t²`, with
///    `u1, u2 = 1 - nextUnit()`.
/// 3. Otherwise the wedge: draw `y = f(x[i]) + nextUnit() · (f(x[i+1]) - f(x[i]))`; return
///    `±x` if `y < f(x)`, else start over with a new output.
///
/// Draws per variate: one output with probability 0.985 (step 1), on average 1.022 outputs
/// (a wedge costs one more output and, 45 % of the time, a restart; the tail, reached once
/// in 3,900 variates, two or more). The expected number of tries is
/// `256 v / sqrt(π/2) = 1.0067`. Results depend only on the generator's outputs and
/// the platform's `exp`, `log` and `erfc` (used to build the tables and in the rare wedge
/// and tail steps), like the other distributions in this folder.
///
/// This sampler is separate from `RandomNumberGenerator.nextNormal()` (Box–Muller, two
/// outputs per variate), whose outputs are frozen and feed the scenario simulator.
///
/// ```swift
/// let normal = ZigguratNormal()
/// var g = Xoshiro256StarStar(seed: 7)
/// let z = normal.next(using: &g)
/// ```
public struct ZigguratNormal: Sendable {
  /// Number of layers, a power of two (the layer index is the low 8 bits of an output).
  @inlinable public static var layers: Int { 256 }
  /// Where the tail begins: `x[1]`, the right edge of the base rectangle's part under `f`.
  @inlinable public static var tailStart: Double { 3.6541528853610088 }

  /// Layer boundaries `x[0] ... x[256]` (see the type's comment); `x[256] == 0`.
  @usableFromInline package let x: [Double]
  /// `f(x[i]) = exp(-x[i]²/2)` for `i` in `1...255`, with `f[0] = 0` and `f[256] = 1`.
  @usableFromInline package let f: [Double]

  /// Builds the tables: 255 square roots, logs and exps, once.
  ///
  /// - Complexity: O(256).
  public init() {
    (x, f) = ZigguratNormal.tables(layers: ZigguratNormal.layers, tailStart: ZigguratNormal.tailStart)
    precondition(x.count == ZigguratNormal.layers + 1 && f.count == ZigguratNormal.layers + 1)
  }

  /// The layer area `v`, the boundaries and the density values for `layers` layers whose
  /// tail starts at `tailStart`; pure. The top layer closes at 0 only for the matching
  /// `tailStart` (3.6541528853610088 for 256 layers); `closingError` measures the gap.
  static func tables(layers n: Int, tailStart r: Double) -> (x: [Double], f: [Double]) {
    let fr = exp(-0.5 * r * r)
    let v = layerArea(tailStart: r)
    var x = [Double](repeating: 0, count: n + 1)
    var f = [Double](repeating: 0, count: n + 1)
    x[0] = v / fr
    x[1] = r
    f[1] = fr
    for i in 1..<(n - 1) {
      f[i + 1] = f[i] + v / x[i]
      x[i + 1] = (-2 * log(f[i + 1])).squareRoot()
    }
    x[n] = 0
    f[n] = 1
    return (x, f)
  }

  /// `v = r f(r) + ∫_r^∞ exp(-t²/2) dt`, the area of each layer.
  static func layerArea(tailStart r: Double) -> Double {
    r * exp(-0.5 * r * r) + (Double.pi / 2).squareRoot() * erfc(r / 2.0.squareRoot())
  }

  /// How far the top layer's rectangle `[0, x[255]] × [f(x[255]), 1]` is from area `v`,
  /// relative to `v`: the only approximation in the tables (1e-13 with this libm).
  var closingError: Double {
    let n = ZigguratNormal.layers
    let v = ZigguratNormal.layerArea(tailStart: ZigguratNormal.tailStart)
    return abs(x[n - 1] * (1 - f[n - 1]) - v) / v
  }

  /// A standard normal variate; see the type's comment for the exact steps and draws.
  ///
  /// Always inlined, slow steps included: every step that needs the generator stays in the
  /// caller, so a generator held in a local variable stays in registers (a generator whose
  /// address reaches a call that is not inlined lives in memory, and each output then
  /// loads and stores its state). Only `exp` and `log` are called, on the rare paths.
  ///
  /// - Complexity: O(1) expected; 1.022 outputs per variate on average.
  @inlinable @inline(__always)
  public func next<G: RandomNumberGenerator>(using generator: inout G) -> Double {
    while true {
      let w = generator.next()
      let i = Int(truncatingIfNeeded: w & 0xFF)
      let xi = ZigguratNormal.unit(w) * ZigguratNormal.entry(x, i)
      if _fastPath(xi < ZigguratNormal.entry(x, i + 1)) { return ZigguratNormal.signed(xi, w) }
      if i == 0 { return ZigguratNormal.signed(tail(using: &generator), w) }
      let fi = ZigguratNormal.entry(f, i)
      let y = fi + ZigguratNormal.unit(generator.next()) * (ZigguratNormal.entry(f, i + 1) - fi)
      if y < exp(-0.5 * xi * xi) { return ZigguratNormal.signed(xi, w) }
    }
  }

  /// A variate of |X| conditioned on |X| >= r (Marsaglia 1964), exact: repeat
  /// `t = -log(u1) / r`, `e = -log(u2)` with `u1, u2 = 1 - nextUnit()` until `2e > t²`;
  /// return `r + t`.
  @inlinable @inline(__always)
  package func tail<G: RandomNumberGenerator>(using generator: inout G) -> Double {
    let r = ZigguratNormal.tailStart
    while true {
      let t = -log(1 - ZigguratNormal.unit(generator.next())) / r
      let e = -log(1 - ZigguratNormal.unit(generator.next()))
      if 2 * e > t * t { return r + t }
    }
  }

  /// `table[i]` for a layer index `i` in `0...256` (an output's low 8 bits, plus one at
  /// most), read without a bounds check: both tables have `layers + 1 = 257` entries
  /// (`init()` checks), and the two checks per variate were measurable in `bandit`.
  @inlinable @inline(__always)
  static package func entry(_ table: [Double], _ i: Int) -> Double {
    table.withUnsafeBufferPointer { $0[i] }
  }

  /// `nextUnit()` of the output `w`: its top 53 bits times 2^-53.
  @inlinable @inline(__always)
  static package func unit(_ w: UInt64) -> Double {
    Double(w >> 11) * 0x1p-53
  }

  /// `magnitude` (not negative) with the sign bit set from bit 8 of `w`.
  @inlinable @inline(__always)
  static package func signed(_ magnitude: Double, _ w: UInt64) -> Double {
    Double(bitPattern: magnitude.bitPattern | ((w & 0x100) << 55))
  }
}
