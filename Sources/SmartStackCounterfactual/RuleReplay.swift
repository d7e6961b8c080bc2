import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

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
    try sums(
      target, world: World(log: log, sidecar: sidecar, model: model), seed: seed, replicate: replicate, engine: engine,
      rulesOff: rulesOff)
  }

  /// `sums(_:log:sidecar:model:seed:replicate:engine:rulesOff:)` over a world built once
  /// per log (`World`), for several targets.
  public static func sums(
    _ target: StrategyChoice, world: World, seed: UInt64, replicate: Int = 0, engine: EngineOptions = EngineOptions(),
    rulesOff: Bool = false
  ) throws -> [PersonSums] {
    var rules = world.sidecar.rules
    if rulesOff { rules = StackRuleSettings(smartRotate: true, developerMode: true, swipeCooldownMinutes: 0) }
    let run = PeopleRun(
      world: world, rules: rules, engine: engine, seed: seed, replicate: replicate, target: target.descriptor)
    return target.open(run)
  }

  /// Each person of a version-2 log rebuilt (`ExposureSidecar.people(of:)`), with what
  /// each logged visit says in dense ids: the logger's shown instance, the wanted
  /// instances, the revealed decisions (`RevealedReaction`), the propensity and the tap;
  /// and the person's fitted rates. Built once per log, shared by every target.
  public struct World: Sendable {
    let sidecar: ExposureSidecar
    let people: [SimulatedPerson]
    let visits: [[LoggedVisit]]
    let rates: [ResponseModel.Rates]

    /// - Throws: `ReplayError` when the log is not version 2 or names what the sidecar
    ///   lacks.
    public init(log: ExposureLog, sidecar: ExposureSidecar, model: ResponseModel) throws {
      guard log.version == 2 else { throw ReplayError("rule replay needs a version-2 exposure log (column 'action')") }
      self.sidecar = sidecar
      people = try sidecar.people(of: log)
      var index: [String: Int32] = [:]
      for (i, instance) in sidecar.instances.enumerated() { index[instance.id] = Int32(i) }
      var rowsOf: [String: [Int]] = [:]
      for (k, e) in log.exposures.enumerated() { rowsOf[e.person, default: []].append(k) }
      visits = people.map { person in
        rowsOf[person.name]!.map { k in
          let row = log.exposures[k]
          let canSwipe = !row.hit && row.targets.contains(where: row.candidates.contains)
          return LoggedVisit(
            revealed: RevealedReaction(action: row.action ?? .none, hit: row.hit, canSwipe: canSwipe),
            shown: index[row.shown] ?? -1, wanted: row.targets.compactMap { index[$0] }, hasWant: !row.wantApp.isEmpty,
            propensity: row.propensity, reward: row.reward)
        }
      }
      rates = people.map { model.rates[$0.name] ?? model.pooled }
    }
  }

  /// One logged visit in dense ids (`World`).
  struct LoggedVisit: Sendable {
    var revealed: RevealedReaction
    var shown: Int32
    var wanted: [Int32]
    var hasWant: Bool
    var propensity: Double
    var reward: Bool
  }

  /// Opens the target's type, then its engine path.
  struct PeopleRun: StrategyTypeVisitor, EnginePathVisitor {
    let world: World
    let rules: StackRuleSettings
    let engine: EngineOptions
    let seed: UInt64
    let replicate: Int
    let target: StrategyDescriptor

    func visit<S: RankingStrategy>(_ prototype: S) -> [PersonSums] { prototype.openEnginePath(self) }

    func visit<P: EnginePath>(_ path: P) -> [PersonSums] {
      let strategyStream = StreamSeed.stableHash(target.description)
      let imputationStream = StreamSeed.stableHash("rule-replay")
      let sidecar = world.sidecar
      var result: [PersonSums] = []
      for (p, person) in world.people.enumerated() {
        let visits = world.visits[p]
        let rates = world.rates[p]
        var total = PersonSums()
        total.visits = Double(visits.count)
        for m in 0..<RuleReplay.imputations {
          var responder = RuleReplayResponder(
            visits: visits, rates: rates,
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
          for (k, visit) in visits.enumerated() where k < recorded.shown.count {
            let shown = recorded.shown[k]
            total.hits += recorded.hit[k] ? 1 : 0
            total.taps += recorded.tapped[k] ? 1 : 0
            // Doubly robust tap term: the tap model m(c) = rate·1[c wanted], corrected
            // with the logged tap where the target's choice is the logged one.
            let modelChoice = visit.hasWant && visit.wanted.contains(shown) ? rates.tap : 0
            var term = modelChoice
            if shown == visit.shown {
              term += ((visit.reward ? 1 : 0) - modelChoice) / visit.propensity
            }
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
/// rates elsewhere (`RevealedReaction`), for one person's visits in order.
struct RuleReplayResponder: VisitResponder {
  let visits: [RuleReplay.LoggedVisit]
  let rates: ResponseModel.Rates
  var stream: Xoshiro256StarStar

  mutating func respond(visit v: Int, shown: Int32, isHit: Bool, swipeTo: Int32) -> VisitAction {
    var stream = self.stream
    let action = visits[v].revealed.reaction(isHit: isHit, canSwipe: swipeTo >= 0, rates: rates) { rate in
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
