import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// A four-visit log, two people, candidates a and b, all at Monday 08h UTC; the target
/// always chooses a. Visits (person, shown, propensity, tap, hit):
/// A: (a, 0.5, 1, 1), (b, 0.5, 0, 1); B: (a, 0.25, 0, 0), (b, 0.75, 0, 1).
///
/// Weights 1[a]/p: 2, 0, 4, 0. Taps: IPS = (2·1 + 4·0)/4 = 0.5, SNIPS = 2/6 = 1/3,
/// ESS = 6²/(2² + 4²) = 1.8. Reward model for taps: global (1 + 0.5)/(4 + 1) = 0.3;
/// a: (1 + 2·0.3)/(2 + 2) = 0.4, cell (a, Mon 08h): (1 + 2·0.4)/4 = 0.45; b: 0.6/4 = 0.15,
/// cell 0.3/4 = 0.075. DM = 0.45; DR = [0.45 + 2(1 − 0.45) + 0.45 + 0.45 + 4(0 − 0.45)
/// + 0.45]/4 = 1.1/4 = 0.275. Hits: IPS = 2/4 = 0.5, SNIPS = 1/3.
@Suite("Off-policy estimators match hand-computed values")
struct OffPolicyEstimatorTests {
  static let monday = Int64(1_772_438_400_000)  // 2026-03-02T08:00:00Z, a Monday

  static func log() -> ExposureLog {
    func visit(_ person: String, _ minute: Int64, _ shown: String, _ p: Double, _ tap: Bool, _ hit: Bool) -> Exposure {
      Exposure(
        person: person, time: monday + minute * 60_000, candidates: ["a", "b"],
        candidateProbabilities: shown == "a" ? [p, 1 - p] : [1 - p, p], shown: shown, propensity: p, reward: tap,
        hit: hit)
    }
    return ExposureLog(
      loggingStrategy: "hand", exposures: [
        visit("A", 1, "a", 0.5, true, true), visit("A", 2, "b", 0.5, false, true),
        visit("B", 3, "a", 0.25, false, false), visit("B", 4, "b", 0.75, false, true),
      ])
  }

  static func rows() -> [EstimateRow] {
    OffPolicyEvaluation.estimates(log(), targets: [("always-a", ["a", "a", "a", "a"])], zone: .utc, seed: 1, resamples: 200)
  }

  static func estimate(_ rows: [EstimateRow], _ e: OffPolicyEstimator, _ metric: String) -> Double? {
    rows.first { $0.estimator == e && $0.metric == metric }?.estimate
  }

  @Test func tapRateEstimatesAreTheHandComputedOnes() throws {
    let rows = Self.rows()
    #expect(rows.count == 8)
    let expected: [(OffPolicyEstimator, Double)] = [(.dm, 0.45), (.ips, 0.5), (.snips, 1.0 / 3), (.dr, 0.275)]
    for (estimator, value) in expected {
      let got = try #require(Self.estimate(rows, estimator, "tap_rate"))
      #expect(abs(got - value) < 1e-12, "\(estimator): \(got) vs \(value)")
    }
    #expect(abs(rows[0].effectiveSampleSize - 1.8) < 1e-12)
    #expect(rows.allSatisfy { $0.zeroProbabilityShare == 0 && $0.visits == 4 && $0.people == 2 })
  }

  @Test func hitRateEstimatesAreTheHandComputedOnes() throws {
    let rows = Self.rows()
    #expect(abs(try #require(Self.estimate(rows, .ips, "hit_rate")) - 0.5) < 1e-12)
    #expect(abs(try #require(Self.estimate(rows, .snips, "hit_rate")) - 1.0 / 3) < 1e-12)
  }

  @Test func intervalsContainTheEstimateAndAreReproducible() throws {
    let a = Self.rows()
    #expect(a == Self.rows())
    for row in a where row.estimator != .snips {
      let interval = try #require(row.interval)
      #expect(interval.low <= interval.high)
    }
  }

  /// `evaluate`'s generator takes a concrete overload of the people bootstrap (its body
  /// specialised for debug builds); any other caller the generic one: the same interval,
  /// bit for bit, and as many numbers drawn.
  @Test func theEvaluatorsGeneratorGivesTheIntervalOfTheGenericBody() throws {
    func throughGeneric<G: RandomNumberGenerator>(
      _ people: [OffPolicySums], _ estimator: OffPolicyEstimator, _ g: inout G
    ) -> (low: Double, high: Double)? {
      PeopleBootstrap.interval(people, estimator, resamples: 200, using: &g)
    }
    var data = SplitMix64(seed: 5)
    let people: [OffPolicySums] = (0..<25).map { _ in
      var sums = OffPolicySums()
      sums.n = Double(1 + data.nextInt(below: 9))
      sums.ips = data.nextUnit() * sums.n
      sums.weight = data.nextUnit() * sums.n
      return sums
    }
    for estimator in [OffPolicyEstimator.ips, .snips] {
      var concrete = Bootstrap.generator(masterSeed: 3, rowKey: estimator.rawValue)
      var generic = Bootstrap.generator(masterSeed: 3, rowKey: estimator.rawValue)
      let a = try #require(PeopleBootstrap.interval(people, estimator, resamples: 200, using: &concrete))
      let b = try #require(throughGeneric(people, estimator, &generic))
      #expect(a.low.bitPattern == b.low.bitPattern && a.high.bitPattern == b.high.bitPattern, "\(estimator)")
      #expect(concrete.next() == generic.next(), "\(estimator): both drew as many numbers")
    }
  }

  @Test func aChoiceTheLoggerCouldNotShowIsCountedAndExplained() {
    // The target chooses c, which is not a candidate: logging probability 0.
    let rows = OffPolicyEvaluation.estimates(
      Self.log(), targets: [("c", ["c", "a", "c", "a"])], zone: .utc, seed: 1, resamples: 10)
    #expect(rows.allSatisfy { $0.zeroProbabilityShare == 0.5 })
    #expect(rows.first { $0.estimator == .ips }!.note.contains("IPS not defined at 2 of 4 visits"))
    // No weighted visit at all: SNIPS is not defined (no division by zero).
    let none = OffPolicyEvaluation.estimates(
      Self.log(), targets: [("never", ["b", "a", "b", "a"])], zone: .utc, seed: 1, resamples: 10)
    #expect(none.first { $0.estimator == .snips }!.estimate == nil)
    #expect(none.first { $0.estimator == .ips }!.estimate == 0)
  }

  /// With uniform propensity 1/k and the target matching exactly n/k of n visits, the
  /// weights average 1, so SNIPS = Σ wY / Σ w = Σ wY / n = IPS.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func selfNormalisedEqualsPlainWhenWeightsAverageOne(seed: UInt64) {
    var g = Xoshiro256StarStar(seed: seed)
    let k = 2 + g.nextInt(below: 4)
    let matched = 1 + g.nextInt(below: 20)
    let n = k * matched
    var order = Array(0..<n)
    for i in stride(from: n - 1, to: 0, by: -1) { order.swapAt(i, g.nextInt(below: i + 1)) }
    var sums = OffPolicySums()
    for i in 0..<n {
      sums.add(
        outcome: g.nextBool(probability: 0.4), propensity: 1 / Double(k), matches: order[i] < matched,
        predictedChoice: 0, predictedShown: 0)
    }
    #expect(abs(sums.weight / sums.n - 1) < 1e-12)
    #expect(abs(sums.estimate(.snips)! - sums.estimate(.ips)!) < 1e-12)
  }
}
