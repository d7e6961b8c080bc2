import SmartStackBench
import SmartStackEngine
import SmartStackExperiments
import SmartStackKit
import Testing

/// Every visit's outcome as text (all fields), and, when `readsTargets`, the targets it
/// was given.
private struct OutcomeLog: OutcomeObserver {
  let readsTargets: Bool
  var lines: [String] = []
  var targets: [[Int32]] = []
  var hasTarget: [Bool] = []
  init(readsTargets: Bool) { self.readsTargets = readsTargets }
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    lines.append(
      "\(o.person) \(o.time) \(o.dayIndex) \(o.hourOfDay) shown \(o.shown) prev \(o.previous) rot \(o.rotated) "
        + "target \(o.hasTarget) rank \(o.targetRank) of \(o.candidateCount) state \(o.shownState.name) "
        + "crit \(o.relevanceCritical) hon \(o.relevanceHonoured) rule \(o.rule)")
    hasTarget.append(o.hasTarget)
    if readsTargets { self.targets.append(Array(targets())) }
  }
}

/// Counts how often the targets argument was evaluated.
private final class EvaluationCount {
  var count = 0
  func targets(_ t: ArraySlice<Int32>) -> ArraySlice<Int32> {
    count += 1
    return t
  }
}

/// An observer receives a visit's targets as an argument evaluated only when it reads
/// them (`OutcomeObserver.observe(_:targets:scores:features:)`): one that reads them
/// always gets them, one that does not costs nothing for them, and the outcome itself
/// holds no reference.
@Suite("Observer targets")
struct ObserverTargetsTests {
  static func mfu() throws -> MostFrequentlyUsedStrategy {
    try MostFrequentlyUsedStrategy(parameters: StrategyParameters(specs: [], given: [], strategy: "mfu"))
  }

  /// The outcome has no field that needs a release: building and dropping one at every
  /// visit costs no reference counting.
  @Test func theOutcomeIsAPlainValue() {
    #expect(_isPOD(VisitOutcome.self))
  }

  /// On replay's path for a strategy that does not see the target, beside the standard
  /// metrics, an observer that reads the targets gets at every visit exactly the
  /// instances the plan matched to the visit's target; a hit is a shown target.
  @Test func anObserverThatReadsTargetsGetsThePlansTargets() throws {
    let workload = BenchWorkload(people: 3, days: 3)
    var visitsWithTargets = 0
    for p in 0..<workload.people {
      let person = workload.person(p)
      var session = StackSession(
        person: 0, instances: person.instances, strategy: try Self.mfu(),
        observer: ObserverPair(StandardMetrics(), OutcomeLog(readsTargets: true)), zone: .utc,
        options: EngineOptions(), strategySeed: 1)
      Replay.run(person, horizon: workload.horizonMilliseconds, session: &session)
      let log = session.finishedObserver().second
      #expect(log.targets.count == person.visitTimes.count)
      for (v, targets) in log.targets.enumerated() {
        let target = Int(person.visitTarget[v])
        #expect(targets == (target >= 0 ? Array(person.matched(target)) : []), "person \(p) visit \(v)")
        #expect(log.hasTarget[v] == (target >= 0))
        if !targets.isEmpty { visitsWithTargets += 1 }
      }
    }
    #expect(visitsWithTargets > 0)
  }

  /// Whether an observer reads the targets changes nothing else: the outcomes of a run
  /// observed by one that does not read them equal, field by field, those of the same
  /// run observed by one that does, for a strategy that does not see the target and for
  /// one that does (`oracle`).
  @Test func aTargetBlindObserverSeesTheSameOutcomes() throws {
    let workload = BenchWorkload(people: 3, days: 3)
    for p in 0..<workload.people {
      let person = workload.person(p)
      func run<S: RankingStrategy>(_ strategy: S, readsTargets: Bool) -> OutcomeLog {
        var session = StackSession(
          person: 0, instances: person.instances, strategy: strategy,
          observer: OutcomeLog(readsTargets: readsTargets), zone: .utc, options: EngineOptions(), strategySeed: 1)
        Replay.run(person, horizon: workload.horizonMilliseconds, session: &session)
        return session.finishedObserver()
      }
      let blind = run(try Self.mfu(), readsTargets: false)
      let reading = run(try Self.mfu(), readsTargets: true)
      #expect(blind.lines.count == person.visitTimes.count)
      #expect(blind.lines == reading.lines)
      #expect(blind.targets.isEmpty)
      let oracleBlind = run(OracleStrategy(parameters: .none), readsTargets: false)
      let oracleReading = run(OracleStrategy(parameters: .none), readsTargets: true)
      #expect(oracleBlind.lines == oracleReading.lines)
      #expect(oracleReading.targets == reading.targets)
      #expect(oracleBlind.lines != blind.lines)
    }
  }

  /// A visit evaluates the targets argument only for a reader: not at all for the
  /// standard metrics and the window recorder (alone, paired, or behind
  /// `DynamicObserver`), once per reading observer, and for a strategy that sees the
  /// target (`TargetAwareStrategy`) once more.
  @Test func theTargetsAreEvaluatedOnlyForAReader() throws {
    let instances = (0..<3).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    func evaluations<S: RankingStrategy, O: OutcomeObserver>(_ strategy: S, _ observer: O) -> Int {
      var session = StackSession(
        person: 0, instances: instances, strategy: strategy, observer: observer, zone: .utc,
        options: EngineOptions(), strategySeed: 1)
      for i in 0..<instances.count { session.makeAvailable(i) }
      let counter = EvaluationCount()
      let targets: [Int32] = [1]
      targets.withUnsafeBufferPointer { buffer in
        for t in 0..<4 {
          session.visit(
            at: Int64(t) * 60_000, hasTarget: true, targetBuffer: buffer, targets: counter.targets(targets[...]),
            policy: .rank)
        }
      }
      return counter.count
    }
    let mfu = try Self.mfu()
    #expect(evaluations(mfu, StandardMetrics()) == 0)
    #expect(evaluations(mfu, WindowRecorder()) == 0)
    #expect(evaluations(mfu, ObserverPair(StandardMetrics(), WindowRecorder())) == 0)
    #expect(evaluations(mfu, DynamicObserver(WindowRecorder())) == 0)
    #expect(evaluations(mfu, OutcomeLog(readsTargets: false)) == 0)
    #expect(evaluations(mfu, OutcomeLog(readsTargets: true)) == 4)
    #expect(evaluations(mfu, ObserverPair(StandardMetrics(), DynamicObserver(OutcomeLog(readsTargets: true)))) == 4)
    #expect(evaluations(OracleStrategy(parameters: .none), StandardMetrics()) == 4)
    #expect(evaluations(OracleStrategy(parameters: .none), OutcomeLog(readsTargets: true)) == 8)
  }
}
