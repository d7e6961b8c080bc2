import Foundation
import Testing

/// Every command that reads an input file refuses one over 2 GiB before reading it, with
/// one message ending in a line feed, exit 66, nothing on standard output and nothing
/// written. The file is sparse (`ftruncate` to 2 GiB + 1 byte), so it takes no disk space
/// and the test reads none of it.
@Suite("Reliability: the 2 GiB refusal of every command")
struct FileSizeRefusalTests {
  static let message =
    "the file is 2147483649 bytes, more than the limit of 2147483648 bytes (2 GiB) for one input file; split it\n"

  static var tinyLog: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Datasets/logs/tiny.csv").path
  }

  static let commands: [[String]] = [
    ["validate", "huge.csv"],
    ["validate", "huge.csv", "--format", "jsonl"],
    ["replay", "--log", "huge.csv", "--strategy", "mfu", "--out", "out"],
    ["replay", "--log", tinyLog, "--visits", "huge.csv", "--strategy", "mfu", "--out", "out"],
    ["replay", "--log", tinyLog, "--stack", "huge.csv", "--strategy", "mfu", "--out", "out"],
    ["replay", "--log", tinyLog, "--timelines", "huge.csv", "--strategy", "mfu", "--out", "out"],
    ["import", "lsapp", "huge.csv", "--out", "out.csv", "--visits-out", "visits.csv"],
    ["import", "app-events", "huge.csv", "--out", "out.csv"],
    ["import", "knowledgec", "huge.csv", "--out", "out.csv"],
    ["import", "lsapp", "huge.csv", "--out", "out.csv", "--kinds", "huge.csv"],
    ["batch", "huge.csv", "--out", "out"],
    ["simulate", "--scenario", "huge.csv", "--out", "out"],
    ["relevance", "huge.csv", "--from", "2026-01-05T00:00:00Z", "--to", "2026-01-06T00:00:00Z", "--step", "60"],
    ["evaluate", "--exposures", "huge.csv", "--strategy", "mfu", "--out", "out"],
  ]

  @Test(arguments: commands)
  func aSparseFileOverTheLimitIsOneLineExit66AndNothingWritten(arguments: [String]) throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let path = work.appendingPathComponent("huge.csv").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, 2_147_483_649) == 0)
    let result = try CLI.run(arguments, in: work)
    #expect(result.status == 66, "\(arguments): \(result.stderr)")
    #expect(result.stderr == "huge.csv: cannot read: " + Self.message, "\(arguments)")
    #expect(result.stdout.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["huge.csv"])
  }

  @Test func reportRefusesASparseReportFileOverTheLimit() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let folder = work.appendingPathComponent("rep")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let runs = folder.appendingPathComponent("runs.csv").path
    #expect(FileManager.default.createFile(atPath: runs, contents: nil))
    #expect(truncate(runs, 2_147_483_649) == 0)
    try CLI.write(
      #"{"run": "replay", "files": [{"name": "runs.csv", "bytes": 2147483649, "fnv1a64": "0000000000000000"}]}"#,
      to: "rep/manifest.json", in: work)
    let result = try CLI.run(["report", "rep"], in: work)
    #expect(result.status == 66)
    #expect(result.stderr == "rep/runs.csv: cannot read: " + Self.message)
  }
}
