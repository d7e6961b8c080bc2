import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `round-robin`: shows the next candidate in stack order at every visit.
///
/// With `s` the instance shown before the visit, the shown one is the first candidate
/// after `s` in stack order, wrapping around (the first candidate when nothing was
/// shown). Score of candidate `i` = `-((i - s - 1) mod n)` for `n` instances.
public struct RoundRobinStrategy: RankingStrategy {
  public static let info = StrategyInfo(
    name: "round-robin", summary: "the next candidate after the current top in stack order, every visit")
  public init(parameters: StrategyParameters) {}
  @inline(__always)
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let n = context.instanceCount
    let s = Int(context.shown)
    ranking.setCandidateScores(context) { i in
      let distance = s < 0 ? i : ((i - s - 1) % n + n) % n
      return -Double(distance)
    }
    ranking.rule = "next in turn"
  }
}
