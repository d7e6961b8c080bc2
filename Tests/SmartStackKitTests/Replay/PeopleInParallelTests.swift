import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments

@Suite("People in parallel")
struct PeopleInParallelTests {
  /// A plan of 9 people with visits from sessions and a fixed stack.
  static func plan(seed: UInt64) throws -> ReplayPlan {
    var options = ReplayOptions()
    options.stack = .fixed(SyntheticLog.stack())
    options.visits = .sessions(gapMinutes: 20)
    options.seed = seed
    return try ReplayPlan(log: SyntheticLog.make(seed: seed, people: 9, days: 8), options: options)
  }

  /// runs.csv and daily.csv of one strategy's replay: the same bytes for every number of
  /// jobs, so for every cut of the people into blocks, and equal to one run of the whole
  /// plan. Strategies with randomness (`random`, `bandit`) check that a block seeds each
  /// person as the whole plan does; `mfu` that outcomes and days add up in order.
  @Test(arguments: ["mfu", "random", "bandit", "hour-of-week"])
  func everyJobCountGivesTheBytesOfOneRun(strategy: String) async throws {
    let plan = try Self.plan(seed: 3)
    let choice = try StrategyRegistry.builtIn.parse(strategy)
    let whole = RunRecord(
      source: "s", strategy: choice.descriptor, replicate: 0, seed: plan.options.seed,
      metrics: RunMetrics(Replay.run(plan, choice: choice), days: LocalDays(plan: plan)),
      targetAware: choice.isTargetAware)
    let expected = (RunTables.runs([whole]), RunTables.daily([whole]))
    for jobs in 1...5 {
      #expect(PeopleInParallel.blockCount(people: 9, cells: 1, jobs: jobs) == (jobs == 1 ? 1 : min(9, 2 * jobs)))
      let records = await Replay.runAll(plan, choices: [choice], source: "s", jobs: jobs)
      #expect(RunTables.runs(records) == expected.0, "\(strategy), --jobs \(jobs)")
      #expect(RunTables.daily(records) == expected.1, "\(strategy), --jobs \(jobs)")
    }
  }

  /// Joining the metrics of any cut of the people gives one run's reports byte for byte,
  /// including each day's floating-point reciprocal-rank sum.
  @Test func joinedBlocksAreOneRun() throws {
    let plan = try Self.plan(seed: 5)
    let choice = try StrategyRegistry.builtIn.parse("mru")
    let days = LocalDays(plan: plan)
    func record(_ metrics: RunMetrics) -> RunRecord {
      RunRecord(source: "s", strategy: choice.descriptor, replicate: 0, seed: 5, metrics: metrics, targetAware: false)
    }
    let whole = record(RunMetrics(Replay.run(plan, choice: choice), days: days))
    for cut in [[0..<9], [0..<1, 1..<9], [0..<4, 4..<5, 5..<9], (0..<9).map { $0..<($0 + 1) }] {
      let joined = record(
        RunMetrics(blocks: cut.map { RunMetrics(block: Replay.run(plan.block($0), choice: choice), days: days) }))
      #expect(RunTables.runs([joined]) == RunTables.runs([whole]), "\(cut)")
      #expect(RunTables.daily([joined]) == RunTables.daily([whole]), "\(cut)")
      #expect(joined.metrics.perPerson == whole.metrics.perPerson)
    }
  }

  /// A block keeps its people's indices in the whole plan.
  @Test func aBlockKeepsItsPeoplesIndices() throws {
    let plan = try Self.plan(seed: 1)
    let block = plan.block(3..<7).block(1..<3)
    #expect(block.firstPersonIndex == 4 && block.isBlock && !plan.isBlock)
    #expect(block.people.map(\.name) == plan.people[4..<6].map(\.name))
  }

  /// Blocks cover the range in order, none empty, at most `parts` of them.
  @Test func blocksCoverTheRangeInOrder() {
    for count in 0...40 {
      for parts in 1...12 {
        let blocks = ParallelMap.blocks(count: count, parts: parts)
        #expect(blocks.count == min(count, parts))
        #expect(blocks.allSatisfy { !$0.isEmpty })
        #expect(blocks.flatMap { Array($0) } == Array(0..<count))
      }
    }
  }
}
