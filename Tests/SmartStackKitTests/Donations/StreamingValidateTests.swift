import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
import SmartStackTestSupport

/// What reading a donation log for `validate` gives: the format it was read as, and the
/// statistics or the problems as `validate` prints them.
private struct Outcome: Equatable, CustomStringConvertible {
  var format: DonationLogFormat
  var statistics: DonationStatistics?
  var problems: String?
  var description: String { "\(format) \(statistics.map { "\($0)" } ?? problems ?? "")" }
}

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Streaming validate reports exactly what reading the whole log reported")
struct StreamingValidateTests {
  /// The old path: the whole log read into a `DonationLog`, then its statistics.
  private static func whole(_ bytes: [UInt8], file: String, format: DonationLogFormat?, zone: ZoneRules)
    -> Outcome
  {
    let resolved = DonationLogFormat.resolve(format, path: file, bytes: bytes)
    do {
      let log = try DonationLog.read(bytes: bytes, file: file, format: format, timeZone: zone)
      return Outcome(format: resolved, statistics: log.statistics(in: zone))
    } catch {
      return Outcome(format: resolved, problems: "\(error)")
    }
  }

  /// The streaming path over a copy of `bytes` whose part before every offset the reader
  /// says it has passed is overwritten at once: a reader that looked back would read
  /// garbage and differ.
  private static func streamed(
    _ bytes: [UInt8], file: String, format: DonationLogFormat?, zone: ZoneRules
  ) -> Outcome {
    var copy = bytes
    return copy.withUnsafeMutableBufferPointer { inoutBuffer in
      let mutable = inoutBuffer
      let buffer = UnsafeBufferPointer(mutable)
      let resolved = DonationLogFormat.resolve(format, path: file, bytes: buffer)
      var clobbered = 0
      do {
        let statistics = try DonationStatistics.read(
          bytes: buffer, file: file, format: resolved, timeZone: zone,
          passed: { offset in
            #expect(offset >= clobbered)
            for i in clobbered..<offset { mutable[i] = UInt8(ascii: "?") }
            clobbered = max(clobbered, offset)
          })
        return Outcome(format: resolved, statistics: statistics)
      } catch {
        return Outcome(format: resolved, problems: "\(error)")
      }
    }
  }

  private static func expectSame(
    _ text: String, file: String, format: DonationLogFormat? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectSame(Array(text.utf8), file: file, format: format, sourceLocation: sourceLocation)
  }

  private static func expectSame(
    _ bytes: [UInt8], file: String, format: DonationLogFormat? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for zone in [ZoneRules.utc, ZoneRules(identifier: "Europe/Berlin")!] {
      let old = whole(bytes, file: file, format: format, zone: zone)
      let new = streamed(bytes, file: file, format: format, zone: zone)
      #expect(new == old, "\(file) in \(zone.identifier)", sourceLocation: sourceLocation)
    }
  }

  @Test func everyDonationLogInDatasetsAndTheFixtures() throws {
    var files: [String] = []
    for folder in ["Datasets", "Tests/Fixtures"] {
      let base = root.appendingPathComponent(folder)
      let walker = FileManager.default.enumerator(atPath: base.path)
      while let name = walker?.nextObject() as? String {
        guard name.hasSuffix(".csv") || name.hasSuffix(".jsonl") else { continue }
        files.append(base.appendingPathComponent(name).path)
      }
    }
    files.sort()
    #expect(files.count > 40)
    for path in files {
      let bytes = try FileIO.readBytes(path)
      Self.expectSame(bytes, file: path)
      // And through the file: mapped, released behind the reader.
      for zone in [ZoneRules.utc, ZoneRules(identifier: "Europe/Berlin")!] {
        let old = Self.whole(bytes, file: path, format: nil, zone: zone)
        var new: Outcome
        do {
          let read = try DonationStatistics.read(path: path, timeZone: zone)
          new = Outcome(format: read.format, statistics: read.statistics)
        } catch {
          new = Outcome(format: old.format, problems: "\(error)")
        }
        #expect(new == old, "\(path)")
      }
    }
  }

  private static let csvHeader = "timestamp,user,kind,intent,parameters\n"

  /// Invalid and unusual logs, as CSV and JSON Lines.
  private static let generatedCSV: [(String, String)] = [
    ("bad timestamps", csvHeader + "2026-13-02T08:00:00Z,a,K,,\n,b,K,,\nnonsense,c,K,,\n2026-03-02T25:00:00Z,d,K,,\n"),
    ("empty kind", csvHeader + "2026-03-02T08:00:00Z,a,,,\n2026-03-02T08:00:00Z,a,K,,\n"),
    ("quotes", csvHeader + "\"2026-03-02T08:00:00Z\",\"a\"\"b\",\"K,1\",\"I\",\"x=1;y=2\"\n2026-03-02T08:00:00Z,a\"b,K,,\n"),
    ("unterminated quote", csvHeader + "2026-03-02T08:00:00Z,a,\"K\n"),
    ("quoted newlines", csvHeader + "2026-03-02T08:00:00Z,\"line\none\",K,,\n2026-03-02T09:00:00Z,\"two\r\nlines\",\"K\n2\",,\n"),
    ("CR only", "timestamp,kind\r2026-03-02T08:00:00Z,K\r"),
    ("CRLF", "timestamp,kind\r\n2026-03-02T08:00:00Z,K\r\n2026-03-02T09:00:00Z,L\r\n"),
    ("NUL", csvHeader + "2026-03-02T08:00:00Z,a\u{0}b,K,,\n"),
    ("no final newline", csvHeader + "2026-03-02T08:00:00Z,a,K,,\n2026-03-02T07:00:00Z,b,L,,"),
    ("unsorted", csvHeader + "2026-03-05T08:00:00Z,b,K,,\n2026-03-02T08:00:00Z,a,L,,\n2026-03-03T23:30:00Z,a,K,I,\n"),
    ("offsets", "timestamp,user,kind,utc_offset\n2026-03-02T08:00:00+05:30,a,K,\n2026-03-02T08:00:00Z,a,K,-18000\n2026-03-02 08:00,b,K,\n2026-03-29 02:30,b,K,\n2026-03-02T08:00:00-03:00,c,K,3600\n"),
    ("bad offset", "timestamp,kind,utc_offset\n2026-03-02T08:00:00Z,K,+99:00\n"),
    ("epoch", "epoch_ms,user,kind\n1772438400000,a,K\n1772438400500,b,K\nx,c,K\n"),
    ("two time columns", "timestamp,epoch_s,kind\n2026-03-02T08:00:00Z,1,K\n"),
    ("no header", ""),
    ("header only", csvHeader),
    ("missing kind column", "timestamp,user\n2026-03-02T08:00:00Z,a\n"),
    ("parameters", csvHeader + "2026-03-02T08:00:00Z,a,K,,x=1;y=%C3%A9\n2026-03-02T08:00:00Z,a,K,,y=2;x=1\n2026-03-02T08:00:00Z,a,K,,=1\n2026-03-02T08:00:00Z,a,K,,x=%ZZ\n"),
    ("default user", csvHeader + "2026-03-02T08:00:00Z,,K,,\n2026-03-02T08:00:00Z,default,K,,\n"),
    ("BOM", "\u{FEFF}" + csvHeader + "2026-03-02T08:00:00Z,a,K,,\n"),
    ("field count", csvHeader + "2026-03-02T08:00:00Z,a,K\n"),
    ("empty line", csvHeader + "2026-03-02T08:00:00Z,a,K,,\n\n2026-03-02T08:00:00Z,a,K,,\n"),
    ("non-ASCII names", csvHeader + "2026-03-02T08:00:00Z,é,K,,\n2026-03-02T08:00:00Z,e\u{301},K,,\n2026-03-02T08:00:00Z,日本,K,,\n"),
    ("invalid UTF-8 is bytes", csvHeader + "2026-03-02T08:00:00Z,a,K,,\n"),
    ("fifty problems", csvHeader + String(repeating: "bad,a,K,,\n", count: 60)),
  ]

  private static let generatedJSONL: [(String, String)] = [
    ("flat", #"{"timestamp":"2026-03-02T08:00:00Z","user":"a","kind":"K","intent":"I","parameters":{"x":"1"}}"# + "\n"),
    ("escapes", #"{"timestamp":"2026-03-02T08:00:00Z","user":"a\"b\u00e9","kind":"K\n"}"# + "\n"),
    ("nested unknown", #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K","x":[1,{"y":2}],"intent":null}"# + "\n"),
    ("wrong types", #"{"timestamp":5,"kind":true,"user":[],"parameters":{"a":1,"":"x"}}"# + "\n" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":""}"# + "\n"),
    ("blank lines", "\n   \n\t\r\n" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"}"# + "\n\n"),
    ("not an object", "[1,2]\n\"x\"\n{\n"),
    ("duplicate key", #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K","kind":"L"}"# + "\n"),
    ("offsets", #"{"timestamp":"2026-03-02T23:30:00-05:00","kind":"K"}"# + "\n" + #"{"timestamp":"2026-03-02 23:30","kind":"K","utc_offset":3600}"# + "\n" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K","utc_offset":99999}"# + "\n"),
    ("epoch", #"{"epoch_s":1772438400.5,"kind":"K"}"# + "\n" + #"{"timestamp_ms":"1772438400000","kind":"K"}"# + "\n" + #"{"timestamp":"2026-03-02T08:00:00Z","epoch_s":1,"kind":"K"}"# + "\n"),
    ("BOM first", "\u{FEFF}" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"}"# + "\n"),
    ("BOM later", #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"}"# + "\n\u{FEFF}" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"}"# + "\n"),
    ("unsorted, no final newline", #"{"timestamp":"2026-03-05T08:00:00Z","kind":"K","user":"b"}"# + "\n" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"L"}"#),
    ("NUL", #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"# + "\u{0}" + #""}"# + "\n"),
    ("CRLF", #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"}"# + "\r\n" + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"bad"# + "\r\n"),
    ("fifty problems", String(repeating: #"{"timestamp":"x","kind":"K"}"# + "\n", count: 60)),
    ("problems on one line then more", #"{"timestamp":"x","kind":""}"# + "\n" + String(repeating: "{\n", count: 55)),
  ]

  @Test func generatedInvalidAndUnusualLogs() {
    for (name, text) in Self.generatedCSV {
      Self.expectSame(text, file: "\(name).csv")
      Self.expectSame(text, file: "\(name)", format: nil)  // format by content
    }
    for (name, text) in Self.generatedJSONL {
      Self.expectSame(text, file: "\(name).jsonl")
      Self.expectSame(text, file: "\(name)", format: nil)
    }
    // Invalid UTF-8 in names (bytes, not text), in both formats.
    var csv = Array((Self.csvHeader + "2026-03-02T08:00:00Z,a").utf8)
    csv += [0xFF, 0xC3] + Array(",K,,\n".utf8)
    Self.expectSame(csv, file: "utf8.csv")
    var jsonl = Array(#"{"timestamp":"2026-03-02T08:00:00Z","kind":"K"#.utf8)
    jsonl += [0xFF] + Array("\"}\n".utf8)
    Self.expectSame(jsonl, file: "utf8.jsonl")
  }

  @Test func linesAndRecordsAtTheLengthLimit() {
    let limit = InputLimits.maximumLineBytes
    for extra in [-1, 0, 1, 100] {
      // A CSV record of exactly (or around) the limit, its user name filling it.
      let prefix = "2026-03-02T08:00:00Z,"
      let suffix = ",K,,"
      let user = String(repeating: "u", count: limit + extra - prefix.utf8.count - suffix.utf8.count)
      let row = prefix + user + suffix
      Self.expectSame(Self.csvHeader + row + "\n2026-03-02T09:00:00Z,b,K,,\n", file: "limit\(extra).csv")
      Self.expectSame(Self.csvHeader + row, file: "limit-last\(extra).csv")
      // A quoted field with newlines spanning the limit.
      let quoted = prefix + "\"" + String(repeating: "q\n", count: (limit + extra) / 2 - 20) + "\"" + suffix
      Self.expectSame(Self.csvHeader + quoted + "\n", file: "quoted\(extra).csv")
      // A JSON Lines record of exactly (or around) the limit.
      let open = #"{"timestamp":"2026-03-02T08:00:00Z","kind":"K","user":""#
      let close = #""}"#
      let line = open + String(repeating: "j", count: limit + extra - open.utf8.count - close.utf8.count) + close
      Self.expectSame(line + "\n" + line, file: "limit\(extra).jsonl")
      let escaped = open + #"\u00e9"# + String(repeating: "j", count: limit + extra - open.utf8.count - close.utf8.count - 6) + close
      Self.expectSame("\n" + escaped + "\n", file: "escaped\(extra).jsonl")
    }
  }

  /// Random logs, valid and damaged, in both formats: the two paths agree on each.
  @Test func randomLogs() {
    var state: UInt64 = 0xD0_7A7E
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    let users = ["alice", "bob", "", "é", "e\u{301}", "a,b", "q\"uote", "日本", "default"]
    let kinds = ["K", "Weather", "Shop, Inc", "", "k\u{0}"]
    let times = [
      "2026-03-02T08:01:05Z", "2026-03-02 09:00", "2026-03-29 02:30", "2026-10-25 02:30",
      "2026-03-02T10:00:00.5+01:00", "2026-03-01T23:59:59-09:30", "1970-01-01T00:00:00Z",
      "2026-02-30T00:00:00Z", "",
    ]
    let parameters = ["", "x=1", "x=1;y=2", "y=2;x=1", "a=%C3%A9", "=1", "x=%Z"]
    var valid = 0
    for _ in 0..<300 {
      let rows = next(30)
      // Half the logs draw only from the valid choices (the first ones of each list), so
      // that the statistics are compared too, not only the problems.
      let clean = next(2) == 0
      func pick(_ list: [String], validCount: Int) -> String { list[next(clean ? validCount : list.count)] }
      var csv = "timestamp,user,kind,intent,parameters" + (next(2) == 0 ? ",utc_offset" : "") + "\n"
      let withOffset = csv.hasSuffix("utc_offset\n")
      var jsonl = ""
      for _ in 0..<rows {
        let (t, u, k) = (pick(times, validCount: 7), pick(users, validCount: users.count), pick(kinds, validCount: 3))
        let intent = next(3) == 0 ? "Open" : ""
        let p = pick(parameters, validCount: 5)
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        csv += [t, quoted(u), quoted(k), intent, p].joined(separator: ",")
        if withOffset { csv += "," + pick(["", "3600", "-18000", "bad"], validCount: 3) }
        csv += next(10) == 0 ? "\r\n" : "\n"
        let escapedUser = u.replacingOccurrences(of: "\"", with: "\\\"")
        let escapedKind = k.replacingOccurrences(of: "\u{0}", with: "\\u0000")
        jsonl += #"{"timestamp":"\#(t)","user":"\#(escapedUser)","kind":"\#(escapedKind)""#
        if !intent.isEmpty { jsonl += #","intent":"\#(intent)""# }
        if next(3) == 0 { jsonl += #","parameters":{"x":"1","y":"\#(u)"}"# }
        if next(4) == 0 { jsonl += #","utc_offset":\#(pick(["3600", "-18000", "null", "1.5"], validCount: 3))"# }
        jsonl += "}\n"
      }
      // Sometimes damage one byte.
      var csvBytes = Array(csv.utf8)
      var jsonlBytes = Array(jsonl.utf8)
      if !clean, next(3) == 0, !csvBytes.isEmpty { csvBytes[next(csvBytes.count)] = Array(",\"\n\r;x\u{0}".utf8)[next(7)] }
      if !clean, next(3) == 0, !jsonlBytes.isEmpty { jsonlBytes[next(jsonlBytes.count)] = Array(",\"\n{}:x".utf8)[next(7)] }
      Self.expectSame(csvBytes, file: "random.csv")
      Self.expectSame(jsonlBytes, file: "random.jsonl")
      for (bytes, file) in [(csvBytes, "random.csv"), (jsonlBytes, "random.jsonl")]
      where Self.whole(bytes, file: file, format: nil, zone: .utc).statistics != nil {
        valid += 1
      }
    }
    #expect(valid >= 150)
  }
}

@Suite("Streaming validate over files bigger than the release step")
struct StreamingValidateFileTests {
  /// Logs of about 3 × `MappedInputFile.releaseStep`, so pages are let go of behind the
  /// reader several times, with records and quoted fields (spanning lines) of varied
  /// lengths lying across the release points, and a last line without a newline: read
  /// from the file, the statistics equal those of the whole log.
  @Test(arguments: [DonationLogFormat.csv, .jsonl])
  func bigFilesGiveTheWholeLogsStatistics(_ format: DonationLogFormat) throws {
    let folder = try TestFolders.fresh("stream-\(format)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("big.\(format.rawValue)").path
    var text = format == .csv ? "timestamp,user,kind,intent,parameters\n" : ""
    var row = 0
    while text.utf8.count < 3 * MappedInputFile.releaseStep + 5_000 {
      let user = "u\(row % 997)" + String(repeating: "x", count: row % 4099)
      let time = "2026-03-0\(1 + row % 9)T\(10 + row % 14):\(10 + row % 50):00\(row % 3 == 0 ? "+05:30" : "Z")"
      if format == .csv {
        let kind = row % 5 == 0 ? "\"K\n\(row % 7)\"" : "K\(row % 11)"
        text += "\(time),\(user),\(kind),\(row % 2 == 0 ? "I" : ""),k\(row % 13)=v\n"
      } else {
        text += #"{"timestamp":"\#(time)","user":"\#(user)","kind":"K\#(row % 11)\#(row % 5 == 0 ? "\\n" : "")","parameters":{"k\#(row % 13)":"v"}}"# + "\n"
      }
      row += 1
    }
    text.removeLast()  // the last line without a newline
    try FileIO.writeAtomically(text, to: path)
    let streamed = try DonationStatistics.read(path: path)
    let whole = try DonationLog.read(path: path).statistics(in: .utc)
    #expect(streamed.statistics == whole)
    #expect(streamed.format == format)
    #expect(streamed.bytes == text.utf8.count)
    #expect(whole.events == row)
  }
}

@Suite("MappedInputFile reads a file whole and lets go of the part behind the reader")
struct MappedInputFileTests {
  @Test func bytesStayReadableAfterRelease() throws {
    let folder = try TestFolders.fresh("mapped")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("big.bin").path
    // A block of a prime length (no page or step boundary repeats its bytes) repeated to
    // the size: built and compared with memcpy and memcmp, since this file is compiled
    // unoptimised and a byte loop over 25 MB took seconds (more under AddressSanitizer).
    let block = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
    var expected: [UInt8] = []
    let size = 3 * MappedInputFile.releaseStep + 12_345
    while expected.count < size { expected.append(contentsOf: block.prefix(size - expected.count)) }
    try FileIO.writeAtomically(expected, to: path)
    let file = try MappedInputFile(path: path)
    #expect(file.count == expected.count)
    file.release(before: 100)  // below the step: nothing
    #expect(file.released == 0)
    file.withBytes { bytes in
      var i = 0
      while i < bytes.count {
        #expect(bytes[i] == expected[i])
        file.release(before: i)
        i += 4093
      }
      #expect(file.released >= 2 * MappedInputFile.releaseStep)
      // Released pages read back the same.
      #expect(Array(bytes[0..<64]) == Array(expected[0..<64]))
      #expect(bytes.count == expected.count)
      #expect(expected.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) } == 0)
    }
  }

  @Test func emptyFilesAndRefusalsAsReadBytes() throws {
    let folder = try TestFolders.fresh("mapped-e")
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = folder.appendingPathComponent("empty.csv").path
    try FileIO.writeAtomically([UInt8](), to: empty)
    let file = try MappedInputFile(path: empty)
    #expect(file.count == 0)
    #expect(file.withBytes { $0.count } == 0)
    for path in [folder.path, folder.appendingPathComponent("missing.csv").path] {
      var mapped = ""
      var read = ""
      do { _ = try MappedInputFile(path: path) } catch { mapped = "\(error)" }
      do { _ = try FileIO.readBytes(path) } catch { read = "\(error)" }
      #expect(!mapped.isEmpty && mapped == read)
    }
  }
}
