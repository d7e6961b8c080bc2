import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// One strategy replaying people handed over one at a time, each through a fresh
/// `StackSession` with a fresh copy of the prototype, `StandardMetrics` pooled across
/// people: the bench's timed loop. Built by `StrategyChoice.lane(_:)`, specialised for
/// the strategy's type (`StrategyRunner`).
public struct ReplayLane {
  /// How a lane runs its people.
  public struct Setup: Sendable {
    /// A visit's target is a donation within this many milliseconds after it.
    public var horizon: Int64
    /// Person `index` gets strategy seed `StreamSeed.derive(seed, index)`.
    public var seed: UInt64
    public init(horizon: Int64, seed: UInt64) {
      self.horizon = horizon
      self.seed = seed
    }
  }

  /// Replays `person` as person `index` (in UTC, default engine options), as
  /// `Replay.run` does.
  public let run: (ReplayPlan.Person, Int) -> Void
  /// The pooled metric counts of the people so far.
  public let totals: () -> MetricCounts
  /// Visits so far decided without calling `rank` (`StackSession.reusedDecisionCount`).
  public let reusedDecisions: () -> Int

  @inlinable package init<P: EnginePath>(prototype: P, setup: Setup) {
    let state = ReplayLaneState(prototype: prototype, setup: setup)
    run = { person, index in state.run(person, index: index) }
    totals = { state.totals() }
    reusedDecisions = { state.reusedDecisions }
  }
}

/// The mutable state of a lane: the prototype and the metrics observer across people.
@usableFromInline final package class ReplayLaneState<P: EnginePath> {
  @usableFromInline package let prototype: P
  @usableFromInline package let setup: ReplayLane.Setup
  @usableFromInline package var observer = StandardMetrics()
  @usableFromInline package var reusedDecisions = 0

  @inlinable package init(prototype: P, setup: ReplayLane.Setup) {
    self.prototype = prototype
    self.setup = setup
  }

  /// Replays person `index` with a fresh copy of the prototype.
  @inlinable package func run(_ person: ReplayPlan.Person, index: Int) {
    var observer = StandardMetrics()
    swap(&observer, &self.observer)
    var session = StackSession(
      person: Int32(truncatingIfNeeded: index), instances: person.instances, path: prototype,
      observer: consume observer, zone: .utc, options: EngineOptions(),
      strategySeed: StreamSeed.derive(setup.seed, UInt64(truncatingIfNeeded: index)))
    Replay.run(person, horizon: setup.horizon, session: &session)
    reusedDecisions += session.reusedDecisionCount
    self.observer = session.finishedObserver()
  }

  @inlinable package func totals() -> MetricCounts {
    var total = MetricCounts()
    for p in observer.perPerson { total += p }
    return total
  }
}
