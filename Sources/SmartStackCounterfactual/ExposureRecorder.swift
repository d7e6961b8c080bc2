import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// An observer that builds the exposure log of a run of `ExposureLogged` (same probe):
/// one `Exposure` per visit with something shown.
///
/// The propensity is the probability of what was *shown*, stack rules included:
/// - a deterministic strategy: 1 (what it shows is fixed by its state);
/// - `bandit` (`EstimatedChoiceProbabilities`): estimated from extra draws, marked
///   `estimated`; otherwise as a stochastic one;
/// - a stochastic one, when no candidate but the one on top is suppressed: its
///   probability of choosing the shown instance;
/// - when some other candidate is suppressed (whether or not suppression decided this
///   visit): its probability of the shown instance being first among the allowed ones
///   (`StackRules`: the stack shows the first allowed candidate of the strategy's order);
/// - when a pin, Smart Rotate off or the rotation limit decided: 1 (the shown instance
///   did not depend on the draw).
///
/// The reward (a tap) is revealed after the visit's outcome, so each row is completed at
/// the next visit or at the person's end.
public struct ExposureRecorder: OutcomeObserver {
  public let probe: ExposureProbe
  public private(set) var exposures: [Exposure] = []
  var labels: VisitLabels
  var pending: Exposure? = nil
  /// The apps' ids by donation kind id, for `want_app` (version 2).
  let appIDs: [String]

  /// A recorder of `probe`'s run; `appIDs` name the apps by their donation kind ids
  /// (`SimulatedPerson.apps`), for the version-2 column `want_app`.
  public init(probe: ExposureProbe, personNames: [String], appIDs: [String] = []) {
    self.probe = probe
    self.appIDs = appIDs
    labels = VisitLabels(personNames: personNames)
  }

  public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    labels.begin(person, instances: instances)
  }

  public mutating func observe(

    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures

  ) {
    flush()
    guard let shownID = labels.id(o.shown) else { return }
    let shown = Int(o.shown)
    let ids = labels.instanceIDs
    var candidates: [String] = []
    for i in 0..<min(features.instanceCount, ids.count) where features.available[i] {
      candidates.append(ids[i])
    }
    let p = shownProbabilities(o)
    var stated: [Double] = []
    for i in 0..<min(features.instanceCount, ids.count) where features.available[i] {
      stated.append(p.map { $0[i] } ?? (i == shown ? 1 : 0))
    }
    pending = Exposure(
      person: labels.person, time: o.time, candidates: candidates, candidateProbabilities: stated,
      shown: shownID, propensity: p?[shown] ?? 1, estimated: p != nil && probe.estimated, forced: isForced(o), reward: false, hit: o.isHit,
      targets: targets().compactMap(labels.id))
    pending!.rule = ExposureRule(outcomeRule: "\(o.rule)")
  }

  /// The version-2 columns of the pending row: what the person did.
  public mutating func responded(_ r: VisitResponse) {
    guard pending?.time == r.time else { return }
    pending!.action = r.action
    pending!.swipedTo = r.action == .swipe ? labels.id(r.swipedTo) ?? "" : ""
    pending!.wantApp = r.app >= 0 && Int(r.app) < appIDs.count ? appIDs[Int(r.app)] : ""
  }

  /// The probability of showing each instance at this visit (see the type's
  /// definition); nil when what was shown did not depend on a draw (1 on it).
  func shownProbabilities(_ o: VisitOutcome) -> [Double]? {
    guard !probe.probabilities.isEmpty else { return nil }
    precondition(probe.rankedAt == o.time, "exposure probe: the strategy did not rank this visit")
    let rule = "\(o.rule)"
    guard rule == probe.rankRule || rule == "suppressed: not rotated to" else { return nil }
    // When some candidate other than the one on top is suppressed, the stack shows the
    // first *allowed* candidate of the strategy's order whether or not the strategy's top
    // was allowed (an allowed top is that first one): its probability is among the
    // allowed, not the strategy's plain choice probability.
    return probe.allowedProbabilities.isEmpty ? probe.probabilities : probe.allowedProbabilities
  }

  /// True when a stack rule other than suppression decided the visit (the outcome names
  /// another rule than the strategy's ranking did).
  func isForced(_ o: VisitOutcome) -> Bool {
    let rule = "\(o.rule)"
    return probe.rankedAt == o.time && rule != probe.rankRule && rule != "suppressed: not rotated to"
  }

  /// Completes the pending row with the revealed tap and keeps it.
  mutating func flush() {
    guard var e = pending else { return }
    e.reward = probe.feedbackTime == e.time && probe.tapped
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
    let timelines = ExposureSidecar.timelinesName(besideLog: logName)
    let sidecarName = (ExposureSidecar.path(besideLog: logName) as NSString).lastPathComponent
    return [
      (logName, log.csvText()), (sidecarName, sidecar.jsonText(timelinesFile: timelines)),
      (timelines, (sidecar.timelines ?? TimelineFile(instances: [])).jsonText()),
    ]
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
        let probe = ExposureProbe()
        var emitter = emitter
        let recorder = ExposureRecorder(
          probe: probe, personNames: (0..<scenario.personCount).map(scenario.personName),
          appIDs: scenario.apps.map(\.id))
        let exposures = Simulation.run(
          scenario, strategy: ExposureLogged(base: prototype, probe: probe), descriptor: descriptor,
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
