/// Runs cells in parallel with Swift concurrency.
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
  ///   - finished: called once per cell, serially, with its result and trace; an error
  ///     thrown here stops the run (cells in flight finish first and are dropped).
  /// - Throws: the first error of a cell or of `finished`.
  public static func run(
    _ cells: [Cell], sources: [any ExperimentSource], strategies: [StrategyChoice], seed: UInt64,
    jobs: Int, trace: Bool, runID: (Cell) -> String,
    finished: (CellResult, TraceRecorder?) throws -> Void
  ) async throws {
    guard !cells.isEmpty else { return }
    try await withThrowingTaskGroup(of: (CellResult, TraceRecorder?).self) { group in
      var next = 0
      func launch() {
        let cell = cells[next]
        let source = sources[cell.source]
        let choice = strategies[cell.strategy]
        let id = trace ? runID(cell) : ""
        next += 1
        group.addTask {
          if trace {
            let (metrics, recorder) = try source.runTraced(
              choice, replicate: cell.replicate, seed: seed, runID: id)
            return (CellResult(cell: cell, metrics: metrics), recorder)
          }
          let metrics = try source.run(choice, replicate: cell.replicate, seed: seed)
          return (CellResult(cell: cell, metrics: metrics), nil)
        }
      }
      while next < min(max(jobs, 1), cells.count) { launch() }
      while let (result, recorder) = try await group.next() {
        try finished(result, recorder)
        if next < cells.count { launch() }
      }
    }
  }
}
