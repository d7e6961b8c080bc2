import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Runs several strategies over one plan.
extension Replay {
  /// Runs one chosen strategy with the standard metrics, specialised for its type
  /// (`StrategyRunner`).
  public static func run(_ plan: ReplayPlan, choice: StrategyChoice) -> StandardMetrics {
    choice.replay(plan).0
  }

  /// Runs every choice over `plan` and returns one record per choice in the order of
  /// `choices`. `source` names the input in the records. `progress` is called with (runs
  /// done, runs) before the first run and after each.
  ///
  /// People in parallel (`PeopleInParallel`): when there are fewer choices than `jobs`, a
  /// choice's people are cut into consecutive blocks, the (choice, block) units run on one
  /// `WorkerPool` of `jobs` workers, a block replays its people as the whole plan does
  /// (`ReplayPlan.block(_:)`), and a choice's blocks are joined by `RunMetrics(blocks:)`,
  /// so the records are bit-identical for any `jobs`.
  public static func runAll(
    _ plan: ReplayPlan, choices: [StrategyChoice], source: String, jobs: Int,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async -> [RunRecord] {
    let options = plan.options
    let days = LocalDays(plan: plan)
    let parts = PeopleInParallel.blocks(people: plan.people.count, cells: choices.count, jobs: jobs)?
      .map { plan.block($0) } ?? [plan]
    var metrics = [RunMetrics?](repeating: nil, count: choices.count)
    var done = 0
    progress(0, choices.count)
    await PeopleInParallel.run(parts: choices.map { _ in parts.count }, jobs: jobs) { c, part in
      Replay.run(parts[part], choice: choices[c])
    } finished: { c, results in
      metrics[c] =
        parts.count == 1
        ? RunMetrics(results[0], days: days)
        : RunMetrics(blocks: results.map { RunMetrics(block: $0, days: days) })
      done += 1
      progress(done, choices.count)
    }
    return choices.indices.map { i in
      RunRecord(
        source: source, strategy: choices[i].descriptor, replicate: Int(options.replicate),
        seed: options.seed, metrics: metrics[i]!, targetAware: choices[i].isTargetAware)
    }
  }
}
