import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `oracle`: knows what the person wants; the upper bound for every other strategy.
///
/// Score of candidate `i` = +infinity when `i` is one of the visit's targets, otherwise
/// its number of earlier donations (as `mfu`). Its hit rate equals the coverage: every
/// target visit whose target is a candidate is a hit. It is the only built-in strategy
/// that sees the target (`TargetAwareStrategy`), and so the only one exempt from the
/// stack's rules.
public struct OracleStrategy: TargetAwareStrategy {
  public static let info = StrategyInfo(
    name: "oracle", summary: "shows the target whenever it is in the stack (upper bound; sees the future)")
  public init(parameters: StrategyParameters) {}
  @inline(__always)
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in Double(context.features.donationCount[i]) }
    for t in context.target where context.isCandidate(Int(t)) {
      ranking.scores[Int(t)] = .infinity
    }
    ranking.rule = context.target.isEmpty ? "no target: most donations" : "knows the target"
  }
}
