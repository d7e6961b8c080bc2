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

/// A parsed integer literal's details.
private func integer(_ magnitude: UInt64?, negative: Bool = false) -> JSONNumberLiteral {
  JSONNumberLiteral(
    isIntegerLiteral: true, isIntegral: true, isNegative: negative, magnitude: magnitude)
}

private func parse(_ text: String) throws(JSONParseError) -> JSONNode {
  try JSONParser.parse(text)
}

@Suite("JSON parser: valid documents")
struct JSONParserValidTests {
  @Test func scalarsAtTopLevelWithSurroundingWhitespace() throws {
    #expect(try parse("null") == JSONNode(.null, offset: 0))
    #expect(try parse(" true") == JSONNode(.bool(true), offset: 1))
    #expect(try parse("false\n") == JSONNode(.bool(false), offset: 0))
    #expect(try parse("\t\r\n 42 ") == JSONNode(.number(42), offset: 4, number: integer(42)))
    #expect(try parse("\"hi\"") == JSONNode(.string("hi"), offset: 0))
    #expect(try parse("[]") == JSONNode(.array([]), offset: 0))
    #expect(try parse(" {} ") == JSONNode(.object([]), offset: 1))
  }

  @Test func nestedDocumentGivesGoldenTreeWithOffsets() throws {
    let text = #"{"a": [1, -2.5e1, true, null], "b": {"c": "x"}, "d": []}"#
    let expected = JSONNode(
      .object([
        JSONMember(
          key: "a", keyOffset: 1,
          node: JSONNode(
            .array([
              JSONNode(.number(1), offset: 7, number: integer(1)),
              JSONNode(
                .number(-25), offset: 10,
                number: JSONNumberLiteral(
                  isIntegerLiteral: false, isIntegral: true, isNegative: true, magnitude: 25)),
              JSONNode(.bool(true), offset: 18),
              JSONNode(.null, offset: 24),
            ]), offset: 6)),
        JSONMember(
          key: "b", keyOffset: 31,
          node: JSONNode(
            .object([JSONMember(key: "c", keyOffset: 37, node: JSONNode(.string("x"), offset: 42))]
            ),
            offset: 36)),
        JSONMember(key: "d", keyOffset: 48, node: JSONNode(.array([]), offset: 53)),
      ]), offset: 0)
    #expect(try parse(text) == expected)
  }

  @Test func objectMembersKeepFileOrder() throws {
    let keys = try parse(#"{"z":1,"a":2,"m":3,"b":4}"#).value.objectValue?.map(\.key)
    #expect(keys == ["z", "a", "m", "b"])
  }

  @Test func stringEscapesDecode() throws {
    let text = #""q\" b\\ s\/ \b\f\n\r\t A\u0041 e\u00e9 \u20AC \ud83d\ude00""#
    #expect(
      try parse(text).value == .string("q\" b\\ s/ \u{8}\u{C}\n\r\t AA e\u{E9} \u{20AC} \u{1F600}"))
  }

  @Test func rawNonASCIIAndEmptyStringsDecode() throws {
    #expect(try parse("\"héllo wörld 😀 日本\"").value == .string("héllo wörld 😀 日本"))
    #expect(try parse("\"\"").value == .string(""))
    // `\u0000` is refused as a raw NUL is (issue 20); U+0001 still decodes.
    #expect(throws: JSONParseError.self) { try parse(#""\u0000""#) }
    #expect(try parse(#""\u0001""#).value == .string("\u{1}"))
  }

  @Test(
    arguments: [
      // text, value, integer literal, integral, negative, magnitude
      ("0", 0.0, true, true, false, UInt64(0) as UInt64?),
      ("-0", -0.0, true, true, true, 0),
      ("-12", -12, true, true, true, 12),
      ("1.5", 1.5, false, false, false, nil),
      ("1e3", 1000, false, true, false, 1000),
      ("1E+3", 1000, false, true, false, 1000),
      ("2.50e-1", 0.25, false, false, false, nil),
      ("10e-1", 1, false, true, false, 1),
      ("0.1e1", 1, false, true, false, 1),
      ("1.25e1", 12.5, false, false, false, nil),
      ("0.000", 0, false, true, false, 0),
      ("9007199254740993", 9_007_199_254_740_992, true, true, false, 9_007_199_254_740_993),
      ("18446744073709551615", 0x1p64, true, true, false, UInt64.max),
      ("18446744073709551616", 18_446_744_073_709_551_616, true, true, false, nil),
      ("123456789012345678901234567890", 1.2345678901234568e29, true, true, false, nil),
      ("1e19", 1e19, false, true, false, 10_000_000_000_000_000_000),
      ("1e20", 1e20, false, true, false, nil),
      ("1e-400", 0, false, false, false, nil),
      ("4.9e-324", Double.leastNonzeroMagnitude, false, false, false, nil),
      ("1.7976931348623157e308", 1.7976931348623157e308, false, true, false, nil),
      ("0.1", 0.1, false, false, false, nil),
      ("3.141592653589793238462643383279", 3.141592653589793, false, false, false, nil),
    ] as [(String, Double, Bool, Bool, Bool, UInt64?)])
  func numberLiteralsKeepValueAndForm(
    text: String, value: Double, isIntegerLiteral: Bool, isIntegral: Bool, isNegative: Bool,
    magnitude: UInt64?
  ) throws {
    let node = try parse(text)
    #expect(node.value == .number(value))
    #expect(node.value.doubleValue?.sign == value.sign)
    #expect(
      node.number
        == JSONNumberLiteral(
          isIntegerLiteral: isIntegerLiteral, isIntegral: isIntegral, isNegative: isNegative,
          magnitude: magnitude))
  }

  @Test func exactIntegersConvertToFixedWidthTypes() throws {
    #expect(try parse("-9223372036854775808").number?.int64 == Int64.min)
    #expect(try parse("-9223372036854775809").number?.int64 == nil)
    #expect(try parse("9223372036854775807").number?.int64 == Int64.max)
    #expect(try parse("9223372036854775808").number?.int64 == nil)
    #expect(try parse("9223372036854775808").number?.uint64 == 9_223_372_036_854_775_808)
    #expect(try parse("-1").number?.uint64 == nil)
    #expect(try parse("-0").number?.uint64 == 0)
    #expect(try parse("1.5").number?.int64 == nil)
    #expect(try parse("9007199254740993").intValue == 9_007_199_254_740_993)
    #expect(try parse("9007199254740992").number?.exceedsExactDoubleIntegers == false)
    #expect(try parse("-9007199254740993").number?.exceedsExactDoubleIntegers == true)
    #expect(try parse("1e30").number?.exceedsExactDoubleIntegers == true)
    #expect(try parse("1.5e300").number?.exceedsExactDoubleIntegers == true)
    #expect(try parse("0.5").number?.exceedsExactDoubleIntegers == false)
  }

  @Test func numbersMatchTheStandardLibraryConversion() throws {
    var rng = FormatsTestGenerator(seed: 11)
    for trial in 0..<3000 {
      var text = rng.next(below: 2) == 0 ? "" : "-"
      let integerDigits = 1 + rng.next(below: 20)
      for k in 0..<integerDigits {
        text += String(k == 0 ? 1 + rng.next(below: 9) : rng.next(below: 10))
      }
      if rng.next(below: 2) == 0 {
        text += "."
        for _ in 0..<(1 + rng.next(below: 20)) { text += String(rng.next(below: 10)) }
      }
      if rng.next(below: 2) == 0 {
        text += "e" + (rng.next(below: 2) == 0 ? "-" : "") + String(rng.next(below: 40))
      }
      let expected = Double(text)
      let node = try parse(text)
      #expect(node.value == .number(expected ?? .nan), "trial \(trial): \(text)")
    }
  }

  @Test func byteOrderMarkAtTheStartIsSkipped() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
    #expect(try JSONParser.parse(bytes).offset == 3)
  }

  @Test func rangeParseReportsOffsetsInTheWholeBuffer() throws {
    let bytes = Array("{\"a\":1}\n{\"b\": true}\n{\"c\": x}\n".utf8)
    let second = try JSONParser.parse(bytes, range: 8..<19)
    #expect(
      second
        == JSONNode(
          .object([JSONMember(key: "b", keyOffset: 9, node: JSONNode(.bool(true), offset: 14))]),
          offset: 8))
    let error = #expect(throws: JSONParseError.self) {
      try JSONParser.parse(bytes, range: 20..<28)
    }
    #expect(
      error
        == JSONParseError(
          offset: 26, message: "invalid literal 'x' (strings must be in double quotes)"))
  }

  @Test func outOfBoundsRangeIsClampedNotACrash() throws {
    let bytes = Array("[1]".utf8)
    #expect(try JSONParser.parse(bytes, range: -5..<99).offset == 0)
    #expect(throws: JSONParseError(offset: 3, message: "unexpected end of input")) {
      try JSONParser.parse(bytes, range: 7..<9)
    }
  }

  @Test func nestingOf256LevelsIsAccepted() throws {
    let text = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
    var node = try parse(text)
    var depth = 1
    while case .array(let elements) = node.value, let first = elements.first {
      node = first
      depth += 1
    }
    #expect(depth == 256)
  }

  @Test func largeObjectsStillFindDuplicates() throws {
    var text = "{"
    for k in 0..<40 { text += "\"k\(k)\": \(k), " }
    let offset = text.utf8.count
    text += "\"k17\": 0}"
    #expect(throws: JSONParseError(offset: offset, message: "duplicate key \"k17\"")) {
      try parse(text)
    }
    #expect(
      try parse(
        #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14}"#
      ).value.objectValue?.count == 14)
  }
}
