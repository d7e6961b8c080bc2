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

// A small made-up schema to show how a typed reader reads with `JSONDecoding` and
// `JSONObjectReader`.

private enum DemoKind: String, CaseIterable, JSONDecodable { case weather, calendar, photos }

private struct DemoEntry: Equatable {
  var date: Int
  var score: Double?
  var duration: Double?
}

private struct DemoInstance: Equatable {
  var id: String
  var kind: DemoKind
  var size: Int
  var entries: [DemoEntry]
  var parameters: [String]  // "key=value", in file order
}

private struct DemoStack: Equatable {
  var name: String
  var seed: UInt64
  var instances: [DemoInstance]
}

private func decodeStack(_ text: String, file: String = "stack.json") throws -> DemoStack {
  var json = JSONDecoding(file: file, bytes: Array(text.utf8))
  let stack = json.parseDocument().flatMap { root in
    json.decodeObject(root) { o -> DemoStack? in
      let name = o.require("name", as: String.self)
      let seed = o.optional("seed", in: 0...UInt64.max, default: 0)
      let items = o.requireElements("instances") ?? []
      let instances = items.compactMap { decodeInstance($0, &o.json) }
      return name.map { DemoStack(name: $0, seed: seed, instances: instances) }
    }
  }
  return try json.finish(stack)
}

private func decodeInstance(_ item: JSONItem, _ json: inout JSONDecoding) -> DemoInstance? {
  json.decodeObject(item) { o in
    let id = o.require("id", as: String.self)
    let kind = o.require("kind", as: DemoKind.self)
    let size = o.require("size", in: 1...4)
    let entries = (o.optionalElements("entries") ?? []).compactMap { decodeEntry($0, &o.json) }
    let parameters = o.optionalStringMembers("parameters") ?? []
    guard let id, let kind, let size else { return nil }
    return DemoInstance(
      id: id, kind: kind, size: size, entries: entries,
      parameters: parameters.map { "\($0.key)=\($0.value)" })
  }
}

private func decodeEntry(_ item: JSONItem, _ json: inout JSONDecoding) -> DemoEntry? {
  json.decodeObject(item) { o in
    let date = o.require("date", in: 0...Int.max)
    let relevance = o.optional("relevance") { item, json in
      json.decodeObject(item) { r in
        (score: r.require("score", as: Double.self), duration: r.optional("duration", in: 0...Double.infinity))
      }
    }
    return date.map { DemoEntry(date: $0, score: relevance?.score, duration: relevance?.duration) }
  }
}

/// The diagnostics a failing decode threw, one string each.
private func problems(_ text: String) -> [String] {
  do {
    _ = try decodeStack(text)
    Issue.record("decoded without problems")
    return []
  } catch let list as DiagnosticList {
    return list.diagnostics.map(\.description)
  } catch {
    Issue.record("unexpected error \(error)")
    return []
  }
}

@Suite("JSON decoding helpers")
struct JSONDecodingTests {
  @Test func validDocumentDecodes() throws {
    let text = """
      {"name": "demo", "seed": 18446744073709551615, "instances": [
        {"id": "w", "kind": "weather", "size": 2.0, "parameters": {"city": "Oslo", "unit": "C"}},
        {"id": "c", "kind": "calendar", "size": 1, "entries": [
          {"date": 0, "relevance": {"score": 0.5, "duration": 3600}},
          {"date": 1e3, "relevance": null},
          {"date": 60}
        ]}
      ]}
      """
    let stack = try decodeStack(text)
    #expect(
      stack
        == DemoStack(
          name: "demo", seed: UInt64.max,
          instances: [
            DemoInstance(
              id: "w", kind: .weather, size: 2, entries: [], parameters: ["city=Oslo", "unit=C"]),
            DemoInstance(
              id: "c", kind: .calendar, size: 1,
              entries: [
                DemoEntry(date: 0, score: 0.5, duration: 3600),
                DemoEntry(date: 1000, score: nil, duration: nil),
                DemoEntry(date: 60, score: nil, duration: nil),
              ], parameters: []),
          ]))
  }

  @Test func everyProblemIsReportedInFileOrderWithPathAndPosition() {
    let text = """
      {
        "name": 42,
        "seed": -1,
        "instances": [
          {"id": "w", "kind": "weather", "size": 9, "parameters": {"card id": 5, "n": "x"}},
          {"id": "c", "kind": "clock", "size": 1.5,
           "entries": [{"date": 0, "relevance": {"score": "high"}}, {"date": 60.0, "relevance": null}]},
          {"kind": "photos", "size": 4, "colour": "red", "entries": [{"date": 1e3, "relevance": {"score": 1, "durration": 5}}]}
        ],
        "extra": true
      }
      """
    #expect(
      problems(text) == [
        "stack.json:2:11: name: expected a string, found 42",
        "stack.json:3:11: seed: expected an integer in 0...18446744073709551615, found -1",
        "stack.json:5:44: instances[0].size: expected an integer in 1...4, found 9",
        #"stack.json:5:73: instances[0].parameters["card id"]: expected a string, found 5"#,
        #"stack.json:6:25: instances[1].kind: expected one of "weather", "calendar", "photos", found "clock""#,
        "stack.json:6:42: instances[1].size: expected an integer, found 1.5",
        "stack.json:7:53: instances[1].entries[0].relevance.score: expected a number, found a string",
        #"stack.json:8:5: instances[2]: missing required key "id""#,
        #"stack.json:8:35: instances[2]: unknown key "colour" (expected one of "id", "kind", "size", "entries", "parameters")"#,
        #"stack.json:8:104: instances[2].entries[0].relevance: unknown key "durration" (did you mean "duration"?)"#,
        #"stack.json:10:3: unknown key "extra" (expected one of "name", "seed", "instances")"#,
      ])
  }

  @Test func syntaxErrorIsOneDiagnosticAtItsPosition() {
    #expect(
      problems("{\n  \"name\": \"x\"\n  \"seed\": 1\n}") == [
        "stack.json:3:3: expected ',' or '}' after an object member"
      ])
  }

  @Test func wrongKindsAreNamedInTheMessage() {
    #expect(problems(#"[1]"#) == ["stack.json:1:1: expected an object, found an array"])
    #expect(
      problems(#"{"name": "n", "instances": {"id": 1}}"#) == [
        "stack.json:1:28: instances: expected an array, found an object"
      ])
    #expect(
      problems(#"{"name": null, "instances": [true]}"#) == [
        "stack.json:1:10: name: expected a string, found null",
        "stack.json:1:30: instances[0]: expected an object, found true",
      ])
  }

  @Test func integersMustBeExactAndInRange() {
    func integer(_ literal: String, in range: ClosedRange<Int64>) -> (Int64?, [String]) {
      var json = JSONDecoding(file: "n.json", bytes: Array(literal.utf8))
      guard let item = json.parseDocument() else { return (nil, ["no parse"]) }
      let value = json.requireInteger(item, in: range)
      return (value, json.problems.diagnostics.map(\.message))
    }
    let all = Int64.min...Int64.max
    #expect(integer("9007199254740993", in: all) == (9_007_199_254_740_993, []))
    #expect(integer("-9223372036854775808", in: all) == (Int64.min, []))
    #expect(integer("2.000", in: all) == (2, []))
    #expect(integer("25e-1", in: all) == (nil, ["expected an integer, found 25e-1"]))
    #expect(
      integer("9223372036854775808", in: all) == (
        nil,
        [
          "expected an integer in -9223372036854775808...9223372036854775807, found 9223372036854775808"
        ]
      ))
    #expect(integer("1e300", in: 0...10) == (nil, ["expected an integer in 0...10, found 1e300"]))
    #expect(integer("\"7\"", in: 0...10) == (nil, ["expected an integer, found a string"]))
  }

  @Test func doubleRangesAreDescribedByTheirBounds() {
    func double(_ literal: String, in range: ClosedRange<Double>) -> [String] {
      var json = JSONDecoding(file: "n.json", bytes: Array(literal.utf8))
      guard let item = json.parseDocument() else { return ["no parse"] }
      _ = json.requireDouble(item, in: range)
      return json.problems.diagnostics.map(\.message)
    }
    #expect(double("0.5", in: 0...1) == [])
    #expect(double("1.50", in: 0...1) == ["expected a number in 0...1, found 1.50"])
    #expect(double("-1", in: 0...Double.infinity) == ["expected a number >= 0, found -1"])
    #expect(double("2", in: -Double.infinity...0.25) == ["expected a number <= 0.25, found 2"])
    #expect(double("false", in: 0...1) == ["expected a number, found false"])
  }

  @Test func jsonLinesRecordsAreParsedOneRangeAtATime() {
    let text = "{\"kind\": \"a\"}\n{\"kind\": 3}\n{\"kind\" \"b\"}\n{\"kind\": \"c\"}\n"
    let bytes = Array(text.utf8)
    var json = JSONDecoding(file: "log.jsonl", bytes: bytes)
    var kinds: [String] = []
    var lineStart = 0
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      if let item = json.parse(range: lineStart..<offset),
        let kind = json.decodeObject(item, { o in o.require("kind", as: String.self) })
      {
        kinds.append(kind)
      }
      lineStart = offset + 1
    }
    #expect(kinds == ["a", "c"])
    #expect(
      json.problems.diagnostics.map(\.description) == [
        "log.jsonl:2:10: kind: expected a string, found 3",
        "log.jsonl:3:9: expected ':' after an object key",
      ])
  }

  @Test func reportingStopsAtTheLimitAndSaysSo() {
    var text = "{\"name\": \"n\", \"instances\": ["
    text += Array(repeating: "{\"kind\": 1}", count: 30).joined(separator: ",") + "]}"
    var json = JSONDecoding(file: "big.json", bytes: Array(text.utf8), limit: 5)
    if let items = json.parseDocument()?["instances"].flatMap({ json.requireArray($0) }) {
      for item in items { _ = decodeInstance(item, &json) }
    }
    #expect(json.problems.diagnostics.count == 5)
    #expect(json.problems.truncated)
    #expect(throws: DiagnosticList.self) { try json.throwIfAny() }
  }

  @Test func pathsQuoteKeysThatAreNotIdentifiers() {
    #expect(JSONDecoding.path("", key: "name") == "name")
    #expect(JSONDecoding.path("a", key: "b_2") == "a.b_2")
    #expect(JSONDecoding.path("a", key: "2b") == #"a["2b"]"#)
    #expect(JSONDecoding.path("", key: "") == #"[""]"#)
    #expect(JSONDecoding.path("a", key: "x\"y") == #"a["x\"y"]"#)
    #expect(JSONDecoding.path("a", index: 3) == "a[3]")
  }

  @Test func finishWithoutAValueOrAProblemStillThrows() {
    let json = JSONDecoding(file: "f.json", bytes: [])
    let error = #expect(throws: DiagnosticList.self) { try json.finish(Int?.none) }
    #expect(error?.description == "f.json:1:1: no value could be read")
  }
}
