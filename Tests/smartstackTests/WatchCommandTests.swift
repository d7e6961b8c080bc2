import Foundation
import Testing

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A temporary folder with `Datasets` linked to the repository's.
private func watchFolder() throws -> URL {
  let folder = try CLI.temporaryFolder()
  try FileManager.default.createSymbolicLink(
    at: folder.appendingPathComponent("Datasets"), withDestinationURL: root.appendingPathComponent("Datasets"))
  return folder
}

/// The watch stack end to end: `simulate` and `batch` on the bundled watchOS scenario,
/// and the refusals around it.
@Suite("simulate and batch run the watch stack")
struct WatchCommandTests {
  @Test func simulateRunsAWatchScenarioWithItsOwnDefaultStrategy() throws {
    let folder = try watchFolder()
    let result = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/commuter-watch.json", "--days", "2", "--out", "sim"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let runs = try String(contentsOf: folder.appendingPathComponent("sim/runs.csv"), encoding: .utf8)
    // Without --strategy every strategy that needs nothing more runs, and on a watch `clues` too.
    #expect(runs.contains(",clues,"))
    #expect(result.stdout.contains("| commuter-watch | clues"))
    // The printed table adds the share of wants on a card on screen.
    #expect(result.stdout.contains("| regret | any_card_hit_rate |"))
  }

  @Test func aWatchAppFileIsAnInputOfTheRunAndNeverAnOutput() throws {
    let folder = try watchFolder()
    // A copy of the scenario whose app files sit in the output folder.
    let out = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    var scenario = try String(
      contentsOf: root.appendingPathComponent("Datasets/scenarios/commuter-watch.json"), encoding: .utf8)
    for app in ["metro", "calendar", "fitness"] {
      try FileManager.default.copyItem(
        at: root.appendingPathComponent("Datasets/watch/\(app).json"), to: out.appendingPathComponent("\(app).json"))
      scenario = scenario.replacingOccurrences(of: "../watch/\(app).json", with: "out/\(app).json")
    }
    try scenario.write(to: folder.appendingPathComponent("watch.json"), atomically: true, encoding: .utf8)
    let refused = try CLI.run(["simulate", "--scenario", "watch.json", "--strategy", "clues", "--days", "1", "--out", "out"], in: folder)
    #expect(refused.status == 73)
    #expect(refused.stderr.contains("the input out/metro.json is inside it"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("runs.csv").path))
    let ran = try CLI.run(["simulate", "--scenario", "watch.json", "--strategy", "clues", "--days", "1", "--out", "sim"], in: folder)
    #expect(ran.status == 0, "\(ran.stderr)")
    let manifest = try String(contentsOf: folder.appendingPathComponent("sim/manifest.json"), encoding: .utf8)
    #expect(manifest.contains("metro.json") && manifest.contains("fitness.json"))
  }

  @Test func batchRunsTheWatchExperiment() throws {
    let folder = try watchFolder()
    let result = try CLI.run(
      ["batch", "Datasets/experiments/watch.json", "--replicates", "1", "--strategy", "clues,mfu", "--quiet", "--out", "b"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let paired = try String(contentsOf: folder.appendingPathComponent("b/paired.csv"), encoding: .utf8)
    #expect(paired.contains("commuter-watch,mfu,,mfu,clues,hit_rate,"))
  }

  @Test func theWatchMetricsSurviveTheJournalShardsAndMerge() throws {
    let folder = try watchFolder()
    let args = ["batch", "Datasets/experiments/watch.json", "--replicates", "2", "--strategy", "clues,mfu", "--quiet"]
    let whole = try CLI.run(args + ["--out", "whole", "--jobs", "2"], in: folder)
    #expect(whole.status == 0, "\(whole.stderr)")
    for k in 1...2 {
      let shard = try CLI.run(args + ["--shard", "\(k)/2", "--out", "s\(k)"], in: folder)
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let merge = try CLI.run(["merge", "s1", "s2", "--out", "merged", "--quiet"], in: folder)
    #expect(merge.status == 0, "\(merge.stderr)")
    for file in ["runs.csv", "summary.csv", "paired.csv", "daily.csv"] {
      let a = try Data(contentsOf: folder.appendingPathComponent("whole/\(file)"))
      let b = try Data(contentsOf: folder.appendingPathComponent("merged/\(file)"))
      #expect(a == b, "\(file)")
    }
    let runs = try String(contentsOf: folder.appendingPathComponent("whole/runs.csv"), encoding: .utf8)
    #expect(runs.hasPrefix("run_id,") && runs.contains(",cards_per_visit,any_card_hit_rate,mean_hit_position,"))
    let summary = try String(contentsOf: folder.appendingPathComponent("whole/summary.csv"), encoding: .utf8)
    #expect(summary.contains(",any_card_hit_rate,"))
    // An iPhone experiment has none of them.
    let phone = try CLI.run(["batch", "Datasets/experiments/tiny.json", "--quiet", "--out", "phone"], in: folder)
    #expect(phone.status == 0, "\(phone.stderr)")
    let phoneRuns = try String(contentsOf: folder.appendingPathComponent("phone/runs.csv"), encoding: .utf8)
    #expect(!phoneRuns.contains("cards_per_visit"))
  }

  @Test func cluesOutsideAWatchAndExposuresOfAWatchAreRefused() throws {
    let folder = try watchFolder()
    let phone = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/tiny.json", "--strategy", "clues", "--out", "p"], in: folder)
    #expect(phone.status == 64)
    #expect(phone.stderr.contains("is not a watchOS scenario"))
    let batch = try CLI.run(
      ["batch", "--scenario", "Datasets/scenarios/tiny.json", "--strategy", "clues", "--quiet", "--out", "q"], in: folder)
    #expect(batch.status != 0)
    #expect(batch.stderr.contains("is not a watchOS scenario"))
    let exposures = try CLI.run(
      ["simulate", "--scenario", "Datasets/scenarios/commuter-watch.json", "--strategy", "mfu",
       "--emit-exposures", "x.csv", "--out", "e"], in: folder)
    #expect(exposures.status == 64)
    #expect(exposures.stderr.contains("watchOS scenario"))
    for name in ["p", "q", "e", "x.csv"] {
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
    }
  }
}
