/// `mru`: most recently used.
///
/// Score of candidate `i` = the time (epoch ms) of the person's latest donation matched
/// to `i` before the visit; never donated = minus infinity. Ties follow the engine's
/// rule (more recent, more donations, kind name).
public struct MostRecentlyUsedStrategy: RankingStrategy {
  public static let name = "mru"
  public static let summary = "the candidate donated most recently"
  public static let observesOutcomes = false
  public init(parameters: StrategyParameters) {}
  /// Last donations only: a decision stands until the next donation.
  public var rankingInputs: RankingInputs { [] }
  /// Each score is its own instance's last donation: a donation rescores the instance
  /// it matched.
  public static let scoresArePerInstance = true
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setCandidateScores(context) { i in Self.score(i, f) }
    ranking.rule = "most recent donation"
  }
  @inline(__always)
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setScores(of: changed, context) { i in Self.score(i, f) }
  }
  @inline(__always)
  static func score(_ i: Int, _ f: StackFeatures) -> Double {
    f.lastDonation[i] == Int64.min ? -Double.infinity : Double(f.lastDonation[i])
  }
}
