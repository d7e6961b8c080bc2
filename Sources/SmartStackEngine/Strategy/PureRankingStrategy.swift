import SmartStackBase
import SmartStackData

/// A strategy whose scores are a non-mutating function of the visit's declared inputs
/// and of its own state: the engine reuses the last decision while neither changed.
///
/// ```swift
/// struct FirstDonated: PureRankingStrategy {
///   static let info = StrategyInfo(name: "first-donated", summary: "the candidate donated first")
///   var reads: VisitInputs { [] }
///   var order: [Int32] = []          // instances by first donation, learnt in observe
///   init(parameters: StrategyParameters) {}
///   mutating func observe(_ event: ObservedEvent, context: StackContext) {
///     if case .donation(_, let matched) = event, let i = matched.first, !order.contains(i) { order.append(i) }
///   }
///   func scores(_ visit: VisitView, into ranking: inout Ranking) {
///     for (rank, i) in order.enumerated() where visit.isCandidate(Int(i)) { ranking.scores[Int(i)] = -Double(rank) }
///   }
/// }
/// ```
///
/// What is checked rather than promised:
/// - `scores` cannot change the strategy (it is not `mutating`), so it draws no random
///   numbers and keeps no state of its own between visits;
/// - it reads the visit only through `VisitView`, which traps on an input missing from
///   `reads`;
/// - whatever `begin`/`observe` change is seen by `==` (synthesised for a struct of
///   `Equatable` members): after each event the engine compares the strategy with its
///   state before, and ranks afresh if they differ.
///
/// The engine then reuses the last decision at a visit where the candidates, the
/// declared inputs and the strategy are as they were, which is identical to calling
/// `scores` again. `StrategyConformance` checks this against ranking at every visit.
public protocol PureRankingStrategy: RankingStrategy, Equatable {
  /// The inputs `scores` may read (`VisitInputs`); evaluated once per person, after
  /// `begin`.
  var reads: VisitInputs { get }

  /// Scores the candidates, as `rank` does, from the view alone.
  func scores(_ visit: VisitView, into ranking: inout Ranking)
}

extension PureRankingStrategy {
  @inline(__always)
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    context.withVisitView(reads: reads, strategy: Self.self) { scores($0, into: &ranking) }
  }
}

/// A strategy that scores each instance from that instance's own features alone: the
/// engine rescores just the instances whose inputs changed (a donation matched it, its
/// relevance changed, it stopped or started being the shown one).
///
/// ```swift
/// struct MostDonations: InstanceScoringStrategy {
///   static let info = StrategyInfo(name: "most-donations", summary: "the candidate with the most donations")
///   var reads: VisitInputs { .donations }
///   init(parameters: StrategyParameters) {}
///   func score(_ instance: InstanceView) -> Double { Double(instance.donationCount) }
/// }
/// ```
///
/// What is checked rather than promised: `score` is not `mutating` and sees one
/// instance through `InstanceView`, which traps on an input missing from `reads`; the
/// strategy's own state may change only in `begin`/`observe`, and `==` tells the engine
/// when it did (it then rescores every instance). `StrategyConformance` checks the
/// result against ranking at every visit.
public protocol InstanceScoringStrategy: RankingStrategy, Equatable {
  /// The inputs `score` and `rule(top:)` may read (`VisitInputs`); evaluated once per
  /// person, after `begin`.
  var reads: VisitInputs { get }

  /// The score of one candidate at the visit; higher is shown first.
  func score(_ instance: InstanceView) -> Double

  /// The rule that names a decision whose top candidate is `top` (nil: no candidate),
  /// for `--explain` traces. Default: `"score"`.
  func rule(top: InstanceView?) -> StaticString
}

extension InstanceScoringStrategy {
  @inlinable public func rule(top: InstanceView?) -> StaticString { "score" }

  /// Scores every candidate with `score` and names the decision with `rule(top:)`. The
  /// engine calls `score` and `rule(top:)` itself; this serves direct callers.
  ///
  /// - Complexity: O(n) for n instances, plus the calls to `score`.
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    scoreCandidates(context, into: &ranking)
    var top = -1
    for i in 0..<context.instanceCount where context.isCandidate(i) {
      if top < 0 || context.features.precedes(i, top, scores: ranking.scores) { top = i }
    }
    if let rule = decisionRule(top: top, context) { ranking.rule = rule }
  }

  /// Every candidate's score from `score`, read through one instance view each.
  @inline(__always)
  @inlinable package func scoreCandidates(_ context: StackContext, into ranking: inout Ranking) {
    let strategy = self
    context.withInstanceViews(reads: reads, strategy: Self.self) { view in
      ranking.setCandidateScores(context) { i in strategy.score(view(i)) }
    }
  }

  /// The scores of the instances in `changed` alone.
  @inline(__always)
  @inlinable package func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    context.withInstanceViews(reads: reads, strategy: Self.self) { view in
      ranking.setScores(of: changed, context) { i in score(view(i)) }
    }
  }

  /// `rule(top:)` for the instance at index `top` (-1: none).
  @inline(__always)
  @inlinable package func decisionRule(top: Int, _ context: StackContext) -> StaticString? {
    guard top >= 0 else { return rule(top: nil) }
    return context.withInstanceViews(reads: reads, strategy: Self.self) { view in rule(top: view(top)) }
  }
}
