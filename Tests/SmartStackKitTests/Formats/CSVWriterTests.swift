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
import SmartStackTestSupport

/// An independent RFC 4180 reader for the round-trip tests: a state machine over
/// Unicode scalars, records ended by `\n` (a `\r` before it is kept only when quoted).
private func parseCSV(_ text: String) -> [[String]] {
  var records: [[String]] = []
  var record: [String] = []
  var field = ""
  var inQuotes = false
  var afterQuote = false
  var scalars = Array(text.unicodeScalars)[...]
  while let c = scalars.popFirst() {
    if inQuotes {
      if c == "\"" {
        if scalars.first == "\"" {
          field.unicodeScalars.append("\"")
          scalars.removeFirst()
        } else {
          inQuotes = false
          afterQuote = true
        }
      } else {
        field.unicodeScalars.append(c)
      }
      continue
    }
    switch c {
    case "\"" where field.isEmpty && !afterQuote: inQuotes = true
    case ",":
      record.append(field)
      field = ""
      afterQuote = false
    case "\n":
      record.append(field)
      records.append(record)
      record = []
      field = ""
      afterQuote = false
    default: field.unicodeScalars.append(c)
    }
  }
  if !field.isEmpty || !record.isEmpty {
    record.append(field)
    records.append(record)
  }
  return records
}

@Suite("CSV writer")
struct CSVWriterTests {
  @Test func quotesOnlyFieldsThatNeedIt() {
    var csv = CSVWriter(header: ["name", "note"])
    csv.appendRow(["plain", "a,b"])
    csv.appendRow(["say \"hi\"", "two\nlines"])
    csv.appendRow(["cr\r", " lead"])
    csv.appendRow(["trail ", "in side"])
    csv.appendRow(["", "é😀;=%"])
    #expect(
      csv.text == """
        name,note
        plain,"a,b"
        "say ""hi""\",\"two
        lines"
        "cr\r"," lead"
        "trail ",in side
        ,é😀;=%

        """)
    #expect(csv.rowCount == 5)
  }

  @Test func numbersTakeTheFastPath() {
    var csv = CSVWriter(header: ["x", "y", "z", "n"])
    csv.append(0.1 + 0.2)
    csv.append(2.675, decimals: 2)
    csv.append(Double.nan)
    csv.append(-42)
    csv.endRow()
    csv.append(1e-5)
    csv.append(3, decimals: 0)
    csv.append(-.infinity)
    csv.append(0)
    csv.endRow()
    #expect(csv.text == "x,y,z,n\n0.30000000000000004,2.68,nan,-42\n0.00001,3,-inf,0\n")
  }

  @Test func anEmptyOnlyFieldIsQuotedSoTheRowIsNotBlank() {
    var csv = CSVWriter(header: ["id"])
    csv.appendRow([""])
    csv.appendRow(["x"])
    #expect(csv.text == "id\n\"\"\nx\n")
    #expect(parseCSV(csv.text) == [["id"], [""], ["x"]])
  }

  @Test(arguments: [
    ("", false), ("abc", false), ("a b", false), ("a;b=c", false), ("é", false),
    ("a,b", true), ("\"", true), ("a\rb", true), ("\n", true), (" x", true), ("x ", true),
    (" ", true), ("\tx", false),
  ])
  func quotingRule(field: String, quoted: Bool) {
    #expect(CSVWriter.needsQuoting(field) == quoted)
  }

  @Test func randomRowsRoundTripThroughAnIndependentReader() {
    let pieces = ["a", "7", " ", ",", "\"", "\"\"", "\r", "\n", "\r\n", "é", "😀", ";", "x y"]
    for seed in UInt64(1)...20 {
      var rng = FormatsTestGenerator(seed: seed)
      let columns = 1 + rng.next(below: 4)
      let header = (0..<columns).map { "c\($0)" }
      var csv = CSVWriter(header: header)
      var rows: [[String]] = [header]
      for _ in 0..<rng.next(below: 30) {
        let row = (0..<columns).map { _ in
          (0..<rng.next(below: 5)).map { _ in pieces[rng.next(below: pieces.count)] }.joined()
        }
        csv.appendRow(row)
        rows.append(row)
      }
      #expect(parseCSV(csv.text) == rows, "seed \(seed)")
      #expect(csv.bytes == Array(csv.text.utf8))
    }
  }

  @Test func writesTheFileAtomically() throws {
    var csv = CSVWriter(header: ["a"])
    csv.append(1)
    csv.endRow()
    let path = TestFolders.root
      .appendingPathComponent("smartstack-csvwriter-\(UUID().uuidString).csv").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try csv.write(to: path)
    #expect(try FileIO.readBytes(path) == Array("a\n1\n".utf8))
  }

  @Test func aRowWithTheWrongFieldCountIsAProgrammingError() async {
    await #expect(processExitsWith: .failure) {
      var csv = CSVWriter(header: ["a", "b"])
      csv.appendRow(["only one"])
    }
  }
}
