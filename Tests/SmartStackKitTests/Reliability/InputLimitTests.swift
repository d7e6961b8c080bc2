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

/// The documented input limits (docs/reliability.md): exactly at a limit is accepted, one
/// past it is a located diagnostic, never a trap.
@Suite("Reliability: input limits")
struct InputLimitTests {
  /// `header` then one row whose `user` field makes the row exactly `length` bytes long.
  private func csv(rowLength length: Int) -> [UInt8] {
    let prefix = "2026-03-02T08:00:00Z,"
    let suffix = ",News"
    let user = String(repeating: "u", count: length - prefix.utf8.count - suffix.utf8.count)
    return Array("timestamp,user,kind\n\(prefix)\(user)\(suffix)\n".utf8)
  }

  private func messages(_ body: () throws -> Void) -> [String] { diagnosticMessages(body) }

  @Test func aCSVLineOfExactlyOneMebibyteIsAcceptedAndOneByteMoreIsRefusedAtTheByte() {
    let limit = InputLimits.maximumLineBytes
    #expect(limit == 1_048_576)
    let atLimit = messages { _ = try DonationLog.read(bytes: csv(rowLength: limit), file: "a.csv") }
    #expect(atLimit == [])
    let over = messages { _ = try DonationLog.read(bytes: csv(rowLength: limit + 1), file: "a.csv") }
    #expect(
      over == [
        "2:1048577: line is 1048577 bytes long, more than the limit of 1048576 bytes (1 MiB)"
      ])
  }

  @Test func aCSVRecordSpanningLinesCountsAsOneLineFromItsFirstByte() {
    // A quoted field with 2 newlines inside. The record starts at line 2, column 1; the
    // byte past the limit is 1048576 bytes later. Lines 2 and 3 hold 25 (prefix) + 1
    // (quote) + 21 and 21 bytes = 68, so it is on line 4, column 1048576 - 68 + 1.
    let field = String(repeating: "a", count: 20) + "\n" + String(repeating: "b", count: 20) + "\n"
      + String(repeating: "c", count: InputLimits.maximumLineBytes)
    let text = "timestamp,user,kind\n2026-03-02T08:00:00Z,ana,\"\(field)\"\n"
    let got = messages { _ = try DonationLog.read(bytes: Array(text.utf8), file: "q.csv") }
    #expect(got.count == 1)
    #expect(got.first?.hasPrefix("4:1048509: line is ") == true, "\(got)")
  }

  @Test func aJSONLinesLineOverOneMebibyteIsRefusedAndTheNextLineIsStillRead() {
    let long = "{\"timestamp\":\"2026-03-02T08:00:00Z\",\"kind\":\""
      + String(repeating: "k", count: InputLimits.maximumLineBytes) + "\"}"
    let text = long + "\n{\"timestamp\":\"2026-13-02T08:00:00Z\",\"kind\":\"News\"}\n"
    let got = messages { _ = try DonationLog.read(bytes: Array(text.utf8), file: "l.jsonl") }
    #expect(
      got == [
        "1:1048577: line is \(long.utf8.count) bytes long, more than the limit of 1048576 bytes (1 MiB)",
        "2:20: timestamp: month 13 is out of range 01...12",
      ])
  }

  @Test func aNULByteInAnUnquotedOrQuotedCSVFieldIsReportedAtTheByte() {
    let unquoted = Array("timestamp,user,kind\n2026-03-02T08:00:00Z,ab\u{0}c,News\n".utf8)
    #expect(
      messages { _ = try DonationLog.read(bytes: unquoted, file: "n.csv") }
        == ["2:24: NUL byte (0x00) in a field"])
    // In the 8-byte fast path: a long field with the NUL at its 13th byte.
    let long = Array("timestamp,user,kind\n2026-03-02T08:00:00Z,abcdefghijkl\u{0}mnopqrstuv,News\n".utf8)
    #expect(
      messages { _ = try DonationLog.read(bytes: long, file: "n.csv") }
        == ["2:34: NUL byte (0x00) in a field"])
    let quoted = Array("timestamp,user,kind\n2026-03-02T08:00:00Z,\"a\u{0}\",News\n".utf8)
    #expect(
      messages { _ = try DonationLog.read(bytes: quoted, file: "n.csv") }
        == ["2:24: NUL byte (0x00) in a field"])
  }

  @Test func aYearWithMoreThanFourDigitsIsNamedAsSuchNotAsItsFirstFourDigits() {
    #expect(
      ISO8601.parse("99999999999999999999-03-02")
        == .failure(
          ISO8601.ParseError(
            offset: 0,
            message: "expected a 4-digit year, found more digits (years 1970...2100 are supported)")))
    #expect(ISO8601.parse("19690-01-01") != ISO8601.parse("1969-01-01"))
    // A 5-digit text whose first 4 digits are a supported year keeps its message.
    #expect(
      ISO8601.parse("20260-03-02")
        == .failure(ISO8601.ParseError(offset: 4, message: "expected '-' after the year")))
  }

  @Test func replayDurationsFarBeyondTheCLILimitsDoNotTrapInTheLibrary() throws {
    let log = try DonationLog.read(
      bytes: Array("timestamp,user,kind\n2026-03-02T08:00:00Z,a,News\n2026-03-02T09:00:00Z,a,Mail\n".utf8),
      file: "t.csv")
    for (horizon, warmup, gap) in [(1e300, 0.0, 5.0), (300.0, 1e300, 5.0), (300.0, 0.0, 1e300),
      (Double.infinity, Double.infinity, Double.infinity)]
    {
      var options = ReplayOptions()
      options.horizonSeconds = horizon
      options.warmupDays = warmup
      options.visits = .sessions(gapMinutes: gap)
      let plan = try ReplayPlan(log: log, options: options)
      _ = Replay.run(plan, choice: try StrategyRegistry.builtIn.parse("mfu"))
    }
    #expect(InputLimits.milliseconds(.nan) == 0)
    #expect(InputLimits.milliseconds(-1e300) == -10_000_000_000_000)
    #expect(InputLimits.milliseconds(1499.5) == 1500)
  }
}

@Suite("Reliability: input file size")
struct InputFileSizeTests {
  @Test func aFileOverTwoGibibytesIsRefusedBeforeItIsRead() throws {
    // A sparse file: 2 GiB + 1 bytes long, taking no disk space.
    let path = TestFolders.root
      .appendingPathComponent("smartstack-huge-\(UUID().uuidString).csv").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(InputLimits.maximumFileBytes) + 1)
    try handle.close()
    do {
      _ = try FileIO.readBytes(path)
      Issue.record("read a file over the limit")
    } catch let error as InputFileError {
      #expect(
        error.reason
          == "the file is 2147483649 bytes, more than the limit of 2147483648 bytes (2 GiB) for one input file; split it")
    }
  }
}
