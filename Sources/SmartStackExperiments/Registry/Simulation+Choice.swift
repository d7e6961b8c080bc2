import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld

/// Simulations of a chosen strategy (`StrategyChoice`), through its runner.
extension Simulation {
  /// `run(_:strategy:descriptor:replicate:seed:options:observer:emitter:)` for a chosen
  /// strategy, specialised for its type (`StrategyRunner`); `observer` is fed through
  /// its existential (`DynamicObserver`), beside the standard metrics.
  public static func run<O: OutcomeObserver>(
    _ scenario: Scenario, choice: StrategyChoice, replicate: Int, seed: UInt64,
    options: SimulationOptions, observer: O, emitter: inout LogEmitter?
  ) -> (observer: O, counts: SimulationCounts) {
    let (_, counts, extra) = choice.simulate(
      scenario, SimulationCell(replicate: replicate, seed: seed, options: options),
      extra: DynamicObserver(observer), emitter: &emitter)
    return (extra!.base as! O, counts)
  }

  /// Runs one chosen strategy with the standard metrics, specialised for its type
  /// (`StrategyRunner`).
  public static func run(
    _ scenario: Scenario, choice: StrategyChoice, replicate: Int, seed: UInt64,
    options: SimulationOptions
  ) -> RunMetrics {
    var emitter: LogEmitter? = nil
    let (metrics, counts, _) = choice.simulate(
      scenario, SimulationCell(replicate: replicate, seed: seed, options: options), emitter: &emitter)
    var result = RunMetrics(metrics, days: LocalDays(zone: scenario.zone))
    result.simulation = counts
    return result
  }

  /// Simulates only the people `people` of `cell` (`SimulationOptions.people`; indices in
  /// the scenario's person order), each as in a run of everyone: their per-person
  /// counts, Gini values, times to surface, simulation counts, and as `daily` their
  /// person-days in the order the run adds them, for `RunMetrics(blocks:)` to join in
  /// person order (`PeopleInParallel`, `PeopleBlocks`). Nil when the run did not report
  /// exactly those people.
  public static func run(
    _ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell, people: Range<Int>
  ) -> RunMetrics? {
    var cell = cell
    cell.options.people = people
    var emitter: LogEmitter? = nil
    let (metrics, counts, _) = choice.simulate(scenario, cell, emitter: &emitter)
    guard metrics.dayLog != nil, metrics.perPerson.count == people.count else { return nil }
    var result = RunMetrics(block: metrics, days: LocalDays(zone: scenario.zone))
    result.simulation = counts
    return result
  }
}
