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

private let t0 = Instant(seconds: 1_772_438_400)  // 2026-03-02T08:00:00Z, a Monday

@Suite("Donation log")
struct DonationLogTests {
  @Test func rowsAreSortedStablyByTimeWithArrayOrderBreakingTies() {
    let log = DonationLog([
      Donation(timestamp: t0 + 5_000, kind: "c"),
      Donation(timestamp: t0, kind: "a1"),
      Donation(timestamp: t0 + 5_000, kind: "d"),
      Donation(timestamp: t0, kind: "a2"),
      Donation(timestamp: t0 + 1, kind: "b"),
    ])
    #expect(log.donations.map(\.kind) == ["a1", "a2", "b", "c", "d"])
    #expect(log.timestamps == [0, 0, 1, 5_000, 5_000].map { t0.milliseconds + $0 })
  }

  /// Both sorting paths: packed keys for instants after 1970, the general one before.
  @Test(arguments: [t0, Instant(milliseconds: -3)])
  func stableOrderHoldsForManySeedsWithManyTies(_ t0: Instant) {
    for seed in UInt64(0)..<50 {
      var state = seed &+ 7
      func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
      }
      let donations = (0..<200).map { i in
        Donation(timestamp: t0 + Int64(next(6)), kind: "k\(i)")
      }
      let log = DonationLog(donations)
      // Expected: by time, then by position in the input (kind k<i> records the position).
      let expected = donations.enumerated().sorted {
        $0.element.timestamp != $1.element.timestamp
          ? $0.element.timestamp < $1.element.timestamp : $0.offset < $1.offset
      }.map(\.element)
      #expect(log.donations == expected, "seed \(seed)")
    }
  }

  @Test func idsAreDenseInFirstAppearanceOrderOfTheSortedRows() {
    let log = DonationLog([
      Donation(timestamp: t0 + 2, user: "zoe", kind: "K2", intent: "I"),
      Donation(timestamp: t0, user: "amy", kind: "K1"),
      Donation(timestamp: t0 + 1, user: "zoe", kind: "K1", intent: "J"),
    ])
    #expect(log.userNames.names == ["amy", "zoe"])
    #expect(log.users == [0, 1, 1])
    #expect(log.kindNames.names == ["K1", "K2"])
    #expect(log.kinds == [0, 0, 1])
    #expect(log.intentNames.names == ["J", "I"])
    #expect(log.intents == [-1, 0, 1])
  }

  @Test func sameDonationsInSameOrderGiveEqualLogsWhateverTheInputOrder() {
    let a = Donation(
      timestamp: t0, user: "u", kind: "K", intent: "I",
      parameters: [Parameter("x", "1"), Parameter("y", "2")])
    let b = Donation(timestamp: t0 + 1, user: "v", kind: "L", parameters: [Parameter("y", "3")])
    #expect(DonationLog([b, a]) == DonationLog([a, b]))
    #expect(DonationLog([b, a]).parameterKeys.names == ["x", "y"])
  }

  @Test func rowsOfAUserAreInTimeOrder() {
    let log = DonationLog([
      Donation(timestamp: t0 + 3, user: "b", kind: "K"),
      Donation(timestamp: t0 + 1, user: "a", kind: "K"),
      Donation(timestamp: t0 + 2, user: "b", kind: "K"),
      Donation(timestamp: t0 + 4, user: "a", kind: "K"),
      Donation(timestamp: t0, user: "b", kind: "K"),
    ])
    // Sorted rows: 0 b@0, 1 a@1, 2 b@2, 3 b@3, 4 a@4; b is user 0.
    #expect(log.userNames.names == ["b", "a"])
    #expect(log.indices(ofUser: 0) == [0, 2, 3])
    #expect(log.indices(ofUser: 1) == [1, 4])
    #expect(log.userOrder == [0, 2, 3, 1, 4])
    #expect(log.userRanges == [0..<3, 3..<5])
  }

  @Test func subscriptGivesBackTheDonation() {
    let d = Donation(
      timestamp: t0, user: "u", kind: "K", intent: "I",
      parameters: [Parameter("y", "2"), Parameter("x", "1")])
    let log = DonationLog([d])
    #expect(log[0] == d)
    #expect(log[0].parameters == [Parameter("x", "1"), Parameter("y", "2")])
    #expect(DonationLog().isEmpty)
  }

  @Test func statisticsCountHoursInTheZoneAndRankTheBusiestOnes() throws {
    let hour: Int64 = 3_600_000
    // 08:00Z x3, 09:30Z x2, 13:00Z x2, 23:59Z x1 on 2026-03-02.
    let offsets: [Int64] = [
      0, 1, 2, 90 * 60_000, 95 * 60_000, 5 * hour, 5 * hour + 1, 16 * hour - 60_000,
    ]
    let log = DonationLog(
      offsets.enumerated().map { i, o in
        Donation(
          timestamp: t0 + o, user: i < 4 ? "a" : "b", kind: i % 2 == 0 ? "K" : "L",
          intent: i == 0 ? "I" : nil,
          parameters: i == 1 ? [Parameter("p", "1"), Parameter("q", "2")] : [])
      })
    let utc = log.statistics()
    #expect(utc.events == 8)
    #expect(utc.users == 2)
    #expect(utc.kinds == 2)
    #expect(utc.intents == 1)
    #expect(utc.parameterKeys == 2)
    #expect(utc.first == t0)
    #expect(utc.last == t0 + 16 * hour - 60_000)
    #expect(abs(utc.spanDays - (16.0 * 60 - 1) / 1_440) < 1e-12)
    #expect(
      utc.hourCounts[8] == 3 && utc.hourCounts[9] == 2 && utc.hourCounts[13] == 2
        && utc.hourCounts[23] == 1)
    #expect(
      utc.busiestHours() == [
        .init(hour: 8, donations: 3), .init(hour: 9, donations: 2), .init(hour: 13, donations: 2),
      ])
    #expect(utc.busiestHours(10).count == 4)
    let tokyo = try #require(ZoneRules(identifier: "Asia/Tokyo"))  // UTC+9
    #expect(
      log.statistics(in: tokyo).busiestHours(4) == [
        .init(hour: 17, donations: 3), .init(hour: 18, donations: 2), .init(hour: 22, donations: 2),
        .init(hour: 8, donations: 1),
      ])
    #expect(DonationLog().statistics().busiestHours() == [])
  }
}
