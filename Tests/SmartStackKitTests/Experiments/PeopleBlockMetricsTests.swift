import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments
@testable import SmartStackWorld

/// The metrics of a cell rebuilt from blocks of its people (`PeopleBlocks`,
/// `RunMetrics(blocks:)`) are the whole run's, bit for bit.
@Suite("People blocks: a cell's blocks of people add up to its whole run bit for bit")
struct PeopleBlockMetricsTests {
  /// Eight people donating four kinds at pseudo-random hours over six days (ranks 2 and 3
  /// make the reciprocal-rank sums inexact), and a traveller whose local date goes back:
  /// 2026-03-05 08:00 in Tokyo, then 2026-03-04 19:00 in New York an hour later.
  static func log() -> String {
    var rows = ["timestamp,user,kind"]
    var state: UInt64 = 7
    func next(_ n: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % n
    }
    let kinds = ["Coffee", "News", "Weather", "Transit"]
    for day in 2...7 {
      for hour in 6...22 {
        for person in 0..<8 where next(3) == 0 {
          rows.append(
            "2026-03-0\(day)T\(hour < 10 ? "0" : "")\(hour):\(10 + next(40)):00Z,p\(person),\(kinds[Int(next(4))])")
        }
      }
    }
    rows += [
      "2026-03-05T08:00:00+09:00,traveller,Coffee", "2026-03-04T19:00:00-05:00,traveller,News",
      "2026-03-04T20:00:00-05:00,traveller,Coffee", "2026-03-05T08:00:00-05:00,traveller,News",
    ]
    return rows.joined(separator: "\n") + "\n"
  }

  static func source() throws -> LogSource {
    let zone = ZoneRules(identifier: "Europe/Berlin")!
    let log = try DonationLog.read(bytes: Array(log().utf8), file: "blocks.csv", format: .csv, timeZone: zone)
    var options = ReplayOptions()
    options.zone = zone
    let plan = try ReplayPlan(log: log, options: options)
    return LogSource(
      name: "blocks", plan: plan, statistics: SourceStatistics(people: plan.people.count, events: 0, contentHash: ""))
  }

  /// `a` and `b` are the same metrics, floating-point values compared by their bits.
  static func expectIdentical(_ a: RunMetrics, _ b: RunMetrics) {
    #expect(a.perPerson == b.perPerson)
    #expect(a.perPersonGini.map(\.bitPattern) == b.perPersonGini.map(\.bitPattern))
    #expect(a.timesToSurface == b.timesToSurface)
    #expect(a.daily.map(\.day) == b.daily.map(\.day))
    #expect(a.daily.map(\.counts) == b.daily.map(\.counts))
    #expect(a.daily.map(\.offsets) == b.daily.map(\.offsets))
    #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern))
    #expect(a.simulation?.values == b.simulation?.values)
  }

  @Test("a log's blocks, of every size, add up to the whole replay, a traveller's earlier date included", arguments: ["mfu", "random", "hour-of-week"])
  func logBlocks(strategy: String) throws {
    let source = try Self.source()
    let people = source.plan.people.count
    #expect(people == 9)
    let choice = try StrategyRegistry.builtIn.parse(strategy)
    let whole = source.run(choice, replicate: 1, seed: 5)
    for size in [1, 2, 4, 8] {
      let blocks = try stride(from: 0, to: people, by: size).map {
        try source.run(choice, replicate: 1, seed: 5, people: $0..<min($0 + size, people))
      }
      Self.expectIdentical(RunMetrics(blocks: blocks), whole)
      if size == 1 {
        // The traveller's person-days come back to 2026-03-04: that day is added twice.
        #expect(blocks.contains { Set($0.daily.map(\.day)).count < $0.daily.count })
      }
    }
  }

  @Test("a scenario's blocks add up to the whole simulation, its simulation counts included")
  func scenarioBlocks() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let scenario = try Scenario.read(path: root.appendingPathComponent("Datasets/scenarios/commuter.json").path)
    var options = SimulationOptions()
    options.days = 3
    let source = ScenarioSource(
      name: "commuter", scenario: scenario, options: options,
      statistics: SourceStatistics(people: scenario.personCount, events: 0, contentHash: ""))
    let choice = try StrategyRegistry.builtIn.parse("smart-rotate")
    let whole = source.run(choice, replicate: 2, seed: 9)
    #expect(whole.simulation != nil)
    let blocks = try [0..<7, 7..<14, 14..<scenario.personCount].map {
      try source.run(choice, replicate: 2, seed: 9, people: $0)
    }
    Self.expectIdentical(RunMetrics(blocks: blocks), whole)
  }

  @Test("a block beyond the source's people is refused naming them")
  func blocksBeyondThePeopleAreRefused() throws {
    let source = try Self.source()
    let choice = try StrategyRegistry.builtIn.parse("mfu")
    #expect(throws: PeopleBlockError.self) { try source.run(choice, replicate: 0, seed: 1, people: 8..<10) }
  }

  @Test("units are cells in order, big sources' cells cut into blocks, and shards take every N-th unit")
  func unitLayout() throws {
    let source = try Self.source()
    let outline = ExperimentOutline(
      name: "u", seed: 1, replicates: 2,
      sources: [ExperimentOutline.Source(name: "blocks", kind: "log", unitsArePeoplePerReplicate: false, statistics: source.statistics)],
      strategies: [ExperimentOutline.Strategy(descriptor: "mfu", name: "mfu", parameters: "")], baseline: 0,
      trace: false, config: .null)
    let blocks = try #require(PeopleBlocks(size: 4))
    #expect(PeopleBlocks(size: 0) == nil)
    #expect(
      blocks.units(outline).map(\.description) == [
        "cell 0 people 0..<4", "cell 0 people 4..<8", "cell 0 people 8..<9",
        "cell 1 people 0..<4", "cell 1 people 4..<8", "cell 1 people 8..<9",
      ])
    #expect(blocks.units(outline, shard: Shard(index: 2, count: 4)!).map(\.description) == ["cell 0 people 4..<8", "cell 1 people 8..<9"])
    #expect(PeopleBlocks(size: 9)!.units(outline).map(\.description) == ["cell 0", "cell 1"])
  }
}
