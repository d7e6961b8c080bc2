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
    referenceCount(records, of: s, at: now, key: key, windowDays: windowDays).percentile
  }

  /// `reference(_:of:at:key:windowDays:)` with the population size it counted.
  static func referenceCount(
    _ records: [(date: Int64, score: Double, key: Int)], of s: Double, at now: Int64, key: Int,
    windowDays: Int?
  ) -> (percentile: Double?, count: Int) {
    var below = 0
    var equal = 0
    var count = 0
    for r in records where r.key == key && r.date <= now {
      if let days = windowDays, r.date <= now - Int64(days) * 86_400_000 { continue }
      count += 1
      if r.score < s { below += 1 } else if r.score == s { equal += 1 }
    }
    return (count == 0 ? nil : (Double(below) + 0.5 * Double(equal)) / Double(count), count)
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

// MARK: - Copies, large populations, and a model of every call

extension PercentileNormaliserTests {
  @Test func copiesAreIndependentValues() {
    var a = PercentileNormaliser()
    a.record(score: 1, at: at(hours: 0), key: 0)
    a.record(score: 3, at: at(hours: 1), key: 0)
    let pa = a.percentile(of: 3, at: at(hours: 1), key: 0)
    #expect(pa == 0.75)
    var b = a
    b.record(score: 5, at: at(hours: 2), key: 0)
    b.record(score: 9, at: at(hours: 2), key: 4)
    // {1, 3, 5}: below 5 are 2, equal 1 -> 2.5 / 3.
    let pb = b.percentile(of: 5, at: at(hours: 2), key: 0)
    #expect(pb == 2.5 / 3)
    #expect(b.populationCount(key: 0) == 3)
    // `a` never saw 5 nor key 4.
    #expect(a.populationCount(key: 0) == 2)
    let pa2 = a.percentile(of: 3, at: at(hours: 2), key: 0)
    #expect(pa2 == 0.75)
    let pa3 = a.percentile(of: 9, at: at(hours: 2), key: 4)
    #expect(pa3 == nil)
    // Mutating `a` does not reach `b`: {1, 3, 0} against {1, 3, 5}.
    a.record(score: 0, at: at(hours: 3), key: 0)
    let pa4 = a.percentile(of: 3, at: at(hours: 3), key: 0)
    #expect(pa4 == 2.5 / 3)
    let pb2 = b.percentile(of: 3, at: at(hours: 3), key: 0)
    #expect(pb2 == 1.5 / 3)
    // A query alone (it moves the population) on a copy leaves the original alone.
    var c = b
    let pc = c.percentile(of: 5, at: at(hours: 1), key: 0)
    #expect(pc == 1)
    #expect(c.populationCount(key: 0) == 2)
    #expect(b.populationCount(key: 0) == 3)
  }

  @Test func populationsOfMoreThan256ScoresCountExactly() {
    // 300 scores i % 10 one minute apart: 30 of each value 0...9.
    var n = PercentileNormaliser(window: .days(1))
    for i in 0..<300 {
      n.record(score: Double(i % 10), at: at(hours: Double(i) / 60), key: 0)
    }
    // (4 values × 30 below + 0.5 × 30 equal) / 300
    let p1 = n.percentile(of: 4, at: at(hours: 5), key: 0)
    #expect(p1 == 135.0 / 300)
    let p2 = n.percentile(of: 9.5, at: at(hours: 5), key: 0)
    #expect(p2 == 1)
    // One day after minute 100 the first 101 scores (minutes 0...100) have left: 199
    // remain, minutes 101...299, of which 20 are 4 (104, 114, …, 294) and 79 below 4
    // (101...103, then 4 in each ten of 110...299).
    let p3 = n.percentile(of: 4, at: at(hours: 24 + 100.0 / 60), key: 0)
    #expect(n.populationCount(key: 0) == 199)
    #expect(p3 == 89.0 / 199)
  }

  /// The normaliser's contract written plainly: every record kept, every answer counted
  /// from scratch with the documented formula.
  struct Model {
    var records: [(date: Int64, score: Double, key: Int)] = []
    var windowDays: Int?
    /// Keys with a bucket: one past the largest key given a (non-NaN) score.
    var keyCount = 0
    /// Per key, the population size at its last query that reached it.
    var lastCounts: [Int] = []

    mutating func record(score: Double, at date: Int64, key: Int) {
      if score.isNaN { return }
      records.append((date, score, key))
      while lastCounts.count <= key { lastCounts.append(0) }
      keyCount = max(keyCount, key + 1)
    }

    mutating func percentile(of s: Double, at now: Int64, key: Int) -> Double? {
      guard key >= 0, key < keyCount, !s.isNaN else { return nil }
      let answer = PercentileNormaliserTests.referenceCount(records, of: s, at: now, key: key, windowDays: windowDays)
      lastCounts[key] = answer.count
      return answer.percentile
    }

    func populationCount(key: Int) -> Int {
      key >= 0 && key < lastCounts.count ? lastCounts[key] : 0
    }
  }

  /// Records `what` unless `actual` and `expected` are the same optional Double, bit for
  /// bit.
  @discardableResult
  static func expectSame(_ actual: Double?, _ expected: Double?, _ what: @autoclosure () -> String) -> Bool {
    let same = actual == expected && actual?.bitPattern == expected?.bitPattern
    if !same {
      Issue.record("\(what()): got \(String(describing: actual)), expected \(String(describing: expected))")
    }
    return same
  }

  /// Scores with many ties, both zeros, both infinities, the odd NaN and odd fraction.
  static func randomScore(_ rng: inout RelevanceTestRandom) -> Double {
    let common: [Double] = [-2, -1, -0.0, 0, 0.25, 1, 1, 2, 3, 3]
    switch rng.below(40) {
    case 0: return .nan
    case 1: return .infinity
    case 2: return -.infinity
    case 3, 4, 5: return Double(rng.below(1000)) / 7 - 50
    default: return common[rng.below(common.count)]
    }
  }

  @Test func agreesWithAPlainModelOnRandomCallSequences() {
    let quarter: Int64 = 21_600_000
    for seed in UInt64(1)...200 {
      var rng = RelevanceTestRandom(seed: seed)
      let scope = PercentileNormaliser.Scope.allCases[rng.below(2)]
      let windowDays: Int? = [nil, 1, 2, 3][rng.below(4)]
      let kinds = [0, 0, 1, 2, 1]
      var n = PercentileNormaliser(scope: scope, window: windowDays.map { .days($0) } ?? .all)
      var model = Model(windowDays: windowDays)
      var frozen: (normaliser: PercentileNormaliser, model: Model)? = nil
      var now: Int64 = 0
      var failed = false
      for step in 0..<150 where !failed {
        let instance = rng.below(kinds.count)
        let key = n.key(instance: instance, kind: kinds[instance])
        let context = "seed \(seed), step \(step), scope \(scope), window \(String(describing: windowDays))"
        switch rng.below(10) {
        case 0...4:
          // The engine's pattern: a score dated now, then its percentile now; sometimes
          // dated later (it enters later) or earlier (out of order).
          now += Int64(rng.below(3)) * quarter / 2
          let score = Self.randomScore(&rng)
          var date = now
          switch rng.below(8) {
          case 0: date = now + Int64(rng.below(4)) * quarter
          case 1: date = max(0, now - Int64(rng.below(8)) * quarter)
          default: break
          }
          n.record(score: score, at: Instant(milliseconds: date), key: key)
          model.record(score: score, at: date, key: key)
          let actual = n.percentile(of: score, at: Instant(milliseconds: now), key: key)
          let expected = model.percentile(of: score, at: now, key: key)
          failed = !Self.expectSame(actual, expected, "\(context): record then percentile(\(score)) at \(now) key \(key)")
        case 5...7:
          // A query for any score, mostly forward in time, sometimes backwards, sometimes
          // for a key never given a score or an invalid one.
          if rng.below(5) == 0 {
            now = max(0, now - Int64(rng.below(6)) * quarter)
          } else {
            now += Int64(rng.below(3)) * quarter / 2
          }
          let queryKey = rng.below(12) == 0 ? rng.below(8) - 2 : key
          let s = Self.randomScore(&rng)
          let actual = n.percentile(of: s, at: Instant(milliseconds: now), key: queryKey)
          let expected = model.percentile(of: s, at: now, key: queryKey)
          failed = !Self.expectSame(actual, expected, "\(context): percentile(\(s)) at \(now) key \(queryKey)")
        case 8:
          // Records only, as `smartstack relevance` makes them up front.
          for _ in 0..<rng.below(4) {
            let score = Self.randomScore(&rng)
            let date = now + Int64(rng.below(6) - 1) * quarter
            n.record(score: score, at: Instant(milliseconds: max(0, date)), key: key)
            model.record(score: score, at: max(0, date), key: key)
          }
        default:
          if frozen == nil { frozen = (n, model) }
        }
        for k in -1...6 where n.populationCount(key: k) != model.populationCount(key: k) {
          Issue.record("\(context): populationCount(key: \(k)) = \(n.populationCount(key: k)), expected \(model.populationCount(key: k))")
          failed = true
        }
      }
      // The copy taken along the way answers as if nothing happened since.
      if var (copy, copyModel) = frozen, !failed {
        for k in -1...6 where copy.populationCount(key: k) != copyModel.populationCount(key: k) {
          Issue.record("seed \(seed): copy's populationCount(key: \(k)) = \(copy.populationCount(key: k)), expected \(copyModel.populationCount(key: k))")
        }
        for k in 0..<4 {
          for s in [-1.0, 0, 1, 3] {
            let t = now - Int64(k) * quarter
            let actual = copy.percentile(of: s, at: Instant(milliseconds: t), key: k)
            let expected = copyModel.percentile(of: s, at: t, key: k)
            Self.expectSame(actual, expected, "seed \(seed): copy's percentile(\(s)) at \(t) key \(k)")
          }
        }
      }
    }
  }

  @Test func agreesWithAPlainModelAcrossTheSortedPoolThresholds() {
    // Dense phases (hundreds of scores a day) push a key's population above 256, where the
    // pool is sorted; sparse phases let a one-day window shrink it below 128 again.
    let day: Int64 = 86_400_000
    for seed in UInt64(1)...6 {
      var rng = RelevanceTestRandom(seed: seed)
      let windowDays: Int? = seed % 3 == 0 ? nil : 1
      var n = PercentileNormaliser(window: windowDays.map { .days($0) } ?? .all)
      var model = Model(windowDays: windowDays)
      var now: Int64 = 0
      var failed = false
      for step in 0..<1500 where !failed {
        let perDay: Int64 = (step / 400) % 2 == 0 ? 500 : 40
        now += day / perDay
        let key = rng.below(8) == 0 ? 1 : 0
        let score = Self.randomScore(&rng)
        let date = rng.below(30) == 0 ? max(0, now - Int64(rng.below(1000)) * (day / 500)) : now
        n.record(score: score, at: Instant(milliseconds: date), key: key)
        model.record(score: score, at: date, key: key)
        var t = now
        if rng.below(40) == 0 { t = max(0, now - Int64(rng.below(2000)) * (day / 500)) }
        let s = rng.below(4) == 0 ? Self.randomScore(&rng) : score
        let actual = n.percentile(of: s, at: Instant(milliseconds: t), key: key)
        let expected = model.percentile(of: s, at: t, key: key)
        failed = !Self.expectSame(
          actual, expected,
          "seed \(seed), step \(step): percentile(\(s)) at \(t) key \(key), population \(model.populationCount(key: key))")
        if n.populationCount(key: key) != model.populationCount(key: key) {
          Issue.record("seed \(seed), step \(step): populationCount \(n.populationCount(key: key)), expected \(model.populationCount(key: key))")
          failed = true
        }
      }
    }
  }
}
