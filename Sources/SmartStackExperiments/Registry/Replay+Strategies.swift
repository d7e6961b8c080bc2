import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Runs several strategies over one plan.
extension Replay {
  /// Runs one chosen strategy with the standard metrics, specialised for its type
  /// (`StrategyRunner`).
  @inlinable public static func run(_ plan: ReplayPlan, choice: StrategyChoice) -> StandardMetrics {
    choice.replay(plan).0
  }

  /// Runs every choice over `plan`, at most `jobs` at a time, and returns one record per
  /// choice in the order of `choices`, whatever the number of jobs. `source` names the
  /// input in the records. `progress` is called with (runs done, runs) before the first
  /// run and after each.
  public static func runAll(
    _ plan: ReplayPlan, choices: [StrategyChoice], source: String, jobs: Int,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async -> [RunRecord] {
    let options = plan.options
    let days = LocalDays(plan: plan)
    var results = [RunMetrics?](repeating: nil, count: choices.count)
    progress(0, choices.count)
    await withTaskGroup(of: (Int, RunMetrics).self) { group in
      var next = 0
      var done = 0
      func launch(_ i: Int) {
        let choice = choices[i]
        group.addTask { (i, RunMetrics(Replay.run(plan, choice: choice), days: days)) }
      }
      while next < min(max(jobs, 1), choices.count) {
        launch(next)
        next += 1
      }
      for await (i, metrics) in group {
        results[i] = metrics
        done += 1
        progress(done, choices.count)
        if next < choices.count {
          launch(next)
          next += 1
        }
      }
    }
    return choices.indices.map { i in
      RunRecord(
        source: source, strategy: choices[i].descriptor, replicate: Int(options.replicate),
        seed: options.seed, metrics: results[i]!, targetAware: choices[i].isTargetAware)
    }
  }
}
