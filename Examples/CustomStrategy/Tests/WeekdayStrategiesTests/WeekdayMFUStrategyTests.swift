import SmartStackKit
import SmartStackTesting
import Testing
import WeekdayStrategies

@Suite("weekday-mfu")
struct WeekdayMFUStrategyTests {
  /// The engine's reuse of `weekday-mfu`'s decisions is invisible: on generated worlds
  /// it decides exactly as when ranking at every visit.
  @Test func conformsToTheStrategyProtocol() throws {
    let report = try StrategyConformance.check(WeekdayMFUStrategy.self)
    #expect(report.difference == nil, "\(report)")
    #expect(report.reusedVisits > 0)
  }

  @Test func registersUnderItsName() throws {
    var registry = StrategyRegistry.builtIn
    registry.register(WeekdayMFUStrategy.self)
    #expect(try registry.parse("weekday-mfu").descriptor.name == "weekday-mfu")
  }
}
