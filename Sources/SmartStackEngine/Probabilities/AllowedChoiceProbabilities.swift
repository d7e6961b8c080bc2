import SmartStackBase
import SmartStackData

/// A stochastic strategy that can state, before `rank`, the probability of each
/// candidate being the *first allowed* candidate of the order its next `rank` produces.
///
/// "Allowed" is a subset of the candidates chosen by the caller. With every candidate
/// allowed this is `StochasticRankingStrategy.choiceProbabilities` (the strategy's
/// choice); with fewer it is what the stack shows when suppression binds (`StackRules`:
/// the first instance of the strategy's order that is not suppressed, or the one on top).
/// The exposure log needs both: the probability of what was actually *shown*.
///
/// Built-ins: `random`, `epsilon`, `softmax`.
public protocol AllowedChoiceProbabilities: StochasticRankingStrategy {
  /// Writes into `probabilities[i]` the probability that candidate `i` is the first
  /// instance with `allowed[i]` in the order of the next `rank(context, into:)` (the
  /// engine's order: score, then tie-break), in the strategy's current state; 0 where
  /// `allowed[i]` is false. `allowed` has one entry per instance and is true only for
  /// candidates; when it holds at least one true entry the written entries sum to 1.
  ///
  /// - Complexity: O(instances) plus one copy-and-rank of a wrapped base strategy.
  func choiceProbabilities(_ context: StackContext, allowed: [Bool], into probabilities: inout [Double])
}

extension AllowedChoiceProbabilities {
  /// `choiceProbabilities(context, allowed: candidates, into:)`.
  @inlinable public func choiceProbabilities(_ context: StackContext, into probabilities: inout [Double]) {
    choiceProbabilities(context, allowed: context.features.available, into: &probabilities)
  }
}

/// The engine's order applied to a set of scores, for strategies that must predict it.
public enum EngineOrder {
  /// The first instance `i` with `allowed[i]` in the engine's order of `scores` (higher
  /// score first, NaN as minus infinity, then `StackFeatures.tieBreakPrecedes`); -1 when
  /// nothing is allowed.
  ///
  /// - Complexity: O(instances).
  @inlinable public static func first(_ scores: [Double], allowed: [Bool], features: StackFeatures) -> Int {
    var best = -1
    for i in 0..<min(scores.count, allowed.count) where allowed[i] {
      if best < 0 || features.precedes(i, score: scores[i], best, score: scores[best]) { best = i }
    }
    return best
  }

  /// The number of true entries of `allowed`.
  @inlinable public static func count(_ allowed: [Bool]) -> Int {
    var n = 0
    for a in allowed where a { n += 1 }
    return n
  }

  /// A fresh ranking for `context`: 0 for every candidate, minus infinity elsewhere (what
  /// the engine hands `rank`).
  @inlinable public static func freshRanking(_ context: StackContext) -> Ranking {
    var ranking = Ranking(instanceCount: context.instanceCount)
    ranking.setCandidateScores(context) { _ in 0 }
    return ranking
  }

  /// The scores a copy of `strategy` would write now (the strategy itself is unchanged).
  @inlinable public static func peekScores<S: RankingStrategy>(_ strategy: S, _ context: StackContext) -> [Double] {
    var copy = strategy
    var ranking = freshRanking(context)
    copy.rank(context, into: &ranking)
    return ranking.scores
  }

  /// The probability of each allowed instance being first in `strategy`'s next order:
  /// its own when it is an `AllowedChoiceProbabilities`, else 1 on the first allowed of
  /// a copy's scores (a deterministic strategy).
  @inlinable public static func probabilities<S: RankingStrategy>(
    _ strategy: S, _ context: StackContext, allowed: [Bool], into probabilities: inout [Double]
  ) {
    if let stochastic = strategy as? any AllowedChoiceProbabilities {
      stochastic.choiceProbabilities(context, allowed: allowed, into: &probabilities)
      return
    }
    for i in probabilities.indices { probabilities[i] = 0 }
    let top = first(peekScores(strategy, context), allowed: allowed, features: context.features)
    if top >= 0 && top < probabilities.count { probabilities[top] = 1 }
  }
}
