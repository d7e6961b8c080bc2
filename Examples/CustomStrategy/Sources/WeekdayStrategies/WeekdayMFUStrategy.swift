import SmartStackKit

/// `weekday-mfu`: most frequently used on the same kind of day.
///
/// Score of candidate `i` = the number of the person's earlier donations matched to `i`
/// whose local day (in the person's time zone) is of the same kind as the visit's: a
/// weekday (Monday to Friday) or a weekend day (Saturday, Sunday). Ties follow the
/// engine's rule (more recent, more donations, kind name).
///
/// A `PureRankingStrategy`: its scores read only the donation counts and the visit's
/// hour of week (its `reads`), so the engine reuses a decision until a donation or the
/// next hour. `Tests/WeekdayStrategiesTests` checks that with `StrategyConformance`.
public struct WeekdayMFUStrategy: PureRankingStrategy {
  public static let info = StrategyInfo(
    name: "weekday-mfu",
    summary: "the candidate with the most earlier donations on the visit's kind of day (weekday or weekend)")

  /// The strategy takes no parameters.
  public init(parameters: StrategyParameters) {}

  public var reads: VisitInputs { [.donations, .hourOfWeek] }

  /// Hours of week run from Monday 00h (0) to Sunday 23h (167): Monday to Friday are
  /// `0..<120`, the weekend `120..<168`.
  public func scores(_ visit: VisitView, into ranking: inout Ranking) {
    let hours = visit.hourOfWeek < 120 ? 0..<120 : 120..<168
    ranking.setCandidateScores(visit) { i in
      Double(hours.reduce(0) { $0 + Int(visit.donations(i, inHourOfWeek: $1)) })
    }
    ranking.rule = "donations on this kind of day"
  }
}
