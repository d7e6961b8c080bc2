import SmartStackKit

/// `weekday-mfu`: most frequently used on the same kind of day.
///
/// Score of candidate `i` = the number of the person's earlier donations matched to `i`
/// whose local day (in the person's time zone) is of the same kind as the visit's: a
/// weekday (Monday to Friday) or a weekend day (Saturday, Sunday). Ties follow the
/// engine's rule (more recent, more donations, kind name).
struct WeekdayMFUStrategy: RankingStrategy {
  static let name = "weekday-mfu"
  static let summary =
    "the candidate with the most earlier donations on the visit's kind of day (weekday or weekend)"

  /// The strategy takes no parameters.
  init(parameters: StrategyParameters) {}

  /// Hours of week run from Monday 00h (0) to Sunday 23h (167): Monday to Friday are
  /// `0..<120`, the weekend `120..<168`. The counts per instance and hour of week are the
  /// engine's `hourOfWeekCount`, index `i * 168 + hour`.
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let hours = context.hourOfWeek < 120 ? 0..<120 : 120..<168
    let counts = context.features.hourOfWeekCount
    ranking.setCandidateScores(context) { i in
      Double(hours.reduce(0) { $0 + Int(counts[i * 168 + $1]) })
    }
    ranking.rule = "donations on this kind of day"
  }
}
