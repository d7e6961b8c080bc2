import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 29, item 16: the small things a reviewer notices in help texts and suggestions.
@Suite("Help texts and did-you-mean suggestions say the right thing")
struct ReviewerFindingsTests {
  @Test func batchHelpStatesTheJobsDefaultOnce() throws {
    let help = try CLI.run(["batch", "--help"]).stdout
    let jobs = help.components(separatedBy: "--jobs <jobs>")[1].components(separatedBy: "\n  --")[0]
    #expect(jobs.components(separatedBy: "default").count == 2, "\(jobs)")
  }

  @Test func strategiesPointsToAFolderThatExists() throws {
    let text = try CLI.run(["strategies"]).stdout
    let line = try #require(text.split(separator: "\n").first { $0.contains("Exact definitions") })
    let folder = try #require(line.split(separator: " ").last { $0.hasPrefix("Sources/") })
    var isFolder: ObjCBool = false
    let path = root.appendingPathComponent(String(folder.dropLast(folder.hasSuffix(".") ? 1 : 0))).path
    #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue, "\(line)")
  }

  @Test func aStrategyInAnotherCaseSuggestsItselfNotANeighbour() throws {
    let r = try CLI.run(["replay", "--log", "Datasets/logs/tiny.csv", "--strategy", "MFU"], in: root)
    #expect(r.status != 0)
    #expect(r.stderr.contains("unknown strategy 'MFU' (did you mean 'mfu'?)"), "\(r.stderr)")
  }

  @Test func aMisspelledSessionsSuggestsTheSpelling() throws {
    let r = try CLI.run(
      ["replay", "--log", "Datasets/logs/tiny.csv", "--visits", "session:5", "--strategy", "mfu"], in: root)
    #expect(r.status == 64)
    #expect(r.stderr.contains("did you mean 'sessions:5'?"), "\(r.stderr)")
  }

  @Test func reportSuggestsTheMetricWithTheSameLetters() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("r").path
    let batch = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu", "--replicates", "1", "--out", out, "--quiet"],
      in: root)
    #expect(batch.status == 0, "\(batch.stderr)")
    let r = try CLI.run(["report", out, "--metric", "hit-rate"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("did you mean 'hit_rate'?"), "\(r.stderr)")
  }

  @Test func replayHelpExamplesFitTheHelpWidthAndTheWarmUpScoresVisits() throws {
    let help = try CLI.run(["replay", "--help"]).stdout
    let examples = help.components(separatedBy: "Examples:\n")[1].components(separatedBy: "\n\n")[0]
    for line in examples.split(separator: "\n") {
      #expect(line.hasPrefix("  smartstack ") || line.hasPrefix("    --"), "wrapped: \(line)")
    }
    let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("'donations' (one at each donation's instant, decided before that donation)"))
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("cc").path
    let r = try CLI.run(
      ["replay", "--log", "Datasets/logs/credit-card/donations.jsonl", "--visits", "sessions:5", "--stack", "top:6",
       "--warmup-days", "2", "--out", out], in: root)
    #expect(r.status == 0, "\(r.stderr)")
    let runs = try String(contentsOfFile: out + "/runs.csv", encoding: .utf8).split(separator: "\n")
    let header = runs[0].split(separator: ",")
    let visits = try #require(header.firstIndex(of: "visits"))
    #expect(runs.dropFirst().allSatisfy { (Int($0.split(separator: ",", omittingEmptySubsequences: false)[visits]) ?? 0) > 0 })
  }
}
