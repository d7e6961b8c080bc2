import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A computation over a strategy's concrete type; see `StrategyChoice.open(_:)`.
///
/// ```swift
/// struct RunReplay: StrategyTypeVisitor {
///   var plan: ReplayPlan
///   var descriptor: StrategyDescriptor
///   func visit<S: RankingStrategy>(_ prototype: S) -> StandardMetrics {
///     Replay.run(plan, strategy: prototype, descriptor: descriptor, observer: StandardMetrics())
///   }
/// }
/// let metrics = choice.open(RunReplay(plan: plan, descriptor: choice.descriptor))
/// ```
public protocol StrategyTypeVisitor {
  associatedtype Result
  /// Called once with the chosen strategy's prototype as its concrete type.
  func visit<S: RankingStrategy>(_ prototype: S) -> Result
}

extension StrategyChoice {
  /// Calls `visitor.visit(_:)` with the prototype as its concrete type.
  ///
  /// The visitor's generic code runs unspecialised (the type is opened at run time), so
  /// use it for work done once per run, not for a run's events: the engine's runs go
  /// through `runner`, which is specialised (`StrategyRunner`).
  ///
  /// - Complexity: O(1) plus the visitor's work.
  public func open<V: StrategyTypeVisitor>(_ visitor: V) -> V.Result {
    func generic<S: RankingStrategy>(_ s: S) -> V.Result { visitor.visit(s) }
    return generic(prototype)
  }
}
