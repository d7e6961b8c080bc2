import Foundation

/// `hour-of-week`: what the person uses at this hour on this weekday, optionally with
/// recent donations weighing more.
///
/// Score of candidate `i` = Σ over the person's earlier donations `d` matched to `i`
/// whose local hour of week equals the visit's of `2^(-(now - t_d) / H)`, where `H` is
/// `half-life-days` in milliseconds. `half-life-days = 0` (the default) means no decay:
/// the score is the plain count.
///
/// - Complexity: O(1) per donation and per candidate at a visit; memory O(n × 168).
public struct HourOfWeekStrategy: RankingStrategy {
  public static let name = "hour-of-week"
  public static let summary = "the most earlier donations in the visit's local hour of week, optionally decayed"
  public static let observesOutcomes = false
  public static let parameterSpecs = [
    StrategyParameterSpec(
      "half-life-days", default: 0, range: 0...3650,
      help: "exponential decay half-life in days; 0 = no decay")
  ]
  let halfLife: Double
  var weight: [Double] = []
  var updated: [Int64] = []

  public init(parameters: StrategyParameters) {
    halfLife = parameters["half-life-days"] * 86_400_000
  }

  /// Without decay, donation counts of the visit's local hour of week; with decay the
  /// scores change with `now`, so at every visit.
  public var rankingInputs: RankingInputs { halfLife > 0 ? .all : [.hourOfWeek] }

  public mutating func begin(_ setup: StrategySetup) {
    weight = Array(repeating: 0, count: setup.instanceCount * 168)
    updated = Array(repeating: 0, count: setup.instanceCount * 168)
  }

  public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    guard halfLife > 0, case .donation(_, let instances) = event else { return }
    for i in instances {
      let k = Int(i) * 168 + context.hourOfWeek
      weight[k] = decayed(k, to: context.now) + 1
      updated[k] = context.now
    }
  }

  @inline(__always) func decayed(_ k: Int, to now: Int64) -> Double {
    weight[k] == 0 ? 0 : weight[k] * exp2(-Double(now - updated[k]) / halfLife)
  }

  /// Each score reads its own instance only (without decay the engine rescores the
  /// instance a donation matched; with decay it ranks at every visit anyway).
  public static let scoresArePerInstance = true

  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in score(i, context) }
    ranking.rule = "donations this hour of week"
  }
  @inline(__always)
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    ranking.setScores(of: changed, context) { i in score(i, context) }
  }
  @inline(__always)
  func score(_ i: Int, _ context: StackContext) -> Double {
    let h = context.hourOfWeek
    return halfLife > 0
      ? decayed(i * 168 + h, to: context.now)
      : Double(context.features.hourOfWeekCount[i &* 168 &+ h])
  }
}
