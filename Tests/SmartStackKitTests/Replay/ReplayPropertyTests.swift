import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Synthetic logs for property tests: `people` people, `kinds` kinds with an hourly
/// routine plus noise, over `days` days, from a seed.
enum SyntheticLog {
  static func make(seed: UInt64, people: Int = 4, kinds: Int = 5, days: Int = 6, perDay: Int = 12) -> DonationLog {
    var rng = Xoshiro256StarStar(seed: seed)
    var donations: [Donation] = []
    let start = ms("2026-03-02T00:00:00Z")
    for p in 0..<people {
      for day in 0..<days {
        for _ in 0..<perDay {
          let hour = 7 + rng.nextInt(below: 14)
          let minute = rng.nextInt(below: 60)
          // Routine: the kind is mostly a function of the hour, sometimes random.
          let kind = rng.nextUnit() < 0.7 ? (hour / 3 + p) % kinds : rng.nextInt(below: kinds)
          let t = start + Int64(day) * 86_400_000 + Int64(hour) * 3_600_000 + Int64(minute) * 60_000
          donations.append(
            Donation(timestamp: Instant(milliseconds: t), user: "p\(p)", kind: "K\(kind)", intent: nil, parameters: []))
        }
      }
    }
    return DonationLog(donations)
  }

  static func stack(kinds: Int = 5) -> StackSpec {
    StackSpec(file: "stack.json", instances: (0..<kinds).map { WidgetInstance(id: "K\($0)", kind: "K\($0)") })
  }
}

@Suite("Replay properties")
struct ReplayPropertyTests {
  /// On every seed, no strategy beats the oracle on hits, and with a fixed stack of 5
  /// the random strategy's hit rate is near 1/5.
  @Test func oracleBoundsEveryStrategyAndRandomIsNearOneOverStackSize() async throws {
    var randomHits = 0
    var randomTargets = 0
    for seed in UInt64(1)...4 {
      var options = ReplayOptions()
      options.stack = .fixed(SyntheticLog.stack())
      options.seed = seed
      let plan = try ReplayPlan(log: SyntheticLog.make(seed: seed, people: 6, days: 8), options: options)
      let records = await Replay.runAll(
        plan, choices: try StrategyRegistry.builtIn.types.map { try StrategyRegistry.builtIn.parse($0.name) },
        source: "synthetic", jobs: 2)
      let oracle = try #require(records.first { $0.strategy.name == "oracle" })
      #expect(oracle.metrics.total.hitRate == oracle.metrics.total.coverage)
      for r in records {
        #expect(r.metrics.total.hits <= oracle.metrics.total.hits, "seed \(seed): \(r.strategy) beats the oracle")
        #expect(r.metrics.total.visits == oracle.metrics.total.visits, "same visits for every strategy")
      }
      let random = try #require(records.first { $0.strategy.name == "random" })
      randomHits += random.metrics.total.hits
      randomTargets += random.metrics.total.targetVisits
    }
    let rate = Double(randomHits) / Double(randomTargets)
    // ~1,500 target visits: the standard error of a 0.2 rate is about 0.01.
    #expect(abs(rate - 0.2) < 0.04, "random hit rate \(rate) is not near 1/5")
  }

  /// Same inputs, same numbers, whatever the job count.
  @Test func resultsAreIdenticalForAnyNumberOfJobs() async throws {
    var options = ReplayOptions()
    options.seed = 7
    let plan = try ReplayPlan(log: SyntheticLog.make(seed: 3), options: options)
    let choices = try StrategyRegistry.builtIn.parseList("random,bandit,smart-rotate:temperature=0.5,mfu")
    let one = await Replay.runAll(plan, choices: choices, source: "s", jobs: 1)
    let four = await Replay.runAll(plan, choices: choices, source: "s", jobs: 4)
    #expect(RunTables.runs(one) == RunTables.runs(four))
    #expect(RunTables.daily(one) == RunTables.daily(four))
  }

  /// A strategy's random stream depends on the seed: another seed changes `random`.
  @Test func theSeedReachesRandomStrategies() async throws {
    let log = SyntheticLog.make(seed: 3)
    func hits(_ seed: UInt64) throws -> Int {
      var options = ReplayOptions()
      options.seed = seed
      let plan = try ReplayPlan(log: log, options: options)
      return RunMetrics(Replay.run(plan, choice: try StrategyRegistry.builtIn.parse("random")), days: LocalDays(plan: plan)).total.hits
    }
    #expect(try hits(1) == hits(1))
    #expect(try [hits(1), hits(2), hits(3)] != [hits(1), hits(1), hits(1)])
  }
}
