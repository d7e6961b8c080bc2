import Testing

@testable import SmartStackBase
@testable import SmartStackData

/// `JSONParser.maximumValues` bounds the tree one JSON text builds, whatever the input.
@Suite("JSON parser: at most maximumValues values per document")
struct JSONValueLimitTests {
  private func parse(_ text: String, limit: Int) throws(JSONParseError) -> JSONNode {
    let bytes = Array(text.utf8)
    let result: Result<JSONNode, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONParseError) {
        return .success(try JSONParser.parse(buffer, range: 0..<buffer.count, maximumValues: limit))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private func error(_ text: String, limit: Int) -> JSONParseError? {
    do {
      _ = try parse(text, limit: limit)
      return nil
    } catch {
      return error
    }
  }

  @Test func everyScalarArrayAndObjectCountsButKeysDoNot() throws {
    // 1 array + 4 numbers = 5 values; 1 object + 2 member values = 3 (keys do not count).
    _ = try parse("[1,2,3,4]", limit: 5)
    _ = try parse(#"{"a":1,"b":[]}"#, limit: 3)
    _ = try parse(#"{}"#, limit: 1)
    #expect(error(#"{"a":1,"b":[]}"#, limit: 2) != nil)
  }

  @Test func theValuePastTheLimitIsRefusedAtItsFirstByte() {
    let message = JSONParser.tooManyValues(5)
    #expect(message.hasPrefix("more than 5 values in one JSON document"))
    #expect(error("[1,2,3,4,5]", limit: 5) == JSONParseError(offset: 9, message: message))
    #expect(
      error(#"[{"a":[0]}, {"b":"x"}, {}]"#, limit: 5)
        == JSONParseError(offset: 17, message: message))
    #expect(error("[[[[[[]]]]]]", limit: 5) == JSONParseError(offset: 5, message: message))
  }

  @Test func theLimitIs250000ValuesAndADocumentOfExactlyThatParses() throws {
    #expect(JSONParser.maximumValues == 250_000)
    // An array and 249,999 zeros: 250,000 values, about 500 kB.
    let atLimit = "[" + Array(repeating: "0", count: 249_999).joined(separator: ",") + "]"
    let node = try JSONParser.parse(atLimit)
    #expect(node.value.arrayValue?.count == 249_999)
    let over = "[" + Array(repeating: "0", count: 250_000).joined(separator: ",") + "]"
    #expect(throws: JSONParseError(offset: over.utf8.count - 2, message: JSONParser.tooManyValues(250_000))) {
      try JSONParser.parse(over)
    }
  }

  @Test func anOversizedStackIsALocatedErrorWithNothingBuilt() {
    let instances = Array(repeating: "{}", count: 250_000).joined(separator: ",")
    let got = diagnosticMessages {
      _ = try StackSpec.read(bytes: Array("{\"instances\":[\(instances)]}".utf8), file: "s.json")
    }
    // The object, the array and 249,998 instances are values 1 to 250,000; the next `{`
    // is refused: column 15 + 3 × 249,998.
    #expect(got == ["1:\(15 + 3 * 249_998): \(JSONParser.tooManyValues(250_000))"])
  }

  @Test func aTimelineMayHoldOneValuePer8BytesOfFileIfThatIsMore() {
    #expect(TimelineFile.maximumValues(fileBytes: 0) == JSONParser.maximumValues)
    #expect(TimelineFile.maximumValues(fileBytes: 2_000_000) == JSONParser.maximumValues)
    #expect(TimelineFile.maximumValues(fileBytes: 80_000_008) == 10_000_001)
  }
}
