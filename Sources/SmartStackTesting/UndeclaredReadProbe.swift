import SmartStackKit

/// Finds the inputs a refined strategy reads without declaring them in `reads`, for
/// `StrategyConformance`: the strategy runs through the engine, ranking at every visit,
/// behind a probe whose views collect an undeclared read (`VisitInputs.undeclared`)
/// instead of trapping, so an author's mistake fails one test, not the test process.
///
/// The probe forwards `begin` and `observe` and calls the strategy's `scores` (pure) or
/// `score` and `rule(top:)` (instance-scoring) at every visit; it does not forward
/// outcomes (an outcome-learning strategy's state then follows its events alone),
/// which changes which values it reads, never which inputs.
enum UndeclaredReadProbe {
  /// The checker probes this many worlds at most: every kind of generated world twice
  /// (`StrategyConformance.world`), for about 5 % of the check's time. A read that only
  /// a later world reaches still traps in the comparison runs, as before the probe.
  static let worlds = 12

  /// What the probe found over one world: the undeclared inputs and the time (epoch ms)
  /// and 0-based position among the world's visits of the first visit that read one.
  struct Finding {
    var inputs: VisitInputs
    var visit: Int
    var time: Int64
  }

  /// The first world (from `seed`, as `StrategyConformance` builds them) where `strategy`
  /// reads an undeclared input, with what it read; nil when it never does, or when the
  /// strategy declares no `reads` (an unrefined strategy reads its context freely).
  static func first<S: RankingStrategy>(_ strategy: S, worlds: Int, seed: UInt64) -> (world: UInt64, Finding)? {
    for w in 0..<worlds {
      let worldSeed = seed &+ UInt64(w)
      let world = StrategyConformance.world(w, seed: worldSeed)
      if let finding = probe(strategy, world, seed: worldSeed) { return (worldSeed, finding) }
    }
    return nil
  }

  static func probe<S: RankingStrategy>(_ strategy: S, _ world: GeneratedWorld, seed: UInt64) -> Finding? {
    let log = UnsafeMutablePointer<Finding>.allocate(capacity: 1)
    defer { log.deallocate() }
    log.initialize(to: Finding(inputs: [], visit: 0, time: 0))
    let found = UnsafeMutablePointer<VisitInputs>.allocate(capacity: 1)
    defer { found.deallocate() }
    found.initialize(to: [])
    let pointers = Pointers(found: found, log: log)
    let run: StrategyConformance.Run
    if let pure = strategy as? any PureRankingStrategy {
      run = runPure(pure, pointers, world, seed: seed)
    } else if let scoring = strategy as? any InstanceScoringStrategy {
      run = runScoring(scoring, pointers, world, seed: seed)
    } else {
      return nil
    }
    guard !log.pointee.inputs.isEmpty else { return nil }
    var finding = log.pointee
    finding.visit = run.visits.firstIndex { $0.time == finding.time } ?? 0
    return finding
  }

  /// Runs `strategy` behind its probe, ranking at every visit (one function per
  /// refinement: each opens the existential the checker holds).
  static func runPure<T: PureRankingStrategy>(
    _ strategy: T, _ pointers: Pointers, _ world: GeneratedWorld, seed: UInt64
  ) -> StrategyConformance.Run {
    StrategyConformance.run(PureProbe(inner: strategy, pointers: pointers), world, seed: seed, ranksAtEveryVisit: true)
  }

  static func runScoring<T: InstanceScoringStrategy>(
    _ strategy: T, _ pointers: Pointers, _ world: GeneratedWorld, seed: UInt64
  ) -> StrategyConformance.Run {
    StrategyConformance.run(
      InstanceProbe(inner: strategy, pointers: pointers), world, seed: seed, ranksAtEveryVisit: true)
  }

  /// Where a probe's views collect undeclared reads (`found`) and where it notes the
  /// first visit that made one (`log`): owned by `probe(_:_:seed:)`, which outlives the
  /// run; the run is on one thread.
  struct Pointers {
    let found: UnsafeMutablePointer<VisitInputs>
    let log: UnsafeMutablePointer<Finding>

    /// Notes, after one `rank`, what the visit read without declaring it.
    func note(context: StackContext) {
      if !found.pointee.isEmpty && log.pointee.inputs.isEmpty {
        log.pointee = Finding(inputs: found.pointee, visit: 0, time: context.now)
      } else {
        log.pointee.inputs.formUnion(found.pointee)
      }
    }
  }

  /// A `PureRankingStrategy` whose `scores` read through collecting views.
  struct PureProbe<S: PureRankingStrategy>: Probe, @unchecked Sendable {
    var inner: S
    let pointers: Pointers

    mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
      let strategy = inner
      context.withVisitView(reads: strategy.reads, strategy: S.self, recorder: pointers.found) {
        strategy.scores($0, into: &ranking)
      }
      pointers.note(context: context)
    }
  }

  /// An `InstanceScoringStrategy` whose `score` and `rule(top:)` read through collecting
  /// views.
  struct InstanceProbe<S: InstanceScoringStrategy>: Probe, @unchecked Sendable {
    var inner: S
    let pointers: Pointers

    mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
      let strategy = inner
      context.withInstanceViews(reads: strategy.reads, strategy: S.self, recorder: pointers.found) { view in
        ranking.setCandidateScores(context) { i in strategy.score(view(i)) }
        var top = -1
        for i in 0..<context.instanceCount where context.isCandidate(i) {
          if top < 0 || context.features.precedes(i, top, scores: ranking.scores) { top = i }
        }
        ranking.rule = strategy.rule(top: top >= 0 ? view(top) : nil)
      }
      pointers.note(context: context)
    }
  }
}

/// What both probes share: the strategy's name and its `begin` and `observe`,
/// forwarded; a probe is built by the checker, never from parameters.
protocol Probe: RankingStrategy {
  associatedtype S: RankingStrategy
  var inner: S { get set }
}

extension Probe {
  static var info: StrategyInfo { S.info }
  init(parameters: StrategyParameters) throws { throw StrategyError("a read probe is built by the checker") }
  mutating func begin(_ setup: StrategySetup) { inner.begin(setup) }
  mutating func observe(_ event: ObservedEvent, context: StackContext) { inner.observe(event, context: context) }
}
