import Testing

import SmartStackKit
@testable import SmartStackTesting

/// Reading an input missing from a refined strategy's `reads` traps in the engine (a
/// declaration too narrow would make decision reuse wrong), but the public checker
/// reports it as a failed check, naming the inputs, so one test fails and the test
/// process goes on.
@Suite("Undeclared reads: the engine traps, the checker reports")
struct UndeclaredReadTests {
  struct HourBlind: InstanceScoringStrategy {
    static let info = StrategyInfo(name: "hour-blind", summary: "test: reads the hour, declares nothing")
    var reads: VisitInputs { [] }
    init(parameters: StrategyParameters) {}
    func score(_ instance: InstanceView) -> Double { Double(instance.hourOfDay) }
  }

  /// Reads the hour of week only once it has seen a donation, and declares donations.
  struct LateWeekReader: PureRankingStrategy {
    static let info = StrategyInfo(name: "late-week-reader", summary: "test: reads the hour of week undeclared, later")
    var seen = false
    var reads: VisitInputs { .donations }
    init(parameters: StrategyParameters) {}
    mutating func observe(_ event: ObservedEvent, context: StackContext) {
      if case .donation = event { seen = true }
    }
    func scores(_ visit: VisitView, into ranking: inout Ranking) {
      for i in 0..<visit.instanceCount where visit.isCandidate(i) {
        ranking.scores[i] = Double(visit.donationCount(i)) + (seen ? Double(visit.hourOfWeek) : 0)
      }
    }
  }

  @Test func theCheckerReportsAnUndeclaredReadOfAnInstanceScoringStrategy() {
    let report = StrategyConformance.check(HourBlind(parameters: .none), worlds: 3)
    #expect(report.undeclaredReads == .hourOfDay)
    let difference = report.difference
    #expect(difference?.fastPath.contains(".hourOfDay without declaring it in `reads`") == true, "\(report)")
    #expect((difference?.time ?? 0) > 0)
    #expect("\(report)".contains("first difference"))
  }

  @Test func theCheckerReportsAnUndeclaredReadOfAPureStrategyAtTheFirstVisitThatMadeIt() {
    let report = StrategyConformance.check(LateWeekReader(parameters: .none), worlds: 3)
    #expect(report.undeclaredReads == .hourOfWeek, "\(report)")
    // The first read follows the world's first donation: the report gives its visit.
    let world = StrategyConformance.world(0, seed: 1)
    let firstDonation = world.events.compactMap { event -> Int64? in
      if case .donation(let t, _) = event { return t } else { return nil }
    }.first
    #expect(report.difference.map { $0.time >= firstDonation ?? .max } == true, "\(report)")
    #expect(report.difference?.fastPath.contains(".hourOfWeek") == true)
  }

  @Test func aStrategyThatDeclaresWhatItReadsIsNotReported() throws {
    let report = try StrategyConformance.check(MostFrequentlyUsedStrategy.self, worlds: 6)
    #expect(report.undeclaredReads.isEmpty && report.difference == nil, "\(report)")
  }

  @Test func theEngineItselfStillTraps() async {
    await #expect(processExitsWith: .failure) {
      let world = StrategyConformance.world(0, seed: 1)
      _ = StrategyConformance.run(HourBlind(parameters: .none), world, seed: 1, ranksAtEveryVisit: false)
    }
  }

  @Test func inputsAreNamedAsTheViewsSpellThem() {
    #expect(VisitInputs([.hourOfWeek, .donations]).names == [".donations", ".hourOfWeek"])
    #expect(VisitInputs.all.names.count == 8)
    #expect(VisitInputs.outsideScores.names == [".outsideScores"])
  }
}
