import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies

/// `context-mfu` by its definition, on a hand-made log and context, through replay.
@Suite("context-mfu")
struct ContextMostFrequentlyUsedTests {
  static func ms(_ text: String) -> Int64 {
    Array(text.utf8).withUnsafeBufferPointer { try! ZoneRules.utc.instant(parsing: $0).get().milliseconds }
  }

  /// Records what each visit showed and the place it saw.
  struct Shown: OutcomeObserver {
    var shown: [Int32] = []
    mutating func observe(
      _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
    ) { shown.append(o.shown) }
  }

  /// ana uses A three times at home and B twice at work; at work she is shown B (the
  /// place's own counts), at home A, and at a new place (gym) the all-places leader A.
  @Test func theCurrentPlacesCountsRankWithAFallbackForANewPlace() throws {
    let log = try DonationLog.read(bytes: Array("""
      timestamp,user,kind
      2026-03-02T07:00:00Z,ana,A
      2026-03-02T07:10:00Z,ana,A
      2026-03-02T07:20:00Z,ana,A
      2026-03-02T09:00:00Z,ana,B
      2026-03-02T09:10:00Z,ana,B

      """.utf8), file: "l.csv", format: .csv)
    var options = ReplayOptions()
    options.stack = .fixed(StackSpec(file: "s", instances: [WidgetInstance(id: "A", kind: "A"), WidgetInstance(id: "B", kind: "B")]))
    options.visits = .log(VisitLog(file: "v", users: ["ana", "ana", "ana", "ana"], times: [
      Self.ms("2026-03-02T10:00:00Z"), Self.ms("2026-03-02T19:00:00Z"), Self.ms("2026-03-02T20:00:00Z"),
      Self.ms("2026-03-02T21:00:00Z"),
    ]))
    options.context = try ContextLog.read(bytes: Array("""
      timestamp,user,signal,value
      2026-03-02T06:00:00Z,ana,place,home
      2026-03-02T08:30:00Z,ana,place,work
      2026-03-02T19:00:00Z,ana,place,home
      2026-03-02T20:00:00Z,ana,place,gym
      2026-03-02T21:00:00Z,ana,place,none

      """.utf8), file: "c.csv")
    let plan = try ReplayPlan(log: log, options: options)
    #expect(plan.people[0].context.count == 5)
    var session = StackSession(
      person: 0, instances: plan.people[0].instances,
      strategy: ContextMostFrequentlyUsedStrategy(parameters: try StrategyParameters(
        specs: ContextMostFrequentlyUsedStrategy.parameterSpecs, given: [], strategy: "context-mfu")),
      observer: Shown(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    Replay.run(plan.people[0], horizon: 300_000, session: &session)
    // 10:00 at work: B (2 at work); 19:00 home (the change at 19:00 comes before the
    // visit): A; 20:00 gym, nothing there yet: all places, A (3) over B (2); 21:00 place
    // `none` (known, no donations there): all places again.
    #expect(session.observer.shown == [1, 0, 0, 0])
  }
}
