import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `scores`: ranks by scores from an outside model (`--scores FILE`, `ScoreFile`).
///
/// Score of candidate `i` = the latest score of `i` dated `<= now` in the person's
/// score file (`StrategySetup.scores`); an instance with no score yet = minus infinity,
/// so it ranks below every scored one, and candidates without a score (or with equal
/// scores) are ordered by the engine's tie-break (more recent donation, more donations,
/// kind name, stack position). The stack's rules (a pin, Smart Rotate off, the rotation
/// limit) are applied by the engine afterwards, as for every strategy.
///
/// Without a score file every candidate has no score; the commands refuse `scores`
/// without `--scores` (a usage error naming the option).
public struct ScoresStrategy: RankingStrategy {
  public static let info = StrategyInfo(
    name: "scores", summary: "the latest score from an outside model (--scores FILE); unscored candidates last")
  /// Each instance's series and the number of its scores dated `<= now` so far.
  @usableFromInline var series: [ScoreSeries] = []
  @usableFromInline var seen: [Int] = []

  @inlinable public init(parameters: StrategyParameters) {}

  @inlinable public mutating func begin(_ setup: StrategySetup) {
    series = setup.scores
    seen = Array(repeating: 0, count: setup.scores.count)
  }

  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let now = context.now
    // Time only moves forward: each cursor advances past the scores that took effect.
    for i in series.indices {
      let times = series[i].times
      var k = seen[i]
      while k < times.count && times[k] <= now { k += 1 }
      seen[i] = k
    }
    ranking.rule = "latest outside score"
    ranking.setCandidateScores(context) { i in
      guard i < series.count, case let k = seen[i], k > 0 else { return -Double.infinity }
      return series[i].values[k - 1]
    }
  }
}
