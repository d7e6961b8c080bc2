// Proleptic Gregorian calendar arithmetic on day numbers, after Howard Hinnant,
// "chrono-Compatible Low-Level Date Algorithms" (http://howardhinnant.github.io/date_algorithms.html).
// Day 0 is 1970-01-01. Eras of 400 years (146 097 days) start on March 1st, which puts
// the leap day at the end of the computational year.

extension ISO8601 {
  /// The number of days from 1970-01-01 to `year-month-day` in the proleptic Gregorian
  /// calendar (negative before 1970). `daysFromCivil(year: 1970, month: 1, day: 1) == 0`.
  ///
  /// `month` must be in 1...12 and `day` in 1...31; a day past the month's end counts on
  /// into the next month (`2026-02-29` gives the day of `2026-03-01`). Other values give an
  /// unspecified result but never trap. Exact for |year| < 2^40.
  ///
  /// The calendar repeats every 400 years, which are 146 097 days: the year is shifted by
  /// `400 · 2^32` years, which makes every year with |year| < 2^40 non-negative, the days
  /// before its March 1st are counted with unsigned divisions by constants (no era split,
  /// no sign test; the timestamp parser's hot path inlines a few multiplications), and the
  /// shift's `146 097 · 2^32` days are taken off again.
  ///
  /// - Complexity: O(1), integer arithmetic only.
  @inline(__always)
  @inlinable
  public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
    let marchYear = Int64(truncatingIfNeeded: month <= 2 ? year &- 1 : year)
    let y = UInt64(bitPattern: marchYear &+ (400 &<< 32))  // >= 0 for |year| < 2^40
    let shiftedMonth = UInt64(truncatingIfNeeded: month > 2 ? month &- 3 : month &+ 9)  // March = 0
    let dayOfYear = (153 &* shiftedMonth &+ 2) / 5 &+ UInt64(truncatingIfNeeded: day) &- 1
    let days = y &* 365 &+ y / 4 &- y / 100 &+ y / 400 &+ dayOfYear
    return Int64(bitPattern: days) &- (146_097 &<< 32) &- 719_468
  }

  /// The proleptic Gregorian date of day `days` since 1970-01-01; the inverse of
  /// `daysFromCivil(year:month:day:)`. Defined for every `Int64`.
  ///
  /// - Complexity: O(1), integer arithmetic only.
  @inlinable
  public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
    // z = days + 719 468 (days since 0000-03-01), split into eras without overflowing:
    // q * 146 097 never exceeds |days| in magnitude, and r is always positive.
    let q = days / 146_097
    let r = days - q * 146_097 + 719_468  // 573 372 ... 865 564
    let era = q + r / 146_097
    let dayOfEra = r % 146_097  // 0...146 096
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365
    let mp = (5 * dayOfYear + 2) / 153  // 0...11, March = 0
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra &+ era &* 400 &+ (month <= 2 ? 1 : 0)
    return (Int(truncatingIfNeeded: year), Int(month), Int(day))
  }

  /// True for Gregorian leap years: divisible by 4, except centuries not divisible by 400.
  @inlinable
  public static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The number of days in `month` (1...12) of `year`: 28...31; 0 for other months.
  @inlinable
  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 1, 3, 5, 7, 8, 10, 12: return 31
    case 4, 6, 9, 11: return 30
    case 2: return isLeapYear(year) ? 29 : 28
    default: return 0
    }
  }

  /// English month names, index 0 = January; used in error messages.
  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}
