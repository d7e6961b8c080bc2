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

@Suite("Bench run")
struct BenchRunTests {
  let workload = BenchWorkload(people: 3, days: 2, ingestRows: 40, seed: 5)

  func choices(_ text: String) throws -> [StrategyChoice] {
    try StrategyRegistry.builtIn.parseList(text)
  }

  /// Counts are those of the generated people; results are the same run to run and with
  /// repetitions; rates are positive.
  @Test func measuresEveryStrategyOnTheGeneratedPeople() throws {
    var phases: [String] = []
    let a = try Bench.run(workload, strategies: choices("mfu,bandit,oracle"), progress: { phases.append($0) })
    let b = try Bench.run(workload, strategies: choices("mfu,bandit,oracle"), repetitions: 2)
    let people = (0..<3).map { workload.person($0) }
    #expect(a.visits == people.reduce(0) { $0 + $1.visitTimes.count })
    #expect(a.donations == people.reduce(0) { $0 + $1.donationTimes.count })
    #expect(a.entries == people.reduce(0) { $0 + $1.entries.count })
    #expect(a.strategies.map(\.name) == ["mfu", "bandit", "oracle"])
    #expect(a.strategies.map(\.visits) == [a.visits, a.visits, a.visits])
    #expect(a.strategies.map(\.hitRate) == b.strategies.map(\.hitRate))
    // mfu reuses decisions between donations; bandit and the oracle never do.
    #expect(a.strategies.map(\.reusedDecisions) == b.strategies.map(\.reusedDecisions))
    #expect(a.strategies[0].reusedFraction > 0.3 && a.strategies[0].reusedFraction < 1)
    #expect(a.strategies[1].reusedDecisions == 0 && a.strategies[2].reusedDecisions == 0)
    #expect(a.strategies.allSatisfy { $0.seconds > 0 && $0.seconds.isFinite && $0.hitRate >= 0 })
    // The oracle sees the target: it is an upper bound.
    #expect(a.strategies[2].hitRate >= a.strategies[0].hitRate)
    #expect(a.csv.rows == 40 && a.jsonl.rows == 40 && a.csv.bytes > 0 && a.jsonl.bytes > a.csv.bytes)
    #expect(a.csv.seconds > 0 && a.jsonl.seconds > 0)
    #expect(phases.count == 5)
  }

  /// The bench drives people exactly as replay does: its hit rate equals that of
  /// `Replay.run` over the same people, strategy seeds derived the bench's way.
  @Test func laneResultsEqualAReplayOfTheSamePeople() throws {
    let choice = try StrategyRegistry.builtIn.parse("bandit")
    let report = try Bench.run(workload, strategies: [choice])
    let laneSeed = StreamSeed.derive(workload.seed, 3, StreamSeed.stableHash(choice.descriptor.description))
    var metrics = StandardMetrics()
    for p in 0..<workload.people {
      let person = workload.person(p)
      var session = StackSession(
        person: Int32(p), instances: person.instances, strategy: try BanditStrategy(parameters: choice.descriptor.parameters),
        observer: metrics, zone: .utc, options: EngineOptions(), strategySeed: StreamSeed.derive(laneSeed, UInt64(p)))
      Replay.run(person, horizon: workload.horizonMilliseconds, session: &session)
      metrics = session.finishedObserver()
    }
    #expect(report.strategies[0].hitRate == RunMetrics(metrics, days: LocalDays(zone: .utc)).total.hitRate)
  }
}
