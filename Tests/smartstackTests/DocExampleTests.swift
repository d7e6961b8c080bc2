import Foundation
import Testing
import SmartStackTestSupport

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Examples in the docs and in `--help` name files that exist and run as written.
@Suite("Doc examples run on the bundled data")
struct DocExampleTests {
  /// docs/batch.md's example config, as a config in Datasets/experiments/ would read it:
  /// its `../` paths are taken from that folder.
  @Test func theBatchDocsExampleConfigRuns() throws {
    let doc = try String(contentsOf: root.appendingPathComponent("docs/batch.md"), encoding: .utf8)
    let start = try #require(doc.range(of: "```json\n{\n  \"name\": \"commute-study\""))
    let body = doc[start.upperBound...]
    let end = try #require(body.range(of: "\n```"))
    let json = "{\n  \"name\": \"commute-study\"" + body[..<end.lowerBound]
    let datasets = root.appendingPathComponent("Datasets").path
    let folder = try TestFolders.fresh("doc-example")
    let config = folder.appendingPathComponent("config.json")
    try json.replacingOccurrences(of: "\"../", with: "\"\(datasets)/").write(to: config, atomically: true, encoding: .utf8)
    let result = try CLI.run(["batch", config.path, "--replicates", "1", "--out", folder.appendingPathComponent("out").path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/runs.csv").path))
  }

  /// docs/batch.md "Tuning": the example config tunes on the commuter log's validation
  /// window and writes tuning.csv with one chosen trial per tuned point.
  @Test func theTuningExampleConfigRunsAndWritesTuningCsv() throws {
    let out = TestFolders.root.appendingPathComponent("tuning-example-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try CLI.run(
      ["batch", "Datasets/experiments/tuning-commuter.json", "--out", out, "--quiet"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let tuning = try String(contentsOfFile: out + "/tuning.csv", encoding: .utf8)
    #expect(tuning.split(separator: "\n").filter { $0.hasSuffix(",1") }.count == 4)
  }

  /// `replay --help`'s first example names the bundled commuter log.
  @Test func theReplayHelpExampleRuns() throws {
    let help = try CLI.run(["replay", "--help"]).stdout
    let line = try #require(help.split(separator: "\n").first { $0.contains("smartstack replay --log Datasets/") })
    #expect(line.contains("Datasets/logs/commuter/donations.csv"))
    let out = TestFolders.root.appendingPathComponent("replay-help-\(UUID())").path
    let result = try CLI.run(
      ["replay", "--log", "Datasets/logs/commuter/donations.csv", "--visits", "Datasets/logs/commuter/visits.csv",
       "--stack", "Datasets/logs/commuter/stack.json", "--strategy", "mfu,mru,hour-of-day,oracle", "--out", out],
      in: root)
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// README's "Local time" example: the traveller log, the busiest hours it quotes and
  /// the daily.csv row of its replay.
  @Test func theLocalTimeExampleCountsEachRowInItsOwnOffset() throws {
    let doc = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(doc.range(of: "### Local time"))
    let body = doc[section.upperBound...]
    let csvStart = try #require(body.range(of: "```csv\n"))
    let csvEnd = try #require(body[csvStart.upperBound...].range(of: "```"))
    let csv = String(body[csvStart.upperBound..<csvEnd.lowerBound])
    let quoted = try #require(body.split(separator: "\n").first { $0.hasPrefix("busiest hours:") })
    let command = try #require(body.range(of: "`smartstack validate traveller.csv --timezone Europe/Berlin`"))
    #expect(command.lowerBound > csvEnd.upperBound)
    let folder = try TestFolders.fresh("doc-local-time")
    defer { try? FileManager.default.removeItem(at: folder) }
    try csv.write(to: folder.appendingPathComponent("traveller.csv"), atomically: true, encoding: .utf8)
    let result = try CLI.run(["validate", "traveller.csv", "--timezone", "Europe/Berlin"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").contains(quoted))
    // The replay that follows, and the daily.csv row it quotes.
    let replay = "smartstack replay --log traveller.csv --timezone Europe/Berlin --strategy mfu --out trip"
    let replayStart = try #require(body.range(of: "`" + replay + "`"))
    let rowStart = try #require(body[replayStart.upperBound...].range(of: "```text\n"))
    let rowEnd = try #require(body[rowStart.upperBound...].range(of: "\n```"))
    let row = body[rowStart.upperBound..<rowEnd.lowerBound]
    let replayed = try CLI.run(Array(replay.split(separator: " ").dropFirst().map(String.init)), in: folder)
    #expect(replayed.status == 0, "\(replayed.stderr)")
    let daily = try String(contentsOf: folder.appendingPathComponent("trip/daily.csv"), encoding: .utf8)
    #expect(daily.split(separator: "\n").last == row)
  }
}
