/// `relevance`: the highest active normalised relevance; never rotates to a suppressed
/// instance.
///
/// Score of candidate `i`, with `p(i)` its normalised percentile (DESIGN.md §4):
/// - `2 + p(i)` when `i` is `active` (score > 0 inside a window);
/// - `1` when `i` is the instance shown before the visit and not suppressed (nothing
///   active: stay);
/// - `0` when `i` is `none` or `expired`;
/// - `-0.5` when `i` is suppressed and shown before the visit; `-1` when suppressed.
/// So an active window always wins; without one the stack stays where it is; and a
/// suppressed instance can never beat the instance already shown, hence is never
/// rotated to.
public struct RelevanceStrategy: RankingStrategy {
  public static let name = "relevance"
  public static let summary = "the active window with the highest normalised relevance; never rotates to suppressed"
  public static let observesOutcomes = false
  public init(parameters: StrategyParameters) {}
  /// Relevance states and percentiles, and the instance shown before the visit.
  public var rankingInputs: RankingInputs { [.relevance, .shown] }
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    var anyActive = false
    let shown = Int(context.shown)
    ranking.setCandidateScores(context) { i in
      switch f.relevance[i] {
      case .active:
        anyActive = true
        return 2 + (f.percentile[i].isNaN ? 0 : f.percentile[i])
      case .suppressed:
        return i == shown ? -0.5 : -1
      case .none, .expired:
        return i == shown ? 1 : 0
      }
    }
    ranking.rule = anyActive ? "highest active relevance" : "no active relevance: stay"
  }
}
