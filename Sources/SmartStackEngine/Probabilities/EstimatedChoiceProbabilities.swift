import SmartStackBase
import SmartStackData

/// A strategy that draws at random without a closed-form probability per candidate, and
/// can *estimate* it from extra draws on a separate stream (an exposure log marks such
/// propensities `estimated`).
public protocol EstimatedChoiceProbabilities: RankingStrategy {
  /// The number of extra draws an estimate takes.
  static var propensityDraws: Int { get }
  /// Writes into `probabilities[i]` an estimate of the probability that candidate `i` is
  /// the first instance with `allowed[i]` in the order of the next `rank`, in the
  /// strategy's current state, drawing from `stream` only (the strategy's own stream is
  /// untouched); 0 where `allowed[i]` is false; the written entries sum to 1.
  func estimatedChoiceProbabilities(
    _ context: StackContext, allowed: [Bool], stream: inout Xoshiro256StarStar, into probabilities: inout [Double])
}
