import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Rule replay (`rr`, `rr-dr`): a target's on-policy tap and hit rates from a version-2
/// exposure log, by running the target through the engine's own stack rules over each
/// person rebuilt from the log (docs/counterfactual.md, "Rule replay").
///
/// Per person and imputation m = 1…M: the person's logged visits, wants, relevance
/// entries and suggestion windows (`ExposureSidecar.people(of:)`) run through
/// `Simulation`'s visit loop with the target as the strategy and the stack's rules as
/// the logging stack had them (`StackRuleState`: swipe pins, Smart Rotate off, the
/// rotation limit, suppression). The person's reaction at each visit with a want is
/// what the log reveals of their decisions where it applies, drawn from the fitted
/// rates (`ResponseModel`) elsewhere (`RevealedReaction`); in particular, where the
/// target shows what the logger showed, it is the logged action. Taps, swipes (which pin)
/// and opens become donations as in simulation, so the target's own display drives
/// what it learns.
///
/// Assumptions (stated verbatim in docs and `evaluate --help`): visits, wants and
/// timelines do not depend on what is shown; people respond with fixed per-person
/// probabilities; the rules and their settings are known.
public enum RuleReplay {
  /// Imputations averaged per person (M).
  public static let imputations = 4

  /// Per-person sums of one target: visits, then `rr`'s taps and hits, then `rr-dr`'s
  /// tap term (its hits are `rr`'s: a hit does not depend on the person's reaction).
  public struct PersonSums: Sendable, Hashable {
    public var visits = 0.0
    public var taps = 0.0
    public var hits = 0.0
    public var tapsDR = 0.0
  }

  /// The target's per-person sums, people in the log's order of first appearance.
  ///
  /// - Parameters:
  ///   - rulesOff: the ablation `rr-no-rules`: the re-run with no swipe pin, Smart Rotate
  ///     on and no rotation limit (suppression stays).
  ///   - seed: the imputations' master seed; person p's imputation m draws from
  ///     `StreamSeed.derive(seed, stableHash("rule-replay"), stableHash(target), p, m)`.
  ///     The target's own randomness is seeded as in simulation from `(seed, replicate,
  ///     target, p)`.
  /// - Throws: `ReplayError` when the log is not version 2 or names what the sidecar
  ///   lacks.
  /// - Complexity: O(M · (visits + entries) · instances) per person.
  public static func sums(
    _ target: StrategyChoice, log: ExposureLog, sidecar: ExposureSidecar, model: ResponseModel,
    seed: UInt64, replicate: Int = 0, engine: EngineOptions = EngineOptions(), rulesOff: Bool = false
  ) throws -> [PersonSums] {
    guard log.version == 2 else { throw ReplayError("rule replay needs a version-2 exposure log (column 'action')") }
    let people = try sidecar.people(of: log)
    var rowsOf: [String: [Int]] = [:]
    for (k, e) in log.exposures.enumerated() { rowsOf[e.person, default: []].append(k) }
    var rules = sidecar.rules
    if rulesOff { rules = StackRuleSettings(smartRotate: true, developerMode: true, swipeCooldownMinutes: 0) }
    let run = PeopleRun(
      people: people, rows: people.map { rowsOf[$0.name]! }, log: log, sidecar: sidecar, model: model,
      rules: rules, engine: engine, seed: seed, replicate: replicate, target: target.descriptor)
    return target.open(run)
  }

  /// Opens the target's type, then its engine path.
  struct PeopleRun: StrategyTypeVisitor, EnginePathVisitor {
    let people: [SimulatedPerson]
    let rows: [[Int]]
    let log: ExposureLog
    let sidecar: ExposureSidecar
    let model: ResponseModel
    let rules: StackRuleSettings
    let engine: EngineOptions
    let seed: UInt64
    let replicate: Int
    let target: StrategyDescriptor

    func visit<S: RankingStrategy>(_ prototype: S) -> [PersonSums] { prototype.openEnginePath(self) }

    func visit<P: EnginePath>(_ path: P) -> [PersonSums] {
      let strategyStream = StreamSeed.stableHash(target.description)
      let imputationStream = StreamSeed.stableHash("rule-replay")
      var result: [PersonSums] = []
      for (p, person) in people.enumerated() {
        let rows = rows[p].map { log.exposures[$0] }
        let rates = model.rates[person.name] ?? model.pooled
        var total = PersonSums()
        for m in 0..<RuleReplay.imputations {
          var responder = RuleReplayResponder(
            rows: rows, instanceIDs: sidecar.instances.map(\.id), rates: rates,
            stream: Xoshiro256StarStar(
              seed: StreamSeed.derive(seed, imputationStream, strategyStream, UInt64(p), UInt64(m))))
          var session = StackSession(
            person: Int32(p), instances: person.instances, path: path, observer: RuleReplayRecorder(),
            zone: sidecar.zone, options: engine,
            strategySeed: StreamSeed.derive(seed, UInt64(replicate), strategyStream, UInt64(p)), rules: rules)
          var counts = SimulationCounts()
          var emitter: LogEmitter? = nil
          Simulation.run(
            person, widgetSuggestions: sidecar.widgetSuggestions, responder: &responder, session: &session,
            counts: &counts, emitter: &emitter)
          let recorded = session.finishedObserver()
          total.visits = Double(rows.count)
          for (k, row) in rows.enumerated() where k < recorded.shown.count {
            let shown = recorded.shown[k]
            total.hits += recorded.hit[k] ? 1 : 0
            total.taps += recorded.tapped[k] ? 1 : 0
            // Doubly robust tap term: the tap model m(c) = rate·1[c wanted], corrected
            // with the logged tap where the target's choice is the logged one.
            let wanted = !row.wantApp.isEmpty
            let model = { (id: String) -> Double in wanted && row.targets.contains(id) ? rates.tap : 0 }
            let choice = shown >= 0 ? sidecar.instances[Int(shown)].id : ""
            var term = model(choice)
            if choice == row.shown { term += (row.reward ? 1 - model(row.shown) : -model(row.shown)) / row.propensity }
            total.tapsDR += term
          }
        }
        let m = Double(RuleReplay.imputations)
        total.taps /= m
        total.hits /= m
        total.tapsDR /= m
        result.append(total)
      }
      return result
    }
  }
}

/// Rule replay's reactions: the logged decisions where the log reveals them, the fitted
/// rates elsewhere (`RevealedReaction`), for one person's rows in visit order.
struct RuleReplayResponder: VisitResponder {
  let rows: [Exposure]
  let instanceIDs: [String]
  let rates: ResponseModel.Rates
  var stream: Xoshiro256StarStar

  mutating func respond(visit v: Int, shown: Int32, isHit: Bool, swipeTo: Int32) -> VisitAction {
    let row = rows[v]
    let loggedCanSwipe = !row.hit && row.targets.contains(where: row.candidates.contains)
    let revealed = RevealedReaction(action: row.action ?? .none, hit: row.hit, canSwipe: loggedCanSwipe)
    var stream = self.stream
    let action = revealed.reaction(isHit: isHit, canSwipe: swipeTo >= 0, rates: rates) { rate in
      stream.nextUnit() < rate
    }
    self.stream = stream
    return action
  }
}

/// Records, per visit of one person in order, what the target showed, whether it was
/// wanted, and whether the person tapped it.
struct RuleReplayRecorder: OutcomeObserver {
  var shown: [Int32] = []
  var hit: [Bool] = []
  var tapped: [Bool] = []

  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    shown.append(o.shown)
    hit.append(o.isHit)
    tapped.append(false)
  }

  mutating func responded(_ response: VisitResponse) {
    if response.action == .tap, !tapped.isEmpty { tapped[tapped.count - 1] = true }
  }
}
