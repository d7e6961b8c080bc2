import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
import SmartStackTestSupport

/// Rule replay re-runs a target through the engine's own stack rules over each person
/// rebuilt from a version-2 exposure log (docs/counterfactual.md, "Rule replay").
@Suite("Rule replay re-runs a target under the stack's rules")
struct RuleReplayTests {
  static let scenarios = [
    "commuter", "credit-card-card-only", "credit-card", "drift", "shift-worker", "sports-fan", "tiny", "weekend-heavy",
  ]
  static let deterministic =
    "static,round-robin,mru,mfu,hour-of-day,hour-of-week,markov,relevance,smart-rotate,oracle"

  /// The rates rule replay gives `target` on `log` (people's sums pooled).
  static func rates(_ sums: [RuleReplay.PersonSums]) -> (tap: Double, hit: Double, tapDR: Double) {
    let visits = sums.map(\.visits).reduce(0, +)
    return (
      sums.map(\.taps).reduce(0, +) / visits, sums.map(\.hits).reduce(0, +) / visits,
      sums.map(\.tapsDR).reduce(0, +) / visits
    )
  }

  /// For every bundled scenario (its first day, to keep the suite fast; the validation
  /// script runs the full length) and every deterministic built-in X, `rr` on X's own
  /// exposure log with target X gives `simulate`'s tap and hit rates of X to the last bit:
  /// the target always shows what the logger showed, so every reaction is the logged one
  /// and the rules see the same history.
  @Test func aStrategysOwnLogGivesItsSimulatedRatesExactly() throws {
    var options = SimulationOptions()
    options.days = 1
    for name in Self.scenarios {
      let scenario = try bundledScenario(name)
      for choice in try StrategyRegistry.builtIn.parseList(Self.deterministic) {
        let cell = SimulationCell(replicate: 0, seed: scenario.seed, options: options)
        let (log, sidecar) = ExposureRun.runWithSidecar(scenario, choice: choice, cell: cell)
        #expect(log.version == 2)
        // simulate's own counts of the same run.
        let metrics = Simulation.run(scenario, choice: choice, replicate: 0, seed: scenario.seed, options: options)
        let counts = try #require(metrics.simulation)
        let visits = Double(log.exposures.count)
        #expect(Double(metrics.total.visits) == visits, "\(name) \(choice.descriptor.label)")
        let sums = try RuleReplay.sums(
          choice, log: log, sidecar: sidecar, model: ResponseModel(log), seed: 7, engine: options.engine)
        let rr = Self.rates(sums)
        #expect(rr.tap == Double(counts.taps) / visits, "\(name) \(choice.descriptor.label): tap rate")
        #expect(rr.hit == Double(metrics.total.hits) / visits, "\(name) \(choice.descriptor.label): hit rate")
        #expect(abs(rr.tapDR - rr.tap) < 1e-12, "\(name) \(choice.descriptor.label): a deterministic logger's rr-dr is rr")
      }
    }
  }

  /// Where the target shows what the logger showed (the same situation), the reaction is
  /// the logged one whatever the rates; elsewhere only undecided choices are drawn.
  @Test func theLoggedReactionIsKeptInTheSameSituation() {
    let extreme = [
      ResponseModel.Rates(tap: 0, swipe: 0, open: 0), ResponseModel.Rates(tap: 1, swipe: 1, open: 1),
    ]
    for action in VisitAction.allCases {
      for hit in [false, true] {
        for canSwipe in [false, true] {
          // Reactions the simulated people cannot have: a tap without a hit, a swipe with one
          // or without a wanted candidate.
          if action == .tap && !hit { continue }
          if action == .swipe && (hit || !canSwipe) { continue }
          let revealed = RevealedReaction(action: action, hit: hit, canSwipe: canSwipe)
          for rates in extreme {
            #expect(revealed.reaction(isHit: hit, canSwipe: canSwipe && !hit, rates: rates) { $0 > 0.5 } == action)
          }
        }
      }
    }
    // A logged tap says "would tap": the target's other wanted widget is tapped too.
    #expect(
      RevealedReaction(action: .tap, hit: true, canSwipe: false).reaction(
        isHit: true, canSwipe: false, rates: extreme[0]) { $0 > 0.5 } == .tap)
    // A logged open after a miss says "would open": a target's miss with no swipe is an open.
    #expect(
      RevealedReaction(action: .open, hit: false, canSwipe: true).reaction(
        isHit: false, canSwipe: true, rates: extreme[1]) { $0 > 0.5 } == .open)
  }

  /// The sidecar's JSON gives back the world rule replay rebuilds.
  @Test func theSidecarIsReadBackAsWritten() throws {
    for name in ["tiny", "sports-fan"] {
      var options = SimulationOptions()
      options.days = 2
      let scenario = try bundledScenario(name)
      let choice = try StrategyRegistry.builtIn.parse("random")
      let cell = SimulationCell(replicate: 0, seed: scenario.seed, options: options)
      let folder = try TestFolders.fresh("rr-sidecar")
      defer { try? FileManager.default.removeItem(at: folder) }
      for file in ExposureRun.files(scenario, choice: choice, cell: cell, logName: "e.csv") {
        try file.text.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
      }
      let log = try ExposureLog.read(path: folder.appendingPathComponent("e.csv").path)
      let read = try ExposureSidecar.read(path: folder.appendingPathComponent("e.sidecar.json").path)
      let (_, sidecar) = ExposureRun.runWithSidecar(scenario, choice: choice, cell: cell)
      #expect(try read.people(of: log) == sidecar.people(of: log), "\(name)")
      #expect(read.rules == scenario.stack.rules)
      #expect(read.zone.identifier == scenario.zone.identifier)
      #expect(read.widgetSuggestions == scenario.stack.widgetSuggestions)
    }
  }

  /// The ablation (rules off inside the re-run) changes a rule-bound target's value: the
  /// validation's teeth. `static` on commuter keeps a swiped widget on top only while the
  /// pin lasts.
  @Test func switchingTheRulesOffChangesTheReplayedValue() throws {
    var options = SimulationOptions()
    options.days = 2
    let scenario = try bundledScenario("commuter")
    let logger = try StrategyRegistry.builtIn.parse("random")
    let target = try StrategyRegistry.builtIn.parse("static")
    let cell = SimulationCell(replicate: 0, seed: scenario.seed, options: options)
    let (log, sidecar) = ExposureRun.runWithSidecar(scenario, choice: logger, cell: cell)
    let model = ResponseModel(log)
    let on = Self.rates(try RuleReplay.sums(target, log: log, sidecar: sidecar, model: model, seed: 1))
    let off = Self.rates(try RuleReplay.sums(target, log: log, sidecar: sidecar, model: model, seed: 1, rulesOff: true))
    #expect(on.hit > off.hit + 0.01)
  }

  /// Fitted rates are each person's own, shrunk toward the pooled ones with 10 visits'
  /// weight.
  @Test func responseRatesAreShrunkTowardThePool() {
    func row(_ person: String, hit: Bool, action: VisitAction) -> Exposure {
      var e = Exposure(
        person: person, time: 0, candidates: ["a", "b"], shown: hit ? "a" : "b", propensity: 1, reward: action == .tap,
        hit: hit, targets: ["a"])
      e.action = action
      e.rule = .rank
      e.wantApp = "app"
      return e
    }
    let rows = Array(repeating: row("ann", hit: true, action: .tap), count: 10)
      + Array(repeating: row("bob", hit: true, action: .open), count: 10)
    let model = ResponseModel(ExposureLog(loggingStrategy: "x", exposures: rows))
    // Pooled tap: (10 + 1) / (20 + 2) = 0.5; ann: (10 + 10 * 0.5) / 20 = 0.75.
    #expect(model.pooled.tap == 0.5)
    #expect(model.rates["ann"]!.tap == 0.75)
    #expect(model.rates["bob"]!.tap == 0.25)
    // bob's opens: 10 of 10 trials; pooled (10 + 1) / (10 + 2).
    #expect(abs(model.rates["bob"]!.open - (10 + 10 * 11.0 / 12) / 20) < 1e-12)
  }
}
