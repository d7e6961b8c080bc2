import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// The engine path of a strategy is chosen statically where it is registered, or at run
/// time from generic code; both must give the same results.
@Suite("Engine paths")
struct EnginePathTests {
  /// Every built-in, run through the path its registration picked and through the
  /// run-time opened one (`StrategyRunner.unspecialised`), gives the same per-person
  /// counts in replay and in a simulated scenario.
  @Test func theRunTimePathDecidesAsTheRegisteredOne() throws {
    var options = ReplayOptions()
    options.stack = .fixed(SyntheticLog.stack())
    options.seed = 3
    let plan = try ReplayPlan(log: SyntheticLog.make(seed: 3, people: 3, days: 4), options: options)
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Datasets/scenarios/tiny.json")
    let scenario = try Scenario.read(path: url.path)
    var simulation = SimulationOptions()
    simulation.days = 2
    let cell = SimulationCell(replicate: 0, seed: 5, options: simulation)
    for entry in StrategyRegistry.builtIn.entries {
      let registered = try StrategyChoice(entry, parameters: StrategyParameters(specs: entry.type.parameterSpecs, given: [], strategy: entry.type.name))
      let opened = try StrategyChoice(type: entry.type, parameters: registered.descriptor.parameters)
      #expect(registered.runner.path != "dynamic" && opened.runner.path == "dynamic")
      #expect(
        registered.replay(plan).0.perPerson == opened.replay(plan).0.perPerson, "\(entry.type.name): replay")
      var none: LogEmitter? = nil
      let (a, aCounts, _) = registered.simulate(scenario, cell, emitter: &none)
      let (b, bCounts, _) = opened.simulate(scenario, cell, emitter: &none)
      #expect(a.perPerson == b.perPerson && aCounts == bCounts, "\(entry.type.name): simulation")
      #expect(a.perPerson.reduce(0) { $0 + $1.visits } > 0)
    }
  }
}
