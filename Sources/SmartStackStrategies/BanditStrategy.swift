import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `bandit`: Thompson sampling per instance and hour bucket, learning only from taps.
///
/// The day is cut into `buckets` equal parts of local time (24 / buckets hours each).
/// For each (instance, bucket) the strategy keeps `taps` and `misses` of the visits that
/// showed that instance in that bucket, as revealed by `observe(outcome:context:)` (a tap is a
/// visit whose shown instance the person then used). At a visit, the score of each
/// candidate is an independent draw from `Beta(prior-alpha + taps, prior-beta + misses)`
/// for the visit's bucket, from the strategy's own seeded stream (xoshiro256** seeded with
/// `StrategySetup.seed`), drawn in instance order. It never sees donations' content: only
/// whether what it showed was used.
///
/// The Beta draws come from `ZigguratNormal.beta(_:_:using:)`: Gamma variates by
/// Marsaglia–Tsang driven by a 256-layer ziggurat normal: when both shapes are at least 1,
/// about 4.1 outputs per draw and no transcendental function on 5 draws in 6 (the others
/// take the squeeze's logarithmic test); about 18 ns per draw. The Gamma constants of
/// each (instance, bucket) are kept as `GammaShape`s and refreshed only when an outcome
/// changes that arm's counts, so a visit computes no square root; an outcome reads the
/// new shape from a `GammaShapeTable` (counts below 4096), so it computes none either. Results (scores, shown
/// instances, hit rates) differ from versions before this sampler, which drew
/// `nextBeta(_:_:)` (Box–Muller normals): same definition, different random draws.
///
/// - Complexity: `rank` is O(instances), one Beta draw per candidate; `observe` is O(1).
public struct BanditStrategy: OutcomeLearningStrategy {
  public static let info = StrategyInfo(
    name: "bandit", summary: "Thompson sampling per instance and hour bucket, learning from taps only",
    parameters: [
      StrategyParameterSpec(
        "buckets", default: 6, range: 1...24, integer: true,
        help: "equal parts of the local day with separate statistics; must divide 24"),
      StrategyParameterSpec("prior-alpha", default: 1, range: 0.001...1000, help: "Beta prior successes"),
      StrategyParameterSpec("prior-beta", default: 1, range: 0.001...1000, help: "Beta prior failures"),
    ])

  /// One (instance, bucket): its counts and its Beta(alpha + taps, beta + misses), ready
  /// to draw from.
  @usableFromInline struct Arm: Sendable {
    @usableFromInline var success: GammaShape
    @usableFromInline var failure: GammaShape
    @usableFromInline var taps = 0
    @usableFromInline var misses = 0

    @inlinable init(successes: GammaShapeTable, failures: GammaShapeTable) {
      success = successes[0]
      failure = failures[0]
    }

    /// Counts one revealed visit and refreshes the shape it changed:
    /// `GammaShape(alpha + taps)` read from `successes` (or `beta + misses` from
    /// `failures`), the same bits as computing it.
    @inline(__always)
    @inlinable mutating func record(tapped: Bool, successes: GammaShapeTable, failures: GammaShapeTable) {
      if tapped {
        taps += 1
        success = successes[taps]
      } else {
        misses += 1
        failure = failures[misses]
      }
    }
  }

  /// How many shapes `successes` and `failures` precompute: counts up to 4095 per arm
  /// (the reference workload's busiest arms stay far below) refresh by a table read.
  @inlinable static var shapeTableCount: Int { 4096 }

  @usableFromInline let buckets: Int
  @usableFromInline let alpha: Double
  @usableFromInline let beta: Double
  /// `GammaShape(alpha + n)` and `GammaShape(beta + n)` for small counts `n`, built once
  /// per strategy value and shared by its copies.
  @usableFromInline let successes: GammaShapeTable
  @usableFromInline let failures: GammaShapeTable
  /// Shapes are prior + count, so with both priors at least 1 no arm's shape is ever
  /// below 1 and `rank` draws with `ZigguratNormal.betaOfUnboostedShapes` (the same
  /// draws as `beta`, without its shape tests).
  @usableFromInline let unboosted: Bool
  /// The ziggurat tables, built once per strategy value and shared by its copies.
  @usableFromInline let normal = ZigguratNormal()
  /// Index `instance * buckets + bucket`.
  @usableFromInline var arms: [Arm] = []
  @usableFromInline var rng = Xoshiro256StarStar(seed: 0)

  public init(parameters: StrategyParameters) throws {
    buckets = Int(parameters["buckets"])
    guard 24 % buckets == 0 else {
      throw StrategyError("strategy 'bandit': buckets=\(buckets) does not divide 24 (use 1, 2, 3, 4, 6, 8, 12 or 24)")
    }
    alpha = parameters["prior-alpha"]
    beta = parameters["prior-beta"]
    successes = GammaShapeTable(base: alpha, count: BanditStrategy.shapeTableCount)
    failures = GammaShapeTable(base: beta, count: BanditStrategy.shapeTableCount)
    unboosted = alpha >= 1 && beta >= 1
  }

  public mutating func begin(_ setup: StrategySetup) {
    arms = Array(repeating: Arm(successes: successes, failures: failures), count: setup.instanceCount * buckets)
    rng = Xoshiro256StarStar(seed: setup.seed)
  }

  /// The bucket of a local hour: `hourOfDay / (24 / buckets)`, computed as
  /// `hourOfDay * buckets / 24` (equal, as `buckets` divides 24), a division by a constant
  /// instead of two by a variable.
  @inlinable @inline(__always) func bucket(_ hourOfDay: Int) -> Int { hourOfDay * buckets / 24 }

  @inlinable public mutating func observe(outcome feedback: VisitFeedback, context: StackContext) {
    guard feedback.shown >= 0 else { return }
    let k = Int(feedback.shown) * buckets + bucket(feedback.hourOfDay)
    arms[k].record(tapped: feedback.tapped, successes: successes, failures: failures)
  }

  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let b = bucket(context.hourOfDay)
    let stride = buckets
    let n = context.instanceCount
    let normal = normal
    let unboosted = unboosted
    var rng = rng
    arms.withUnsafeBufferPointer { arms in
      ranking.scores.withUnsafeMutableBufferPointer { scores in
        // The closure reaches `rng` by address; a local copy keeps the generator's state
        // in registers across the candidates instead of a load and store per draw.
        var g = rng
        if unboosted {
          for i in 0..<n where context.isCandidate(i) {
            let arm = arms[i * stride + b]
            scores[i] = normal.betaOfUnboostedShapes(arm.success, arm.failure, using: &g)
          }
        } else {
          for i in 0..<n where context.isCandidate(i) {
            let arm = arms[i * stride + b]
            scores[i] = normal.beta(arm.success, arm.failure, using: &g)
          }
        }
        rng = g
      }
    }
    self.rng = rng
    ranking.rule = "Thompson draw"
  }
}
