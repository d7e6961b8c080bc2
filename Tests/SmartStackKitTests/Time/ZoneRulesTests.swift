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

/// `2026-03-08T07:00:00Z` and the like, for readable tests.
private func utc(_ text: String) -> Instant {
  guard case .success(.absolute(let instant)) = ISO8601.parse(text) else {
    fatalError("bad test timestamp \(text)")
  }
  return instant
}

/// The wall-clock milliseconds of a naive `2026-03-08T02:30` and the like.
private func wall(_ text: String) -> Int64 {
  guard case .success(.local(let milliseconds)) = ISO8601.parse(text) else {
    fatalError("bad test wall-clock time \(text)")
  }
  return milliseconds
}

private func zone(_ identifier: String) -> ZoneRules {
  guard let rules = ZoneRules(identifier: identifier) else {
    fatalError("time zone \(identifier) is not available")
  }
  return rules
}

private let hour: Int64 = 3_600_000

@Suite("Zone rules")
struct ZoneRulesTests {
  @Test func utcHasNoOffsetAndIsWhatTheIdentifierUTCGives() {
    let rules = ZoneRules.utc
    #expect(ZoneRules(identifier: "UTC") == rules)
    #expect(rules.identifier == "UTC")
    for t in [
      Instant(milliseconds: .min), utc("2026-03-02T08:01:05Z"), Instant(milliseconds: .max),
    ] {
      #expect(rules.offsetSeconds(at: t) == 0)
      #expect(rules.localMilliseconds(at: t) == t.milliseconds)
    }
    #expect(rules.instant(fromLocal: wall("2026-03-02T08:01:05")) == utc("2026-03-02T08:01:05Z"))
    #expect(rules.weekday(at: utc("2026-03-02T08:01:05Z")) == 0, "2026-03-02 is a Monday")
    #expect(rules.hourOfWeek(at: utc("2026-03-02T08:01:05Z")) == 8)
  }

  @Test func unknownIdentifiersGiveNil() {
    #expect(ZoneRules(identifier: "Mars/Olympus_Mons") == nil)
    #expect(ZoneRules(identifier: "") == nil)
    #expect(ZoneRules(identifier: "utc") == nil)
  }

  @Test func newYorkSpringForwardDayHas23Hours() {
    let ny = zone("America/New_York")
    let day = ISO8601.daysFromCivil(year: 2026, month: 3, day: 8)  // a Sunday
    // Clocks jump from 02:00 EST to 03:00 EDT at 07:00Z.
    #expect(ny.offsetSeconds(at: utc("2026-03-08T06:59:59.999Z")) == -18_000)
    #expect(ny.offsetSeconds(at: utc("2026-03-08T07:00:00Z")) == -14_400)
    #expect(ny.hourOfDay(at: utc("2026-03-08T06:59:59Z")) == 1)
    #expect(ny.hourOfDay(at: utc("2026-03-08T07:00:00Z")) == 3)
    #expect(ny.dayIndex(at: utc("2026-03-08T05:00:00Z")) == day)
    #expect(ny.dayIndex(at: utc("2026-03-08T04:59:59Z")) == day - 1)
    #expect(ny.weekday(at: utc("2026-03-08T07:00:00Z")) == 6)
    #expect(ny.hourOfWeek(at: utc("2026-03-08T07:30:00Z")) == 6 * 24 + 3)
    #expect(ny.startOfLocalDay(dayIndex: day) == utc("2026-03-08T05:00:00Z"))
    #expect(ny.startOfLocalDay(dayIndex: day + 1) == utc("2026-03-09T04:00:00Z"))
    #expect(ny.startOfLocalDay(dayIndex: day + 1) - ny.startOfLocalDay(dayIndex: day) == 23 * hour)
    // 02:30 does not exist: read with EST, the offset before the gap -> 07:30Z = 03:30 EDT.
    let gap = ny.instant(fromLocal: wall("2026-03-08T02:30"))
    #expect(gap == utc("2026-03-08T07:30:00Z"))
    #expect(ny.hourOfDay(at: gap) == 3)
    #expect(ny.instant(fromLocal: wall("2026-03-08T01:59:59")) == utc("2026-03-08T06:59:59Z"))
    #expect(ny.instant(fromLocal: wall("2026-03-08T03:00")) == utc("2026-03-08T07:00:00Z"))
  }

  @Test func newYorkFallBackDayHas25HoursAndPicksTheEarlierInstant() {
    let ny = zone("America/New_York")
    let day = ISO8601.daysFromCivil(year: 2026, month: 11, day: 1)
    #expect(ny.offsetSeconds(at: utc("2026-11-01T05:59:59Z")) == -14_400)
    #expect(ny.offsetSeconds(at: utc("2026-11-01T06:00:00Z")) == -18_000)
    // 01:00-01:59 happens twice: at 05:xxZ (EDT) and at 06:xxZ (EST).
    #expect(ny.hourOfDay(at: utc("2026-11-01T05:30:00Z")) == 1)
    #expect(ny.hourOfDay(at: utc("2026-11-01T06:30:00Z")) == 1)
    #expect(ny.hourOfDay(at: utc("2026-11-01T07:00:00Z")) == 2)
    #expect(ny.instant(fromLocal: wall("2026-11-01T01:30")) == utc("2026-11-01T05:30:00Z"))
    #expect(ny.instant(fromLocal: wall("2026-11-01T00:59")) == utc("2026-11-01T04:59:00Z"))
    #expect(ny.instant(fromLocal: wall("2026-11-01T02:00")) == utc("2026-11-01T07:00:00Z"))
    #expect(ny.startOfLocalDay(dayIndex: day + 1) - ny.startOfLocalDay(dayIndex: day) == 25 * hour)
    #expect(ny.weekday(at: utc("2026-11-01T06:30:00Z")) == 6)
    #expect(ny.dayIndex(at: utc("2026-11-02T04:59:59Z")) == day)
    #expect(ny.dayIndex(at: utc("2026-11-02T05:00:00Z")) == day + 1)
  }

  @Test func berlinDaylightSavingDays() {
    let berlin = zone("Europe/Berlin")
    let spring = ISO8601.daysFromCivil(year: 2026, month: 3, day: 29)
    let autumn = ISO8601.daysFromCivil(year: 2026, month: 10, day: 25)
    #expect(berlin.offsetSeconds(at: utc("2026-03-29T00:59:59Z")) == 3_600)
    #expect(berlin.offsetSeconds(at: utc("2026-03-29T01:00:00Z")) == 7_200)
    #expect(berlin.hourOfDay(at: utc("2026-03-29T00:59:59Z")) == 1)
    #expect(berlin.hourOfDay(at: utc("2026-03-29T01:00:00Z")) == 3)
    #expect(berlin.startOfLocalDay(dayIndex: spring) == utc("2026-03-28T23:00:00Z"))
    #expect(
      berlin.startOfLocalDay(dayIndex: spring + 1) - berlin.startOfLocalDay(dayIndex: spring)
        == 23 * hour)
    #expect(berlin.instant(fromLocal: wall("2026-03-29T02:30")) == utc("2026-03-29T01:30:00Z"))
    #expect(berlin.offsetSeconds(at: utc("2026-10-25T00:59:59Z")) == 7_200)
    #expect(berlin.offsetSeconds(at: utc("2026-10-25T01:00:00Z")) == 3_600)
    #expect(berlin.hourOfDay(at: utc("2026-10-25T00:30:00Z")) == 2)
    #expect(berlin.hourOfDay(at: utc("2026-10-25T01:30:00Z")) == 2)
    #expect(berlin.instant(fromLocal: wall("2026-10-25T02:30")) == utc("2026-10-25T00:30:00Z"))
    #expect(
      berlin.startOfLocalDay(dayIndex: autumn + 1) - berlin.startOfLocalDay(dayIndex: autumn)
        == 25 * hour)
    #expect(berlin.weekday(at: utc("2026-10-25T12:00:00Z")) == 6)
    #expect(berlin.dayIndex(at: utc("2026-10-24T22:00:00Z")) == autumn)
    #expect(berlin.dayIndex(at: utc("2026-10-24T21:59:59Z")) == autumn - 1)
  }

  @Test func kolkataIsFiveAndAHalfHoursAheadAllYear() {
    let kolkata = zone("Asia/Kolkata")
    for text in ["2026-01-15T00:00:00Z", "2026-07-15T12:00:00Z", "2099-06-01T00:00:00Z"] {
      #expect(kolkata.offsetSeconds(at: utc(text)) == 19_800)
    }
    let t = utc("2026-03-01T18:30:00Z")  // 2026-03-02T00:00 in Kolkata, a Monday
    #expect(kolkata.dayIndex(at: t) == ISO8601.daysFromCivil(year: 2026, month: 3, day: 2))
    #expect(kolkata.dayIndex(at: t - 1) == ISO8601.daysFromCivil(year: 2026, month: 3, day: 1))
    #expect(kolkata.hourOfDay(at: t) == 0)
    #expect(kolkata.weekday(at: t) == 0)
    #expect(kolkata.hourOfWeek(at: t - 1) == 6 * 24 + 23)
    #expect(kolkata.startOfLocalDay(dayIndex: kolkata.dayIndex(at: t)) == t)
    #expect(kolkata.instant(fromLocal: wall("2026-03-02T05:30")) == utc("2026-03-02T00:00:00Z"))
  }

  @Test func lordHoweHasHalfHourDaylightSaving() throws {
    let lordHowe = try #require(ZoneRules(identifier: "Australia/Lord_Howe"))
    // 2026-04-05 02:00 +11:00 -> 01:30 +10:30 at 2026-04-04T15:00Z: a 24.5-hour day.
    #expect(lordHowe.offsetSeconds(at: utc("2026-04-04T14:59:59Z")) == 39_600)
    #expect(lordHowe.offsetSeconds(at: utc("2026-04-04T15:00:00Z")) == 37_800)
    let april5 = ISO8601.daysFromCivil(year: 2026, month: 4, day: 5)
    #expect(
      lordHowe.startOfLocalDay(dayIndex: april5 + 1) - lordHowe.startOfLocalDay(dayIndex: april5)
        == 24 * hour + hour / 2)
    #expect(lordHowe.instant(fromLocal: wall("2026-04-05T01:45")) == utc("2026-04-04T14:45:00Z"))
    // 2026-10-04 02:00 +10:30 -> 02:30 +11:00 at 2026-10-03T15:30Z: 02:15 is in the gap.
    #expect(lordHowe.offsetSeconds(at: utc("2026-10-03T15:30:00Z")) == 39_600)
    #expect(lordHowe.instant(fromLocal: wall("2026-10-04T02:15")) == utc("2026-10-03T15:45:00Z"))
    #expect(lordHowe.hourOfDay(at: utc("2026-10-03T15:45:00Z")) == 2)
  }

  @Test func midnightInAGapStartsTheDayAtTheEndOfTheGap() throws {
    // Havana springs forward at 00:00 (-05:00) to 01:00 (-04:00) on 2026-03-08 = 05:00Z.
    let havana = try #require(ZoneRules(identifier: "America/Havana"))
    let day = ISO8601.daysFromCivil(year: 2026, month: 3, day: 8)
    let start = havana.startOfLocalDay(dayIndex: day)
    #expect(start == utc("2026-03-08T05:00:00Z"))
    #expect(havana.hourOfDay(at: start) == 1)
    #expect(havana.dayIndex(at: start) == day)
    #expect(havana.dayIndex(at: start - 1) == day - 1)
    #expect(havana.instant(fromLocal: wall("2026-03-08T00:30")) == utc("2026-03-08T05:30:00Z"))
  }

  @Test func resolveKeepsAbsoluteAndReadsLocalInTheZone() {
    let ny = zone("America/New_York")
    let absolute = utc("2026-03-02T08:01:05Z")
    #expect(ny.resolve(.absolute(absolute)) == absolute)
    #expect(
      ny.resolve(.local(milliseconds: wall("2026-03-02T08:01:05"))) == utc("2026-03-02T13:01:05Z"))
    #expect(ZoneRules.utc.resolve(.local(milliseconds: 0)) == Instant(milliseconds: 0))
  }

  @Test func rulesBeyondThePrecomputedRangeStayFlat() {
    let ny = zone("America/New_York")
    #expect(ny.offsetSeconds(at: Instant(milliseconds: .min)) == -18_000)
    #expect(
      ny.offsetSeconds(at: Instant(milliseconds: .max))
        == ny.offsetSeconds(at: utc("2100-12-31T12:00:00Z")))
    _ = ny.instant(fromLocal: .min)
    _ = ny.instant(fromLocal: .max)
    _ = ny.startOfLocalDay(dayIndex: .min)
    _ = ny.startOfLocalDay(dayIndex: .max)
    _ = ny.dayIndex(at: Instant(milliseconds: .min))
  }

  @Test func equalityFollowsIdentifierAndRules() {
    #expect(zone("Europe/Berlin") == zone("Europe/Berlin"))
    #expect(zone("Europe/Berlin") != zone("Europe/Paris"))
    #expect(Set([zone("Europe/Berlin"), zone("Europe/Berlin"), .utc]).count == 2)
  }
}
