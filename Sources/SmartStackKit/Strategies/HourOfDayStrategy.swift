/// `hour-of-day`: what the person uses at this hour.
///
/// Score of candidate `i` = the number of the person's earlier donations matched to `i`
/// whose local hour of day (in the person's time zone) equals the visit's local hour.
public struct HourOfDayStrategy: RankingStrategy {
  public static let name = "hour-of-day"
  public static let summary = "the candidate with the most earlier donations in the visit's local hour"
  public static let observesOutcomes = false
  public init(parameters: StrategyParameters) {}
  /// Donation counts of the visit's local hour.
  public var rankingInputs: RankingInputs { [.hourOfDay] }
  /// Each score is its own instance's count: a donation rescores the instance it matched.
  public static let scoresArePerInstance = true
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    let h = context.hourOfDay
    ranking.setCandidateScores(context) { i in Self.score(i, h, f) }
    ranking.rule = "donations this hour of day"
  }
  @inline(__always)
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    let h = context.hourOfDay
    ranking.setScores(of: changed, context) { i in Self.score(i, h, f) }
  }
  @inline(__always)
  static func score(_ i: Int, _ hour: Int, _ f: StackFeatures) -> Double { Double(f.hourOfDayCount[i &* 24 &+ hour]) }
}
