import SmartStackBase
import SmartStackData

/// How the engine runs one strategy type: the engine's side of the strategy boundary.
///
/// A strategy declares what it is by the protocols it conforms to (`PureRankingStrategy`,
/// `InstanceScoringStrategy`, `OutcomeLearningStrategy`, `TargetAwareStrategy`); the
/// engine wraps it in the path of that refinement and calls only the path. Nothing here
/// is visible to a strategy author or can be overridden by one: a strategy cannot claim
/// a path its conformances do not give it, and the compiler checks each path's
/// requirements against the strategy's.
///
/// A path is chosen once per run:
/// - statically, where the strategy's concrete type is known (`StrategyRunner`'s
///   initialisers, one per refinement, picked by overload resolution): the engine's code
///   is then specialised for the path and the strategy;
/// - at run time otherwise (`RankingStrategy.openEnginePath(_:)`, by conformance casts):
///   the same results through unspecialised generic code.
///
/// Precedence when a type conforms to several refinements: target-aware, then outcome
/// learning (both rank at every visit), then instance scoring, then pure.
@usableFromInline package protocol EnginePath: Sendable {
  associatedtype Strategy: RankingStrategy
  /// Wraps `strategy`.
  init(_ strategy: Strategy)
  /// The wrapped strategy.
  var strategy: Strategy { get set }
  /// The refinement this path runs.
  static var kind: StrategyPath { get }
  /// True for `OutcomeLearningStrategy`: the drivers schedule outcome reveals.
  static var observesOutcomes: Bool { get }
  /// True for `TargetAwareStrategy`: sees the target, exempt from the stack's rules.
  static var seesTarget: Bool { get }
  /// The inputs the scores may read (`.all` for strategies that rank at every visit).
  var reads: VisitInputs { get }
  /// True when `self` and `other` would score every visit alike (the strategy's `==`
  /// on the reuse paths; false otherwise).
  func scoresAlike(_ other: Self) -> Bool
  /// Sets the candidates' scores (without the rule for instance scoring).
  mutating func score(_ context: StackContext, into ranking: inout Ranking)
  /// Rescores the instances in `changed` only (instance scoring; never called otherwise).
  func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking)
  /// The rule naming a decision whose top is `top` (-1: none) for instance scoring; nil
  /// for the others (the rule `rank` wrote stands).
  func rule(top: Int, _ context: StackContext) -> StaticString?
  /// Passes a revealed outcome to an `OutcomeLearningStrategy`; nothing otherwise.
  mutating func observe(outcome: VisitFeedback, context: StackContext)
}

extension EnginePath {
  @inlinable package static var observesOutcomes: Bool { false }
  @inlinable package static var seesTarget: Bool { false }
  @inlinable package var reads: VisitInputs { .all }
  @inlinable package func scoresAlike(_ other: Self) -> Bool { false }
  @inline(__always)
  @inlinable package mutating func score(_ context: StackContext, into ranking: inout Ranking) {
    strategy.rank(context, into: &ranking)
  }
  @inlinable package func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    preconditionFailure("\(Strategy.name): only an InstanceScoringStrategy is rescored instance by instance")
  }
  @inline(__always)
  @inlinable package func rule(top: Int, _ context: StackContext) -> StaticString? { nil }
  @inlinable package mutating func observe(outcome: VisitFeedback, context: StackContext) {}
}

/// A plain `RankingStrategy`: `rank` at every visit.
@usableFromInline package struct EveryVisitPath<Strategy: RankingStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .everyVisit }
}

/// A `TargetAwareStrategy` (the oracle): `rank` at every visit, with the target.
@usableFromInline package struct TargetAwarePath<Strategy: TargetAwareStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .everyVisit }
  @inlinable package static var seesTarget: Bool { true }
}

/// An `OutcomeLearningStrategy`: `rank` at every visit, and the revealed outcomes.
@usableFromInline package struct OutcomeLearningPath<Strategy: OutcomeLearningStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .everyVisit }
  @inlinable package static var observesOutcomes: Bool { true }
  @inline(__always)
  @inlinable package mutating func observe(outcome: VisitFeedback, context: StackContext) {
    strategy.observe(outcome: outcome, context: context)
  }
}

/// A strategy both target-aware and outcome-learning: `rank` at every visit, with the
/// target and the revealed outcomes.
@usableFromInline package struct TargetAwareLearningPath<Strategy: TargetAwareStrategy & OutcomeLearningStrategy>:
  EnginePath
{
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .everyVisit }
  @inlinable package static var seesTarget: Bool { true }
  @inlinable package static var observesOutcomes: Bool { true }
  @inline(__always)
  @inlinable package mutating func observe(outcome: VisitFeedback, context: StackContext) {
    strategy.observe(outcome: outcome, context: context)
  }
}

/// A `PureRankingStrategy`: the last decision stands while its `reads` and `==` say
/// nothing changed.
@usableFromInline package struct PureRankingPath<Strategy: PureRankingStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .pure }
  @inlinable @inline(__always) package var reads: VisitInputs { strategy.reads }
  @inlinable @inline(__always) package func scoresAlike(_ other: Self) -> Bool { strategy == other.strategy }
}

/// An `InstanceScoringStrategy`: instances rescored one by one as their inputs change.
@usableFromInline package struct InstanceScoringPath<Strategy: InstanceScoringStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { .instanceScoring }
  @inlinable @inline(__always) package var reads: VisitInputs { strategy.reads }
  @inlinable @inline(__always) package func scoresAlike(_ other: Self) -> Bool { strategy == other.strategy }
  @inline(__always)
  @inlinable package mutating func score(_ context: StackContext, into ranking: inout Ranking) {
    strategy.scoreCandidates(context, into: &ranking)
  }
  @inline(__always)
  @inlinable package func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    strategy.rescore(changed, context, into: &ranking)
  }
  @inline(__always)
  @inlinable package func rule(top: Int, _ context: StackContext) -> StaticString? {
    strategy.decisionRule(top: top, context)
  }
}

/// A computation over the engine path of a strategy; see
/// `RankingStrategy.openEnginePath(_:)`.
@usableFromInline package protocol EnginePathVisitor {
  associatedtype Result
  func visit<Path: EnginePath>(_ path: Path) -> Result
}

extension StrategyPath {
  /// The path the engine runs `type` on, from its conformances (precedence as in
  /// `EnginePath`).
  public init(of type: any RankingStrategy.Type) {
    if type is any TargetAwareStrategy.Type || type is any OutcomeLearningStrategy.Type {
      self = .everyVisit
    } else if type is any InstanceScoringStrategy.Type {
      self = .instanceScoring
    } else if type is any PureRankingStrategy.Type {
      self = .pure
    } else {
      self = .everyVisit
    }
  }
}

extension RankingStrategy {
  /// Calls `visitor` with `self` wrapped in the path its conformances give it, found by
  /// casts at run time (precedence as in `EnginePath`). The visitor's generic code is
  /// not specialised for the strategy: use it once per run, or where speed does not
  /// matter; `StrategyRunner` picks the path statically.
  ///
  /// - Complexity: O(1) plus the visitor's work.
  @inlinable package func openEnginePath<V: EnginePathVisitor>(_ visitor: V) -> V.Result {
    func both<T: TargetAwareStrategy & OutcomeLearningStrategy>(_ s: T) -> V.Result {
      visitor.visit(TargetAwareLearningPath(s))
    }
    func targetAware<T: TargetAwareStrategy>(_ s: T) -> V.Result { visitor.visit(TargetAwarePath(s)) }
    func learning<T: OutcomeLearningStrategy>(_ s: T) -> V.Result { visitor.visit(OutcomeLearningPath(s)) }
    func instance<T: InstanceScoringStrategy>(_ s: T) -> V.Result { visitor.visit(InstanceScoringPath(s)) }
    func pure<T: PureRankingStrategy>(_ s: T) -> V.Result { visitor.visit(PureRankingPath(s)) }
    if let s = self as? any TargetAwareStrategy & OutcomeLearningStrategy { return both(s) }
    if let s = self as? any TargetAwareStrategy { return targetAware(s) }
    if let s = self as? any OutcomeLearningStrategy { return learning(s) }
    if let s = self as? any InstanceScoringStrategy { return instance(s) }
    if let s = self as? any PureRankingStrategy { return pure(s) }
    return visitor.visit(EveryVisitPath(self))
  }
}

/// The path of any strategy, found by conformance casts at each call: the same decisions
/// as the path of its refinement (it calls the same members), with a static type that
/// does not depend on the refinement. For tests and tools that hold a session of a
/// strategy type known only generically; slower per visit (an existential per call),
/// never used by the runs `StrategyRunner` compiles.
@usableFromInline package struct DynamicPath<Strategy: RankingStrategy>: EnginePath {
  @usableFromInline package var strategy: Strategy
  @inlinable package init(_ strategy: Strategy) { self.strategy = strategy }
  @inlinable package static var kind: StrategyPath { StrategyPath(of: Strategy.self) }
  @inlinable package static var observesOutcomes: Bool { Strategy.self is any OutcomeLearningStrategy.Type }
  @inlinable package static var seesTarget: Bool { Strategy.self is any TargetAwareStrategy.Type }
  @inlinable package var reads: VisitInputs {
    switch Self.kind {
    case .everyVisit: return .all
    case .pure: return (strategy as! any PureRankingStrategy).reads
    case .instanceScoring: return (strategy as! any InstanceScoringStrategy).reads
    }
  }
  @inlinable package func scoresAlike(_ other: Self) -> Bool {
    guard Self.kind != .everyVisit, let a = strategy as? any Equatable else { return false }
    func equal<E: Equatable>(_ a: E) -> Bool { a == other.strategy as? E }
    return equal(a)
  }
  @inlinable package mutating func score(_ context: StackContext, into ranking: inout Ranking) {
    if Self.kind == .instanceScoring {
      (strategy as! any InstanceScoringStrategy).scoreCandidates(context, into: &ranking)
    } else {
      strategy.rank(context, into: &ranking)
    }
  }
  @inlinable package func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    (strategy as! any InstanceScoringStrategy).rescore(changed, context, into: &ranking)
  }
  @inlinable package func rule(top: Int, _ context: StackContext) -> StaticString? {
    guard Self.kind == .instanceScoring else { return nil }
    return (strategy as! any InstanceScoringStrategy).decisionRule(top: top, context)
  }
  @inlinable package mutating func observe(outcome: VisitFeedback, context: StackContext) {
    guard var learner = strategy as? any OutcomeLearningStrategy else { return }
    learner.observe(outcome: outcome, context: context)
    strategy = learner as! Strategy
  }
}
