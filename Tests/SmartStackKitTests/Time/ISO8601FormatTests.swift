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

@Suite("ISO 8601 formatting and round trips")
struct ISO8601FormatTests {
  @Test func formatsWholeSecondsWithoutAFraction() {
    #expect(ISO8601.format(Instant(milliseconds: 1_772_438_465_000)) == "2026-03-02T08:01:05Z")
    #expect(ISO8601.format(Instant(milliseconds: 0)) == "1970-01-01T00:00:00Z")
    #expect(ISO8601.format(Instant(milliseconds: 4_133_980_799_000)) == "2100-12-31T23:59:59Z")
  }

  @Test func formatsMillisecondsWithThreeDigitsOnlyWhenNotZero() {
    #expect(ISO8601.format(Instant(milliseconds: 1_772_438_465_123)) == "2026-03-02T08:01:05.123Z")
    #expect(ISO8601.format(Instant(milliseconds: 1_772_438_465_005)) == "2026-03-02T08:01:05.005Z")
    #expect(ISO8601.format(Instant(milliseconds: 1_772_438_465_050)) == "2026-03-02T08:01:05.050Z")
  }

  @Test func formatsInstantsOutsideTheSupportedRange() {
    #expect(ISO8601.format(Instant(milliseconds: -1)) == "1969-12-31T23:59:59.999Z")
    #expect(ISO8601.format(Instant(milliseconds: 253_402_300_800_000)) == "10000-01-01T00:00:00Z")
    #expect(
      ISO8601.format(Instant(milliseconds: -62_135_596_800_001)) == "0000-12-31T23:59:59.999Z")
    #expect(ISO8601.format(Instant(milliseconds: -62_198_755_200_000)) == "-0001-01-01T00:00:00Z")
    // The extremes do not trap.
    #expect(!ISO8601.format(Instant(milliseconds: .min)).isEmpty)
    #expect(!ISO8601.format(Instant(milliseconds: .max)).isEmpty)
  }

  @Test func parseOfFormatIsTheSameInstantForRandomInstants() {
    var g = Xoshiro256StarStar(seed: 1)
    let end = Int(Instant.endOfSupportedRange.milliseconds)
    for round in 0..<20_000 {
      var ms = g.nextInt(below: end)
      if round % 2 == 0 { ms -= ms % 1_000 }  // half of them whole seconds
      let instant = Instant(milliseconds: Int64(ms))
      let text = ISO8601.format(instant)
      #expect(
        ISO8601.parse(text) == .success(.absolute(instant)), "seed 1, round \(round): \(text)")
    }
  }

  @Test func formatAgreesWithFoundationsISO8601DateFormatter() {
    let whole = ISO8601DateFormatter()
    whole.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var g = Xoshiro256StarStar(seed: 2)
    let end = Int(Instant.endOfSupportedRange.milliseconds)
    for round in 0..<1_000 {
      let seconds = Int64(g.nextInt(below: end / 1_000))
      let instant = Instant(seconds: seconds)
      #expect(ISO8601.format(instant) == whole.string(from: instant.date), "round \(round)")
      let withMs = instant + Int64(g.nextInt(in: 1...999))
      #expect(ISO8601.format(withMs) == fractional.string(from: withMs.date), "round \(round)")
    }
  }

  /// Builds random valid timestamps field by field, in the RFC 3339 form that
  /// `ISO8601DateFormatter` reads, and checks both parsers agree on the instant.
  @Test func parseAgreesWithFoundationsISO8601DateFormatterOnRandomTimestamps() {
    let whole = ISO8601DateFormatter()
    whole.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    var g = Xoshiro256StarStar(seed: 3)
    var compared = 0
    for round in 0..<2_000 {
      let year = g.nextInt(in: 1970...2100)
      let month = g.nextInt(in: 1...12)
      let day = g.nextInt(in: 1...ISO8601.daysInMonth(year: year, month: month))
      let hour = g.nextInt(in: 0...23)
      let minute = g.nextInt(in: 0...59)
      let second = g.nextInt(in: 0...59)
      let offsetMinutes = g.nextInt(in: -14 * 60...14 * 60)
      let withFraction = g.nextBool(probability: 0.5)
      let ms = g.nextInt(in: 0...999)
      var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
      if withFraction { text += "." + String(String(ms + 1_000).dropFirst()) }
      if offsetMinutes == 0 && g.nextBool(probability: 0.5) {
        text += "Z"
      } else {
        let magnitude = abs(offsetMinutes)
        text += (offsetMinutes < 0 ? "-" : "+") + "\(two(magnitude / 60)):\(two(magnitude % 60))"
      }
      let ours = ISO8601.parse(text)
      guard let date = (withFraction ? fractional : whole).date(from: text) else {
        Issue.record("Foundation rejected \(text)")
        continue
      }
      let theirs = Instant(date)
      if theirs < Instant.earliestSupported || theirs >= Instant.endOfSupportedRange {
        guard case .failure = ours else {
          Issue.record("seed 3, round \(round): \(text) is out of range but was accepted")
          continue
        }
      } else {
        #expect(ours == .success(.absolute(theirs)), "seed 3, round \(round): \(text)")
        compared += 1
      }
    }
    #expect(compared > 1_900)
  }
}
