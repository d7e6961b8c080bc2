import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 19 item 3: an experiment without a config, a starting config, the best
/// strategies in a compact table.
@Suite("Quick paths: batch --log/--scenario/--init, report --metric --top")
struct QuickPathTests {
  @Test func batchOnALogWithoutAConfigHasReplicatesCIsAndPairedTests() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("sweep").path
    let result = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--visits", "sessions:5", "--strategy", "hour-of-week,mfu,oracle",
       "--replicates", "2", "--out", out, "--quiet"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
    #expect(summary.contains("tiny,mfu,,mfu,hit_rate,"))
    let paired = try String(contentsOfFile: out + "/paired.csv", encoding: .utf8)
    #expect(paired.contains(",hour-of-week:half-life-days=0,hit_rate,"), "the first strategy is the baseline")
    #expect(paired.contains("tiny,oracle,,oracle,hour-of-week:half-life-days=0,hit_rate,"))
    let runs = try String(contentsOfFile: out + "/runs.csv", encoding: .utf8)
    #expect(runs.split(separator: "\n").count == 1 + 3 * 2)
    let top = try CLI.run(["report", out, "--metric", "hit_rate", "--top", "2"])
    #expect(top.status == 0, "\(top.stderr)")
    let lines = top.stdout.split(separator: "\n").filter { $0.hasPrefix("| tiny") }
    #expect(lines.count == 2)
    #expect(lines.first?.contains("oracle") == true, "best first: \(top.stdout)")
    #expect(top.stdout.contains("(higher is better)"))
    #expect(top.stdout.contains("n < 10 units"), "three people: a warning")
  }

  @Test func batchOnAScenarioWithoutAConfig() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let result = try CLI.run(
      ["batch", "--scenario", InterruptedBatchTests.scenarioPath, "--days", "3", "--strategy", "mfu,mru",
       "--replicates", "2", "--quiet"], in: work)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("reports/tiny/paired.csv").path))
  }

  @Test func quickPathMistakesAreUsageErrors() throws {
    let missing = try CLI.run(["batch", "--log", "Datasets/logs/tiny.csv"], in: root)
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("--log needs --strategy"))
    let stray = try CLI.run(["batch", "--visits", "sessions:5"], in: root)
    #expect(stray.status == 64)
    #expect(stray.stderr.contains("--visits belongs to the quick path"))
    let both = try CLI.run(["batch", "x.json", "--log", "a.csv", "--strategy", "mfu"], in: root)
    #expect(both.status == 64)
  }

  @Test func aSplitOnTheCommandLineIsReadLikeTheConfigsAndABadOneIsAUsageError() throws {
    let bad = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu", "--split", "rolling:folds=4"], in: root)
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--split: expected rolling:folds=K:test-days=T, found 'rolling:folds=4'"), "\(bad.stderr)")
    let stray = try CLI.run(["batch", "--days", "3"], in: root)
    #expect(stray.status == 64)
    #expect(stray.stderr.contains("--days belongs to the quick path"))
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("split").path
    let result = try CLI.run(
      ["batch", "--log", "Datasets/logs/tiny.csv", "--strategy", "mfu,mru", "--replicates", "1",
       "--split", "per-person:0.5,0.5", "--out", out, "--quiet"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let runs = try String(contentsOfFile: out + "/runs.csv", encoding: .utf8)
    #expect(runs.hasPrefix("run_id,source,split,strategy,"))
    #expect(runs.contains("tiny[split=test]|mfu|0,tiny[split=test],test,mfu,"))
  }

  @Test func theInitTemplateRunsAsWrittenAndIsNeverReplaced() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let file = work.appendingPathComponent("study/exp.json").path
    try FileManager.default.createDirectory(atPath: work.appendingPathComponent("study").path, withIntermediateDirectories: true)
    let written = try CLI.run(["batch", "--init", file], in: root)
    #expect(written.status == 0, "\(written.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("\"_about\""), "commented")
    let run = try CLI.run(["batch", file, "--replicates", "1", "--quiet"], in: root)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("study/reports/my-study/summary.csv").path))
    let again = try CLI.run(["batch", "--init", file], in: root)
    #expect(again.status == 73)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
  }

  @Test func aCommentKeyIsAcceptedAndATypoStillRefused() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let good = try CLI.write(
      """
      {"_about": "a comment", "replicates": 1,
       "sources": [{"_why": "x", "scenario": "\(InterruptedBatchTests.scenarioPath)", "days": 2}],
       "strategies": ["mfu"]}
      """, to: "good.json", in: work)
    #expect(try CLI.run(["batch", good, "--quiet", "--out", "o"], in: work).status == 0)
    let typo = try CLI.write(
      "{\"replicate\": 1, \"sources\": [{\"scenario\": \"\(InterruptedBatchTests.scenarioPath)\"}], \"strategies\": [\"mfu\"]}",
      to: "typo.json", in: work)
    let refused = try CLI.run(["batch", typo, "--quiet", "--out", "p"], in: work)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("unknown key \"replicate\" (did you mean \"replicates\"?)"), "\(refused.stderr)")
  }

  @Test func topNeedsASummaryAndAKnownMetric() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let sim = try CLI.run(
      ["simulate", "--scenario", InterruptedBatchTests.scenarioPath, "--days", "2", "--strategy", "mfu", "--out", "s",
       "--quiet"], in: work)
    #expect(sim.status == 0)
    let none = try CLI.run(["report", "s", "--metric", "hit_rate"], in: work)
    #expect(none.status == 66)
    #expect(none.stderr.contains("s/summary.csv: cannot read"))
  }

  /// The README's walkthrough, "From a clone to a figure in ten minutes": its validate,
  /// batch --log and report commands run as written (the clone, the build and the
  /// notebooks are left out).
  @Test func theReadmeWalkthroughCommandsRun() throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "## From a clone to a figure in ten minutes"))
    let section = readme[start.upperBound...]
    #expect(section.contains("$B batch --log my-log.csv --timezone Europe/Berlin --visits sessions:5 \\\n  --strategy mfu,hour-of-week,smart-rotate --replicates 1 --out reports/my-log"))
    #expect(section.contains("$B report reports/my-log --metric hit_rate --top 3"))
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.copyItem(
      at: root.appendingPathComponent("Datasets/logs/commuter/donations.csv"), to: work.appendingPathComponent("my-log.csv"))
    #expect(try CLI.run(["validate", "my-log.csv", "--timezone", "Europe/Berlin"], in: work).status == 0)
    let batch = try CLI.run(
      ["batch", "--log", "my-log.csv", "--timezone", "Europe/Berlin", "--visits", "sessions:5", "--strategy",
       "mfu,hour-of-week,smart-rotate", "--replicates", "1", "--out", "reports/my-log"], in: work)
    #expect(batch.status == 0, "\(batch.stderr)")
    #expect(!batch.stderr.contains("identical rows"))
    let top = try CLI.run(["report", "reports/my-log", "--metric", "hit_rate", "--top", "3"], in: work)
    #expect(top.status == 0, "\(top.stderr)")
    #expect(top.stdout.split(separator: "\n").filter { $0.hasPrefix("| my-log") }.count == 3)
  }
}
