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

/// A small traced experiment over the fixture log: 2 source points × 4 strategies × 3
/// replicates = 24 cells.
private let config = #"""
  {"name": "fixture", "seed": 42, "replicates": 3,
   "sources": [{"name": "f", "log": "log.csv", "visits": ["donations", "sessions:30"]}],
   "strategies": ["mfu", "mru", "random", "oracle"],
   "outputs": {"trace": true}}
  """#

private let allFiles = ExperimentOutputs.completeFiles + ["trace.csv"]

/// Reads the config in `folder` and runs it into `folder/name`.
func run(
  _ folder: String, into name: String, jobs: Int = 2, resume: Bool = false, shard: Shard? = nil,
  overwrite: Bool = false, overrides: ExperimentOverrides = ExperimentOverrides(),
  wrap: ((any ExperimentSource) -> any ExperimentSource)? = nil
) async throws -> BatchReport {
  let design = try ExperimentConfig.read(path: folder + "/exp.json", overrides: overrides)
  var sources = try SourceLoader.load(design)
  if let wrap { sources = sources.map(wrap) }
  return try await BatchSession.run(
    design, sources: sources,
    options: BatchOptions(
      directory: folder + "/" + name, jobs: jobs, resume: resume, shard: shard, overwrite: overwrite))
}

private func fixtureFolder() throws -> String {
  let folder = try ExperimentFixture.folder()
  try ExperimentFixture.write(config, "exp.json", in: folder)
  return folder
}

/// A source that fails on one cell, to interrupt a run as a crash would.
struct FailingSource: ExperimentSource {
  struct Failure: Error {}
  let base: any ExperimentSource
  let failStrategy: String
  var name: String { base.name }
  var kind: String { base.kind }
  var statistics: SourceStatistics { base.statistics }
  var unitsArePeoplePerReplicate: Bool { base.unitsArePeoplePerReplicate }
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics {
    if choice.descriptor.name == failStrategy && replicate == 1 { throw Failure() }
    return try base.run(choice, replicate: replicate, seed: seed)
  }
  func runTraced(_ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String) throws -> (
    metrics: RunMetrics, trace: TraceRecorder?
  ) {
    if choice.descriptor.name == failStrategy && replicate == 1 { throw Failure() }
    return try base.runTraced(choice, replicate: replicate, seed: seed, runID: runID)
  }
}

@Suite("Batch runs")
struct BatchRunTests {
  @Test func jobsDoNotChangeAnyByte() async throws {
    let folder = try fixtureFolder()
    let one = try await run(folder, into: "one", jobs: 1)
    _ = try await run(folder, into: "two", jobs: 2)
    _ = try await run(folder, into: "many", jobs: 7)
    #expect(one.files == allFiles + ["manifest.json"])
    #expect(one.cellsRun == 24)
    let a = try ExperimentFixture.outputs(folder + "/one", allFiles)
    #expect(try ExperimentFixture.outputs(folder + "/two", allFiles) == a)
    #expect(try ExperimentFixture.outputs(folder + "/many", allFiles) == a)
    // The runs table has a header and one row per cell, in key order.
    let runs = String(decoding: a["runs.csv"]!, as: UTF8.self).split(separator: "\n")
    #expect(runs.count == 25)
    #expect(runs[1].hasPrefix("f[visits=donations]|mfu|0,f[visits=donations],mfu,,0,42,2,"))
    #expect(runs[24].hasPrefix("f[visits=sessions:30]|oracle|2,"))
  }

  @Test func resumingAfterACrashGivesTheSameFiles() async throws {
    let folder = try fixtureFolder()
    _ = try await run(folder, into: "whole")
    await #expect(throws: BatchError.self) {
      _ = try await run(folder, into: "crashed", jobs: 1) {
        FailingSource(base: $0, failStrategy: "random")
      }
    }
    // The two cells random|1 (one per source point) failed; the other 22 ran on and are
    // journaled (a failing cell does not stop the others), no output was written.
    let journal = try Journal.read(path: Journal.path(directory: folder + "/crashed", shard: nil))
    #expect(journal.cells.count == 22)
    #expect(!FileManager.default.fileExists(atPath: folder + "/crashed/runs.csv"))
    let resumed = try await run(folder, into: "crashed", resume: true)
    #expect(resumed.cellsFromJournal == 22)
    #expect(resumed.cellsRun == 2)
    #expect(
      try ExperimentFixture.outputs(folder + "/crashed", allFiles)
        == ExperimentFixture.outputs(folder + "/whole", allFiles))
    // Resuming a finished run runs nothing and rewrites the same files.
    let again = try await run(folder, into: "crashed", resume: true)
    #expect(again.cellsRun == 0)
    #expect(
      try ExperimentFixture.outputs(folder + "/crashed", allFiles)
        == ExperimentFixture.outputs(folder + "/whole", allFiles))
  }

  @Test func anIncompleteLastJournalLineIsDroppedOnResume() async throws {
    let folder = try fixtureFolder()
    _ = try await run(folder, into: "whole")
    _ = try await run(folder, into: "cut")
    // Keep the header, 5 cells and half of the 6th line, as a kill mid-write would.
    let path = Journal.path(directory: folder + "/cut", shard: nil)
    let bytes = try FileIO.readBytes(path)
    let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
    let cut = Array(bytes[..<(ends[5] + 1 + (ends[6] - ends[5]) / 2)])
    try FileIO.writeAtomically(cut, to: path)
    for file in allFiles { try FileManager.default.removeItem(atPath: folder + "/cut/" + file) }
    let contents = try Journal.read(path: path)
    #expect(contents.incompleteTail)
    #expect(contents.cells.count == 5)
    let resumed = try await run(folder, into: "cut", resume: true)
    #expect(resumed.cellsFromJournal == 5)
    #expect(resumed.notes.first?.contains("incomplete last line") == true)
    #expect(
      try ExperimentFixture.outputs(folder + "/cut", allFiles)
        == ExperimentFixture.outputs(folder + "/whole", allFiles))
    // The repaired journal reads back whole.
    #expect(try Journal.read(path: path).cells.count == 24)
    #expect(try Journal.read(path: path).incompleteTail == false)
  }

  @Test func aJournalOfAnotherExperimentIsRefused() async throws {
    let folder = try fixtureFolder()
    _ = try await run(folder, into: "out")
    await #expect(throws: BatchError.self) {
      _ = try await run(folder, into: "out", resume: true, overrides: ExperimentOverrides(seed: 43))
    }
    // Without --resume another experiment's folder is refused, unless --overwrite.
    await #expect(throws: OutputFileError.self) {
      _ = try await run(folder, into: "out", overrides: ExperimentOverrides(seed: 43))
    }
    let fresh = try await run(folder, into: "out", overwrite: true, overrides: ExperimentOverrides(seed: 43))
    #expect(fresh.cellsRun == 24)
  }

  @Test func threeShardsMergedEqualOneRun() async throws {
    let folder = try fixtureFolder()
    _ = try await run(folder, into: "whole")
    var counts: [Int] = []
    for k in 1...3 {
      let shard = Shard(index: k, count: 3)!
      let report = try await run(folder, into: "shard-\(k)", shard: shard)
      counts.append(report.cellsRun)
      #expect(report.files == ["runs.csv", "daily.csv", "trace.csv", "manifest.json"])
    }
    #expect(counts == [8, 8, 8])
    let merged = try await BatchMerge.merge(
      (1...3).map { folder + "/shard-\($0)" }, into: folder + "/merged", jobs: 2)
    #expect(merged.cellsInOutputs == 24)
    #expect(
      try ExperimentFixture.outputs(folder + "/merged", allFiles)
        == ExperimentFixture.outputs(folder + "/whole", allFiles))
  }

  @Test func mergeRefusesMissingAndDuplicatedCells() async throws {
    let folder = try fixtureFolder()
    for k in 1...2 {
      _ = try await run(folder, into: "shard-\(k)", shard: Shard(index: k, count: 3)!)
    }
    do {
      _ = try await BatchMerge.merge(
        [folder + "/shard-1", folder + "/shard-2"], into: folder + "/m", jobs: 1)
      Issue.record("merge of 2 of 3 shards succeeded")
    } catch let error as BatchError {
      #expect(
        error.description.hasPrefix(
          "8 of 24 cells are in no journal (shards not given: 3/3), e.g. f[visits=donations]|mfu|2,"
        ))
    }
    await #expect(throws: BatchError.self) {
      _ = try await BatchMerge.merge(
        [folder + "/shard-1", folder + "/shard-1"], into: folder + "/m", jobs: 1)
    }
    await #expect(throws: InputFileError.self) {
      _ = try await BatchMerge.merge([folder + "/nowhere"], into: folder + "/m", jobs: 1)
    }
  }

  @Test func journalLinesReadBackBitIdentical() async throws {
    let folder = try fixtureFolder()
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let sources = try SourceLoader.load(design)
    let outline = ExperimentOutline(design: design, sources: sources)
    for index in 0..<outline.cellCount {
      let cell = outline.cell(index)
      let metrics = try sources[cell.source].run(
        design.strategies[cell.strategy], replicate: cell.replicate, seed: 42)
      let line = JournalCodec.cellLine(
        CellResult(cell: cell, metrics: metrics), runID: outline.runID(cell), configHash: outline.configHash)
      var json = JSONDecoding(file: "j", bytes: Array(line.utf8))
      let decoded = json.decodeDocument(JournalCell.self)
      let back = try #require(decoded)
      #expect(back.index == index)
      #expect(back.metrics.perPerson == metrics.perPerson)
      #expect(back.metrics.values.map(\.bitPattern) == metrics.values.map(\.bitPattern))
      #expect(
        back.metrics.perPersonGini.map(\.bitPattern) == metrics.perPersonGini.map(\.bitPattern))
      #expect(back.metrics.daily.map(\.day) == metrics.daily.map(\.day))
      #expect(back.metrics.daily.map(\.counts) == metrics.daily.map(\.counts))
      #expect(back.metrics.daily.map(\.offsets) == metrics.daily.map(\.offsets))
    }
  }

  @Test func aDamagedJournalLineIsRejectedWithItsPlace() throws {
    let folder = try ExperimentFixture.folder()
    let design = try ExperimentConfig.read(
      path: try ExperimentFixture.write(config, "exp.json", in: folder))
    let outline = ExperimentOutline(design: design, sources: try SourceLoader.load(design))
    let header = JournalCodec.headerLine(outline, shard: nil)
    let path = try ExperimentFixture.write(header + "\n{\"cell\": 99}\n", "j.jsonl", in: folder)
    let contents = try Journal.read(path: path)
    #expect(contents.cells.isEmpty)
    #expect(
      contents.rejected.map(\.description) == [
        path + ":2: the line does not match its checksum (damaged or edited); its cell is not used"
      ])
  }

  @Test func traceHasOneRowPerScoredVisit() async throws {
    let folder = try fixtureFolder()
    let report = try await run(folder, into: "out")
    let trace = String(decoding: try FileIO.readBytes(folder + "/out/trace.csv"), as: UTF8.self)
    let lines = trace.split(separator: "\n")
    #expect(
      lines[0] == "run_id,person,time,shown,has_target,targets,target_rank,rotated,rule,shown_state,local_time"
    )
    // visits=donations: one visit per distinct donation instant, 13 in the fixture log;
    // 4 strategies × 3 replicates of that source point.
    #expect(lines.filter { $0.hasPrefix("f[visits=donations]|") }.count == 13 * 12)
    // The first visit of person u: nothing donated before, so nothing is shown; the
    // target is instance A (in u's stack, not yet a candidate: rank 0).
    #expect(
      lines[1]
        == "f[visits=donations]|mfu|0,u,2026-03-02T08:00:00Z,,1,A,0,0,most donations,none,2026-03-02T08:00:00+00:00")
    #expect(report.outline.sources[0].statistics.visits == 13)
  }
}

@Suite("Per-unit statistics")
struct UnitStatisticsTests {
  /// Counts with `hits` of `targets` target visits (one visit per target, at least one).
  static func counts(_ hits: Int, of targets: Int) -> MetricCounts {
    var c = MetricCounts()
    c.visits = max(targets, 1)
    c.targetVisits = targets
    c.hits = hits
    c.activeDays = 1
    return c
  }

  static func metrics(_ people: [MetricCounts]) -> RunMetrics {
    RunMetrics(
      perPerson: people, perPersonGini: people.map { _ in .nan }, timesToSurface: [], daily: [])
  }

  /// Strategy A (baseline) and B over 3 people and 2 replicates:
  /// A: r0 p0 1/2, p1 0/1, p2 no targets; r1 p0 2/2, p1 0/1, p2 none.
  /// B: r0 and r1 p0 2/2, p1 1/1, p2 none.
  static func grid(unitsPerReplicate: Bool) -> ResultGrid {
    let outline = ExperimentOutline(
      name: "t", seed: 1, replicates: 2,
      sources: [
        .init(
          name: "s", kind: unitsPerReplicate ? "scenario" : "log",
          unitsArePeoplePerReplicate: unitsPerReplicate,
          statistics: SourceStatistics(people: 3, events: 0, contentHash: "0"))
      ],
      strategies: [
        .init(descriptor: "a", name: "a", parameters: ""),
        .init(descriptor: "b", name: "b", parameters: ""),
      ],
      baseline: 0, trace: false, config: .object([]))
    let a0 = metrics([counts(1, of: 2), counts(0, of: 1), counts(0, of: 0)])
    let a1 = metrics([counts(2, of: 2), counts(0, of: 1), counts(0, of: 0)])
    let b = metrics([counts(2, of: 2), counts(1, of: 1), counts(0, of: 0)])
    return ResultGrid(
      outline: outline,
      results: [
        CellResult(cell: outline.cell(0), metrics: a0),
        CellResult(cell: outline.cell(1), metrics: a1),
        CellResult(cell: outline.cell(2), metrics: b),
        CellResult(cell: outline.cell(3), metrics: b),
      ])
  }

  @Test func logUnitsArePeopleAveragedOverReplicates() {
    let hitRate = UnitMetric.standard[0]
    let values = Self.grid(unitsPerReplicate: false).unitValues(
      source: 0, strategy: 0, metric: hitRate)
    #expect(values.count == 3)
    #expect(values[0] == 0.75 && values[1] == 0 && values[2].isNaN)
    let row = StatisticsTables.summarize(values, metric: "hit_rate", seed: 1, rowKey: "k")
    #expect(row.mean == 0.375 && row.n == 2)
    #expect(row.low >= 0 && row.high <= 0.75)
  }

  @Test func scenarioUnitsAreReplicatePersonPairs() {
    let hitRate = UnitMetric.standard[0]
    let values = Self.grid(unitsPerReplicate: true).unitValues(
      source: 0, strategy: 0, metric: hitRate)
    #expect(values.count == 6)
    #expect(
      Array(values[0..<2]) == [0.5, 0] && values[2].isNaN && Array(values[3..<5]) == [1, 0]
        && values[5].isNaN)
    let row = StatisticsTables.summarize(values, metric: "hit_rate", seed: 1, rowKey: "k")
    #expect(row.mean == 0.375 && row.n == 4)
  }

  @Test func pairedDifferencesUseUnitsWhereBothAreDefined() {
    let grid = Self.grid(unitsPerReplicate: false)
    let hitRate = UnitMetric.standard[0]
    let row = StatisticsTables.compare(
      grid.unitValues(source: 0, strategy: 1, metric: hitRate),
      baseline: grid.unitValues(source: 0, strategy: 0, metric: hitRate), metric: "hit_rate",
      seed: 1,
      rowKey: "k")
    // Differences 1 - 0.75 = 0.25 and 1 - 0 = 1; both positive: exact p = 2 / 2^2.
    #expect(row.n == 2)
    #expect(row.meanDifference == 0.625)
    #expect(row.pValue == 0.5)
    #expect(row.low >= 0.25 && row.high <= 1)
  }
}
