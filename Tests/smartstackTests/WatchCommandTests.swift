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
  }

  @Test func batchRunsTheWatchExperiment() throws {
    let folder = try watchFolder()
    let result = try CLI.run(
      ["batch", "Datasets/experiments/watch.json", "--replicates", "1", "--strategy", "clues,mfu", "--quiet", "--out", "b"], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let paired = try String(contentsOf: folder.appendingPathComponent("b/paired.csv"), encoding: .utf8)
    #expect(paired.contains("commuter-watch,mfu,,mfu,clues,hit_rate,"))
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
