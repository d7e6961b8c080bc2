import Foundation
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

/// Tokenizes `bytes` completely: each record as strings, or a problem as `LINE:COL: message`.
/// With `detailed`, a record also lists its fields' source offsets and the reader's offset after it.
private func tokenize(_ bytes: [UInt8], plainRecordsFast: Bool = true, detailed: Bool = false) -> [String] {
  bytes.withUnsafeBufferPointer { buffer in
    var csv = CSVReader(buffer)
    csv.readsPlainRecordsFast = plainRecordsFast
    var out: [String] = []
    while true {
      switch csv.next() {
      case .record:
        var fields: [String] = []
        for i in 0..<csv.fieldCount { fields.append(String(decoding: csv.field(i), as: UTF8.self)) }
        let sources = (0..<csv.fieldCount).map { String(csv.fieldInfo($0).sourceStart) }
        out.append(
          "\(csv.recordLine)|" + fields.joined(separator: "|") + (detailed ? "@" + sources.joined(separator: ",") + ">\(csv.offset)" : ""))
      case .problem(let p):
        out.append("\(p.line):\(p.column): \(p.message)")
      case .end:
        return out
      }
    }
  }
}

private func tokenize(_ text: String) -> [String] { tokenize(Array(text.utf8)) }

@Suite("CSV reader")
struct CSVReaderTests {
  @Test func readsHeaderAndRecordsWithLFAndCRLF() {
    #expect(tokenize("a,b\n1,2\n3,4\n") == ["1|a|b", "2|1|2", "3|3|4"])
    #expect(tokenize("a,b\r\n1,2\r\n3,4\r\n") == ["1|a|b", "2|1|2", "3|3|4"])
    #expect(tokenize("a,b\r\n1,2\n3,4") == ["1|a|b", "2|1|2", "3|3|4"])
  }

  @Test func trailingNewlineIsOptional() {
    #expect(tokenize("a,b\n1,2") == ["1|a|b", "2|1|2"])
    #expect(tokenize("a,b\n1,2\r") == ["1|a|b", "2|1|2"])
  }

  @Test func blankLinesAtTheEndAreFine() {
    #expect(tokenize("a,b\n1,2\n\n") == ["1|a|b", "2|1|2"])
    #expect(tokenize("a,b\n1,2\n\r\n\n") == ["1|a|b", "2|1|2"])
  }

  @Test func blankLineInTheMiddleIsAnErrorAndReadingContinues() {
    #expect(tokenize("a,b\n1,2\n\n3,4\n") == ["1|a|b", "2|1|2", "3:1: empty line", "4|3|4"])
    #expect(tokenize("a,b\r\n\r\n3,4\r\n") == ["1|a|b", "2:1: empty line", "3|3|4"])
  }

  @Test func emptyInputHasNoRecords() {
    #expect(tokenize("") == [])
    #expect(tokenize([0xEF, 0xBB, 0xBF]) == [])
    #expect(tokenize("\n\n") == [])
  }

  @Test func byteOrderMarkIsSkipped() {
    #expect(tokenize([0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8)) == ["1|a|b", "2|1|2"])
  }

  @Test func emptyFieldsAreKept() {
    #expect(tokenize("a,b,c\n,,\n1,,\n") == ["1|a|b|c", "2|||", "3|1||"])
  }

  @Test func quotedFieldsMayHoldCommasQuotesAndNewlines() {
    let text = "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n\"line1\nline2\",\"\"\n5,6\n"
    #expect(tokenize(text) == ["1|a|b", "2|x,y|say \"hi\"", "3|line1\nline2|", "5|5|6"])
  }

  @Test func quotedFieldKeepsCRLFInsideAndCountsLines() {
    #expect(tokenize("a\r\n\"1\r\n2\"\r\nz\r\n") == ["1|a", "2|1\r\n2", "4|z"])
  }

  @Test func severalEscapedFieldsInOneRecordDoNotOverlap() {
    let text = "a,b,c\n\"\"\"\",\"x\"\"y\",\"p\"\"q\"\"r\"\n"
    #expect(tokenize(text) == ["1|a|b|c", "2|\"|x\"y|p\"q\"r"])
  }

  @Test func nonASCIIIsReadAsUTF8() {
    #expect(tokenize("a,b\ncafé,\"日本\"\n") == ["1|a|b", "2|café|日本"])
  }

  @Test func wrongFieldCountIsReportedWhereTheRecordGoesWrong() {
    // Too many: at the first extra field. Too few: at the end of the record.
    #expect(
      tokenize("a,b\n1,2,3\n1\n1,2\n")
        == [
          "1|a|b", "2:5: expected 2 fields as in the header, found 3",
          "3:2: expected 2 fields as in the header, found 1", "4|1|2",
        ])
  }

  @Test func quoteInsideAnUnquotedFieldIsAnError() {
    #expect(
      tokenize("a,b\n1,ab\"c\n3,4\n")
        == ["1|a|b", "2:5: unexpected '\"' inside an unquoted field", "3|3|4"])
  }

  @Test func textAfterAClosingQuoteIsAnError() {
    #expect(
      tokenize("a,b\n\"1\"x,2\n3,4\n") == ["1|a|b", "2:4: text after a closing quote", "3|3|4"])
    // A CR that does not end the line is refused (CR-only line ends are never data).
    #expect(tokenize("a\n\"1\"\rx\n") == ["1|a", "2:4: \(CSVReader.loneCarriageReturn)"])
  }

  @Test func unterminatedQuoteIsReportedWhereItOpened() {
    #expect(
      tokenize("a,b\n1,2\n3,\"abc\n4,5\n")
        == ["1|a|b", "2|1|2", "3:3: unterminated quoted field: this quote is never closed"])
    #expect(tokenize("a\n\"x") == ["1|a", "2:1: unterminated quoted field: this quote is never closed"])
  }

  @Test func invalidUTF8IsReportedAtTheBadByte() {
    let bytes =
      Array("a,b\nok,ab".utf8) + [0xFF] + Array("c\n\"é".utf8) + [0xC3] + Array("\",x\n".utf8)
    #expect(tokenize(bytes) == ["1|a|b", "2:6: invalid UTF-8", "3:3: invalid UTF-8"])
  }

  @Test func columnsCountUnicodeScalarsNotBytes() {
    #expect(
      tokenize("a,b\nééé,x\"y\n")
        == ["1|a|b", "2:6: unexpected '\"' inside an unquoted field"])
  }

  @Test func sourceOffsetsMapContentBytesBackToTheInput() {
    let text = Array("a,b,c\nxy,\"pq\",\"r\"\"s\"\n".utf8)
    text.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      _ = csv.next()
      #expect(csv.next() == .record)
      #expect(csv.sourceOffset(ofField: 0, byte: 1) == 7)
      #expect(csv.sourceOffset(ofField: 1, byte: 0) == 10)
      #expect(csv.sourceOffset(ofField: 2, byte: 0) == 15)
      #expect(csv.sourceOffset(ofField: 2, byte: 2) == 18)  // 's' after the doubled quote
      #expect(csv.position(ofByte: 18) == TextPosition(line: 2, column: 13))
    }
  }

  @Test func utf8ValidatorAgreesWithTheStandardLibraryOnRandomBytes() {
    var state: UInt64 = 0x1234_5678
    func nextByte() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    for seed in 0..<3000 {
      let length = seed % 9
      let bytes = (0..<length).map { _ in nextByte() }
      let ours = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
      let stdlib = String(validating: bytes, as: UTF8.self) != nil
      #expect(ours == stdlib, "seed \(seed): \(bytes)")
    }
  }

  @Test func writtenRecordsReadBackIdenticallyForManySeeds() {
    let pieces = ["a", "b", ",", "\"", "\r\n", "\n", " ", "é", "日", "\r", "x=y;z"]
    for seed in UInt64(0)..<300 {
      var state = seed &+ 0x9E37_79B9_7F4A_7C15
      func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
      }
      let columns = 2 + next(3)
      var records: [[String]] = []
      for _ in 0..<(1 + next(5)) {
        records.append(
          (0..<columns).map { _ in (0..<next(4)).map { _ in pieces[next(pieces.count)] }.joined() })
      }
      var text = ""
      for record in records {
        text += record.map { field in
          field.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",")
        text += next(2) == 0 ? "\n" : "\r\n"
      }
      let read = tokenize(text).map {
        $0.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)[1]
      }
      #expect(read == records.map { $0.joined(separator: "|")[...] }, "seed \(seed)")
    }
  }

  @Test func longUnquotedFieldsAreSplitAndCheckedExactlyForManySeeds() {
    // Long fields run through the eight-bytes-at-a-time scanner; compare with a byte loop.
    let alphabet = Array("abcXYZ019-:.;=% !'+*()".utf8) + [0xC3]  // 0xC3 is written as é
    for seed in UInt64(0)..<400 {
      var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 3
      func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % n
      }
      var fields: [[UInt8]] = []
      for _ in 0..<3 {
        var field: [UInt8] = []
        for _ in 0..<(1 + next(40)) {
          let b = alphabet[next(alphabet.count)]
          field.append(b)
          if b == 0xC3 { field.append(0xA9) }
        }
        fields.append(field)
      }
      var bytes = Array("a,b,c\n".utf8) + fields[0] + [44] + fields[1] + [44] + fields[2]
      var expected = [
        "1|a|b|c", "2|" + fields.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|"),
      ]
      switch next(3) {
      case 0:  // a stray quote somewhere in field 1
        let k = 1 + next(fields[1].count)  // not first: a leading quote opens a quoted field
        let at = fields[0].count + 1 + k
        if bytes[6 + at - 1] != 0xC3 {
          bytes.insert(34, at: 6 + at)
          let column = String(decoding: bytes[6..<(6 + at)], as: UTF8.self).unicodeScalars.count + 1
          expected[1] = "2:\(column): unexpected '\"' inside an unquoted field"
        }
      case 1:  // an invalid byte somewhere in field 2
        let k = next(fields[2].count + 1)
        let at = fields[0].count + fields[1].count + 2 + k
        let before = bytes[6..<(6 + at)]
        if before.last != 0xC3 {
          bytes.insert(0xFF, at: 6 + at)
          let column = String(decoding: before, as: UTF8.self).unicodeScalars.count + 1
          expected[1] = "2:\(column): invalid UTF-8"
        }
      default: break
      }
      #expect(tokenize(bytes) == expected, "seed \(seed)")
    }
  }

  /// The plain-record way (unquoted ASCII fields on one line) gives the general path's
  /// records, fields, positions and problems, on random logs near its edges: quotes, CR,
  /// NUL, non-ASCII, `+` and spaces, empty fields, wrong field counts, blank lines, a
  /// missing last line end.
  @Test func plainRecordsReadAsTheGeneralPathReadsThem() {
    var rng = SplitMix64(seed: 2027)
    let pieces = ["2026-03-02T08:01:05+09:00", "person-0617", "Maps", "", "a b", "x+y", "é", "\"q\"", "\"a,b\"", "\r", "\u{0}", "~!#$%&'()*", "-", ",", "\n"]
    var plain = 0
    for seed in 0..<3_000 {
      var text = seed % 2 == 0 ? "timestamp,user,kind\n" : "\u{FEFF}a,b\r\n"
      for _ in 0..<rng.nextInt(below: 12) {
        var fields: [String] = []
        for _ in 0..<(1 + rng.nextInt(below: 4)) {
          fields.append(rng.nextInt(below: 4) == 0 ? pieces[rng.nextInt(below: pieces.count)] : pieces[rng.nextInt(below: 3)])
        }
        text += fields.joined(separator: ",") + (rng.nextInt(below: 8) == 0 ? "\r\n" : "\n")
      }
      if rng.nextInt(below: 4) == 0 { text.removeLast() }
      if rng.nextInt(below: 6) == 0 { text += "\n\n" }
      let bytes = Array(text.utf8)
      let fast = tokenize(bytes, detailed: true)
      #expect(fast == tokenize(bytes, plainRecordsFast: false, detailed: true), "seed \(seed): \(text.debugDescription)")
      plain += fast.filter { !$0.contains(": ") }.count
    }
    #expect(plain > 5_000)
  }

  @Test func neverCrashesOnRandomInput() {
    var state: UInt64 = 99
    let alphabet = Array("a,\"\r\n é".utf8) + [0xFF, 0xC3]
    for seed in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ UInt64(seed)
      var bytes: [UInt8] = []
      for _ in 0..<(seed % 40) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(alphabet[Int(state >> 33) % alphabet.count])
      }
      let steps = tokenize(bytes)
      #expect(steps.count <= bytes.count + 1, "seed \(seed)")
    }
  }
}
