/// A bounded pool of child tasks: the one place the commands and the batch runner start
/// parallel work (cells of an experiment, strategies over one log, statistics groups,
/// validation replicates).
///
/// Definitions:
/// - **bound**: at most `jobs` work items run at once, each in its own child task of a
///   task group; the next item starts when one finishes.
/// - **start order**: items start in index order `0, 1, …, count − 1`.
/// - **results**: `map` returns them in index order; `forEach` hands each to the caller
///   as it finishes (completion order), one at a time, on the caller's task, so the
///   caller can write a journal or a progress line without locks.
///
/// The pool adds no randomness and no order of its own to the results: an item's result
/// must depend only on its index (each cell derives its random streams from its own
/// seed, replicate, strategy and person), so outputs are the same for any `jobs`.
public struct WorkerPool: Sendable {
  /// The most work items running at once; at least 1.
  public let jobs: Int

  /// A pool of at most `jobs` tasks at once (values below 1 mean 1).
  public init(jobs: Int) { self.jobs = max(jobs, 1) }

  /// Runs `work(i)` for every `i` in `0..<count` and returns the results in index
  /// order, whatever the order they finish in.
  ///
  /// - Parameter progress: called on the caller's task with (items done, `count`)
  ///   before the first item and after each one.
  public func map<Result: Sendable>(
    _ count: Int, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
    _ work: @escaping @Sendable (Int) async -> Result
  ) async -> [Result] {
    var results = [Result?](repeating: nil, count: count)
    var done = 0
    progress(0, count)
    await forEach(count, work) { i, result in
      results[i] = result
      done += 1
      progress(done, count)
    }
    return results.map { $0! }
  }

  /// Runs `work(i)` for every `i` in `0..<count` and calls `finished(i, result)` for
  /// each, serially on the caller's task, in the order the items finish.
  ///
  /// When `finished` throws, no further item starts; the items in flight finish and
  /// their results are dropped; then the error is rethrown.
  public func forEach<Result: Sendable, Failure: Error>(
    _ count: Int, _ work: @escaping @Sendable (Int) async -> Result,
    finished: (_ index: Int, _ result: Result) throws(Failure) -> Void
  ) async throws(Failure) {
    guard count > 0 else { return }
    var failure: Failure? = nil
    await withTaskGroup(of: (Int, Result).self) { group in
      var next = 0
      func launch() {
        let i = next
        next += 1
        group.addTask { (i, await work(i)) }
      }
      while next < min(jobs, count) { launch() }
      while let (i, result) = await group.next() {
        do throws(Failure) {
          try finished(i, result)
        } catch {
          failure = error
          break
        }
        if next < count { launch() }
      }
    }
    if let failure { throw failure }
  }
}
