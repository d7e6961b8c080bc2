/// `static`: the person's manual stack order; never rotates on its own.
///
/// Score of candidate `i` = `-i` (its position in the stack's manual order), so the
/// first candidate in stack order is always shown. With a stack built from donations
/// (`--stack all`) the manual order is the order of the person's first donation of
/// each kind, so the top is the first kind ever donated.
public struct StaticStrategy: RankingStrategy {
  public static let name = "static"
  public static let summary = "the manual stack order: the first candidate is always shown (no rotation)"
  public static let observesOutcomes = false
  /// Scores never read donations: a donation only moves the tie-break order.
  public static let scoresDependOnDonations = false
  public init(parameters: StrategyParameters) {}
  /// The manual order only: a decision stands until the candidates change.
  public var rankingInputs: RankingInputs { [] }
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in -Double(i) }
    ranking.rule = "manual order"
  }
}
