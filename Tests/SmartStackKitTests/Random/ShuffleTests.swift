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

@Suite("Shuffle and weighted choice")
struct ShuffleTests {
  @Test func shuffleWithSeed42IsFrozen() {
    var g = Xoshiro256StarStar(seed: 42)
    var values = Array(0..<10)
    RandomShuffle.shuffle(&values, using: &g)
    #expect(values == [9, 1, 4, 2, 8, 7, 6, 5, 3, 0])
  }

  @Test func shuffleIsAPermutationForManySeeds() {
    for seed: UInt64 in 0..<300 {
      var g = Xoshiro256StarStar(seed: seed)
      let count = Int(seed % 17)
      var values = Array(0..<count)
      RandomShuffle.shuffle(&values, using: &g)
      #expect(values.sorted() == Array(0..<count), "seed \(seed)")
    }
  }

  @Test func shuffleConsumesCountMinusOneDraws() {
    var g = RandomTesting.Counting(seed: 1)
    var empty: [Int] = []
    RandomShuffle.shuffle(&empty, using: &g)
    var one = [1]
    RandomShuffle.shuffle(&one, using: &g)
    #expect(g.count == 0)
    var eight = Array(0..<8)
    RandomShuffle.shuffle(&eight, using: &g)
    #expect(g.count == 7)
  }

  @Test func shuffleOfASliceTouchesOnlyTheSlice() {
    var g = Xoshiro256StarStar(seed: 4)
    var values = Array(0..<10)
    RandomShuffle.shuffle(&values[3..<7], using: &g)
    #expect(Array(values[0..<3]) == [0, 1, 2])
    #expect(Array(values[7...]) == [7, 8, 9])
    #expect(values[3..<7].sorted() == [3, 4, 5, 6])
  }

  @Test func allSixPermutationsOfThreeAreEquallyLikely() {
    var g = Xoshiro256StarStar(seed: 11)
    var counts: [[Int]: Int] = [:]
    let runs = 60_000
    for _ in 0..<runs {
      counts[RandomShuffle.shuffled([0, 1, 2], using: &g), default: 0] += 1
    }
    #expect(counts.count == 6)
    let expected = Double(runs) / 6
    let chiSquare = counts.values.reduce(0.0) {
      $0 + (Double($1) - expected) * (Double($1) - expected) / expected
    }
    // 5 degrees of freedom: P(chi² > 25.7) = 0.0001.
    #expect(chiSquare < 25.7, "\(counts.sorted { $0.key.lexicographicallyPrecedes($1.key) })")
  }

  @Test func weightedIndexIsNilWithoutPositiveWeights() {
    var g = RandomTesting.Counting(seed: 1)
    #expect(RandomShuffle.weightedIndex([], using: &g) == nil)
    #expect(RandomShuffle.weightedIndex([0, 0, 0], using: &g) == nil)
    #expect(RandomShuffle.weightedIndex([-1, .nan, .infinity, 0], using: &g) == nil)
    #expect(g.count == 0)
  }

  @Test func weightedIndexFollowsTheWeightsAndNeverPicksAZero() {
    var g = RandomTesting.Counting(seed: 8)
    var counts = [0, 0, 0, 0, 0]
    let draws = 60_000
    for _ in 0..<draws {
      let index = RandomShuffle.weightedIndex([1, 0, 2, -5, 3], using: &g)
      counts[index!] += 1
    }
    #expect(g.count == draws, "exactly one output per draw")
    #expect(counts[1] == 0 && counts[3] == 0)
    for (index, weight) in [(0, 1.0), (2, 2.0), (4, 3.0)] {
      let frequency = Double(counts[index]) / Double(draws)
      #expect(abs(frequency - weight / 6) < 0.01, "index \(index): \(frequency)")
    }
  }

  @Test func weightedIndexMapsUnitDrawsToRunningSums() {
    // nextUnit() = 0 picks the first positive weight; the largest draw picks the last.
    var low = RandomTesting.Scripted([0])
    #expect(RandomShuffle.weightedIndex([0, 2, 1], using: &low) == 1)
    var high = RandomTesting.Scripted([.max])
    #expect(RandomShuffle.weightedIndex([0, 2, 1, 0], using: &high) == 2)
    // u = 0.5 exactly: the running sums are 1, 2 of total 4 -> target 2 -> index 2 (sum 4 > 2).
    var half = RandomTesting.Scripted([1 << 63])
    #expect(RandomShuffle.weightedIndex([1, 1, 2], using: &half) == 2)
  }

  @Test func weightedIndexSurvivesWeightsWhoseSumOverflows() {
    var g = Xoshiro256StarStar(seed: 2)
    var counts = [0, 0]
    for _ in 0..<2_000 {
      counts[RandomShuffle.weightedIndex([1e308, 1e308], using: &g)!] += 1
    }
    #expect(counts[0] > 850 && counts[1] > 850, "\(counts)")
  }
}
