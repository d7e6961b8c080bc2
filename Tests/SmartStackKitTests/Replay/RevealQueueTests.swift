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

@Suite("Reveal queue")
struct RevealQueueTests {
  func feedback(_ shown: Int32) -> VisitFeedback {
    VisitFeedback(visitTime: Int64(shown) * 1000, hourOfDay: 1, hourOfWeek: 2, shown: shown, tapped: shown % 2 == 0)
  }

  /// First in, first out, with `nextTime` the oldest pending time (`Int64.max` when
  /// empty), over interleaved pushes and pops up to the capacity.
  @Test func firstInFirstOutWithTheOldestTime() {
    var queue = RevealQueue(capacity: 5)
    #expect(queue.nextTime == Int64.max)
    queue.push(feedback(0), at: 10)
    queue.push(feedback(1), at: 20)
    #expect(queue.nextTime == 10)
    #expect(queue.pop() == feedback(0))
    #expect(queue.nextTime == 20)
    queue.push(feedback(2), at: 30)
    #expect(queue.pop() == feedback(1))
    #expect(queue.pop() == feedback(2))
    #expect(queue.nextTime == Int64.max)
    queue.push(feedback(3), at: 40)
    queue.push(feedback(4), at: 50)
    #expect(queue.nextTime == 40)
    #expect(queue.pop() == feedback(3))
    #expect(queue.pop() == feedback(4))
    #expect(queue.nextTime == Int64.max)
  }

  /// No room is fine while nothing is pushed (strategies that ignore outcomes).
  @Test func emptyCapacity() {
    let queue = RevealQueue(capacity: 0)
    #expect(queue.nextTime == Int64.max)
  }
}
