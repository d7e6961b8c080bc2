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
  ///
  /// Logs in blocks (`SpilledLogSource`): the whole, untraced cells of such a source run
  /// first, all together, block by block (`SpilledLogSource.run(_:seed:jobs:)`), so each
  /// block's plan is built once for all of them rather than once per cell; they reach
  /// `finished` when the source's last block is done, in cell order, with the metrics a
  /// cell run alone gives, bit for bit. A failure to read the spill back fails each of
  /// them with that error.
  public static func run(
    _ cells: [(cell: Cell, people: Range<Int>?)], sources: [any ExperimentSource], strategies: [StrategyChoice],
    seed: UInt64, jobs: Int, trace: Bool, runID: (Cell) -> String,
    finished: (CellResult, TraceRecorder?) throws -> Void
  ) async throws {
    guard !cells.isEmpty else { return }
    var failures: [(index: Int, runID: String, error: String)] = []
    let ids = cells.map { runID($0.cell) + ($0.people.map { " people \($0.lowerBound)..<\($0.upperBound)" } ?? "") }
    // Whole, untraced cells of a log replayed in blocks run first, a source's all together
    // block by block (`SpilledLogSource.run(_:seed:jobs:)`: each block is built once, not
    // once per cell); in the order their sources first appear among the cells.
    func inBlocks(_ k: Int) -> SpilledLogSource? {
      cells[k].people == nil && !trace ? sources[cells[k].cell.source] as? SpilledLogSource : nil
    }
    var groups: [(source: SpilledLogSource, units: [Int])] = []
    for k in cells.indices {
      guard let source = inBlocks(k) else { continue }
      if let g = groups.firstIndex(where: { cells[$0.units[0]].cell.source == cells[k].cell.source }) {
        groups[g].units.append(k)
      } else {
        groups.append((source, [k]))
      }
    }
    for (source, units) in groups {
      let run = units.map { (choice: strategies[cells[$0].cell.strategy], replicate: cells[$0].cell.replicate) }
      let metrics: [RunMetrics]
      do {
        metrics = try await source.run(run, seed: seed, jobs: jobs)
      } catch {
        failures += units.map { (index: $0, runID: ids[$0], error: String(describing: error)) }
        continue
      }
      for (k, m) in zip(units, metrics) { try finished(CellResult(cell: cells[k].cell, metrics: m), nil) }
    }
    let rest = cells.indices.filter { inBlocks($0) == nil }
    let blocks = rest.map { k -> [Range<Int>] in
      let source = sources[cells[k].cell.source]
      guard cells[k].people == nil, !trace, source is any PeopleApartSource else { return [] }
      return PeopleInParallel.blocks(people: source.statistics.people, cells: rest.count, jobs: jobs) ?? []
    }
    try await PeopleInParallel.run(parts: blocks.map(\.count), jobs: jobs) { i, part -> CellOutcome in
      let k = rest[i]
      let (cell, people) = cells[k]
      let source = sources[cell.source]
      let choice = strategies[cell.strategy]
      do {
        if let people = blocks[i].isEmpty ? people : blocks[i][part] {
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
    } finished: { i, outcomes in
      if let failure = outcomes.lazy.compactMap(\.failure).first {
        failures.append(failure)
      } else if blocks[i].isEmpty, case .finished(let result, let recorder) = outcomes[0] {
        try finished(result, recorder)
      } else {
        let metrics = RunMetrics(blocks: outcomes.compactMap(\.result).map(\.metrics))
        try finished(CellResult(cell: cells[rest[i]].cell, metrics: metrics), nil)
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
