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
  /// Built-in strategies are cast to their own types before the call, so the generic
  /// code `visit` runs (the engine's loop, `StackSession`) is compiled specialised for
  /// each of them: strategy calls are direct and inlined, and no generic metadata is
  /// looked up per event. Opening the existential instead (`func f<S>(_: S)` called with
  /// `prototype`) runs the unspecialised generic code, several times slower per visit.
  /// Strategies registered by users are opened that way: correct, just slower.
  ///
  /// - Complexity: O(1) plus the visitor's work.
  public func open<V: StrategyTypeVisitor>(_ visitor: V) -> V.Result {
    switch prototype {
    case let s as MostFrequentlyUsedStrategy: return visitor.visit(s)
    case let s as MostRecentlyUsedStrategy: return visitor.visit(s)
    case let s as HourOfDayStrategy: return visitor.visit(s)
    case let s as HourOfWeekStrategy: return visitor.visit(s)
    case let s as RelevanceStrategy: return visitor.visit(s)
    case let s as SmartRotateStrategy: return visitor.visit(s)
    case let s as BanditStrategy: return visitor.visit(s)
    case let s as MarkovStrategy: return visitor.visit(s)
    case let s as StaticStrategy: return visitor.visit(s)
    case let s as RandomStrategy: return visitor.visit(s)
    case let s as RoundRobinStrategy: return visitor.visit(s)
    case let s as OracleStrategy: return visitor.visit(s)
    default:
      func generic<S: RankingStrategy>(_ s: S) -> V.Result { visitor.visit(s) }
      return generic(prototype)
    }
  }
}
