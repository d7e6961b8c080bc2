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

/// Property tests of `ZoneRules` against Foundation's `TimeZone` and `Calendar`, used here
/// (and only here) as the oracle.
@Suite("Zone rules against Foundation")
struct ZoneRulesOracleTests {
  static let zones = [
    "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe",
    "America/Havana", "Pacific/Apia", "America/Santiago", "Africa/Monrovia", "Asia/Tehran",
    "Europe/Moscow", "America/St_Johns", "Pacific/Chatham", "UTC",
  ]

  /// A random instant in the supported range, whole seconds.
  static func randomInstant(_ g: inout Xoshiro256StarStar) -> Instant {
    Instant(seconds: Int64(g.nextInt(below: Int(Instant.endOfSupportedRange.seconds))))
  }

  @Test(arguments: zones)
  func offsetsAndCalendarFieldsAgreeWithFoundation(identifier: String) throws {
    let rules = try #require(ZoneRules(identifier: identifier))
    let timeZone = try #require(TimeZone(identifier: identifier))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    var g = StreamSeed.generator(1, StreamSeed.stableHash(identifier))
    for round in 0..<3_000 {
      let t = Self.randomInstant(&g)
      let date = t.date
      let context = "\(identifier) at \(t) (round \(round))"
      #expect(rules.offsetSeconds(at: t) == timeZone.secondsFromGMT(for: date), "\(context)")
      let c = calendar.dateComponents([.year, .month, .day, .hour, .weekday], from: date)
      let day = ISO8601.daysFromCivil(year: c.year!, month: c.month!, day: c.day!)
      #expect(rules.dayIndex(at: t) == day, "\(context)")
      #expect(rules.hourOfDay(at: t) == c.hour!, "\(context)")
      // Calendar: 1 = Sunday ... 7 = Saturday; ISO here: 0 = Monday ... 6 = Sunday.
      #expect(rules.weekday(at: t) == (c.weekday! + 5) % 7, "\(context)")
      #expect(rules.hourOfWeek(at: t) == ((c.weekday! + 5) % 7) * 24 + c.hour!, "\(context)")
    }
  }

  @Test(arguments: zones)
  func startOfLocalDayAgreesWithCalendarStartOfDay(identifier: String) throws {
    let rules = try #require(ZoneRules(identifier: identifier))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: identifier))
    var g = StreamSeed.generator(2, StreamSeed.stableHash(identifier))
    for round in 0..<500 {
      let t = Self.randomInstant(&g)
      let ours = rules.startOfLocalDay(dayIndex: rules.dayIndex(at: t))
      let theirs = Instant(calendar.startOfDay(for: t.date))
      #expect(ours == theirs, "\(identifier) at \(t) (round \(round))")
      #expect(
        ours <= t && rules.dayIndex(at: ours) == rules.dayIndex(at: t), "\(identifier) at \(t)")
    }
  }

  @Test(arguments: zones)
  func localRoundTripIsExactExceptInOverlapsWhereItIsEarlier(identifier: String) throws {
    let rules = try #require(ZoneRules(identifier: identifier))
    var g = StreamSeed.generator(3, StreamSeed.stableHash(identifier))
    var overlaps = 0
    for round in 0..<5_000 {
      // Half the draws land within a day of a transition, where the interesting cases are.
      var t = Self.randomInstant(&g)
      if round % 2 == 1 && rules.starts.count > 1 {
        let k = 1 + g.nextInt(below: rules.starts.count - 1)
        t = Instant(milliseconds: rules.starts[k]) + Int64(g.nextInt(in: -86_400...86_400)) * 1_000
      }
      let local = rules.localMilliseconds(at: t)
      let back = rules.instant(fromLocal: local)
      if back != t {
        overlaps += 1
        #expect(back < t, "\(identifier) at \(t): \(back) must be the earlier instant")
        #expect(rules.localMilliseconds(at: back) == local, "\(identifier) at \(t)")
        // No instant before `back` has the same wall-clock time within the overlap.
        #expect(rules.localMilliseconds(at: back - 1) != local, "\(identifier) at \(t)")
      }
    }
    if identifier == "UTC" || identifier == "Asia/Kolkata" { #expect(overlaps == 0) }
  }

  @Test(arguments: zones)
  func wallClockTimesInGapsMoveForwardByTheGap(identifier: String) throws {
    let rules = try #require(ZoneRules(identifier: identifier))
    var g = StreamSeed.generator(4, StreamSeed.stableHash(identifier))
    var gaps = 0
    for round in 0..<4_000 {
      // Half the draws land within two hours of a transition's wall-clock time.
      var local = Int64(g.nextInt(below: Int(Instant.endOfSupportedRange.milliseconds)))
      if round % 2 == 1 && rules.starts.count > 1 {
        let k = 1 + g.nextInt(below: rules.starts.count - 1)
        local =
          rules.starts[k] + rules.offsets[k - 1] + Int64(g.nextInt(in: -7_200...7_200)) * 1_000
      }
      let t = rules.instant(fromLocal: local)
      let shown = rules.localMilliseconds(at: t)
      if shown == local { continue }
      // In a gap: read with the offset before it, so the clock shows a later time, moved
      // by exactly the size of the gap.
      let before = Int64(rules.offsetSeconds(at: t - (shown - local) - 1)) * 1_000
      let after = Int64(rules.offsetSeconds(at: t)) * 1_000
      #expect(shown > local, "\(identifier) local \(local)")
      #expect(shown - local == after - before, "\(identifier) local \(local)")
      #expect(t.milliseconds == local - before, "\(identifier) local \(local)")
      gaps += 1
    }
    if ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"].contains(identifier) {
      #expect(gaps > 50, "the draws must reach the gaps")
    }
  }

  @Test func cursorAnswersLikeTheRulesInAnyOrder() throws {
    for identifier in ["America/New_York", "Australia/Lord_Howe", "UTC"] {
      let rules = try #require(ZoneRules(identifier: identifier))
      var cursor = rules.cursor()
      var g = StreamSeed.generator(5, StreamSeed.stableHash(identifier))
      var t = Instant(milliseconds: -86_400_000)
      for round in 0..<20_000 {
        switch g.nextInt(below: 20) {
        case 0: t = Self.randomInstant(&g)  // jump anywhere, also backwards
        case 1: t = t + Int64(g.nextInt(in: 0...(400 * 86_400_000)))
        default: t = t + Int64(g.nextInt(in: 0...(3 * 3_600_000)))
        }
        let context = "\(identifier) round \(round) at \(t)"
        #expect(cursor.offsetSeconds(at: t) == rules.offsetSeconds(at: t), "\(context)")
        #expect(cursor.localMilliseconds(at: t) == rules.localMilliseconds(at: t), "\(context)")
        #expect(cursor.hourOfWeek(at: t) == rules.hourOfWeek(at: t), "\(context)")
        #expect(cursor.dayIndex(at: t) == rules.dayIndex(at: t), "\(context)")
        #expect(cursor.hourOfDay(at: t) == rules.hourOfDay(at: t), "\(context)")
        #expect(cursor.weekday(at: t) == rules.weekday(at: t), "\(context)")
      }
    }
  }

  /// Every zone Foundation knows: offsets agree at random instants and at each transition,
  /// and the wall-clock ends of the intervals never go backwards (which `instant(fromLocal:)`
  /// relies on).
  @Test func everyKnownZoneAgreesWithFoundation() throws {
    var g = Xoshiro256StarStar(seed: 6)
    for identifier in TimeZone.knownTimeZoneIdentifiers.sorted() {
      let rules = try #require(ZoneRules(identifier: identifier), "\(identifier)")
      let timeZone = try #require(TimeZone(identifier: identifier))
      for i in 1..<rules.starts.count {
        #expect(rules.starts[i - 1] < rules.starts[i], "\(identifier)")
      }
      for i in 0..<(rules.localEnds.count - 1) {
        #expect(
          rules.localEnds[i] == rules.starts[i + 1] + rules.offsets[i],
          "\(identifier): local ends must be non-decreasing without the running maximum")
      }
      for _ in 0..<50 {
        let t = Self.randomInstant(&g)
        #expect(
          rules.offsetSeconds(at: t) == timeZone.secondsFromGMT(for: t.date),
          "\(identifier) at \(t)")
      }
    }
  }
}
