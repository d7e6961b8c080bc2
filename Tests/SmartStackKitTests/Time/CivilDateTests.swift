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

@Suite("Civil dates")
struct CivilDateTests {
  @Test func knownDaysFromCivil() {
    // Checked with Python's datetime.date.
    #expect(ISO8601.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    #expect(ISO8601.daysFromCivil(year: 1969, month: 12, day: 31) == -1)
    #expect(ISO8601.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
    #expect(ISO8601.daysFromCivil(year: 2026, month: 3, day: 2) == 20_514)
    #expect(ISO8601.daysFromCivil(year: 2028, month: 2, day: 29) == 21_243)
    #expect(ISO8601.daysFromCivil(year: 2100, month: 12, day: 31) == 47_846)
    #expect(ISO8601.daysFromCivil(year: 2101, month: 1, day: 1) == 47_847)
    #expect(ISO8601.daysFromCivil(year: 0, month: 3, day: 1) == -719_468)
  }

  /// Howard Hinnant's `days_from_civil`, with the era split and signed divisions, as the
  /// reference the shifted, unsigned form is checked against.
  static func daysFromCivilByEras(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The shifted form equals the era form day for day (every day of month 1...31, so days
  /// past a month's end too), across the 100- and 400-year rules, for negative years and
  /// at the ends of the exact range, |year| < 2^40.
  @Test func daysFromCivilEqualsTheEraFormForEveryYearInItsRange() {
    let edge = 1 << 40
    var years = Array(-804...(-796)) + Array(-404...404) + Array(1596...1604) + Array(1696...1704)
    years += Array(1896...2104) + Array(2396...2404)
    years += Array((-edge + 1)...(-edge + 401)) + Array((edge - 401)...(edge - 1))
    for year in years {
      for month in 1...12 {
        for day in 1...31 {
          let expected = Self.daysFromCivilByEras(year: year, month: month, day: day)
          let got = ISO8601.daysFromCivil(year: year, month: month, day: day)
          if got != expected { Issue.record("\(year)-\(month)-\(day): \(got), expected \(expected)") }
        }
      }
    }
  }

  @Test func civilFromDaysInvertsAndStepsOneDayAtATime() {
    let first = ISO8601.daysFromCivil(year: 1599, month: 12, day: 31)
    let last = ISO8601.daysFromCivil(year: 2501, month: 1, day: 1)
    var previous = ISO8601.civil(fromDays: first)
    #expect(previous == (1599, 12, 31))
    for day in (first + 1)...last {
      let date = ISO8601.civil(fromDays: day)
      let monthLength = ISO8601.daysInMonth(year: previous.year, month: previous.month)
      let expected =
        previous.day < monthLength
        ? (previous.year, previous.month, previous.day + 1)
        : previous.month < 12 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
      if date != expected {
        Issue.record("day \(day): \(date), expected \(expected)")
        return
      }
      if ISO8601.daysFromCivil(year: date.year, month: date.month, day: date.day) != day {
        Issue.record("daysFromCivil(civil(\(day))) != \(day)")
        return
      }
      previous = date
    }
    #expect(previous == (2501, 1, 1))
  }

  @Test func civilFromDaysNeverTrapsAtTheExtremes() {
    for day in [Int64.min, Int64.min + 1, -1, 0, Int64.max - 1, Int64.max] {
      let date = ISO8601.civil(fromDays: day)
      #expect((1...12).contains(date.month) && (1...31).contains(date.day), "day \(day)")
    }
    _ = ISO8601.daysFromCivil(year: .max, month: 13, day: .min)
  }

  @Test func leapYearsFollowTheGregorianRule() {
    #expect(ISO8601.isLeapYear(2028))
    #expect(ISO8601.isLeapYear(2000))
    #expect(!ISO8601.isLeapYear(2100))
    #expect(!ISO8601.isLeapYear(2026))
    #expect(ISO8601.daysInMonth(year: 2028, month: 2) == 29)
    #expect(ISO8601.daysInMonth(year: 2100, month: 2) == 28)
    #expect(ISO8601.daysInMonth(year: 2026, month: 4) == 30)
    #expect(ISO8601.daysInMonth(year: 2026, month: 13) == 0)
  }
}
