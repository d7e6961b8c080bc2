import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `epsilon`: epsilon-greedy around a base strategy (`epsilon:rate=0.1:base=mfu`).
///
/// At each visit the base ranks first, always (so a stochastic or learning base advances
/// exactly as it would alone). Then one uniform draw `u` in [0, 1) from the strategy's own
/// xoshiro256** stream decides: with `u < rate` (*explore*) every candidate's score is
/// replaced by an independent uniform draw from the same stream, in instance order (rule
/// `epsilon: explore`); otherwise (*exploit*) the base's scores and rule stand.
///
/// Probability of candidate `i` being the choice (`choiceProbabilities`), and more
/// generally of being the first of an allowed subset A of the candidates:
/// `rate / |A| + (1 - rate) * q(i)`, where `q` is the base's own probability when the
/// base is an `AllowedChoiceProbabilities` (e.g. `random`, `softmax`), else 1 on the
/// base's first allowed candidate in the engine's order (score, then tie-break) and 0
/// elsewhere. Exact up to ties between 53-bit draws (probability below 2^-50).
///
/// The base gets `StrategySetup` unchanged; the strategy's own stream is seeded with
/// `StreamSeed.derive(setup.seed, StreamSeed.stableHash("epsilon"))`, so it never shares draws with the
/// base. Events and outcomes are passed to the base.
///
/// - Complexity: `rank` is the base's plus O(instances); `choiceProbabilities` is one
///   copy-and-rank of the base plus O(instances).
public struct EpsilonGreedyStrategy<Base: RankingStrategy>: WrappingStrategy {
  public static var info: StrategyInfo {
    StrategyInfo(
      name: "epsilon", summary: "epsilon-greedy: a uniformly random candidate with probability rate, else the base's",
      parameters: [
        StrategyParameterSpec("rate", default: 0.1, range: 0...1, help: "probability of a uniformly random candidate")
      ])
  }

  public var base: Base
  public let rate: Double
  public var stream = Xoshiro256StarStar(seed: 0)
  public static var parameterName: String { "rate" }

  /// Epsilon-greedy around `base` with exploration probability `rate` (0...1).
  public init(base: Base, value rate: Double) {
    self.base = base
    self.rate = rate
  }

  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    base.rank(context, into: &ranking)
    if stream.nextUnit() < rate {
      ranking.setCandidateScores(context) { _ in stream.nextUnit() }
      ranking.rule = "epsilon: explore"
    }
  }

  @inlinable public func choiceProbabilities(_ context: StackContext, allowed: [Bool], into probabilities: inout [Double]) {
    EngineOrder.probabilities(base, context, allowed: allowed, into: &probabilities)
    let n = EngineOrder.count(allowed)
    guard n > 0 else { return }
    for i in probabilities.indices where i < allowed.count && allowed[i] {
      probabilities[i] = rate / Double(n) + (1 - rate) * probabilities[i]
    }
  }
}
