import Foundation
import Testing
@testable import SmartStackBase

/// The bounded pool: at most `jobs` items at once, results in index order, a throwing
/// consumer stops the work.
@Suite("WorkerPool runs at most jobs items at once and keeps index order")
struct WorkerPoolTests {
  /// Counts the items running now and the most seen at once.
  final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var now = 0
    private(set) var most = 0
    private(set) var started = 0
    func enter() {
      lock.withLock {
        now += 1
        started += 1
        most = max(most, now)
      }
    }
    func leave() { lock.withLock { now -= 1 } }
  }

  /// Later items finish first (shorter sleeps), yet `map` returns index order.
  @Test(arguments: [1, 2, 5])
  func mapReturnsResultsInIndexOrder(jobs: Int) async {
    let count = 8
    let results = await WorkerPool(jobs: jobs).map(count) { i in
      try? await Task.sleep(nanoseconds: UInt64(count - i) * 2_000_000)
      return i * i
    }
    #expect(results == (0..<count).map { $0 * $0 })
  }

  @Test(arguments: [1, 3])
  func neverRunsMoreThanJobsItemsAtOnce(jobs: Int) async {
    let flight = InFlight()
    var progress: [Int] = []
    _ = await WorkerPool(jobs: jobs).map(9, progress: { done, total in
      #expect(total == 9)
      progress.append(done)
    }) { i in
      flight.enter()
      try? await Task.sleep(nanoseconds: 10_000_000)
      flight.leave()
      return i
    }
    #expect(flight.most == jobs)
    #expect(flight.started == 9)
    #expect(progress == Array(0...9))
  }

  struct Stop: Error {}

  /// A consumer that throws at the first result: nothing more starts, the error comes
  /// back.
  @Test func aThrowingConsumerStopsTheWork() async {
    let flight = InFlight()
    var seen = 0
    await #expect(throws: Stop.self) {
      try await WorkerPool(jobs: 2).forEach(20) { i in
        flight.enter()
        try? await Task.sleep(nanoseconds: 5_000_000)
        flight.leave()
        return i
      } finished: { _, _ throws(Stop) in
        seen += 1
        throw Stop()
      }
    }
    #expect(seen == 1)
    #expect(flight.started == 2)
    #expect(flight.now == 0)
  }

  @Test func zeroItemsAndZeroJobs() async {
    #expect(await WorkerPool(jobs: 0).map(3) { $0 } == [0, 1, 2])
    #expect(WorkerPool(jobs: 0).jobs == 1)
    #expect(await WorkerPool(jobs: 4).map(0) { $0 }.isEmpty)
  }
}
