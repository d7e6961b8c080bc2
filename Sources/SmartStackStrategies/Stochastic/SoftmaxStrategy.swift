import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `softmax`: a candidate drawn with probability proportional to `exp(score / temperature)`
/// of a base strategy's scores (`softmax:temperature=0.5:base=hour-of-week`).
///
/// Definition. The base ranks (always, as it would alone). Each candidate's base score
/// `s` is clamped to `c = min(max(s, -1e150), 1e150)` (NaN and minus infinity become
/// -1e150: such a candidate is drawn only when every other candidate is as low). Let
/// `m = max c` over the candidates. The candidate's score is replaced by
/// `(c - m) / temperature + G`, where `G = -log(-log(u))` is a standard Gumbel draw from
/// one uniform `u` in [0, 1) of the strategy's own xoshiro256** stream, in instance
/// order (rule `softmax draw`). By the Gumbel-max property the first of any allowed
/// subset A of the candidates is `i` with probability
/// `exp((c_i - m_A) / temperature) / Σ_{j ∈ A} exp((c_j - m_A) / temperature)`, `m_A`
/// the largest `c` in A (this is `choiceProbabilities`; exact up to ties between
/// continuous draws, an event of probability 0 but for the 2^-53 granularity of `u`).
/// A small temperature approaches the base's argmax; a large one, uniform.
///
/// The base gets `StrategySetup` unchanged; the strategy's own stream is seeded with
/// `StreamSeed.derive(setup.seed, StreamSeed.stableHash("softmax"))`. Events and outcomes
/// are passed to the base.
///
/// - Complexity: `rank` is the base's plus O(instances) with one `log` pair per
///   candidate; `choiceProbabilities` is one copy-and-rank of the base plus O(instances).
public struct SoftmaxStrategy<Base: RankingStrategy>: WrappingStrategy {
  public static var info: StrategyInfo {
    StrategyInfo(
      name: "softmax", summary: "a candidate drawn with probability proportional to exp(base score / temperature)",
      parameters: [
        StrategyParameterSpec(
          "temperature", default: 1, range: 0.01...1000, help: "softmax temperature, in units of the base's score")
      ])
  }

  public var base: Base
  public let temperature: Double
  public var stream = Xoshiro256StarStar(seed: 0)
  public static var parameterName: String { "temperature" }

  /// Softmax over `base`'s scores at `temperature` (0.01...1000).
  public init(base: Base, value temperature: Double) {
    self.base = base
    self.temperature = temperature
  }

  /// A base score clamped to ±1e150, NaN as -1e150.
  @inlinable static func clamped(_ s: Double) -> Double { s.isNaN ? -1e150 : min(max(s, -1e150), 1e150) }

  /// The largest clamped score among the instances with `mask[i]`, or nil.
  @inlinable static func largest(_ scores: [Double], mask: [Bool]) -> Double? {
    var m: Double? = nil
    for i in 0..<min(scores.count, mask.count) where mask[i] {
      let c = clamped(scores[i])
      if m == nil || c > m! { m = c }
    }
    return m
  }

  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    base.rank(context, into: &ranking)
    guard let m = Self.largest(ranking.scores, mask: context.features.available) else { return }
    let t = temperature
    let scores = ranking.scores
    ranking.setCandidateScores(context) { i in
      (Self.clamped(scores[i]) - m) / t - Foundation.log(-Foundation.log(stream.nextUnit()))
    }
    ranking.rule = "softmax draw"
  }

  @inlinable public func choiceProbabilities(_ context: StackContext, allowed: [Bool], into probabilities: inout [Double]) {
    let scores = EngineOrder.peekScores(base, context)
    for i in probabilities.indices { probabilities[i] = 0 }
    guard let m = Self.largest(scores, mask: allowed) else { return }
    var total = 0.0
    for i in 0..<min(scores.count, allowed.count, probabilities.count) where allowed[i] {
      probabilities[i] = Foundation.exp((Self.clamped(scores[i]) - m) / temperature)
      total += probabilities[i]
    }
    for i in probabilities.indices { probabilities[i] /= total }
  }
}
