import SmartStackTesting
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Runs a visitor's check with every built-in strategy (default parameters) in its own
/// concrete type.
private struct EachBuiltIn<Check: BuiltInCheck>: StrategyTypeVisitor {
  let check: Check
  func visit<S: RankingStrategy>(_ prototype: S) -> [String] { check.run(prototype) }
}

private protocol BuiltInCheck {
  func run<S: RankingStrategy>(_ prototype: S) -> [String]
}

extension BuiltInCheck {
  /// The problems found for every built-in strategy but the exempt oracle, each
  /// prefixed with the strategy's name.
  func problemsForEveryBuiltIn() throws -> [String] {
    try StrategyRegistry.builtIn.allWithDefaults(having: [.scores, .context]).filter { !($0.type is any TargetAwareStrategy.Type) }.flatMap { choice in
      choice.open(EachBuiltIn(check: self)).map { "\(choice.descriptor): \($0)" }
    }
  }
}

/// The stack's rules are constraints the engine applies after the strategy ranks
/// (`StackRules`): no strategy but the oracle can outbid them, whatever its scores.
@Suite("Stack rules are constraints")
struct StackRulesTests {
  /// Random event streams (pins, no-rotation visits, suppressed windows, availability
  /// changes, swipes) on a six-instance stack: at every visit the rule holds.
  private struct EngineStreams: BuiltInCheck {
    func run<S: RankingStrategy>(_ prototype: S) -> [String] {
      var problems: [String] = []
      let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D"][$0]) }
      for seed in UInt64(1)...40 {
        var s = StackSession(
          person: 0, instances: instances, strategy: prototype, observer: EngineTranscript(), zone: .utc,
          options: EngineOptions(), strategySeed: seed)
        for i in 0..<instances.count where i % 3 != 2 { s.makeAvailable(i) }
        EngineTestEvent.stream(seed: seed, count: 300).forEachVisit(on: &s) { visit, s in
          let (t, targets, policy, previous, o) = (visit.time, visit.targets, visit.policy, visit.previous, visit.outcome)
          let f = s.context.features
          let shown = Int(o.shown)
          let where_ = "seed \(seed), visit at \(t)"
          switch policy {
          case .forced(let p) where f.available[Int(p)]:
            if shown != Int(p) { problems.append("\(where_): pinned \(p) but showed \(shown)") }
          case .noRotation where previous >= 0 && f.available[previous]:
            if shown != previous { problems.append("\(where_): no rotation allowed but \(previous) -> \(shown)") }
          default:
            let allSuppressed = (0..<6).allSatisfy { !f.available[$0] || f.relevanceKind[$0] == .suppressed }
            let previousStays = previous >= 0 && f.available[previous]
            if o.rotated && f.relevanceKind[shown] == .suppressed && (previousStays || !allSuppressed) {
              problems.append("\(where_): rotated \(previous) -> \(shown), which is suppressed")
            }
          }
          if o.isHit != (shown >= 0 && targets.contains(Int32(shown))) {
            problems.append("\(where_): isHit \(o.isHit) but shown \(shown), targets \(targets)")
          }
        }
      }
      return problems
    }
  }

  @Test func noBuiltInStrategyButTheOracleOutbidsAPinNoRotationOrSuppression() throws {
    let problems = try EngineStreams().problemsForEveryBuiltIn()
    #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5))")
  }

  @Test func theOracleIsExemptFromTheStackRules() {
    let instances = [WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "B")]
    var s = StackSession(
      person: 0, instances: instances, strategy: OracleStrategy(parameters: StrategyParameters.none),
      observer: EngineTranscript(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    s.makeAvailable(0)
    s.makeAvailable(1)
    #expect(s.visit(at: 0, hasTarget: true, targets: [0], policy: .rank).shown == 0)
    #expect(s.visit(at: 1, hasTarget: true, targets: [1], policy: .noRotation(.smartRotateOff)).shown == 1)
    #expect(s.visit(at: 2, hasTarget: true, targets: [0], policy: .forced(1)).shown == 0)
  }

  /// A strategy that puts +infinity on instance 1 always: the pattern of the old bug,
  /// where the engine also wrote +infinity on a pinned instance and the tie-break won.
  private struct InfiniteOnOne: RankingStrategy {
    static let info = StrategyInfo(name: "infinite-on-one", summary: "test: +infinity on instance 1")
    init(parameters: StrategyParameters) {}
    init() {}
    mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
      ranking.scores[1] = .infinity
      ranking.rule = "always one"
    }
  }

  @Test func aPinOrNoRotationBeatsAnInfiniteScore() {
    // Kinds "A" < "B": with equal scores instance 0 would win the tie-break.
    let instances = [WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "B")]
    var s = StackSession(
      person: 0, instances: instances, strategy: InfiniteOnOne(), observer: EngineTranscript(), zone: .utc,
      options: EngineOptions(), strategySeed: 1)
    s.makeAvailable(0)
    s.makeAvailable(1)
    s.manualSwipe(to: 0, at: 0)
    var o = s.visit(at: 1, hasTarget: true, targets: [1], policy: .forced(0))
    #expect(o.shown == 0 && !o.rotated && "\(o.rule)" == "manual swipe pin")
    // The target is ranked second: the pinned instance is presented first.
    #expect(o.targetRank == 2)
    o = s.visit(at: 2, hasTarget: false, targets: [], policy: .noRotation(.smartRotateOff))
    #expect(o.shown == 0 && !o.rotated && "\(o.rule)" == "smart rotate off")
    o = s.visit(at: 3, hasTarget: true, targets: [1], policy: .rank)
    #expect(o.shown == 1 && o.rotated && "\(o.rule)" == "always one" && o.targetRank == 1)
  }

  @Test func suppressionSendsTheStackToTheBestAllowedInstance() {
    let instances = (0..<3).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    var s = StackSession(
      person: 0, instances: instances, strategy: StaticStrategy(parameters: StrategyParameters.none),
      observer: EngineTranscript(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    for i in 0..<3 { s.makeAvailable(i) }
    s.manualSwipe(to: 2, at: 0)
    // Static ranks 0 first, then 1, then 2; 0 is suppressed: the stack goes to 1.
    s.relevanceEntry(
      instance: 0, entry: RelevanceEntry(date: Instant(milliseconds: 1), relevance: Relevance(score: 0, durationMilliseconds: 0)))
    var o = s.visit(at: 2, hasTarget: true, targets: [0], policy: .rank)
    #expect(o.shown == 1 && "\(o.rule)" == "suppressed: not rotated to")
    #expect(o.targetRank == 2)
    // 1 suppressed as well: staying on 1 is no rotation, so the stack stays.
    s.relevanceEntry(
      instance: 1, entry: RelevanceEntry(date: Instant(milliseconds: 3), relevance: Relevance(score: -1, durationMilliseconds: 0)))
    o = s.visit(at: 4, hasTarget: false, targets: [], policy: .rank)
    #expect(o.shown == 1 && !o.rotated)
  }
}
