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

// A made-up schema read with `JSONDecodable` and `JSONObjectReader`: the keys each
// reader accepts are the keys it reads.

private enum Shape: String, CaseIterable, JSONDecodable { case circle, square, triangle }

private struct Point: Equatable, JSONObjectDecodable {
  var x: Int
  var y: Int

  init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  static func read(_ o: inout JSONObjectReader) -> Point? {
    let x = o.require("x", in: 0...100)
    let y = o.require("y", in: 0...100)
    guard let x, let y else { return nil }
    return Point(x: x, y: y)
  }
}

private struct Figure: Equatable, JSONObjectDecodable {
  var name: String
  var shape: Shape
  var scale: Double
  var visible: Bool
  var points: [Point]

  init(name: String, shape: Shape, scale: Double, visible: Bool, points: [Point]) {
    (self.name, self.shape, self.scale, self.visible, self.points) =
      (name, shape, scale, visible, points)
  }

  static func read(_ o: inout JSONObjectReader) -> Figure? {
    let name = o.require("name", as: String.self, where: { !$0.isEmpty }) { _ in
      "expected a non-empty name"
    }
    let shape = o.require("shape", as: Shape.self)
    let scale = o.optional("scale", in: 0.0...10, default: 1)
    let visible = o.optional("visible", default: true)
    let points = o.optionalArray("points", of: Point.self) ?? []
    guard let name, let shape else { return nil }
    return Figure(name: name, shape: shape, scale: scale, visible: visible, points: points)
  }
}

private struct Drawing: Equatable, JSONDecodable {
  var figures: [Figure]

  init(figures: [Figure]) { self.figures = figures }

  init?(json item: JSONItem, in json: inout JSONDecoding) {
    guard let figures = json.decodeObject(item, { o in o.requireArray("figures", of: Figure.self) })
    else { return nil }
    self.figures = figures
  }
}

private func read(_ text: String) throws -> Drawing {
  var json = JSONDecoding(file: "d.json", bytes: Array(text.utf8))
  let drawing = json.decodeDocument(Drawing.self)
  return try json.finish(drawing)
}

/// The diagnostics reading `text` throws, one line each (`diagnostics` and `lines` are
/// the test target's helpers).
private func problems(_ text: String) -> [String] {
  diagnostics { _ = try read(text) }?.lines ?? ["read without problems"]
}

@Suite("JSON object reader")
struct JSONObjectReaderTests {
  @Test func aValidDocumentReadsWithDefaults() throws {
    let drawing = try read(
      #"{"figures": [{"name": "a", "shape": "square", "points": [{"x": 1, "y": 2}]}, {"name": "b", "shape": "circle", "scale": 2.5, "visible": false}]}"#
    )
    #expect(
      drawing
        == Drawing(figures: [
          Figure(name: "a", shape: .square, scale: 1, visible: true, points: [Point(x: 1, y: 2)]),
          Figure(name: "b", shape: .circle, scale: 2.5, visible: false, points: []),
        ]))
  }

  @Test func anUnknownKeyNamesTheClosestReadKey() {
    #expect(
      problems(#"{"figures": [{"name": "a", "shape": "circle", "scael": 2}]}"#) == [
        #"d.json:1:47: figures[0]: unknown key "scael" (did you mean "scale"?)"#
      ])
  }

  @Test func anUnknownKeyFarFromEveryKeyListsTheKeysInReadingOrder() {
    #expect(
      problems(#"{"figures": [{"name": "a", "shape": "circle", "colour": "red"}]}"#) == [
        #"d.json:1:47: figures[0]: unknown key "colour" (expected one of "name", "shape", "scale", "visible", "points")"#
      ])
  }

  @Test func wrongKindsOutOfRangeAndMissingKeysAreEachReported() {
    #expect(
      problems(#"{"figures": [{"name": 3, "shape": "circle", "visible": "yes"}]}"#) == [
        "d.json:1:23: figures[0].name: expected a string, found 3",
        "d.json:1:56: figures[0].visible: expected true or false, found a string",
      ])
    #expect(
      problems(#"{"figures": [{"name": "a", "shape": "circle", "scale": 11, "points": [{"x": 1.5}]}]}"#)
        == [
          "d.json:1:56: figures[0].scale: expected a number in 0...10, found 11",
          #"d.json:1:71: figures[0].points[0]: missing required key "y""#,
          "d.json:1:77: figures[0].points[0].x: expected an integer, found 1.5",
        ])
    #expect(problems(#"{"figures": [{"shape": "circle"}]}"#) == [
      #"d.json:1:14: figures[0]: missing required key "name""#
    ])
  }

  @Test func anEnumValueGetsADidYouMeanHint() {
    #expect(
      problems(#"{"figures": [{"name": "a", "shape": "sqare"}]}"#) == [
        #"d.json:1:37: figures[0].shape: expected one of "circle", "square", "triangle", found "sqare" (did you mean "square"?)"#
      ])
    #expect(
      problems(#"{"figures": [{"name": "a", "shape": "hexagon"}]}"#) == [
        #"d.json:1:37: figures[0].shape: expected one of "circle", "square", "triangle", found "hexagon""#
      ])
  }

  @Test func aFailedConditionReportsItsMessageAtTheValue() {
    #expect(
      problems(#"{"figures": [{"name": "", "shape": "circle"}]}"#) == [
        "d.json:1:23: figures[0].name: expected a non-empty name"
      ])
  }

  @Test func everyProblemIsReportedInFileOrderAcrossElements() {
    let text = """
      {"figures": [
        {"name": "a", "shape": "circle", "points": [{"x": 101, "y": 0}, {"x": 0, "y": 0, "zed": 1}]},
        {"name": "b", "shpe": "square"},
        {"name": "c", "shape": "triangle", "scale": -1}
      ], "title": "x"}
      """
    #expect(
      problems(text) == [
        "d.json:2:53: figures[0].points[0].x: expected an integer in 0...100, found 101",
        #"d.json:2:84: figures[0].points[1]: unknown key "zed" (expected one of "x", "y")"#,
        #"d.json:3:3: figures[1]: missing required key "shape""#,
        #"d.json:3:17: figures[1]: unknown key "shpe" (did you mean "shape"?)"#,
        "d.json:4:47: figures[2].scale: expected a number in 0...10, found -1",
        #"d.json:5:4: unknown key "title" (expected one of "figures")"#,
      ])
  }

  @Test func keysAReaderNeverReachedAreNotUnknownAfterSkipRest() {
    var json = JSONDecoding(file: "k.json", bytes: Array(#"{"type": "radio", "volume": 3}"#.utf8))
    guard let root = json.parseDocument() else {
      Issue.record("no parse")
      return
    }
    let value: Int? = json.decodeObject(root) { o in
      guard o.require("type", as: Shape.self) != nil else {
        o.skipRest()
        return nil
      }
      return o.require("volume", in: 0...10)
    }
    #expect(value == nil)
    #expect(
      json.problems.diagnostics.map(\.message) == [
        #"type: expected one of "circle", "square", "triangle", found "radio""#
      ])
  }

  @Test func aWrongElementFailsTheArrayButEveryElementIsRead() {
    var json = JSONDecoding(file: "a.json", bytes: Array("[1, \"2\", 3, true]".utf8))
    guard let root = json.parseDocument() else {
      Issue.record("no parse")
      return
    }
    #expect(json.decodeArray(root, of: Int.self) == nil)
    #expect(
      json.problems.diagnostics.map(\.description) == [
        "a.json:1:5: [1]: expected an integer, found a string",
        "a.json:1:13: [3]: expected an integer, found true",
      ])
  }

  @Test func isCleanTurnsFalseOnceAnyMemberHadAProblem() {
    var json = JSONDecoding(file: "c.json", bytes: Array(#"{"a": 1, "b": "x"}"#.utf8))
    guard let root = json.parseDocument() else {
      Issue.record("no parse")
      return
    }
    var cleanAfter: [Bool] = []
    _ = json.decodeObject(root) { o -> Int? in
      _ = o.require("a", as: Int.self)
      cleanAfter.append(o.isClean)
      _ = o.optional("b", as: Int.self)
      cleanAfter.append(o.isClean)
      return nil
    }
    #expect(cleanAfter == [true, false])
  }

  @Test func unknownKeysCanBeLeftAloneButOtherProblemsAreStillReported() {
    var json = JSONDecoding(file: "u.json", bytes: Array(#"{"a": "x", "extra": 1}"#.utf8))
    guard let root = json.parseDocument() else {
      Issue.record("no parse")
      return
    }
    let value = json.decodeObject(root, ignoringUnknownKeys: true) { o in
      o.require("a", as: Int.self)
    }
    #expect(value == nil)
    #expect(json.problems.diagnostics.map(\.message) == ["a: expected an integer, found a string"])
  }

  @Test func anErrorThrownWhileReadingAnObjectIsRethrown() {
    struct Stop: Error {}
    var json = JSONDecoding(file: "t.json", bytes: Array(#"{"a": 1}"#.utf8))
    guard let root = json.parseDocument() else {
      Issue.record("no parse")
      return
    }
    #expect(throws: Stop.self) {
      _ = try json.decodeObject(root) { o -> Int? in
        _ = o.require("a", as: Int.self)
        throw Stop()
      }
    }
  }
}
