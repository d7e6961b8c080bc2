import ArgumentParser
import Foundation
@testable import SmartStackCommands
import SmartStackKit
import Testing

/// The repository's `Datasets/` folder.
private let datasets = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets")

/// `test-last`: a strategy the built-in registry lacks. Score of candidate `i` = `i × step`:
/// the candidate last in the stack's manual order, or (step 0) a tie for every candidate.
private struct LastInStackStrategy: RankingStrategy {
  static let info = StrategyInfo(
    name: "test-last", summary: "the last candidate in the stack's manual order (a test strategy)",
    parameters: [StrategyParameterSpec("step", default: 1, range: 0...10, help: "score per stack position")])
  let step: Double

  init(parameters: StrategyParameters) { step = parameters["step"] }

  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let step = self.step
    ranking.setCandidateScores(context) { i in Double(i) * step }
  }
}

/// The built-in strategies and `test-last`.
private let registry: StrategyRegistry = {
  var r = StrategyRegistry.builtIn
  r.register(LastInStackStrategy.self)
  return r
}()

/// The `strategy` column of a `runs.csv`.
private func strategies(inRunsOf folder: URL) throws -> [String] {
  let path = folder.appendingPathComponent("runs.csv").path
  let table = try CSVTable.read(bytes: FileIO.readBytes(path), file: path)
  let column = try table.column("strategy")
  return table.rows.map { $0[column] }
}

/// The strategy column of a Markdown table of `ReportTables` (the second column, below
/// the header and its rule).
private func labels(_ table: String) -> [String] {
  table.split(separator: "\n").dropFirst(2).map {
    $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
  }
}

/// `SmartStack.run(registry:arguments:)`: the whole tool in this process, with a registry
/// that has one strategy more than the built-in one.
@Suite("A tool with its own strategies")
struct CustomRegistryTests {
  /// A batch config naming `test-last`, twice (default and `step=2`), next to `mfu`.
  func writeConfig(in folder: URL) throws -> String {
    let scenario = datasets.appendingPathComponent("scenarios/tiny.json").path
    return try CLI.write(
      """
      {"name": "custom", "seed": 3, "replicates": 1, "baseline": "mfu",
       "sources": [{"name": "tiny-world", "scenario": "\(scenario)", "days": 2}],
       "strategies": ["mfu", "test-last", "test-last:step=2"]}
      """, to: "custom.json", in: folder)
  }

  /// `batch` parses the config with the tool's registry and labels with it.
  @Test func batchRunsAStrategyNamedInTheConfig() async throws {
    let folder = try CLI.temporaryFolder()
    let config = try writeConfig(in: folder)
    let out = folder.appendingPathComponent("out")
    try await SmartStack.run(
      registry: registry, arguments: ["batch", config, "--quiet", "--jobs", "1", "--out", out.path])
    #expect(try strategies(inRunsOf: out) == ["mfu", "test-last", "test-last"])
    let paired = try String(contentsOf: out.appendingPathComponent("paired.csv"), encoding: .utf8)
    #expect(paired.contains(",test-last,"))

    // The report labels come from the same registry: the default step is left out.
    let runsPath = out.appendingPathComponent("runs.csv").path
    let runs = try CSVTable.read(bytes: FileIO.readBytes(runsPath), file: runsPath)
    #expect(
      labels(try ReportTables.runsTable(runs, registry: registry))
        == ["mfu", "test-last", "test-last:step=2"])
    #expect(
      labels(try ReportTables.runsTable(runs, registry: .builtIn))
        == ["mfu", "test-last:step=1", "test-last:step=2"])
  }

  /// Exit 65 and no output folder: the registry, not a global, decides what a config may
  /// name. (Its two diagnostics appear on the test run's standard error.)
  @Test func theBuiltInRegistryRejectsTheSameConfig() async throws {
    let folder = try CLI.temporaryFolder()
    let config = try writeConfig(in: folder)
    let out = folder.appendingPathComponent("out").path
    do {
      try await SmartStack.run(
        registry: .builtIn, arguments: ["batch", config, "--quiet", "--out", out])
      Issue.record("expected the config to be rejected")
    } catch let error as ExitCode {
      #expect(error == ExitCode(65))
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// `simulate --strategy` parses with the registry, and its default list is the registry's.
  @Test func simulateRunsItByDefaultAndByName() async throws {
    let scenario = datasets.appendingPathComponent("scenarios/tiny.json").path
    let folder = try CLI.temporaryFolder()
    let named = folder.appendingPathComponent("named")
    try await SmartStack.run(
      registry: registry,
      arguments: [
        "simulate", "--scenario", scenario, "--days", "1", "--strategy", "test-last:step=2,mfu",
        "--quiet", "--jobs", "1", "--out", named.path,
      ])
    #expect(try strategies(inRunsOf: named) == ["test-last", "mfu"])
    // With no --strategy: every registered strategy but those that need an input beyond
    // the scenario (`scores`, `context-mfu`), `test-last` last.
    let all = folder.appendingPathComponent("all")
    try await SmartStack.run(
      registry: registry,
      arguments: ["simulate", "--scenario", scenario, "--days", "1", "--quiet", "--out", all.path])
    #expect(try strategies(inRunsOf: all) == registry.types.filter { $0.info.needs.isEmpty }.map { $0.name })
  }

  @Test func replayRunsItByName() async throws {
    let log = datasets.appendingPathComponent("logs/tiny.csv").path
    let out = try CLI.temporaryFolder().appendingPathComponent("out")
    try await SmartStack.run(
      registry: registry,
      arguments: [
        "replay", "--log", log, "--strategy", "mfu,test-last", "--quiet", "--out", out.path,
      ])
    #expect(try strategies(inRunsOf: out) == ["mfu", "test-last"])
  }

  /// `strategies` lists the registry: the built-in ones, then `test-last`.
  @Test func strategiesListsIt() {
    let listing = StrategiesCommand.listing(registry)
    let builtIn = StrategiesCommand.listing(.builtIn)
    #expect(listing.hasPrefix(builtIn.split(separator: "\n\n")[0] + "\n"))
    #expect(
      listing.contains(
        "test-last\n    the last candidate in the stack's manual order (a test strategy)\n"
          + "    step=1  (0...10) score per stack position\n"))
    #expect(!builtIn.contains("test-last"))
  }
}
