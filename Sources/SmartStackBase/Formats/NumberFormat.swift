/// Deterministic, locale-free number text for CSV, JSON and tables.
///
/// No `String(format:)`, no `NumberFormatter`, no locale: the same number prints the
/// same bytes on every platform and every run.
public enum NumberFormat {
  /// The most fraction digits `format(_:decimals:)` writes (more would only add zeros
  /// after the shortest round-trip digits of any double).
  public static let maximumDecimals = 1_100

  /// 2^53: integral doubles up to this magnitude are exact integers.
  static let exactIntegerLimit = 9_007_199_254_740_992.0

  /// The shortest text that reads back as exactly `x`.
  ///
  /// - Integral values with |x| ≤ 2^53 print as integers: `10`, `-3`, `0` (also for -0.0).
  /// - Other values print Swift's shortest round-trip digits (`0.1`, `0.30000000000000004`),
  ///   in plain decimal form for 1e-6 ≤ |x| < 1e16 (`0.00001`, not `1e-05`;
  ///   `9007199254740994`, not `9.007199254740994e+15`) and in Swift's exponent form
  ///   outside it (`1e-07`, `1e+16`, `5e-324`).
  /// - NaN prints `nan`, infinities `inf` and `-inf`.
  ///
  /// `Double(format(x)) == x` for every finite `x`, and the text is valid JSON for
  /// every finite `x`.
  public static func format(_ x: Double) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
    if x == 0 { return "0" }
    let magnitude = x.magnitude
    if magnitude <= exactIntegerLimit, x.rounded(.towardZero) == x {
      return String(Int64(x))
    }
    let text = x.description
    guard magnitude >= 1e-6, magnitude < 1e16 else { return text }
    // Swift already prints most values in this range plainly (`0.001`, `123.5`); only
    // rewrite the exponent forms and the `.0` of integers above 2^53.
    if !text.utf8.contains(UInt8(ascii: "e")) && !text.hasSuffix(".0") { return text }
    return plain(DecimalDigits(x))
  }

  /// `x` rounded to exactly `decimals` digits after the point (`decimals` is clamped to
  /// `0...maximumDecimals`): `format(3.14159, decimals: 2) == "3.14"`,
  /// `format(2, decimals: 3) == "2.000"`.
  ///
  /// Rounds the shortest round-trip decimal form of `x` (what `format(_:)` prints)
  /// half away from zero, with exact decimal arithmetic, so `2.675` gives `2.68` and
  /// `-0.125` gives `-0.13`. A result of zero has no minus sign (`-0.001` gives `0.00`).
  /// NaN and infinities print as in `format(_:)`.
  public static func format(_ x: Double, decimals: Int) -> String {
    guard x.isFinite else { return format(x) }
    let decimals = min(max(0, decimals), maximumDecimals)
    var number = DecimalDigits(x)
    // Keep the digits down to 10^-decimals.
    let keep = number.exponent + 1 + decimals
    if keep < number.digits.count {
      let roundUp = keep >= 0 && number.digits[keep] >= 5
      number.digits.removeLast(number.digits.count - max(keep, 0))
      if roundUp {
        // Add one unit in the last kept place, carrying.
        var k = number.digits.count - 1
        while k >= 0 && number.digits[k] == 9 {
          number.digits[k] = 0
          k -= 1
        }
        if k >= 0 {
          number.digits[k] += 1
        } else {
          number.digits.insert(1, at: 0)
          number.exponent += 1
        }
      } else if number.digits.isEmpty {
        number.exponent = 0
      }
    }
    // Write integer part and exactly `decimals` fraction digits.
    let isZero = !number.digits.contains { $0 != 0 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(number.exponent, 0) + decimals + 3)
    if number.isNegative && !isZero { bytes.append(UInt8(ascii: "-")) }
    func digit(at power: Int) -> UInt8 {
      // The digit for 10^power.
      let index = number.exponent - power
      guard !isZero, index >= 0, index < number.digits.count else { return UInt8(ascii: "0") }
      return UInt8(ascii: "0") + number.digits[index]
    }
    for power in stride(from: max(number.exponent, 0), through: 0, by: -1) {
      bytes.append(digit(at: power))
    }
    if decimals > 0 {
      bytes.append(UInt8(ascii: "."))
      for power in stride(from: -1, through: -decimals, by: -1) { bytes.append(digit(at: power)) }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `x` in decimal: `-42`, `7`.
  public static func format(_ x: Int) -> String {
    String(x)
  }

  /// `x` in decimal with at least `minimumDigits` digits, zeros in front:
  /// `format(7, minimumDigits: 2) == "07"`, `format(-7, minimumDigits: 3) == "-007"`,
  /// `format(123, minimumDigits: 2) == "123"`.
  ///
  /// - Complexity: O(digits).
  public static func format(_ x: Int, minimumDigits: Int) -> String {
    let digits = String(x.magnitude)
    let zeros = String(repeating: "0", count: max(0, minimumDigits - digits.utf8.count))
    return (x < 0 ? "-" : "") + zeros + digits
  }

  /// `value` in lowercase hexadecimal with all of its type's digits (`bitWidth / 4`),
  /// zeros in front and no prefix: `hex(UInt32(0xBADF00D)) == "0badf00d"`,
  /// `hex(UInt64(255)) == "00000000000000ff"`.
  ///
  /// - Complexity: O(`bitWidth`).
  public static func hex<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: T.bitWidth / 4 - digits.utf8.count) + digits
  }

  /// `x` to 3 decimals for a Markdown table cell, or `–` (an en dash) for NaN, a value
  /// that is not defined: `tableCell(0.5) == "0.500"`.
  public static func tableCell(_ x: Double) -> String {
    x.isNaN ? "–" : format(x, decimals: 3)
  }

  /// `x` rounded half away from zero to `decimals` places (clamped to `0...15`), as a
  /// number: `(x × 10^decimals).rounded() / 10^decimals`, for JSON values that should not
  /// carry more digits than they mean (`rounded(0.123456, decimals: 4) == 0.1235`). NaN
  /// and infinities are returned unchanged.
  public static func rounded(_ x: Double, decimals: Int) -> Double {
    guard x.isFinite else { return x }
    var scale = 1.0
    for _ in 0..<min(max(0, decimals), 15) { scale *= 10 }
    return (x * scale).rounded() / scale
  }

  /// The plain decimal form (no exponent) of nonzero digits.
  static func plain(_ number: DecimalDigits) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(number.digits.count + abs(number.exponent) + 3)
    if number.isNegative { bytes.append(UInt8(ascii: "-")) }
    let ascii = number.digits.map { $0 + UInt8(ascii: "0") }
    if number.exponent < 0 {
      bytes.append(UInt8(ascii: "0"))
      bytes.append(UInt8(ascii: "."))
      bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -number.exponent - 1))
      bytes.append(contentsOf: ascii)
    } else if ascii.count <= number.exponent + 1 {
      bytes.append(contentsOf: ascii)
      bytes.append(
        contentsOf: repeatElement(UInt8(ascii: "0"), count: number.exponent + 1 - ascii.count))
    } else {
      bytes.append(contentsOf: ascii[0...number.exponent])
      bytes.append(UInt8(ascii: "."))
      bytes.append(contentsOf: ascii[(number.exponent + 1)...])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The shortest round-trip decimal digits of a finite double:
/// value = ±d₀.d₁d₂… × 10^exponent, with no leading or trailing zero digits
/// (`digits` is empty for zero).
struct DecimalDigits {
  var isNegative: Bool
  /// Digit values 0...9.
  var digits: [UInt8]
  var exponent: Int

  /// Reads Swift's `description` of `x` (e.g. `-1.25e-05`, `1000.5`). `x` must be finite.
  init(_ x: Double) {
    isNegative = x.sign == .minus
    digits = []
    exponent = 0
    var pointIndex: Int? = nil
    var explicitExponent = 0
    var exponentSign = 1
    var inExponent = false
    for byte in x.description.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if inExponent {
          explicitExponent = explicitExponent * 10 + Int(byte - UInt8(ascii: "0"))
        } else {
          digits.append(byte - UInt8(ascii: "0"))
        }
      case UInt8(ascii: "."): pointIndex = digits.count
      case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
      case UInt8(ascii: "-"): if inExponent { exponentSign = -1 }
      default: break
      }
    }
    // value = 0.digits... shifted: the point sits after `pointIndex` digits.
    exponent = (pointIndex ?? digits.count) - 1 + exponentSign * explicitExponent
    let leadingZeros = digits.prefix { $0 == 0 }.count
    if leadingZeros == digits.count {
      digits = []
      exponent = 0
      return
    }
    digits.removeFirst(leadingZeros)
    exponent -= leadingZeros
    while digits.last == 0 { digits.removeLast() }
  }
}
