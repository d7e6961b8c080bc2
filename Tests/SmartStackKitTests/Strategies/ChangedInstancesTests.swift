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

@Suite("Changed instances")
struct ChangedInstancesTests {
  /// Against a sorted array of distinct indices: membership and increasing iteration.
  @Test func iteratesItsMembersInIncreasingOrder() {
    var rng = SplitMix64(seed: 3)
    for _ in 0..<200 {
      var set = ChangedInstances()
      var model: [Int] = []
      for _ in 0..<rng.nextInt(below: 12) {
        let i = rng.nextInt(below: 64)
        set.insert(i)
        if !model.contains(i) { model.append(i) }
      }
      model.sort()
      #expect(Array(set) == model)
      #expect(set.isEmpty == model.isEmpty)
      for i in -1...64 { #expect(set.contains(i) == model.contains(i)) }
    }
  }
}
