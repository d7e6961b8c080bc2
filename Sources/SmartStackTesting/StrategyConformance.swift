import SmartStackKit

/// Checks a strategy's fast paths against ranking at every visit, for strategy authors'
/// own tests.
///
/// ```swift
/// import SmartStackTesting
/// import Testing
///
/// @Test func myStrategyConforms() throws {
///   let report = try StrategyConformance.check(MyStrategy.self)
///   #expect(report.difference == nil, "\(report)")
/// }
/// ```
///
/// For each generated world (`GeneratedWorld`: six-instance stacks with every kind of
/// event, long chains of reuse, and 70-instance stacks where per-instance rescoring
/// stops) the strategy runs twice through the engine: once as it is, taking every
/// speed path its refinement allows (`PureRankingStrategy`: reusing decisions;
/// `InstanceScoringStrategy`: rescoring changed instances; `OutcomeLearningStrategy`:
/// outcomes), and once through the engine's reference mode, which calls the strategy's
/// own `rank` at every visit. Every visit's
/// decision (shown instance, target rank, candidates, relevance flags, rule and every
/// score bit for bit) and every closed window must agree. The report names the first
/// visit where they differ.
///
/// A wrong `==` (one that misses state `observe` changes) and state kept outside the
/// value (a class reference) are what this catches. First, though, a refined strategy
/// runs over the first 12 of the same worlds (every kind twice) behind a probe (`UndeclaredReadProbe`) whose views collect
/// what it reads without declaring it in `reads` (which traps in the engine): if it
/// reads any, the report names them (`undeclaredReads`, and `difference`) and nothing
/// else runs, so the mistake fails one test instead of killing the test process.
public enum StrategyConformance {
  /// Runs the check on `worlds` worlds from `seed` with the strategy's `parameters`
  /// (name, value pairs; defaults for the rest).
  ///
  /// - Throws: `StrategyError` when the parameters are invalid.
  /// - Complexity: O(worlds × events × instances).
  public static func check<S: RankingStrategy>(
    _ type: S.Type, parameters: [(String, Double)] = [], worlds: Int = 120, seed: UInt64 = 1
  ) throws -> StrategyConformanceReport {
    let values = try StrategyParameters(specs: S.parameterSpecs, given: parameters, strategy: S.name)
    return check(try S(parameters: values), worlds: worlds, seed: seed)
  }

  /// `check(_:parameters:worlds:seed:)` for a strategy value (before `begin`).
  public static func check<S: RankingStrategy>(
    _ strategy: S, worlds: Int = 120, seed: UInt64 = 1
  ) -> StrategyConformanceReport {
    var report = StrategyConformanceReport(strategy: S.name, path: StrategyPath(of: S.self))
    if let (world, finding) = UndeclaredReadProbe.first(
      strategy, worlds: min(worlds, UndeclaredReadProbe.worlds), seed: seed)
    {
      report.undeclaredReads = finding.inputs
      report.difference = .init(
        world: world, visit: finding.visit, time: finding.time,
        fastPath: "reads \(finding.inputs.names.joined(separator: ", ")) without declaring it in `reads`; add it there",
        everyVisit: "(not run: the engine traps on an undeclared read)")
      return report
    }
    for w in 0..<worlds {
      let worldSeed = seed &+ UInt64(w)
      let world = Self.world(w, seed: worldSeed)
      let fast = run(strategy, world, seed: worldSeed, ranksAtEveryVisit: false)
      let reference = run(strategy, world, seed: worldSeed, ranksAtEveryVisit: true)
      report.worlds += 1
      report.visits += fast.visits.count
      report.reusedVisits += fast.reused
      if let difference = firstDifference(fast, reference, world: worldSeed) {
        report.difference = difference
        break
      }
    }
    return report
  }

  /// The `w`th world from `seed`: half the worlds with every kind of event, then long
  /// chains of reuse, then a stack too large for per-instance rescoring; every one with
  /// outside scores (`GeneratedWorld`'s `outsideScores`).
  static func world(_ w: Int, seed: UInt64) -> GeneratedWorld {
    GeneratedWorld(seed: seed, instanceCount: w % 6 == 5 ? 70 : 6, longChains: w % 2 == 1, outsideScores: true)
  }

  struct Run {
    var visits: [(time: Int64, decision: String)] = []
    var windows: [String] = []
    var reused = 0
  }

  /// Runs `strategy` over `world` on the engine path of its refinement (opened at run
  /// time: the checker is not about speed), or ranking at every visit.
  static func run<T: RankingStrategy>(
    _ strategy: T, _ world: GeneratedWorld, seed: UInt64, ranksAtEveryVisit: Bool
  ) -> Run {
    strategy.openEnginePath(WorldRun(world: world, seed: seed, ranksAtEveryVisit: ranksAtEveryVisit))
  }

  struct WorldRun: EnginePathVisitor {
    let world: GeneratedWorld
    let seed: UInt64
    let ranksAtEveryVisit: Bool
    func visit<P: EnginePath>(_ path: P) -> Run {
      var session = StackSession(
        person: 0, instances: world.instances, path: path, observer: Transcript(), zone: .utc,
        options: world.options, strategySeed: seed, ranksAtEveryVisit: ranksAtEveryVisit)
      for i in world.initiallyAvailable { session.makeAvailable(i) }
      for event in world.events { event.apply(to: &session) }
      session.finish(at: 0)
      let transcript = session.finishedObserver()
      return Run(visits: transcript.visits, windows: transcript.windows, reused: session.reusedDecisionCount)
    }
  }

  static func firstDifference(_ fast: Run, _ reference: Run, world: UInt64) -> StrategyConformanceReport.Difference? {
    for (k, (a, b)) in zip(fast.visits, reference.visits).enumerated() where a.decision != b.decision {
      return .init(world: world, visit: k, time: a.time, fastPath: a.decision, everyVisit: b.decision)
    }
    if fast.visits.count != reference.visits.count || fast.windows != reference.windows {
      return .init(
        world: world, visit: min(fast.visits.count, reference.visits.count), time: 0,
        fastPath: "windows: " + fast.windows.joined(separator: "; "),
        everyVisit: "windows: " + reference.windows.joined(separator: "; "))
    }
    return nil
  }
}

/// What `StrategyConformance.check` found.
public struct StrategyConformanceReport: Sendable, CustomStringConvertible {
  /// The first visit where the fast paths and ranking at every visit decided otherwise.
  public struct Difference: Sendable {
    /// The world's seed (`GeneratedWorld(seed:...)`) and the visit's 0-based position in it.
    public var world: UInt64
    public var visit: Int
    /// The visit's time, epoch ms.
    public var time: Int64
    /// Both decisions: shown, previous, target rank, candidates, relevance flags, rule,
    /// scores (as IEEE bit patterns).
    public var fastPath: String
    public var everyVisit: String
  }

  public var strategy: String
  /// The engine path the strategy's refinement selects.
  public var path: StrategyPath
  public var worlds = 0
  public var visits = 0
  /// Visits the fast run decided without calling `rank` (0 for `.everyVisit`): how much
  /// of the fast path the worlds exercised.
  public var reusedVisits = 0
  /// nil when every visit agreed (and nothing was read undeclared).
  public var difference: Difference?
  /// The inputs the strategy read without declaring them in `reads` (empty: none); when
  /// any, `difference` names them and the comparison did not run.
  public var undeclaredReads: VisitInputs = []

  public init(strategy: String, path: StrategyPath) {
    self.strategy = strategy
    self.path = path
  }

  public var description: String {
    let head = "\(strategy) (\(path)): \(worlds) worlds, \(visits) visits, \(reusedVisits) decided without rank"
    guard let d = difference else { return head + ": every visit agrees with ranking at every visit" }
    return head
      + "\nfirst difference: world \(d.world), visit \(d.visit) at \(d.time)"
      + "\n  fast path:   \(d.fastPath)\n  every visit: \(d.everyVisit)"
  }
}

/// Every visit and watched window (`WindowWatch`) as text, for comparison.
struct Transcript: OutcomeObserver {
  var visits: [(time: Int64, decision: String)] = []
  var windows: [String] { recorder.windows.map(\.window.description) }
  var recorder = WindowRecorder()
  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    recorder.beginPerson(person, instances: instances)
  }
  mutating func availabilityChanged(instance: Int32, available: Bool) {
    recorder.availabilityChanged(instance: instance, available: available)
  }
  mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    recorder.windowReachedThreshold(instance: instance, start: start)
  }
  mutating func windowEnded(instance: Int32) { recorder.windowEnded(instance: instance) }
  mutating func endPerson(_ person: Int32) { recorder.endPerson(person) }
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    recorder.observe(o, targets: targets(), scores: scores, features: features)
    visits.append(
      (o.time,
       "shown \(o.shown) previous \(o.previous) target rank \(o.targetRank) of \(o.candidateCount) "
        + "critical \(o.relevanceCritical) honoured \(o.relevanceHonoured) state \(o.shownState.name) "
        + "rule \(o.rule) scores \(scores.map { String($0.bitPattern, radix: 16) })"))
  }
}
