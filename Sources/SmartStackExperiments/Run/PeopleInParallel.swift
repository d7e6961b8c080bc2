import SmartStackBase

/// How one machine spreads a run's people over its cores when it has fewer cells (runs of
/// one strategy over one source and replicate) than workers: `replay`, `simulate` and
/// `batch` cut each such cell's people into consecutive blocks, run the (cell, block)
/// units on one `WorkerPool`, and join a cell's blocks in person order
/// (`RunMetrics(blocks:)`) before anything records it.
///
/// Why a block runs alone with the numbers of a whole run: a log's people are replayed,
/// and a scenario's simulated, one after the other, each with randomness drawn from
/// (seed, replicate, strategy, person index) alone (`PeopleBlocks`), and the join re-adds
/// the person-days in one run's order. So the cut, and therefore `--jobs`, changes no
/// output byte.
public enum PeopleInParallel {
  /// Blocks per cell: 1 when the cells alone keep `jobs` workers busy (`cells >= jobs`)
  /// or a cell has at most one person; else `min(people, 2 × ⌈jobs / cells⌉)`, so every
  /// worker has about two units and a worker that finishes early finds more work.
  public static func blockCount(people: Int, cells: Int, jobs: Int) -> Int {
    let jobs = max(jobs, 1)
    guard cells < jobs, people > 1 else { return 1 }
    return min(people, 2 * ((jobs + cells - 1) / max(cells, 1)))
  }

  /// The blocks of a cell of `people` people (`blockCount`), consecutive, in person
  /// order, sizes differing by at most one; nil when the cell stays whole.
  public static func blocks(people: Int, cells: Int, jobs: Int) -> [Range<Int>]? {
    let count = blockCount(people: people, cells: cells, jobs: jobs)
    return count > 1 ? ParallelMap.blocks(count: people, parts: count) : nil
  }

  /// Runs `work(item, part)` for every item and every one of its `parts[item]` parts on a
  /// `WorkerPool` of `jobs` tasks, and calls `finished(item, results)` once per item, as
  /// soon as all its parts are done, with their results in part order, serially on the
  /// caller's task (items in the order they complete).
  ///
  /// The units are queued item by item, so an item's parts run close together and its
  /// results are not held longer than needed.
  ///
  /// When `finished` throws, no further unit starts; the units in flight finish and are
  /// dropped; then the error is rethrown.
  public static func run<Part: Sendable, Failure: Error>(
    parts: [Int], jobs: Int, _ work: @escaping @Sendable (_ item: Int, _ part: Int) async -> Part,
    finished: (_ item: Int, _ results: [Part]) throws(Failure) -> Void
  ) async throws(Failure) {
    let units = parts.indices.flatMap { item in (0..<max(parts[item], 1)).map { (item: item, part: $0) } }
    var results = parts.map { [Part?](repeating: nil, count: max($0, 1)) }
    var left = parts.map { max($0, 1) }
    try await WorkerPool(jobs: jobs).forEach(units.count) { k in
      await work(units[k].item, units[k].part)
    } finished: { (k: Int, result: Part) throws(Failure) in
      let (item, part) = units[k]
      results[item][part] = result
      left[item] -= 1
      if left[item] == 0 {
        let done = results[item].map { $0! }
        results[item] = []
        try finished(item, done)
      }
    }
  }
}
