import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The engine's runs of one strategy type, compiled specialised for it.
///
/// `StrategyRegistry.register(_:)` builds one for each registered type, in the engine
/// path of the strategy's refinement (`EnginePath`), chosen by overload resolution where
/// `register` is called. The initialiser is `@inlinable` and so is the engine's generic
/// code it calls (`Replay`, `Simulation`, `StackSession`, `StandardMetrics`): the
/// closures are compiled in the module that registers, where the strategy's concrete
/// type is known. The library's built-ins are registered in the library; a user's
/// strategies are registered in the user's module; both get the same specialised
/// engine, with the strategy's calls direct and inlined and no generic metadata looked
/// up per event. Nothing lists the built-in types.
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
  /// The engine path the runs are compiled for (e.g. `InstanceScoringPath<StaticStrategy>`),
  /// or `dynamic` when it is found at run time per job.
  @usableFromInline package let path: String

  /// The runner of strategies on engine path `P`, specialised where this initialiser is
  /// inlined.
  @inlinable package init<P: EnginePath>(path _: P.Type) {
    path = "\(P.self)"
    replay = { plan, prototype, descriptor, extra in
      Self.replay(plan, P(prototype as! P.Strategy), descriptor, extra)
    }
    simulate = { scenario, prototype, descriptor, cell, extra, emitter in
      Self.simulate(scenario, P(prototype as! P.Strategy), descriptor, cell, extra, emitter)
    }
    lane = { prototype, setup in ReplayLane(prototype: P(prototype as! P.Strategy), setup: setup) }
  }

  /// The runner of `type`, whose refinement is found at run time: specialised when
  /// `type` is a plain `RankingStrategy` (no refinement), otherwise the same runs through
  /// the engine's unspecialised generic code (correct, several times slower per visit).
  /// `StrategyRegistry.register(_:)` picks the path statically instead.
  public init<S: RankingStrategy>(_ type: S.Type) {
    if StrategyPath(of: type) == .everyVisit && !(type is any TargetAwareStrategy.Type)
      && !(type is any OutcomeLearningStrategy.Type)
    {
      self.init(path: EveryVisitPath<S>.self)
    } else {
      self = .unspecialised
    }
  }

  /// Runs any strategy, its engine path opened at run time per job.
  static let unspecialised = StrategyRunner(
    replay: { plan, prototype, descriptor, extra in
      prototype.openEnginePath(Job { path in replay(plan, path, descriptor, extra) })
    },
    simulate: { scenario, prototype, descriptor, cell, extra, emitter in
      prototype.openEnginePath(Job { path in simulate(scenario, path, descriptor, cell, extra, emitter) })
    },
    lane: { prototype, setup in prototype.openEnginePath(Job { path in ReplayLane(prototype: path, setup: setup) }) })

  private init(
    replay: @escaping @Sendable (ReplayPlan, any RankingStrategy, StrategyDescriptor, DynamicObserver?) -> (
      StandardMetrics, DynamicObserver?
    ),
    simulate: @escaping @Sendable (
      Scenario, any RankingStrategy, StrategyDescriptor, SimulationCell, DynamicObserver?, LogEmitter?
    ) -> (StandardMetrics, SimulationCounts, DynamicObserver?, LogEmitter?),
    lane: @escaping @Sendable (any RankingStrategy, ReplayLane.Setup) -> ReplayLane
  ) {
    self.replay = replay
    self.simulate = simulate
    self.lane = lane
    path = "dynamic"
  }

  /// Replays `plan` with `path`'s strategy, the standard metrics and `extra`.
  @inlinable package static func replay<P: EnginePath>(
    _ plan: ReplayPlan, _ path: P, _ descriptor: StrategyDescriptor, _ extra: DynamicObserver?
  ) -> (StandardMetrics, DynamicObserver?) {
    let metrics = StandardMetrics(for: plan)
    guard let extra else {
      return (Replay.run(plan, path: path, descriptor: descriptor, observer: metrics), nil)
    }
    let pair = Replay.run(plan, path: path, descriptor: descriptor, observer: ObserverPair(metrics, extra))
    return (pair.first, pair.second)
  }

  /// Simulates `cell` of `scenario` with `path`'s strategy, the standard metrics and
  /// `extra`; `emitter`, when given, receives the logs. A simulation of some people only
  /// (`SimulationOptions.people`) keeps its person-days (`StandardMetrics.dayLog`), which
  /// `RunMetrics(block:days:)` and `RunMetrics(blocks:)` join.
  @inlinable package static func simulate<P: EnginePath>(
    _ scenario: Scenario, _ path: P, _ descriptor: StrategyDescriptor, _ cell: SimulationCell,
    _ extra: DynamicObserver?, _ emitter: LogEmitter?
  ) -> (StandardMetrics, SimulationCounts, DynamicObserver?, LogEmitter?) {
    var emitter = emitter
    var metrics = StandardMetrics()
    if cell.options.people != nil { metrics.dayLog = [] }
    guard let extra else {
      let (metrics, counts) = Simulation.run(
        scenario, path: path, descriptor: descriptor, replicate: cell.replicate, seed: cell.seed,
        options: cell.options, observer: metrics, emitter: &emitter)
      return (metrics, counts, nil, emitter)
    }
    let (pair, counts) = Simulation.run(
      scenario, path: path, descriptor: descriptor, replicate: cell.replicate, seed: cell.seed,
      options: cell.options, observer: ObserverPair(metrics, extra), emitter: &emitter)
    return (pair.first, counts, pair.second, emitter)
  }

  /// A job over a path opened at run time: the generic body, unspecialised.
  private struct Job<Result>: EnginePathVisitor {
    let body: (any EnginePath) -> Result
    func visit<P: EnginePath>(_ path: P) -> Result { body(path) }
  }
}

/// Which replicate of a scenario to simulate, and how.
public struct SimulationCell: Sendable {
  public var replicate: Int
  public var seed: UInt64
  public var options: SimulationOptions
  public init(replicate: Int, seed: UInt64, options: SimulationOptions) {
    self.replicate = replicate
    self.seed = seed
    self.options = options
  }
}

/// An observer of any type, fed through its existential: the second observer of a
/// `StrategyRunner` job (traces, explanations, a user's own), which the registering
/// module cannot name. One dynamic call per event; the standard metrics beside it stay
/// specialised.
///
/// A `ShownProbabilityObserver` whatever its base, it forwards shown probabilities only
/// when the base reads them (a `ShownProbabilityObserver` behind the existential), as
/// decided at its initialisation: a session fed through one whose base does not read
/// them computes none (`ShownProbabilityForwarder`).
public struct DynamicObserver: ShownProbabilityObserver, ShownProbabilityForwarder {
  /// The observer fed; fixed at initialisation.
  @inlinable public var base: any OutcomeObserver { _base }
  @usableFromInline package var _base: any OutcomeObserver
  /// The base's reader (nil when it does not read shown probabilities).
  @usableFromInline package let baseReader: ShownProbabilityReader?
  @inlinable public init(_ base: any OutcomeObserver) {
    _base = base
    baseReader = ShownProbabilityReader(base)
  }
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    _base.beginPerson(person, instances: instances)
  }
  @inlinable public mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    _base.observe(outcome, targets: targets(), scores: scores, features: features)
  }
  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    _base.availabilityChanged(instance: instance, available: available)
  }
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    _base.windowReachedThreshold(instance: instance, start: start)
  }
  @inlinable public mutating func windowEnded(instance: Int32) { _base.windowEnded(instance: instance) }
  @inlinable public mutating func endPerson(_ person: Int32) { _base.endPerson(person) }
  @inlinable public mutating func responded(_ response: VisitResponse) { _base.responded(response) }
  @inlinable package var forwardsShownProbabilities: Bool { baseReader != nil }
  /// Tells the base, when it reads them: an observer behind its existential still gets
  /// the probabilities.
  @inlinable public mutating func shownProbabilities(_ probabilities: ShownProbabilities) {
    guard let baseReader else { return }
    func tell<O: OutcomeObserver>(_ base: inout O) { baseReader.tell(&base, probabilities) }
    tell(&_base)
  }
}
