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

@Suite("Text positions")
struct TextPositionTests {
  @Test func emptyBufferHasOneLine() {
    let index = LineIndex("")
    #expect(index.lineCount == 1)
    #expect(index.position(ofByte: 0) == TextPosition(line: 1, column: 1))
  }

  @Test func offsetsMapToLineAndColumn() {
    let index = LineIndex("ab\ncd")
    let positions = (0...5).map { index.position(ofByte: $0) }
    #expect(
      positions == [
        TextPosition(line: 1, column: 1), TextPosition(line: 1, column: 2),
        TextPosition(line: 1, column: 3),  // the line feed itself
        TextPosition(line: 2, column: 1), TextPosition(line: 2, column: 2),
        TextPosition(line: 2, column: 3),  // the end
      ])
  }

  @Test func crlfIsOneLineEndAndALoneCRIsNot() {
    let index = LineIndex("a\r\nb\rc\n")
    #expect(index.lineCount == 3)
    #expect(index.position(ofByte: 1) == TextPosition(line: 1, column: 2))
    #expect(index.position(ofByte: 3) == TextPosition(line: 2, column: 1))
    #expect(index.position(ofByte: 5) == TextPosition(line: 2, column: 3))
    #expect(index.position(ofByte: 7) == TextPosition(line: 3, column: 1))
  }

  @Test func columnsCountUnicodeScalarsNotBytes() {
    let index = LineIndex("x\né😀y")
    // é is 2 bytes, 😀 is 4: y is at byte 2 + 2 + 4 = 8.
    #expect(index.position(ofByte: 8) == TextPosition(line: 2, column: 3))
  }

  @Test func offsetsOutsideTheBufferAreClamped() {
    let index = LineIndex("ab\nc")
    #expect(index.position(ofByte: -7) == TextPosition(line: 1, column: 1))
    #expect(index.position(ofByte: 99) == TextPosition(line: 2, column: 2))
  }

  @Test func unsafeBufferInitializerIndexesTheSameLines() {
    let bytes = Array("one\ntwo\nthree".utf8)
    let index = bytes.withUnsafeBufferPointer { LineIndex($0) }
    #expect(index.lineStarts == [0, 4, 8])
    #expect(index.position(ofByte: 10).description == "3:3")
  }

  @Test func agreesWithANaiveCountOnRandomTexts() {
    let pieces = ["a", "\n", "\r\n", "é", "😀", " ", "\r"]
    for seed in UInt64(1)...30 {
      var rng = FormatsTestGenerator(seed: seed)
      var text = ""
      for _ in 0..<rng.next(below: 40) { text += pieces[rng.next(below: pieces.count)] }
      let bytes = Array(text.utf8)
      let index = LineIndex(bytes)
      var line = 1
      var column = 1
      for offset in 0...bytes.count {
        #expect(
          index.position(ofByte: offset) == TextPosition(line: line, column: column),
          "seed \(seed) offset \(offset)")
        guard offset < bytes.count else { break }
        if bytes[offset] == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if bytes[offset] & 0xC0 != 0x80 {
          column += 1  // the next offset is one scalar further
        }
      }
    }
  }
}
