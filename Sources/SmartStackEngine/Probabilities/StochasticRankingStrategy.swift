import SmartStackBase
import SmartStackData

/// A strategy that draws its choice at random and can state, before `rank`, the
/// probability of each candidate being its choice (what off-policy evaluation weighs
/// logged visits by).
///
/// A deterministic strategy does not conform: its probability is 1 on its choice and 0
/// elsewhere.
public protocol StochasticRankingStrategy: RankingStrategy {
  /// Writes into `probabilities[i]` the probability that `rank(context, into:)`, called
  /// next in the strategy's current state, makes candidate `i` its choice (before the
  /// stack's rules); 0 for non-candidates. `probabilities` has one entry per instance
  /// and the candidates' entries sum to 1 (when there is any candidate).
  func choiceProbabilities(_ context: StackContext, into probabilities: inout [Double])
}
