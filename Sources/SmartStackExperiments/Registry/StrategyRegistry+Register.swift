import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

// `register(_:)`: one spelling for the user, one overload per refinement underneath.
//
// The engine runs a strategy on the path of the refinement it conforms to
// (`EnginePath`); which one is decided here, by overload resolution on the concrete
// type at the call site, so the path is checked by the compiler and the engine is
// specialised for it. A type conforming to several refinements gets the one that
// takes precedence (target-aware, then outcome learning, then instance scoring, then
// pure): the plain, pure and instance-scoring overloads are disfavoured, so the
// target-aware and outcome-learning ones win whenever they apply, and among the
// disfavoured ones the most refined wins. Called from generic code, where the concrete
// type is not known, the plain overload finds the refinement at run time
// (`StrategyRunner.init(_:)`): the same results, unspecialised.
extension StrategyRegistry {
  /// Adds a strategy type. A later registration under an existing name replaces the
  /// earlier one (so a user can override a built-in), keeping its position.
  ///
  /// `@inlinable`: the engine is compiled specialised for `S`, on the path of its
  /// refinement, in the caller's module.
  @_disfavoredOverload
  @inlinable public mutating func register<S: RankingStrategy>(_ type: S.Type) {
    add(Entry(type))
  }

  /// `register(_:)` for a `PureRankingStrategy`.
  @_disfavoredOverload
  @inlinable public mutating func register<S: PureRankingStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: PureRankingPath<S>.self)))
  }

  /// `register(_:)` for an `InstanceScoringStrategy`.
  @_disfavoredOverload
  @inlinable public mutating func register<S: InstanceScoringStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: InstanceScoringPath<S>.self)))
  }

  /// `register(_:)` for a strategy both pure and instance-scoring (instance scoring wins).
  @_disfavoredOverload
  @inlinable public mutating func register<S: InstanceScoringStrategy & PureRankingStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: InstanceScoringPath<S>.self)))
  }

  /// `register(_:)` for an `OutcomeLearningStrategy` (ranked at every visit).
  @inlinable public mutating func register<S: OutcomeLearningStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: OutcomeLearningPath<S>.self)))
  }

  /// `register(_:)` for a `TargetAwareStrategy` (ranked at every visit, exempt from the
  /// stack's rules).
  @inlinable public mutating func register<S: TargetAwareStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: TargetAwarePath<S>.self)))
  }

  /// `register(_:)` for a strategy both target-aware and outcome-learning.
  @inlinable public mutating func register<S: TargetAwareStrategy & OutcomeLearningStrategy>(_ type: S.Type) {
    add(Entry(type: type, runner: StrategyRunner(path: TargetAwareLearningPath<S>.self)))
  }
}
