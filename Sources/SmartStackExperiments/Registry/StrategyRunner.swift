import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The engine's runs of one strategy type, compiled specialised for it.
///
/// `StrategyRegistry.register(_:)` builds one for each registered type. The initialiser
/// is `@inlinable` and so is the engine's generic code it calls (`Replay`, `Simulation`,
/// `StackSession`, `StandardMetrics`): the closures are compiled in the module that
/// registers, where the strategy's concrete type is known. The library's built-ins are
/// registered in the library; a user's strategies are registered in the user's module;
/// both get the same specialised engine, with the strategy's calls direct and inlined
/// and no generic metadata looked up per event. Nothing lists the built-in types.
///
/// Every job takes the prototype as `any RankingStrategy` and casts it to the registered
/// type once per run (`StrategyChoice` pairs each prototype with its own type's runner).
public struct StrategyRunner: Sendable {
  /// Replays a plan with the standard metrics and, when given, a second observer.
  @usableFromInline package let replay:
    @Sendable (ReplayPlan, any RankingStrategy, StrategyDescriptor, DynamicObserver?) -> (
      StandardMetrics, DynamicObserver?
    )
  /// Simulates one replicate of a scenario with the standard metrics and, when given, a
  /// second observer; the emitter, when given, receives the logs.
  @usableFromInline package let simulate:
    @Sendable (Scenario, any RankingStrategy, StrategyDescriptor, SimulationCell, DynamicObserver?, LogEmitter?) -> (
      StandardMetrics, SimulationCounts, DynamicObserver?, LogEmitter?
    )
  /// A replay lane: people handed over one at a time (the bench's timed loop).
  @usableFromInline package let lane: @Sendable (any RankingStrategy, ReplayLane.Setup) -> ReplayLane

  /// The runner of `S`, specialised where this initialiser is inlined.
  @inlinable public init<S: RankingStrategy>(_ type: S.Type) {
    replay = { plan, prototype, descriptor, extra in
      let strategy = prototype as! S
      guard let extra else {
        return (Replay.run(plan, strategy: strategy, descriptor: descriptor, observer: StandardMetrics()), nil)
      }
      let pair = Replay.run(
        plan, strategy: strategy, descriptor: descriptor, observer: ObserverPair(StandardMetrics(), extra))
      return (pair.first, pair.second)
    }
    simulate = { scenario, prototype, descriptor, cell, extra, emitter in
      let strategy = prototype as! S
      var emitter = emitter
      guard let extra else {
        let (metrics, counts) = Simulation.run(
          scenario, strategy: strategy, descriptor: descriptor, replicate: cell.replicate, seed: cell.seed,
          options: cell.options, observer: StandardMetrics(), emitter: &emitter)
        return (metrics, counts, nil, emitter)
      }
      let (pair, counts) = Simulation.run(
        scenario, strategy: strategy, descriptor: descriptor, replicate: cell.replicate, seed: cell.seed,
        options: cell.options, observer: ObserverPair(StandardMetrics(), extra), emitter: &emitter)
      return (pair.first, counts, pair.second, emitter)
    }
    lane = { prototype, setup in ReplayLane(prototype: prototype as! S, setup: setup) }
  }

  /// The runner of a type known only at run time: the same runs, through the engine's
  /// unspecialised generic code (correct, several times slower per visit). Used by
  /// `StrategyChoice.init(type:parameters:)`; registries never need it.
  static func unspecialised(_ type: any RankingStrategy.Type) -> StrategyRunner {
    func make<S: RankingStrategy>(_ type: S.Type) -> StrategyRunner { StrategyRunner(type) }
    return make(type)
  }
}

/// Which replicate of a scenario to simulate, and how.
public struct SimulationCell: Sendable {
  public var replicate: Int
  public var seed: UInt64
  public var options: SimulationOptions
  @inlinable public init(replicate: Int, seed: UInt64, options: SimulationOptions) {
    self.replicate = replicate
    self.seed = seed
    self.options = options
  }
}

/// An observer of any type, fed through its existential: the second observer of a
/// `StrategyRunner` job (traces, explanations, a user's own), which the registering
/// module cannot name. One dynamic call per event; the standard metrics beside it stay
/// specialised.
public struct DynamicObserver: OutcomeObserver {
  /// Reads targets whatever the wrapped observer says (its static answer is not known).
  public static var observesTargets: Bool { true }
  public var base: any OutcomeObserver
  @inlinable public init(_ base: any OutcomeObserver) { self.base = base }
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    base.beginPerson(person, instances: instances)
  }
  @inlinable public mutating func observe(_ outcome: VisitOutcome, scores: [Double], features: StackFeatures) {
    base.observe(outcome, scores: scores, features: features)
  }
  @inlinable public mutating func windowClosed(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?) {
    base.windowClosed(instance: instance, start: start, visits: visits, surfacedAfter: surfacedAfter)
  }
  @inlinable public mutating func endPerson(_ person: Int32) { base.endPerson(person) }
}
