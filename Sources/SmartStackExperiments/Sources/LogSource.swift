import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A donation log replayed with fixed options: one source point of kind `"log"`.
///
/// The replay plan is built once and shared by every cell; a cell sets only the seed and
/// the replicate. A log's people are the same in every replicate, so only strategy
/// randomness differs between replicates (deterministic strategies give identical
/// replicates).
public struct LogSource: ExperimentSource {
  public let name: String
  public let plan: ReplayPlan
  public let statistics: SourceStatistics
  /// Where the plan's local days lie in UTC, the same for every cell.
  public let days: LocalDays
  /// `FILE:LINE:COLUMN: warning: …` about the log's naive local times in a gap or a fold
  /// of the zone, or read in UTC (`LocalTimeReport`); `batch` prints them.
  public var warnings: [String] = []

  public var kind: String { "log" }
  public var unitsArePeoplePerReplicate: Bool { false }

  public init(name: String, plan: ReplayPlan, statistics: SourceStatistics) {
    self.name = name
    self.plan = plan
    self.statistics = statistics
    days = LocalDays(plan: plan)
  }

  func plan(replicate: Int, seed: UInt64) -> ReplayPlan {
    var plan = self.plan
    plan.options.seed = seed
    plan.options.replicate = UInt64(max(0, replicate))
    return plan
  }

  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) -> RunMetrics {
    RunMetrics(Replay.run(plan(replicate: replicate, seed: seed), choice: choice), days: days)
  }

  /// The people `people` of the plan, replayed as in a whole run (`ReplayPlan.block(_:)`:
  /// each keeps its index, so its strategy's seed), with their person-days in the order
  /// they were counted (`RunMetrics(block:days:)`), for `RunMetrics(blocks:)`.
  ///
  /// - Throws: `PeopleBlockError` when `people` is not within the plan's people.
  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics {
    guard people.lowerBound >= 0, people.upperBound <= plan.people.count else {
      throw PeopleBlockError(
        "\(name): people \(people.lowerBound)..<\(people.upperBound) are beyond the log's \(plan.people.count) people")
    }
    return RunMetrics(block: Replay.run(plan(replicate: replicate, seed: seed).block(people), choice: choice), days: days)
  }

  public func runTraced(
    _ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String
  ) -> (metrics: RunMetrics, trace: TraceRecorder?) {
    let plan = plan(replicate: replicate, seed: seed)
    let recorder = TraceRecorder(runID: runID, plan: plan)
    let (metrics, extra) = choice.replay(plan, extra: DynamicObserver(recorder))
    return (RunMetrics(metrics, days: days), extra?.base as? TraceRecorder)
  }
}
