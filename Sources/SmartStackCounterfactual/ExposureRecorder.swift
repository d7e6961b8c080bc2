import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// An observer that builds the exposure log of a run: one `Exposure` per visit with
/// something shown.
///
/// The propensity is the probability of what was *shown*, stack rules included, which
/// the engine computes for an observer that reads it (`ShownProbabilities`, whose
/// definition this log's `propensity` and `candidate_probabilities` follow): 1 for a
/// deterministic strategy and when a pin, Smart Rotate off or the rotation limit
/// decided; a stochastic strategy's stated probability of the shown instance, among the
/// allowed candidates when some other candidate is suppressed; `bandit`'s estimated one
/// (`EstimatedChoiceProbabilities`), marked `estimated`.
///
/// The reward (a tap) is the person's response (`responded`), told right after the
/// visit; each row is kept at the next visit or at the person's end.
public struct ExposureRecorder: ShownProbabilityObserver {
  public private(set) var exposures: [Exposure] = []
  var labels: VisitLabels
  var pending: Exposure? = nil
  /// The probabilities of the visit `observe` is about to report.
  var probabilities = ShownProbabilities(perInstance: [], estimated: false, forcedByRule: false)
  /// The apps' ids by donation kind id, for `want_app` (version 2).
  let appIDs: [String]

  /// A recorder of a run of `personNames`; `appIDs` name the apps by their donation kind
  /// ids (`SimulatedPerson.apps`), for the version-2 column `want_app`.
  public init(personNames: [String], appIDs: [String] = []) {
    self.appIDs = appIDs
    labels = VisitLabels(personNames: personNames)
  }

  public mutating func shownProbabilities(_ probabilities: ShownProbabilities) {
    self.probabilities = probabilities
  }

  public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    labels.begin(person, instances: instances)
  }

  public mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    flush()
    // Taken out, not kept: the engine then rewrites its buffer in place at the next
    // visit instead of copying it.
    let probabilities = self.probabilities
    self.probabilities.perInstance = []
    guard let shownID = labels.id(o.shown) else { return }
    precondition(
      probabilities.isKnown,
      "exposure log: the strategy states no probabilities (ExposureRun.check refuses it first)")
    let ids = labels.instanceIDs
    var candidates: [String] = []
    var stated: [Double] = []
    for i in 0..<min(features.instanceCount, ids.count) where features.available[i] {
      candidates.append(ids[i])
      stated.append(probabilities.perInstance[i])
    }
    pending = Exposure(
      person: labels.person, time: o.time, candidates: candidates, candidateProbabilities: stated,
      shown: shownID, propensity: o.shownProbability, estimated: probabilities.estimated,
      forced: probabilities.forcedByRule, reward: false, hit: o.isHit,
      targets: targets().compactMap(labels.id))
    pending!.rule = ExposureRule(o.decidedBy)
  }

  /// The version-2 columns of the pending row (what the person did) and its reward (a
  /// tap).
  public mutating func responded(_ r: VisitResponse) {
    guard pending?.time == r.time else { return }
    pending!.reward = r.action == .tap
    pending!.action = r.action
    pending!.swipedTo = r.action == .swipe ? labels.id(r.swipedTo) ?? "" : ""
    pending!.wantApp = r.app >= 0 && Int(r.app) < appIDs.count ? appIDs[Int(r.app)] : ""
  }

  /// Keeps the pending row.
  mutating func flush() {
    guard let e = pending else { return }
    exposures.append(e)
    pending = nil
  }

  public mutating func endPerson(_ person: Int32) { flush() }
}

/// Simulates one replicate of a scenario under a logging strategy and returns its
/// exposure log (`ExposureRecorder`), the same run `simulate` makes of that strategy.
public enum ExposureRun {
  /// Refuses a logging strategy whose propensities are unknown: a
  /// `StochasticRankingStrategy` that is not an `AllowedChoiceProbabilities`. (`bandit`
  /// is logged with estimated propensities, `EstimatedChoiceProbabilities`.)
  public static func check(_ choice: StrategyChoice) throws {
    let stochastic = choice.prototype is any StochasticRankingStrategy
    if stochastic && !(choice.prototype is any AllowedChoiceProbabilities) {
      throw StrategyError(
        "strategy '\(choice.descriptor.label)' draws at random without a stated probability per "
          + "candidate, so its exposure log would have wrong propensities; log with random, "
          + "epsilon:...:base=... or softmax:...:base=... instead")
    }
  }

  /// The exposure log of `choice` on `scenario`'s replicate `cell`.
  public static func run(_ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell) -> ExposureLog {
    var emitter: LogEmitter? = nil
    return run(scenario, choice: choice, cell: cell, emitter: &emitter)
  }

  /// The exposure log and the relevance timelines the run delivered to each person's
  /// stack (`LogEmitter.timelines`: what a target reading relevance needs).
  public static func runWithTimelines(_ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell) -> (
    ExposureLog, TimelineFile
  ) {
    var emitter: LogEmitter? = LogEmitter()
    let log = run(scenario, choice: choice, cell: cell, emitter: &emitter)
    return (log, emitter!.timelines)
  }

  /// The exposure log (version 2) and its sidecar: the world rule replay rebuilds each
  /// person from (instances, apps, rules, suggestion windows, every delivered entry).
  public static func runWithSidecar(_ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell) -> (
    ExposureLog, ExposureSidecar
  ) {
    var emitter: LogEmitter? = LogEmitter(recordsWorld: true)
    let log = run(scenario, choice: choice, cell: cell, emitter: &emitter)
    return (log, ExposureSidecar(scenario: scenario, emitter: emitter!))
  }

  /// The files an emitted exposure log consists of, named after `logName` (a file name
  /// ending in `.csv`): the log (version 2), its sidecar `NAME.sidecar.json` and the
  /// timelines the stacks received, `NAME.timelines.json` (docs/counterfactual.md).
  public static func files(
    _ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell, logName: String
  ) -> [(name: String, text: String)] {
    let (log, sidecar) = runWithSidecar(scenario, choice: choice, cell: cell)
    return files(log: log, sidecar: sidecar, logName: logName)
  }

  /// The files of an exposure log made already (`SimulationRuns`, whose run records it
  /// beside the metrics): see `files(_:choice:cell:logName:)`.
  public static func files(
    log: ExposureLog, sidecar: ExposureSidecar, logName: String
  ) -> [(name: String, text: String)] {
    let timelines = ExposureSidecar.timelinesName(besideLog: logName)
    let context = ExposureSidecar.contextName(besideLog: logName)
    let sidecarName = (ExposureSidecar.path(besideLog: logName) as NSString).lastPathComponent
    var files = [
      (logName, log.csvText()), (sidecarName, sidecar.jsonText(timelinesFile: timelines, contextFile: context)),
      (timelines, (sidecar.timelines ?? TimelineFile(instances: [])).jsonText()),
    ]
    if let changes = sidecar.context { files.append((context, changes.csvText())) }
    return files
  }

  static func run(
    _ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell, emitter: inout LogEmitter?
  ) -> ExposureLog {
    struct Visit: StrategyTypeVisitor {
      var scenario: Scenario
      var descriptor: StrategyDescriptor
      var cell: SimulationCell
      var emitter: LogEmitter?
      func visit<S: RankingStrategy>(_ prototype: S) -> ([Exposure], LogEmitter?) {
        var emitter = emitter
        let recorder = ExposureRecorder(
          personNames: (0..<scenario.personCount).map(scenario.personName), appIDs: scenario.apps.map(\.id))
        let exposures = Simulation.run(
          scenario, strategy: prototype, descriptor: descriptor,
          replicate: cell.replicate, seed: cell.seed, options: cell.options, observer: recorder,
          emitter: &emitter
        ).observer.exposures
        return (exposures, emitter)
      }
    }
    let exposures: [Exposure]
    (exposures, emitter) = choice.open(
      Visit(scenario: scenario, descriptor: choice.descriptor, cell: cell, emitter: emitter))
    return ExposureLog(loggingStrategy: choice.descriptor.description, exposures: exposures)
  }
}
