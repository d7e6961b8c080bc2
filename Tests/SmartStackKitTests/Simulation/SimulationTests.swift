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

enum SimulationFixtures {
  /// Five widgets, five apps wanted with equal weight at every waking hour; no swipes and
  /// developer mode (no rotation limit), so `random` shows the wanted one 1 time in 5.
  static let uniform = """
    {"name": "uniform", "start": "2026-03-02", "days": 10, "timezone": "UTC", "seed": 11,
     "people": [{"name": "p", "count": 3, "wantProbability": 0.5,
       "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}}],
                   "weekend": [{"hours": "0-24", "wants": {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}}]}}],
     "stack": {"instances": [{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}, {"id": "c", "kind": "C"},
                             {"id": "d", "kind": "D"}, {"id": "e", "kind": "E"}],
               "developerMode": true},
     "apps": [{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}, {"id": "c", "kind": "C"},
              {"id": "d", "kind": "D"}, {"id": "e", "kind": "E"}]}
    """

  /// A fan whose everyday habit is music; games (relevance score 1 for their duration,
  /// a fixed window) make them want the scores widget, which they rarely use otherwise.
  static let games = """
    {"name": "games", "start": "2026-03-02", "days": 14, "timezone": "America/New_York", "seed": 5,
     "people": [{"name": "fan", "count": 3, "wantProbability": 0.3,
       "routine": {"weekday": [{"hours": "7-23", "wants": {"music": 6, "news": 3, "scores": 1}}],
                   "weekend": [{"hours": "9-23", "wants": {"music": 6, "news": 3, "scores": 1}}]}}],
     "stack": {"instances": [{"id": "music", "kind": "Music"}, {"id": "news", "kind": "News"},
                             {"id": "scores", "kind": "Scores"}]},
     "apps": [{"id": "music", "kind": "Music"}, {"id": "news", "kind": "News"},
              {"id": "scores", "kind": "Scores",
               "timeline": {"type": "sports", "leadMinutes": 0, "updateMinutes": 15, "wantProbability": 0.8,
                 "schedule": [{"days": ["tue", "thu", "sat"], "time": "19:30", "minutes": 150}]},
               "reload": {"policy": "atEnd"}}]}
    """

  static func scenario(_ text: String) throws -> Scenario {
    try Scenario.read(bytes: Array(text.utf8), file: "fixture.json")
  }

  static func run(_ text: String, _ strategies: String, seed: UInt64? = nil, options: SimulationOptions = SimulationOptions()) throws -> [String: RunMetrics] {
    let scenario = try scenario(text)
    var result: [String: RunMetrics] = [:]
    for choice in try StrategyRegistry.builtIn.parseList(strategies) {
      result[choice.descriptor.name] = Simulation.run(
        scenario, choice: choice, replicate: 0, seed: seed ?? scenario.seed, options: options)
    }
    return result
  }
}

@Suite("Simulation")
struct SimulationTests {
  @Test func oracleBoundsEveryStrategyAndRandomIsNearOneOverStackSize() throws {
    let names = StrategyRegistry.builtIn.names.joined(separator: ",")
    let m = try SimulationFixtures.run(SimulationFixtures.uniform, names)
    let oracle = try #require(m["oracle"])
    #expect(oracle.total.hitRate == 1)
    for (name, run) in m {
      #expect(run.total.hits <= oracle.total.hits, "\(name) beats the oracle")
      // The paired design: every strategy faces the same visits and wants.
      #expect(run.total.visits == oracle.total.visits)
      #expect(run.total.targetVisits == oracle.total.targetVisits)
    }
    let random = try #require(m["random"]).total
    #expect(random.targetVisits > 1000)  // 3 people x 10 days x ~87 visits x 0.5
    #expect(abs(random.hitRate - 0.2) < 0.03, "random hit rate \(random.hitRate)")
  }

  /// Games open top-percentile relevance windows for the scores widget: the relevance
  /// strategies surface it inside its windows; mfu (music is most used) does not.
  @Test func relevanceStrategiesSurfaceTheWidgetInsideItsWindowsWhileMfuDoesNot() throws {
    var options = SimulationOptions()
    options.engine.relevanceThreshold = 0.5
    let m = try SimulationFixtures.run(SimulationFixtures.games, "mfu,relevance,smart-rotate", options: options)
    let relevance = try #require(m["relevance"]).total
    let smart = try #require(m["smart-rotate"]).total
    let mfu = try #require(m["mfu"]).total
    #expect(relevance.windows >= 15, "games in 14 days x 3 people")
    #expect(relevance.windowsSurfacedRate >= 0.9)
    #expect(smart.windowsSurfacedRate >= 0.8)
    #expect(mfu.windowsSurfacedRate <= 0.2)
    #expect(relevance.relevanceHonouredRate > mfu.relevanceHonouredRate + 0.5)
    #expect(smart.relevanceHonouredRate > mfu.relevanceHonouredRate + 0.4)
  }

  @Test func sameSeedSameBytesAndAnotherSeedDiffers() throws {
    func table(_ seed: UInt64) throws -> String {
      let scenario = try SimulationFixtures.scenario(SimulationFixtures.games)
      let records = try StrategyRegistry.builtIn.parseList("random,bandit,smart-rotate:temperature=0.3").map { choice in
        RunRecord(
          source: "games", strategy: choice.descriptor, replicate: 0, seed: seed,
          metrics: Simulation.run(scenario, choice: choice, replicate: 0, seed: seed, options: SimulationOptions()),
          targetAware: choice.isTargetAware)
      }
      return RunTables.runs(records) + RunTables.daily(records)
    }
    #expect(try table(3) == table(3))
    #expect(try table(3) != table(4))
  }

  /// The stack's rotation limit holds the top; developer mode lifts it.
  @Test func theStackRotationLimitHoldsUnlessDeveloperMode() throws {
    let limited = SimulationFixtures.uniform.replacingOccurrences(of: #""developerMode": true"#, with: #""rotationLimit": {"perHour": 2, "perDay": 10}"#)
    let m = try SimulationFixtures.run(limited, "random")
    let free = try SimulationFixtures.run(SimulationFixtures.uniform, "random")
    let r = try #require(m["random"]).total
    #expect(Double(r.rotations) <= 10 * Double(r.activeDays))
    #expect(try #require(free["random"]).total.rotations > r.rotations * 3)
  }
}
