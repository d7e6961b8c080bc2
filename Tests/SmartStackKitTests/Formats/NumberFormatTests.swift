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

@Suite("Number formatting")
struct NumberFormatTests {
  @Test(
    arguments: [
      (10.0, "10"), (-3, "-3"), (0, "0"), (-0.0, "0"), (1, "1"),
      (9_007_199_254_740_992, "9007199254740992"), (-9_007_199_254_740_992, "-9007199254740992"),
      (9_007_199_254_740_994, "9007199254740994"), (9_999_999_999_999_998, "9999999999999998"),
      (1e15 + 0.5, "1000000000000000.5"), (1e16, "1e+16"), (1.5e16, "1.5e+16"), (-1e300, "-1e+300"),
      (0.1, "0.1"), (0.1 + 0.2, "0.30000000000000004"), (123.456, "123.456"), (-2.5, "-2.5"),
      (1e-4, "0.0001"), (1e-5, "0.00001"), (1e-6, "0.000001"), (1.5e-6, "0.0000015"),
      (-2.5e-5, "-0.000025"), (1.2345e-5, "0.000012345"), (9.99e-7, "9.99e-07"), (1e-7, "1e-07"),
      (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
      (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"),
    ] as [(Double, String)])
  func formatsShortestLocaleFreeText(x: Double, expected: String) {
    #expect(NumberFormat.format(x) == expected)
  }

  @Test func everyFiniteDoubleRoundTrips() {
    var rng = FormatsTestGenerator(seed: 42)
    var checked = 0
    while checked < 20_000 {
      let x = rng.nextBitPattern()
      guard x.isFinite else { continue }
      checked += 1
      let text = NumberFormat.format(x)
      #expect(Double(text) == x, "seed 42 #\(checked): \(x.bitPattern) printed \(text)")
    }
  }

  @Test func valuesOfEverydaySizeNeverUseExponentForm() {
    var rng = FormatsTestGenerator(seed: 7)
    for trial in 0..<20_000 {
      // log-uniform magnitudes from 1e-8 to 1e18, either sign
      let exponent = -8 + 26 * Double(rng.next() >> 11) / 9_007_199_254_740_992
      var x = (rng.next(below: 2) == 0 ? 1 : -1) * pow10(exponent)
      if rng.next(below: 4) == 0 { x = x.rounded() }
      let text = NumberFormat.format(x)
      #expect(Double(text) == x, "seed 7 trial \(trial): \(x) printed \(text)")
      let plain = x == 0 || (x.magnitude >= 1e-6 && x.magnitude < 1e16)  // rounding may give 0
      #expect(text.contains("e") != plain, "seed 7 trial \(trial): \(x) printed \(text)")
      if x.rounded() == x && x.magnitude <= 9_007_199_254_740_992 {
        #expect(!text.contains("."), "seed 7 trial \(trial): \(x) printed \(text)")
      }
    }
  }

  @Test(
    arguments: [
      (3.14159, 2, "3.14"), (2, 3, "2.000"), (2.675, 2, "2.68"), (-0.125, 2, "-0.13"),
      (-0.001, 2, "0.00"), (-0.0, 1, "0.0"), (0, 2, "0.00"), (0.5, 0, "1"), (1.5, 0, "2"),
      (2.5, 0, "3"), (-2.5, 0, "-3"), (0.4, 0, "0"), (0.05, 1, "0.1"), (0.04, 1, "0.0"),
      (9.995, 2, "10.00"), (999.96, 1, "1000.0"), (1e-7, 3, "0.000"), (0.0005, 3, "0.001"),
      (0.00049, 3, "0.000"), (123.456, -1, "123"), (1e20, 2, "100000000000000000000.00"),
      (1.25e-5, 6, "0.000013"), (12, 0, "12"), (-7.5, 2, "-7.50"),
      (.nan, 2, "nan"), (.infinity, 1, "inf"), (-.infinity, 1, "-inf"),
    ] as [(Double, Int, String)])
  func fixedDecimalsRoundHalfAwayFromZero(x: Double, decimals: Int, expected: String) {
    #expect(NumberFormat.format(x, decimals: decimals) == expected)
  }

  @Test func fixedDecimalsAreWithinHalfAUnitAndHaveExactlyThatManyDigits() {
    var rng = FormatsTestGenerator(seed: 3)
    for trial in 0..<5000 {
      let x = (Double(rng.next() >> 11) / 9_007_199_254_740_992 - 0.5) * 2e6
      let decimals = rng.next(below: 7)
      let text = NumberFormat.format(x, decimals: decimals)
      let fraction = text.split(separator: ".", omittingEmptySubsequences: false)
      #expect(fraction.count == (decimals == 0 ? 1 : 2), "seed 3 trial \(trial): \(text)")
      #expect((fraction.last?.count ?? 0) == (decimals == 0 ? text.count : decimals))
      let unit = pow10(Double(-decimals))
      #expect(
        abs((Double(text) ?? .nan) - x) <= unit / 2 * (1 + 1e-9),
        "seed 3 trial \(trial): \(x) to \(decimals) gave \(text)")
    }
  }

  @Test func hugeDecimalCountsAreClampedNotATrap() {
    let text = NumberFormat.format(0.5, decimals: Int.max)
    #expect(text.utf8.count == 2 + NumberFormat.maximumDecimals)
    #expect(text.hasPrefix("0.5000"))
  }

  @Test func integersPrintInDecimal() {
    #expect(NumberFormat.format(-42) == "-42")
    #expect(NumberFormat.format(Int.min) == "-9223372036854775808")
    #expect(NumberFormat.format(0) == "0")
  }

  @Test func zeroPaddedIntegersHaveAtLeastTheDigitsAsked() {
    #expect(NumberFormat.format(7, minimumDigits: 2) == "07")
    #expect(NumberFormat.format(0, minimumDigits: 3) == "000")
    #expect(NumberFormat.format(123, minimumDigits: 2) == "123")
    #expect(NumberFormat.format(-7, minimumDigits: 3) == "-007")
    #expect(NumberFormat.format(Int.min, minimumDigits: 2) == "-9223372036854775808")
    #expect(NumberFormat.format(5, minimumDigits: 0) == "5")
  }

  @Test func hexHasEveryDigitOfItsType() {
    #expect(NumberFormat.hex(UInt32(0xBAD_F00D)) == "0badf00d")
    #expect(NumberFormat.hex(UInt32.max) == "ffffffff")
    #expect(NumberFormat.hex(UInt64(255)) == "00000000000000ff")
    #expect(NumberFormat.hex(UInt8(0)) == "00")
  }

  @Test func tableCellsHaveThreeDecimalsAndADashForNaN() {
    #expect(NumberFormat.tableCell(0.5) == "0.500")
    #expect(NumberFormat.tableCell(2.0005) == "2.001")
    #expect(NumberFormat.tableCell(.nan) == "–")
    #expect(NumberFormat.tableCell(.infinity) == "inf")
  }

  @Test func roundedNumbersKeepTheirDecimalsOnly() {
    #expect(NumberFormat.rounded(0.123456, decimals: 4) == 0.1235)
    #expect(NumberFormat.rounded(2.5, decimals: 0) == 3)
    #expect(NumberFormat.rounded(-2.5, decimals: 0) == -3)
    #expect(NumberFormat.rounded(1234.5678, decimals: 1) == 1234.6)
    #expect(NumberFormat.format(NumberFormat.rounded(1.0 / 3, decimals: 3)) == "0.333")
    #expect(NumberFormat.rounded(.infinity, decimals: 2) == .infinity)
    #expect(NumberFormat.rounded(.nan, decimals: 2).isNaN)
    // Decimal counts are clamped to 0...15.
    #expect(NumberFormat.rounded(0.6, decimals: -1) == 1)
    #expect(NumberFormat.rounded(0.1, decimals: 400) == 0.1)
  }
}

/// 10^x without Foundation.
private func pow10(_ x: Double) -> Double {
  var result = 1.0
  var exponent = x.rounded(.down)
  let fraction = x - exponent
  while exponent > 0 {
    result *= 10
    exponent -= 1
  }
  while exponent < 0 {
    result /= 10
    exponent += 1
  }
  // 10^f = e^(f ln 10) by a short series (f in [0, 1)); good to ~1e-15 relative.
  let y = fraction * 2.302585092994046
  var term = 1.0
  var sum = 1.0
  for k in 1..<40 {
    term *= y / Double(k)
    sum += term
  }
  return result * sum
}
