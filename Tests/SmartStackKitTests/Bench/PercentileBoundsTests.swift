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

/// The normaliser walks small populations and binary-searches large ones; both must
/// give the counts of a brute-force scan.
@Suite("Percentile bounds")
struct PercentileBoundsTests {
  @Test func boundsEqualBruteForceCountsOnBothSidesOfTheWalkingLimit() {
    typealias Bucket = PercentileNormaliser.Bucket
    for seed in 0..<60 {
      var rng = SplitMix64(seed: UInt64(seed))
      let count = [0, 1, 2, Bucket.countingLimit, Bucket.countingLimit + 1, 300][seed % 6] + rng.nextInt(below: 3)
      // Few distinct values, so ties are common; include -0.0 and 0.0.
      let values = (0..<count).map { _ in [-1.5, -0.0, 0.0, 0.25, 0.5, 2][rng.nextInt(below: 6)] }.sorted()
      for probe in [-2.0, -1.5, 0.0, -0.0, 0.1, 0.25, 0.5, 1, 2, 3] {
        let below = values.filter { $0 < probe }.count
        let upTo = values.filter { $0 <= probe }.count
        #expect(Bucket.lowerBound(probe, in: values) == below, "seed \(seed) count \(count) probe \(probe)")
        #expect(Bucket.upperBound(probe, in: values) == upTo, "seed \(seed) count \(count) probe \(probe)")
        let both = Bucket.bounds(probe, in: values)
        #expect(both.0 == below && both.1 == upTo, "seed \(seed) count \(count) probe \(probe)")
      }
    }
  }
}
