import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
import SmartStackTestSupport

/// The people's context travels with an exposure log (`NAME.context.csv`, named by the
/// sidecar), so that targets that read context are evaluated as they ran on-policy.
@Suite("Rule replay with context")
struct ContextRuleReplayTests {
  static let scenarios = ["commuter-context", "gym-goer"]

  /// `context-mfu` on its own exposure log gives `simulate`'s hit and tap rates to the last
  /// bit (as every deterministic built-in does on the scenarios without context), and
  /// the sidecar that carried the context reads back as written. Two people of each
  /// persona, one day (the script Scripts/rule-replay-exactness.sh runs the scenarios in
  /// full).
  @Test func aContextStrategysOwnLogGivesItsSimulatedRatesExactly() throws {
    var options = SimulationOptions()
    options.days = 1
    let choice = try StrategyRegistry.builtIn.parse("context-mfu")
    for name in Self.scenarios {
      var scenario = try bundledScenario(name)
      for k in scenario.personas.indices { scenario.personas[k].count = min(scenario.personas[k].count, 2) }
      let cell = SimulationCell(replicate: 0, seed: scenario.seed, options: options)
      let folder = try TestFolders.fresh("rr-context")
      defer { try? FileManager.default.removeItem(at: folder) }
      let files = ExposureRun.files(scenario, choice: choice, cell: cell, logName: "e.csv")
      #expect(files.map(\.name) == ["e.csv", "e.sidecar.json", "e.timelines.json", "e.context.csv"])
      for file in files {
        try file.text.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
      }
      let log = try ExposureLog.read(path: folder.appendingPathComponent("e.csv").path)
      let sidecar = try ExposureSidecar.read(path: folder.appendingPathComponent("e.sidecar.json").path)
      #expect(try sidecar.people(of: log).allSatisfy { !$0.context.isEmpty }, "\(name)")
      let metrics = Simulation.run(scenario, choice: choice, replicate: 0, seed: scenario.seed, options: options)
      let counts = try #require(metrics.simulation)
      let visits = Double(log.exposures.count)
      let rr = RuleReplayTests.rates(
        try RuleReplay.sums(choice, log: log, sidecar: sidecar, model: ResponseModel(log), seed: 7, engine: options.engine))
      #expect(rr.tap == Double(counts.taps) / visits, "\(name): tap rate")
      #expect(rr.hit == Double(metrics.total.hits) / visits, "\(name): hit rate")

      // Without the context, context-mfu ranks as mfu does (no place is known): its own
      // log no longer gives its own value.
      var blind = sidecar
      blind.context = nil
      let withoutContext = RuleReplayTests.rates(
        try RuleReplay.sums(choice, log: log, sidecar: blind, model: ResponseModel(log), seed: 7, engine: options.engine))
      #expect(withoutContext.hit != rr.hit, "\(name)")
    }
  }

  /// A scenario without context writes no context file and a sidecar without the key:
  /// exposure files of those scenarios keep their bytes.
  @Test func aWorldWithoutContextWritesNoContextFile() throws {
    var options = SimulationOptions()
    options.days = 1
    let scenario = try bundledScenario("tiny")
    let files = ExposureRun.files(
      scenario, choice: try StrategyRegistry.builtIn.parse("mfu"),
      cell: SimulationCell(replicate: 0, seed: scenario.seed, options: options), logName: "e.csv")
    #expect(files.map(\.name) == ["e.csv", "e.sidecar.json", "e.timelines.json"])
    #expect(!files[1].text.contains("\"context\""))
  }
}
