import Testing

@testable import SmartStackKit

@Suite("Percentile normaliser")
struct PercentileNormaliserTests: RelevanceFixtures {
  @Test func aConstantScorerIsNeutral() {
    var n = PercentileNormaliser()
    for h in 0..<5 {
      n.record(score: 4, at: at(hours: Double(h)), key: 0)
      let p1 = n.percentile(of: 4, at: at(hours: Double(h)), key: 0)
      #expect(p1 == 0.5)
    }
  }

  @Test func purchasesExampleHandComputed() {
    // Scores = amounts 10, 500, 20 (duration 0), one per hour.
    var n = PercentileNormaliser()
    n.record(score: 10, at: at(hours: 0), key: 0)
    n.record(score: 500, at: at(hours: 1), key: 0)
    n.record(score: 20, at: at(hours: 2), key: 0)
    // {10}: (0 + 0.5·1) / 1
    let p2 = n.percentile(of: 10, at: at(hours: 0), key: 0)
    #expect(p2 == 0.5)
    // {10, 500}: (1 + 0.5·1) / 2
    let p3 = n.percentile(of: 500, at: at(hours: 1), key: 0)
    #expect(p3 == 0.75)
    // {10, 500, 20}: (1 + 0.5·1) / 3
    let p4 = n.percentile(of: 20, at: at(hours: 2), key: 0)
    #expect(p4 == 0.5)
    let p5 = n.percentile(of: 500, at: at(hours: 2), key: 0)
    #expect(p5 == 2.5 / 3)
    let p6 = n.percentile(of: 10, at: at(hours: 2), key: 0)
    #expect(p6 == 0.5 / 3)
  }

  @Test func tiesCountHalf() {
    var n = PercentileNormaliser()
    for (h, s) in [1.0, 2, 2, 2, 3, 0].enumerated() {
      n.record(score: s, at: at(hours: Double(h)), key: 0)
    }
    // {0, 1, 2, 2, 2, 3}: below 2 are 2, equal 3 -> (2 + 1.5) / 6
    let p7 = n.percentile(of: 2, at: at(hours: 10), key: 0)
    #expect(p7 == 3.5 / 6)
    let p8 = n.percentile(of: 3, at: at(hours: 10), key: 0)
    #expect(p8 == 5.5 / 6)
    let p9 = n.percentile(of: 0, at: at(hours: 10), key: 0)
    #expect(p9 == 0.5 / 6)
    // A score that was never provided is placed among the others without being counted.
    let p10 = n.percentile(of: 2.5, at: at(hours: 10), key: 0)
    #expect(p10 == 5.0 / 6)
    let p11 = n.percentile(of: -0.0, at: at(hours: 10), key: 0)
    #expect(p11 == 0.5 / 6)
    #expect(n.populationCount(key: 0) == 6)
  }

  @Test func scoresDatedAfterNowDoNotCountYet() {
    var n = PercentileNormaliser()
    n.record(score: 1, at: at(hours: 0), key: 0)
    n.record(score: 100, at: at(hours: 5), key: 0)
    let p12 = n.percentile(of: 1, at: at(hours: 4.99), key: 0)
    #expect(p12 == 0.5)
    let p13 = n.percentile(of: 1, at: at(hours: 5), key: 0)
    #expect(p13 == 0.25)
  }

  @Test func theWindowIsHalfOpenNowMinusNDaysExcluded() {
    var n = PercentileNormaliser(window: .days(1))
    n.record(score: 1, at: at(hours: 0), key: 0)
    n.record(score: 3, at: at(hours: 12), key: 0)
    // At 24 h - 1 ms both count: 3 is above 1.
    let p14 = n.percentile(of: 3, at: at(hours: 24) - 1, key: 0)
    #expect(p14 == 0.75)
    // At exactly 24 h the score dated 0 h (= now - 1 day) has left the window.
    let p15 = n.percentile(of: 3, at: at(hours: 24), key: 0)
    #expect(p15 == 0.5)
    #expect(n.populationCount(key: 0) == 1)
    // At 36 h the other one has left too.
    let p16 = n.percentile(of: 3, at: at(hours: 36), key: 0)
    #expect(p16 == nil)
  }

  @Test func anAllHistoryWindowKeepsOldScores() {
    var n = PercentileNormaliser(window: .all)
    n.record(score: 1, at: at(hours: 0), key: 0)
    n.record(score: 3, at: at(hours: 12), key: 0)
    let p17 = n.percentile(of: 3, at: at(hours: 24 * 400), key: 0)
    #expect(p17 == 0.75)
  }

  @Test func kindScopePoolsInstancesOfTheKind() {
    // Instances 0 and 1 are of kind 0, instance 2 of kind 1.
    let kinds = [0, 0, 1]
    for scope in PercentileNormaliser.Scope.allCases {
      var n = PercentileNormaliser(scope: scope)
      let records: [(instance: Int, score: Double)] = [(0, 1), (1, 5), (2, 100), (0, 2)]
      for (h, r) in records.enumerated() {
        n.record(
          score: r.score, at: at(hours: Double(h)),
          key: n.key(instance: r.instance, kind: kinds[r.instance]))
      }
      let p = n.percentile(of: 2, at: at(hours: 10), key: n.key(instance: 0, kind: 0))
      switch scope {
      case .instance: #expect(p == 0.75)  // {1, 2}
      case .kind: #expect(p == 1.5 / 3)  // {1, 5, 2}
      }
    }
  }

  @Test func noScoresMeansNoPercentile() {
    var n = PercentileNormaliser()
    let p18 = n.percentile(of: 1, at: at(hours: 0), key: 0)
    #expect(p18 == nil)
    let p19 = n.percentile(of: 1, at: at(hours: 0), key: 7)
    #expect(p19 == nil)
    let p20 = n.percentile(of: 1, at: at(hours: 0), key: -1)
    #expect(p20 == nil)
    n.record(score: 1, at: at(hours: 1), key: 3)
    let p21 = n.percentile(of: 1, at: at(hours: 0), key: 3)
    #expect(p21 == nil)
    let p22 = n.percentile(of: 1, at: at(hours: 0), key: 2)
    #expect(p22 == nil)
    let p23 = n.percentile(of: .nan, at: at(hours: 2), key: 3)
    #expect(p23 == nil)
    // A NaN score is not recorded.
    n.record(score: .nan, at: at(hours: 1), key: 3)
    let p24 = n.percentile(of: 1, at: at(hours: 2), key: 3)
    #expect(p24 == 0.5)
    #expect(n.populationCount(key: 3) == 1)
  }

  @Test func anEmptyOrNegativeDayWindowCountsNothing() {
    for days in [0, -3, Int.min] {
      var n = PercentileNormaliser(window: .days(days))
      n.record(score: 1, at: at(hours: 0), key: 0)
      let p25 = n.percentile(of: 1, at: at(hours: 0), key: 0)
      #expect(p25 == nil, "days \(days)")
    }
    var huge = PercentileNormaliser(window: .days(Int.max))
    huge.record(score: 1, at: at(hours: 0), key: 0)
    let p26 = huge.percentile(of: 1, at: at(hours: 1_000_000), key: 0)
    #expect(p26 == 0.5)
  }

  @Test func outOfOrderRecordsAndEarlierQueriesStillGiveTheDefinition() {
    var n = PercentileNormaliser(window: .days(1))
    n.record(score: 5, at: at(hours: 10), key: 0)
    let p27 = n.percentile(of: 5, at: at(hours: 20), key: 0)
    #expect(p27 == 0.5)
    // A record dated before the last query's time enters the population.
    n.record(score: 1, at: at(hours: 5), key: 0)
    let p28 = n.percentile(of: 5, at: at(hours: 20), key: 0)
    #expect(p28 == 0.75)
    // Going back in time: at 6 h only the score dated 5 h counts.
    let p29 = n.percentile(of: 5, at: at(hours: 6), key: 0)
    #expect(p29 == 1)
    // Forward again: at 29.5 h the 5 h score has left the one-day window.
    let p30 = n.percentile(of: 5, at: at(hours: 29.5), key: 0)
    #expect(p30 == 0.5)
  }

  /// `(count(s' < s) + 0.5 count(s' == s)) / count` over the records of `key` dated in the
  /// window, counted plainly.
  static func reference(
    _ records: [(date: Int64, score: Double, key: Int)], of s: Double, at now: Int64, key: Int,
    windowDays: Int?
  ) -> Double? {
    var below = 0
    var equal = 0
    var count = 0
    for r in records where r.key == key && r.date <= now {
      if let days = windowDays, r.date <= now - Int64(days) * 86_400_000 { continue }
      count += 1
      if r.score < s { below += 1 } else if r.score == s { equal += 1 }
    }
    return count == 0 ? nil : (Double(below) + 0.5 * Double(equal)) / Double(count)
  }

  @Test func agreesWithABruteForceCountOnRandomHistories() {
    let day: Int64 = 86_400_000
    for seed in UInt64(1)...400 {
      var rng = RelevanceTestRandom(seed: seed)
      let windowDays: Int? = [nil, 1, 2][rng.below(3)]
      var n = PercentileNormaliser(window: windowDays.map { .days($0) } ?? .all)
      var records: [(date: Int64, score: Double, key: Int)] = []
      var now: Int64 = 0
      for step in 0..<120 {
        // Mostly records in date order with ties; sometimes out of order; queries mostly
        // forward in time, sometimes backwards.
        if rng.below(2) == 0 {
          let late = rng.below(10) == 0
          let date = late ? Int64(rng.below(Int(now / (day / 4)) + 1)) * (day / 4) : now
          let score = Double(rng.below(7)) - 2
          let key = rng.below(3)
          records.append((date, score, key))
          n.record(score: score, at: Instant(milliseconds: date), key: key)
        } else {
          if rng.below(8) == 0 {
            now = max(0, now - Int64(rng.below(4)) * (day / 4))
          } else {
            now += Int64(rng.below(3)) * (day / 4)
          }
          let key = rng.below(3)
          let s = Double(rng.below(9)) - 3
          let expected = Self.reference(records, of: s, at: now, key: key, windowDays: windowDays)
          let actual = n.percentile(of: s, at: Instant(milliseconds: now), key: key)
          if actual != expected {
            Issue.record(
              "seed \(seed), step \(step): percentile(\(s)) at \(now) key \(key) = \(String(describing: actual)), expected \(String(describing: expected))"
            )
            break
          }
        }
      }
    }
  }
}
