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

/// A user's target-aware strategy under another name: shows a target when it can.
private struct Peek: TargetAwareStrategy {
  static let info = StrategyInfo(name: "peek", summary: "test strategy: sees the target")
  init(parameters: StrategyParameters) {}
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in context.target.contains(Int32(i)) ? 1 : 0 }
  }
}

/// A strategy merely named `oracle`: it does not see the target.
private struct NamedOracle: RankingStrategy {
  static let info = StrategyInfo(name: "oracle", summary: "test strategy: a name, not an oracle")
  init(parameters: StrategyParameters) {}
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { i in Double(context.features.donationCount[i]) }
  }
}

/// `regret` is measured against the strategy that sees the target (`TargetAwareStrategy`),
/// whatever its name: in `runs.csv` and `summary.csv` of a batch, after `merge` (which
/// has no registry), and in the single-run tables.
@Suite("Regret by kind")
struct RegretTests {
  static let config = #"""
    {"name": "regret", "seed": 3, "replicates": 2,
     "sources": [{"name": "f", "log": "log.csv", "visits": "sessions:30"}],
     "strategies": ["mfu", "%@"]}
    """#

  /// Runs the fixture batch with `mfu` and `strategy` from `registry`, then merges its
  /// journal into another folder; returns both folders' `runs.csv` and `summary.csv`.
  func batch(_ strategy: String, _ registry: StrategyRegistry) async throws -> (
    runs: String, summary: String, merged: String
  ) {
    let folder = try ExperimentFixture.folder()
    let path = try ExperimentFixture.write(
      Self.config.replacingOccurrences(of: "%@", with: strategy), "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: path, registry: registry)
    _ = try await BatchSession.run(
      design, sources: try SourceLoader.load(design), options: BatchOptions(directory: folder + "/run", jobs: 1))
    _ = try await BatchMerge.merge([folder + "/run"], into: folder + "/merged", jobs: 1)
    func text(_ file: String) throws -> String { String(decoding: try FileIO.readBytes(file), as: UTF8.self) }
    return (try text(folder + "/run/runs.csv"), try text(folder + "/run/summary.csv"), try text(folder + "/merged/runs.csv"))
  }

  /// The `regret` column (the last one) of every row of a `runs.csv`.
  func regrets(_ runs: String) -> [Substring] {
    runs.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).last! }
  }

  @Test func aRegisteredTargetAwareStrategyIsTheOracleWhateverItsName() async throws {
    var registry = StrategyRegistry.builtIn
    registry.register(Peek.self)
    let (runs, summary, merged) = try await batch("peek", registry)
    let regret = regrets(runs)
    #expect(regret.count == 4)
    #expect(regret.allSatisfy { !$0.isEmpty }, "\(runs)")
    #expect(regret.suffix(2) == ["0", "0"])
    #expect(summary.contains(",regret,"))
    #expect(merged == runs)
  }

  @Test func aStrategyMerelyNamedOracleIsNotTheOracle() async throws {
    var registry = StrategyRegistry.builtIn
    registry.register(NamedOracle.self)
    let (runs, summary, merged) = try await batch("oracle", registry)
    #expect(regrets(runs) == ["", "", "", ""])
    #expect(!summary.contains(",regret,"))
    #expect(merged == runs)
  }

  @Test func theSingleRunTablesFindTheOracleByKind() throws {
    func record(_ name: String, hits: Int, targetAware: Bool) -> RunRecord {
      var counts = MetricCounts()
      counts.visits = 4
      counts.targetVisits = 4
      counts.hits = hits
      let metrics = RunMetrics(perPerson: [counts], perPersonGini: [.nan], timesToSurface: [], daily: [])
      return RunRecord(
        source: "s", strategy: StrategyDescriptor(name: name, parameters: .none), replicate: 0, seed: 1,
        metrics: metrics, targetAware: targetAware)
    }
    let mfu = record("mfu", hits: 1, targetAware: false)
    #expect(RunTables.regret(mfu, [mfu, record("oracle", hits: 4, targetAware: false)]).isNaN)
    #expect(RunTables.regret(mfu, [mfu, record("peek", hits: 3, targetAware: true)]) == 0.5)
    #expect(try StrategyRegistry.builtIn.parse("oracle").isTargetAware)
    #expect(try !StrategyRegistry.builtIn.parse("mfu").isTargetAware)
  }

  /// The flag round-trips; a version 3 header without it, and a version 2 header (which
  /// has neither the flag nor the days' offsets), are refused.
  @Test func journalHeadersCarryTheFlagAndOlderOnesAreRefused() throws {
    let folder = try ExperimentFixture.folder()
    let path = try ExperimentFixture.write(
      Self.config.replacingOccurrences(of: "%@", with: "oracle"), "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: path)
    let outline = ExperimentOutline(design: design, sources: try SourceLoader.load(design))
    #expect(outline.strategies.map(\.targetAware) == [false, true])
    let line = JournalCodec.headerLine(outline, shard: nil)
    func header(_ text: String) -> (JournalHeader?, [String]) {
      var json = JSONDecoding(file: "j", bytes: Array(text.utf8))
      let header = json.decodeDocument(JournalHeader.self)
      return (header, json.problems.diagnostics.map(\.message))
    }
    #expect(header(line).0?.outline.strategies.map(\.targetAware) == [false, true])
    let stripped = line.replacingOccurrences(of: #","target_aware":false"#, with: "")
      .replacingOccurrences(of: #","target_aware":true"#, with: "")
    #expect(stripped != line)
    let v2 = stripped.replacingOccurrences(of: #""version":4"#, with: #""version":2"#)
    #expect(v2 != stripped)
    #expect(header(v2).0 == nil)
    #expect(header(v2).1.contains { $0.contains("journal version 2 is not supported (expected 4)") }, "\(header(v2).1)")
    let (refused, problems) = header(stripped)
    #expect(refused == nil)
    #expect(problems.contains { $0.contains("target_aware") }, "\(problems)")
  }
}
