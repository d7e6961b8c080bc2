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

/// A source whose `failStrategy` cells throw, as a strategy that throws would.
private struct ThrowingSource: ExperimentSource {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "the strategy gave up" }
  }
  let base: any ExperimentSource
  let failStrategy: String
  var name: String { base.name }
  var kind: String { base.kind }
  var statistics: SourceStatistics { base.statistics }
  var unitsArePeoplePerReplicate: Bool { base.unitsArePeoplePerReplicate }
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics {
    if choice.descriptor.name == failStrategy { throw Failure() }
    return try base.run(choice, replicate: replicate, seed: seed)
  }
}

@Suite("Reliability: a failing cell")
struct CellFailureTests {
  /// 1 source × 3 strategies × 2 replicates = 6 cells; the `random` ones (2) throw.
  private let config = #"""
    {"name": "fail", "seed": 5, "replicates": 2,
     "sources": [{"name": "f", "log": "log.csv"}],
     "strategies": ["mfu", "random", "mru"]}
    """#

  @Test(arguments: [1, 2])
  func aThrowingCellIsReportedByItsKeyAndTheOtherCellsFinishAndAreJournaled(jobs: Int) async throws {
    let folder = try ExperimentFixture.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = try ExperimentFixture.write(config, "exp.json", in: folder)
    let design = try ExperimentConfig.read(path: path)
    let sources = try SourceLoader.load(design).map {
      ThrowingSource(base: $0, failStrategy: "random") as any ExperimentSource
    }
    let out = folder + "/out"
    do {
      _ = try await BatchSession.run(design, sources: sources, options: BatchOptions(directory: out, jobs: jobs))
      Issue.record("the batch did not report the failing cells")
    } catch let error as BatchError {
      let lines = error.description.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("2 of 6 cells failed;") == true, "\(lines)")
      #expect(lines.dropFirst() == ["  f|random|0: the strategy gave up", "  f|random|1: the strategy gave up"])
    }
    // The four other cells are journaled; no report was written.
    let journal = try Journal.read(path: Journal.path(directory: out, shard: nil))
    #expect(journal.cells.map(\.cell.strategy).sorted() == [0, 0, 2, 2])
    #expect(!FileManager.default.fileExists(atPath: out + "/runs.csv"))

    // After the fix, --resume runs the two failed cells only, and the files equal a clean run.
    let healthy = try SourceLoader.load(design)
    let resumed = try await BatchSession.run(
      design, sources: healthy, options: BatchOptions(directory: out, jobs: jobs, resume: true))
    #expect(resumed.cellsFromJournal == 4)
    #expect(resumed.cellsRun == 2)
    _ = try await BatchSession.run(design, sources: healthy, options: BatchOptions(directory: folder + "/clean", jobs: 1))
    let names = ExperimentOutputs.completeFiles
    #expect(try ExperimentFixture.outputs(out, names) == ExperimentFixture.outputs(folder + "/clean", names))
  }
}
