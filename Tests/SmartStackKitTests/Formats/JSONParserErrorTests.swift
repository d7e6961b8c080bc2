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

@Suite("JSON parser: errors")
struct JSONParserErrorTests {
  /// Parses `bytes` and returns the error, or records an issue when it parses.
  private func error(_ bytes: [UInt8]) -> JSONParseError? {
    do {
      let node = try JSONParser.parse(bytes)
      Issue.record("parsed \(String(decoding: bytes, as: UTF8.self)) as \(node)")
      return nil
    } catch {
      return error
    }
  }

  private func error(_ text: String) -> JSONParseError? { error(Array(text.utf8)) }

  @Test(
    arguments: [
      // Structure
      (#"{"a": 1 "b": 2}"#, 8, "expected ',' or '}' after an object member"),
      ("[1 2]", 3, "expected ',' or ']' after an array element"),
      (#"{a:1}"#, 1, "expected a string key or '}'"),
      (#"{"a" 1}"#, 5, "expected ':' after an object key"),
      (#"{"a":1, 2}"#, 8, "expected a string key after ','"),
      ("[1,]", 2, "trailing ',' before ']' is not allowed"),
      (#"{"a":1,}"#, 6, "trailing ',' before '}' is not allowed"),
      (#"{"a":1,"a":2}"#, 7, "duplicate key \"a\""),
      (#"{"x":{"a\n":1,"b":2,"a\n":3}}"#, 20, #"duplicate key "a\n""#),
      ("[1]]", 3, "unexpected text after the JSON value"),
      (#"{"a":1} x"#, 8, "unexpected text after the JSON value"),
      ("1 2", 2, "unexpected text after the JSON value"),
      ("]", 0, "expected a value, found ']'"),
      ("[,1]", 1, "expected a value, found ','"),
      ("é", 0, "expected a value, found 'é' (U+00E9)"),
      ("\u{1}", 0, "expected a value, found U+0001"),
      ("'a'", 0, "strings must be in double quotes, not single quotes"),
      // End of input
      ("", 0, "unexpected end of input"),
      ("   ", 3, "unexpected end of input"),
      ("[1,", 3, "unexpected end of input"),
      ("[1", 2, "unexpected end of input"),
      (#"{"a""#, 4, "unexpected end of input"),
      (#"{"a":"#, 5, "unexpected end of input"),
      ("{", 1, "unexpected end of input"),
      // Literals
      ("NaN", 0, "invalid literal 'NaN' (NaN and Infinity are not allowed in JSON)"),
      ("Infinity", 0, "invalid literal 'Infinity' (NaN and Infinity are not allowed in JSON)"),
      ("[-Infinity]", 1, "invalid literal '-Infinity' (NaN and Infinity are not allowed in JSON)"),
      ("True", 0, "invalid literal 'True' (did you mean 'true'?)"),
      ("nul", 0, "invalid literal 'nul' (strings must be in double quotes)"),
      ("[nulll]", 1, "invalid literal 'nulll' (strings must be in double quotes)"),
      ("None", 0, "invalid literal 'None' (did you mean 'null'?)"),
      // Numbers
      ("01", 0, "leading zeros are not allowed"),
      ("[-01]", 1, "leading zeros are not allowed"),
      ("1e400", 0, "number out of range"),
      ("[0, -1.8e308]", 4, "number out of range"),
      ("1.", 2, "unexpected end of input"),
      ("1.x", 2, "expected a digit after '.'"),
      ("1e", 2, "unexpected end of input"),
      ("[1e+]", 4, "expected a digit in the exponent"),
      ("-", 1, "unexpected end of input"),
      ("[-]", 2, "expected a digit after '-'"),
      (".5", 0, "a number must start with a digit or '-'"),
      ("+1", 0, "a number must start with a digit or '-'"),
      // Strings
      ("\"abc", 0, "unterminated string"),
      ("[\"a\\", 1, "unterminated string"),
      ("\"\\u12", 0, "unterminated string"),
      (#""a\qb""#, 2, #"invalid escape '\q'"#),
      (#""\x""#, 1, #"invalid escape '\x'"#),
      (#""\u12G4""#, 1, #"invalid \u escape"#),
      (#""\ud800""#, 1, #"unpaired surrogate \ud800"#),
      (#""ab\ud800\u0041""#, 3, #"unpaired surrogate \ud800"#),
      (#""\ud800\uZZZZ""#, 7, #"invalid \u escape"#),
      (#""\udc00""#, 1, #"unpaired surrogate \udc00"#),
      ("\"a\nb\"", 2, "control character U+000A in a string must be escaped"),
      ("\"a\tb\"", 2, "control character U+0009 in a string must be escaped"),
      ("\"\u{0}\"", 1, "control character U+0000 in a string must be escaped"),
      ("[\"ok\", \"a\u{1F}\"]", 9, "control character U+001F in a string must be escaped"),
    ] as [(String, Int, String)])
  func reportsTheProblemAtItsOffset(text: String, offset: Int, message: String) {
    #expect(error(text) == JSONParseError(offset: offset, message: message), "\(text)")
  }

  @Test(
    arguments: [
      [0x22, 0xFF, 0x22],  // never valid
      [0x22, 0x61, 0xC3, 0x28, 0x22],  // lead byte without continuation
      [0x22, 0x61, 0xC0, 0xAF, 0x22],  // overlong '/'
      [0x22, 0x61, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
      [0x22, 0x61, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate
      [0x22, 0x61, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
      [0x22, 0x61, 0xE2, 0x82, 0x22],  // truncated before the quote
      [0x22, 0x61, 0x80, 0x22],  // lone continuation byte
    ] as [[UInt8]])
  func invalidUTF8InAStringIsReportedAtItsFirstByte(bytes: [UInt8]) {
    let offset = bytes[1] == 0xFF ? 1 : 2
    #expect(error(bytes) == JSONParseError(offset: offset, message: "invalid UTF-8"))
  }

  @Test func invalidUTF8OutsideAStringIsReported() {
    #expect(error([0x5B, 0xFE, 0x5D]) == JSONParseError(offset: 1, message: "invalid UTF-8"))
  }

  @Test func nestingBeyond256LevelsIsRefusedAtTheExtraBracket() {
    let text = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
    #expect(error(text) == JSONParseError(offset: 256, message: "nesting deeper than 256 levels"))
    let objects = String(repeating: #"{"a":"#, count: 300)
    #expect(
      error(objects) == JSONParseError(offset: 256 * 5, message: "nesting deeper than 256 levels"))
  }

  @Test func hugeNestingDoesNotCrash() {
    let opens = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
    #expect(error(opens) == JSONParseError(offset: 256, message: "nesting deeper than 256 levels"))
    let mixed = [UInt8](repeating: UInt8(ascii: "["), count: 255) + Array(#"{"a":[{"b":1}]}"#.utf8)
    #expect(error(mixed) == JSONParseError(offset: 260, message: "nesting deeper than 256 levels"))
  }

  @Test func errorBecomesADiagnosticWithLineAndColumn() {
    let text = "{\n  \"name\": \"x\",\n  \"size\": 01\n}\n"
    guard let parseError = error(text) else { return }
    let diagnostic = parseError.diagnostic(file: "stack.json", lines: LineIndex(text))
    #expect(diagnostic.description == "stack.json:3:11: leading zeros are not allowed")
  }
}
