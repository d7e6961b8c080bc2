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

@Suite("JSON writer")
struct JSONWriterTests {
  private let sample: JSONValue = [
    "name": "demo", "seed": 42, "weights": [0.5, -2, 1e-5, 1e16], "on": true, "note": nil,
    "empty": [:], "none": [], "nested": ["z": 1, "a": ["x"]],
  ]

  @Test func compactOutputHasNoWhitespaceAndKeepsKeyOrder() {
    #expect(
      sample.serialized()
        == #"{"name":"demo","seed":42,"weights":[0.5,-2,0.00001,1e+16],"on":true,"note":null,"empty":{},"none":[],"nested":{"z":1,"a":["x"]}}"#
    )
  }

  @Test func prettyOutputIndentsTwoSpacesPerLevel() {
    let expected = """
      {
        "name": "demo",
        "seed": 42,
        "weights": [
          0.5,
          -2,
          0.00001,
          1e+16
        ],
        "on": true,
        "note": null,
        "empty": {},
        "none": [],
        "nested": {
          "z": 1,
          "a": [
            "x"
          ]
        }
      }
      """
    #expect(sample.serialized(pretty: true) == expected)
  }

  @Test func scalarsAtTopLevel() {
    #expect(JSONValue.null.serialized() == "null")
    #expect(JSONValue.bool(false).serialized(pretty: true) == "false")
    #expect(JSONValue.number(-0.0).serialized() == "0")
    #expect(JSONValue.string("").serialized() == #""""#)
  }

  @Test func stringsEscapeOnlyWhatRFC8259Requires() {
    let value = JSONValue.string("q\"b\\s/ \n\r\t\u{8}\u{C}\u{1}\u{1F} é😀\u{7F}")
    #expect(value.serialized() == #""q\"b\\s/ \n\r\t\b\f\u0001\u001f é😀"# + "\u{7F}\"")
    #expect(JSONEscaping.quoted("plain") == #""plain""#)
  }

  @Test func nonFiniteNumbersBecomeNull() {
    let value: JSONValue = [.number(.nan), .number(.infinity), .number(-.infinity)]
    #expect(value.serialized() == "[null,null,null]")
  }

  @Test func writingIsStableAcrossReparsing() throws {
    for document in jsonFuzzCorpus {
      let once = try JSONParser.parse(document).serialized(pretty: true)
      let twice = try JSONParser.parse(once).serialized(pretty: true)
      #expect(once == twice)
      #expect(
        try JSONParser.parse(once).withoutLocations == JSONParser.parse(document).withoutLocations)
    }
  }

  @Test func randomTreesRoundTripThroughTheParser() throws {
    for seed in UInt64(100)...104 {
      var rng = FormatsTestGenerator(seed: seed)
      for trial in 0..<200 {
        let value = randomValue(&rng, depth: 0)
        for pretty in [false, true] {
          let text = value.serialized(pretty: pretty)
          let parsed = try? JSONParser.parse(text)
          #expect(
            parsed?.withoutLocations == JSONNode(value),
            "seed \(seed) trial \(trial) pretty \(pretty): \(text)")
        }
      }
    }
  }

  @Test func writerAppendsValuesInSequence() {
    var writer = JSONWriter()
    writer.write(1)
    writer.write("\n")
    writer.write(["a": true])
    #expect(writer.text == #"1"\n"{"a":true}"#)
  }
}

/// A random JSON tree (depth ≤ 4) with awkward strings and any finite double.
private func randomValue(_ rng: inout FormatsTestGenerator, depth: Int) -> JSONValue {
  switch rng.next(below: depth >= 4 ? 4 : 6) {
  case 0: return .null
  case 1: return .bool(rng.next(below: 2) == 0)
  case 2:
    while true {
      let x = rng.next(below: 2) == 0 ? rng.nextBitPattern() : Double(rng.next(below: 2001)) - 1000
      if x.isFinite { return .number(x) }
    }
  case 3: return .string(randomString(&rng))
  case 4:
    return .array(
      (0..<rng.next(below: 5)).map { _ in JSONNode(randomValue(&rng, depth: depth + 1)) })
  default:
    // Keys made unique by their index.
    return .object(
      (0..<rng.next(below: 5)).map { index in
        JSONMember(randomString(&rng) + "#\(index)", randomValue(&rng, depth: depth + 1))
      })
  }
}

private func randomString(_ rng: inout FormatsTestGenerator) -> String {
  // No U+0000: the parser refuses `\u0000` as every reader refuses a NUL (issue 20).
  let pieces = [
    "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "😀", "日", "\u{7F}",
    "\u{2028}",
  ]
  var text = ""
  for _ in 0..<rng.next(below: 8) { text += pieces[rng.next(below: pieces.count)] }
  return text
}
