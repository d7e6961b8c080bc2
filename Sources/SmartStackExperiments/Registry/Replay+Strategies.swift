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
  /// People in parallel: a choice's people are cut into consecutive blocks
  /// (`blockCount(people:choices:jobs:)`), and the (choice, block) units run on one
  /// `WorkerPool` of `jobs` workers. A block replays its people as the whole plan does
  /// (`ReplayPlan.block(_:)`), and a choice's blocks are joined by
  /// `RunMetrics(blocks:)`, so the records are bit-identical for any `jobs`.
  public static func runAll(
    _ plan: ReplayPlan, choices: [StrategyChoice], source: String, jobs: Int,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async -> [RunRecord] {
    let options = plan.options
    let days = LocalDays(plan: plan)
    let blocks = ParallelMap.blocks(
      count: plan.people.count, parts: blockCount(people: plan.people.count, choices: choices.count, jobs: jobs))
    let parts = blocks.isEmpty ? [plan] : blocks.map { plan.block($0) }
    struct Unit: Sendable {
      var choice: Int
      var part: Int
    }
    let units = choices.indices.flatMap { c in parts.indices.map { Unit(choice: c, part: $0) } }
    var metrics = [[StandardMetrics?]](repeating: Array(repeating: nil, count: parts.count), count: choices.count)
    var left = [Int](repeating: parts.count, count: choices.count)
    var done = 0
    progress(0, choices.count)
    await WorkerPool(jobs: jobs).forEach(units.count) { k in
      Replay.run(parts[units[k].part], choice: choices[units[k].choice])
    } finished: { k, result in
      let unit = units[k]
      metrics[unit.choice][unit.part] = result
      left[unit.choice] -= 1
      if left[unit.choice] == 0 {
        done += 1
        progress(done, choices.count)
      }
    }
    return choices.indices.map { i in
      RunRecord(
        source: source, strategy: choices[i].descriptor, replicate: Int(options.replicate),
        seed: options.seed,
        metrics: parts.count == 1
          ? RunMetrics(metrics[i][0]!, days: days)
          : RunMetrics(blocks: metrics[i].map { RunMetrics(block: $0!, days: days) }),
        targetAware: choices[i].isTargetAware)
    }
  }

  /// Blocks per choice: 1 when the choices alone keep `jobs` workers busy, else enough
  /// that every worker has about two units (at most one block per person).
  static func blockCount(people: Int, choices: Int, jobs: Int) -> Int {
    let jobs = max(jobs, 1)
    guard choices < jobs, people > 1 else { return 1 }
    return min(people, 2 * ((jobs + choices - 1) / max(choices, 1)))
  }
}
