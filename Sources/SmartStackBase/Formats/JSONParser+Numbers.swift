extension JSONScanner {
  /// Exact powers of ten as `Double`s (10^22 is the largest that is exact).
  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Reads the number at `position` (a `-` or a digit).
  ///
  /// The value is the correctly rounded `Double`: significands up to 2^53 with decimal
  /// exponents up to ±22 are converted exactly with one multiplication or division
  /// (Clinger's fast path); anything else goes through the standard library's
  /// correctly rounded conversion. The literal's exact integer value, when it has one
  /// below 2^64, is kept in `JSONNode.number`.
  ///
  /// Errors: `leading zeros are not allowed` and `number out of range` at the number's
  /// first byte; `expected a digit after '-'`, `expected a digit after '.'` and
  /// `expected a digit in the exponent` at the byte that is not a digit;
  /// `unexpected end of input` when the input stops inside the number.
  mutating func parseNumber() throws(JSONParseError) -> JSONNode {
    let start = position
    var i = position
    let isNegative = bytes[i] == UInt8(ascii: "-")
    if isNegative { i += 1 }
    guard i < end else { throw unexpectedEnd }

    // Integer part.
    let integerStart = i
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if i < end, Self.isDigit(bytes[i]) {
        throw JSONParseError(offset: start, message: "leading zeros are not allowed")
      }
    } else if Self.isDigit(bytes[i]) {
      while i < end, Self.isDigit(bytes[i]) { i += 1 }
    } else if Self.isWordByte(bytes[i]) {
      // `-Infinity`, `-NaN`, `-foo`.
      var wordEnd = i
      while wordEnd < end, Self.isWordByte(bytes[wordEnd]) { wordEnd += 1 }
      let word = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<wordEnd]), as: UTF8.self)
      throw JSONParseError(offset: start, message: Self.invalidLiteralMessage(word))
    } else {
      throw JSONParseError(offset: i, message: "expected a digit after '-'")
    }
    let integerEnd = i

    // Fraction.
    var fractionStart = i
    var fractionEnd = i
    var isIntegerLiteral = true
    if i < end, bytes[i] == UInt8(ascii: ".") {
      isIntegerLiteral = false
      i += 1
      guard i < end else { throw unexpectedEnd }
      guard Self.isDigit(bytes[i]) else {
        throw JSONParseError(offset: i, message: "expected a digit after '.'")
      }
      fractionStart = i
      while i < end, Self.isDigit(bytes[i]) { i += 1 }
      fractionEnd = i
    }

    // Exponent, saturated at ±10^9 (beyond any finite or nonzero Double either way).
    var exponent = 0
    if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      isIntegerLiteral = false
      i += 1
      guard i < end else { throw unexpectedEnd }
      var exponentIsNegative = false
      if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        exponentIsNegative = bytes[i] == UInt8(ascii: "-")
        i += 1
        guard i < end else { throw unexpectedEnd }
      }
      guard Self.isDigit(bytes[i]) else {
        throw JSONParseError(offset: i, message: "expected a digit in the exponent")
      }
      while i < end, Self.isDigit(bytes[i]) {
        if exponent < 1_000_000_000 {
          exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
        }
        i += 1
      }
      if exponentIsNegative { exponent = -exponent }
    }
    position = i

    // The digits of integer and fraction part as one run d[0..<n]; the value is
    // d × 10^(exponent − fractionCount).
    let integerCount = integerEnd - integerStart
    let fractionCount = fractionEnd - fractionStart
    let n = integerCount + fractionCount
    func digit(_ k: Int) -> UInt8 {
      (k < integerCount ? bytes[integerStart + k] : bytes[fractionStart + k - integerCount])
        &- UInt8(ascii: "0")
    }
    var first = 0
    while first < n, digit(first) == 0 { first += 1 }
    guard first < n else {
      // Zero, whatever its form.
      let literal = JSONNumberLiteral(
        isIntegerLiteral: isIntegerLiteral, isIntegral: true, isNegative: isNegative, magnitude: 0)
      return JSONNode(.number(isNegative ? -0.0 : 0.0), offset: start, number: literal)
    }
    var last = n - 1
    while digit(last) == 0 { last -= 1 }
    // Significand d[first...last] (no leading or trailing zeros) times 10^scale.
    let scale = exponent - fractionCount + (n - 1 - last)
    var significand: UInt64? = 0
    for k in first...last {
      guard let value = significand else { break }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit(k)))
      significand = overflow1 || overflow2 ? nil : sum
    }

    var magnitude: UInt64? = nil
    if scale >= 0, let significand, scale < 20 {
      var value: UInt64? = significand
      for _ in 0..<scale {
        guard let v = value else { break }
        let (times10, overflow) = v.multipliedReportingOverflow(by: 10)
        value = overflow ? nil : times10
      }
      magnitude = value
    }

    var double: Double
    if let significand, significand <= 1 << 53, (-22...22).contains(scale) {
      double = Double(significand)
      double =
        scale >= 0
        ? double * Self.exactPowersOfTen[scale] : double / Self.exactPowersOfTen[-scale]
      if isNegative { double = -double }
    } else {
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
      double = Double(text) ?? .infinity
    }
    guard double.isFinite else {
      throw JSONParseError(offset: start, message: "number out of range")
    }
    let literal = JSONNumberLiteral(
      isIntegerLiteral: isIntegerLiteral, isIntegral: scale >= 0, isNegative: isNegative,
      magnitude: magnitude)
    return JSONNode(.number(double), offset: start, number: literal)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
