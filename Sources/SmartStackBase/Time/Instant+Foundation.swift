import Foundation

// Bridges to Foundation for the edges of the toolkit (command-line flags, tests).
// Hot paths keep to `Instant` and integer arithmetic.
extension Instant {
  /// The instant of `date`, rounded to the nearest millisecond (so that
  /// `Instant(instant.date) == instant` despite `Date`'s floating-point seconds);
  /// saturating for dates beyond ±2^63 ms, and the epoch for NaN.
  public init(_ date: Date) {
    let ms = (date.timeIntervalSince1970 * 1_000).rounded()
    if ms.isNaN {
      self.init(milliseconds: 0)
    } else if ms >= 9.223_372_036_854_775_807e18 {
      self.init(milliseconds: .max)
    } else if ms < -9.223_372_036_854_775_808e18 {
      self.init(milliseconds: .min)
    } else {
      self.init(milliseconds: Int64(ms))
    }
  }

  /// This instant as a `Foundation.Date`.
  public var date: Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
  }
}
