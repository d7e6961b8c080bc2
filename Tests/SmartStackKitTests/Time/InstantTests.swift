import Foundation
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

@Suite("Instant")
struct InstantTests {
  @Test func secondsAndMillisecondsAgree() {
    #expect(Instant(seconds: 1_772_438_465).milliseconds == 1_772_438_465_000)
    #expect(Instant(milliseconds: 1_500).seconds == 1)
    #expect(Instant(milliseconds: -1).seconds == -1, "seconds round towards negative infinity")
    #expect(Instant(milliseconds: -1_000).seconds == -1)
    #expect(Instant(milliseconds: -1_001).seconds == -2)
  }

  @Test func arithmeticAddsAndSubtractsMilliseconds() {
    let t = Instant(milliseconds: 10_000)
    #expect((t + 2_500).milliseconds == 12_500)
    #expect((t - 2_500).milliseconds == 7_500)
    #expect((t + -2_500).milliseconds == 7_500)
    #expect(Instant(milliseconds: 12_500) - t == 2_500)
    #expect(t - Instant(milliseconds: 12_500) == -2_500)
    var u = t
    u += 5
    u -= 2
    #expect(u.milliseconds == 10_003)
  }

  @Test func arithmeticSaturatesInsteadOfTrapping() {
    let latest = Instant(milliseconds: .max)
    let earliest = Instant(milliseconds: .min)
    #expect((latest + 1).milliseconds == .max)
    #expect((earliest - 1).milliseconds == .min)
    #expect((earliest + -1).milliseconds == .min)
    #expect((latest - -1).milliseconds == .max)
    #expect(latest - earliest == .max)
    #expect(earliest - latest == .min)
    #expect(Instant(seconds: .max).milliseconds == .max)
    #expect(Instant(seconds: .min).milliseconds == .min)
  }

  @Test func instantsOrderByTime() {
    #expect(Instant(milliseconds: -5) < Instant(milliseconds: 3))
    #expect(
      [Instant(seconds: 3), Instant(seconds: 1), Instant(seconds: 2)].sorted()
        == [Instant(seconds: 1), Instant(seconds: 2), Instant(seconds: 3)])
  }

  @Test func descriptionIsTheISO8601Form() {
    #expect(Instant(milliseconds: 1_772_438_465_000).description == "2026-03-02T08:01:05Z")
    #expect("\(Instant(milliseconds: 1_772_438_465_123))" == "2026-03-02T08:01:05.123Z")
  }

  @Test func supportedRangeIsFrom1970To2101() {
    #expect(Instant.endOfSupportedRange.description == "2101-01-01T00:00:00Z")
    #expect(Instant.earliestSupported.description == "1970-01-01T00:00:00Z")
  }

  @Test func dateBridgeRoundTripsToTheMillisecond() {
    var g = SplitMix64(seed: 1)
    for _ in 0..<2_000 {
      let t = Instant(milliseconds: Int64(g.nextInt(in: -5_000_000_000_000...5_000_000_000_000)))
      #expect(Instant(t.date) == t, "\(t.milliseconds)")
    }
    #expect(Instant(Date(timeIntervalSince1970: 1.5)) == Instant(milliseconds: 1_500))
    #expect(Instant(Date(timeIntervalSince1970: .nan)) == Instant(milliseconds: 0))
    #expect(Instant(Date(timeIntervalSince1970: 1e300)).milliseconds == .max)
  }
}
