import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Runs cells in parallel on a `WorkerPool`.
///
/// At most `jobs` cells run at a time, each in its own child task; results are handed to
/// the caller one at a time, in completion order, on the caller's task (so the caller can
/// journal them without locks). The results themselves do not depend on `jobs` or on the
/// order cells finish in: each cell's randomness derives from its own (seed, replicate,
/// strategy, person).
public enum ExperimentRunner {
  /// Runs `cells`.
  ///
  /// - Parameters:
  ///   - sources, strategies: the design's loaded sources and strategy points (cells
  ///     index them).
  ///   - seed: the master seed.
  ///   - trace: when true, each cell also records `trace.csv` rows.
  ///   - runID: the run id of a cell (written into trace rows).
  ///   - finished: called once per cell that succeeds, serially, with its result and
  ///     trace; an error thrown here stops the run (cells in flight finish first and are
  ///     dropped).
  /// - Throws: the first error of `finished`; else, when cells threw, one `BatchError`
  ///   naming each failed cell by its run id with its error, in cell order, thrown after
  ///   every other cell has finished and been handed to `finished` (a cell that throws
  ///   does not stop the others). A cell that traps kills the process: the cells already
  ///   handed to `finished` (journaled by a batch) survive, and `--resume` runs the rest.
  public static func run(
    _ cells: [Cell], sources: [any ExperimentSource], strategies: [StrategyChoice], seed: UInt64,
    jobs: Int, trace: Bool, runID: (Cell) -> String,
    finished: (CellResult, TraceRecorder?) throws -> Void
  ) async throws {
    try await run(
      cells.map { ($0, nil) }, sources: sources, strategies: strategies, seed: seed, jobs: jobs, trace: trace,
      runID: runID, finished: finished)
  }

  /// Runs units of work as `run(_:sources:strategies:seed:jobs:trace:runID:finished:)`
  /// runs cells: a unit with `people` runs only those people of its cell
  /// (`ExperimentSource.run(_:replicate:seed:people:)`, untraced; `PeopleBlocks`), and
  /// its result carries them (`CellResult.people`).
  ///
  /// People in parallel (`PeopleInParallel`): when there are fewer units than `jobs`,
  /// each whole cell of a source whose people run apart (`PeopleApartSource`) is cut
  /// into blocks of people that run as units of their own on the same pool; the blocks
  /// are joined in person order (`RunMetrics(blocks:)`) before `finished` sees the cell,
  /// which it then gets as one whole cell with a whole run's metrics, bit for bit. A
  /// traced run keeps whole cells (`trace.csv` rows are recorded per cell). A cell
  /// whose block fails fails with the first failing block's error.
  public static func run(
    _ cells: [(cell: Cell, people: Range<Int>?)], sources: [any ExperimentSource], strategies: [StrategyChoice],
    seed: UInt64, jobs: Int, trace: Bool, runID: (Cell) -> String,
    finished: (CellResult, TraceRecorder?) throws -> Void
  ) async throws {
    guard !cells.isEmpty else { return }
    var failures: [(index: Int, runID: String, error: String)] = []
    let ids = cells.map { runID($0.cell) + ($0.people.map { " people \($0.lowerBound)..<\($0.upperBound)" } ?? "") }
    let blocks = cells.map { unit -> [Range<Int>] in
      let source = sources[unit.cell.source]
      guard unit.people == nil, !trace, source is any PeopleApartSource else { return [] }
      return PeopleInParallel.blocks(people: source.statistics.people, cells: cells.count, jobs: jobs) ?? []
    }
    try await PeopleInParallel.run(parts: blocks.map(\.count), jobs: jobs) { k, part -> CellOutcome in
      let (cell, people) = cells[k]
      let source = sources[cell.source]
      let choice = strategies[cell.strategy]
      do {
        if let people = blocks[k].isEmpty ? people : blocks[k][part] {
          let metrics = try source.run(choice, replicate: cell.replicate, seed: seed, people: people)
          return .finished(CellResult(cell: cell, metrics: metrics, people: people), nil)
        }
        if trace {
          let (metrics, recorder) = try source.runTraced(
            choice, replicate: cell.replicate, seed: seed, runID: ids[k])
          return .finished(CellResult(cell: cell, metrics: metrics), recorder)
        }
        let metrics = try source.run(choice, replicate: cell.replicate, seed: seed)
        return .finished(CellResult(cell: cell, metrics: metrics), nil)
      } catch {
        return .failed(index: k, runID: ids[k], error: String(describing: error))
      }
    } finished: { k, outcomes in
      if let failure = outcomes.lazy.compactMap(\.failure).first {
        failures.append(failure)
      } else if blocks[k].isEmpty, case .finished(let result, let recorder) = outcomes[0] {
        try finished(result, recorder)
      } else {
        let metrics = RunMetrics(blocks: outcomes.compactMap(\.result).map(\.metrics))
        try finished(CellResult(cell: cells[k].cell, metrics: metrics), nil)
      }
    }
    guard !failures.isEmpty else { return }
    failures.sort { $0.index < $1.index }
    throw BatchError(
      "\(failures.count) of \(cells.count) cells failed; the other cells finished and are kept (in the journal for a batch): fix the cause, then run the same command with --resume to run only the failed cells\n"
        + failures.map { "  \($0.runID): \($0.error)" }.joined(separator: "\n"))
  }

  /// What one cell's task hands back: its result, or the error it threw.
  private enum CellOutcome: Sendable {
    case finished(CellResult, TraceRecorder?)
    case failed(index: Int, runID: String, error: String)

    /// The failure, nil when it finished.
    var failure: (index: Int, runID: String, error: String)? {
      guard case .failed(let index, let runID, let error) = self else { return nil }
      return (index, runID, error)
    }

    /// The result, nil when it failed.
    var result: CellResult? {
      guard case .finished(let result, _) = self else { return nil }
      return result
    }
  }
}
