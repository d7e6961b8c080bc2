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

@Suite("Reloads and budget")
struct ReloadSimulationTests {
  let minute: Int64 = 60_000
  let hour: Int64 = 3_600_000
  let day: Int64 = 86_400_000
  /// 2026-01-05T00:00:00Z.
  let t0: Int64 = 1_767_571_200_000

  func budget(_ minimum: Double, _ maximum: Double) -> ReloadBudget {
    var budget = ReloadBudget()
    budget.minimum = minimum
    budget.maximum = maximum
    return budget
  }

  /// A simulation over `[t0, t0 + length)`; `entries` are (offset from t0, score or nil
  /// for nil relevance, duration, live).
  func simulation(
    _ entries: [(Int64, Double?, Int64, Bool)], policy: ReloadSpec.Policy, horizon: Double = 24,
    onEvent: Bool = true, onOpen: Bool = false, budget: ReloadBudget = ReloadBudget(),
    length: Int64 = 86_400_000, visits: [Int64] = [], expected: Double = 0, wants: [Int64] = []
  ) -> ReloadSimulation {
    var timeline = IntendedTimeline()
    for (offset, score, duration, live) in entries {
      timeline.append(
        RelevanceEntry(
          date: Instant(milliseconds: t0 + offset),
          relevance: score.map { Relevance(score: $0, durationMilliseconds: duration) }),
        live: live)
    }
    timeline.finish()
    return ReloadSimulation(
      timeline: timeline,
      spec: ReloadSpec(policy: policy, horizonHours: horizon, onEvent: onEvent, onOpen: onOpen),
      budget: budget, start: t0, end: t0 + length, visits: visits.map { t0 + $0 },
      expectedVisitsPerDay: expected, wants: wants.map { t0 + $0 }, foregroundLength: 3 * minute)
  }

  func run(_ simulation: ReloadSimulation, seed: UInt64 = 1) -> ReloadSimulation.Result {
    var random = Xoshiro256StarStar(seed: seed)
    return simulation.run(using: &random)
  }

  /// The delivered entries as (offset from t0, score or nil, duration).
  func delivered(_ result: ReloadSimulation.Result) -> [[Double?]] {
    result.entries.map {
      [
        Double($0.entry.date.milliseconds - t0), $0.entry.relevance?.score,
        $0.entry.relevance.map { Double($0.durationMilliseconds) },
      ]
    }
  }

  func checkInvariants(_ c: ReloadCounts, _ note: String = "") {
    #expect(c.requested == c.granted + c.refused + c.coalesced + c.pending, "\(note) \(c)")
    #expect(c.free <= c.granted, "\(note) \(c)")
  }

  /// `t0`, `t0 + 5 min`, … (`count` times).
  func everyFiveMinutes(_ count: Int) -> [Int64] {
    var times: [Int64] = []
    for k in 0..<count { times.append(t0 + Int64(k) * 5 * minute) }
    return times
  }

  /// The largest number of `times` in any window `(t - 24 h, t]`.
  func busiestDay(_ times: [Int64]) -> Int {
    var best = 0
    var low = 0
    for (high, t) in times.enumerated() {
      while times[low] <= t - day { low += 1 }
      best = max(best, high - low + 1)
    }
    return best
  }

  @Test func atEndEveryFiveMinutesGetsAtMostTheBudgetInAnyDay() {
    // A timeline reaching 5 minutes ahead, asking again at its end: 288 wishes a day.
    var entries: [(Int64, Double?, Int64, Bool)] = []
    for k in 0..<(3 * 288) {
      let score = Double(k % 7 + 1)
      entries.append((Int64(k) * 5 * minute, score, 0, false))
    }
    let result = run(
      simulation(
        entries, policy: .atEnd, horizon: 5.0 / 60, onEvent: false, budget: budget(40, 40),
        length: 3 * day))
    let c = result.counts
    checkInvariants(c)
    #expect(busiestDay(result.budgeted) == 40)
    #expect(result.budgeted.filter { $0 < t0 + day }.count == 40)
    #expect(Array(result.budgeted.prefix(40)) == everyFiveMinutes(40))
    #expect(c.granted > 80 && c.granted <= 120, "\(c)")
    #expect(c.refused > 0 && c.free == 0, "\(c)")
    #expect(result.performed == result.budgeted)
  }

  @Test func afterFiveMinutesIsRefusedOnceTheBudgetIsUsed() {
    let result = run(simulation([], policy: .after(minutes: 5), budget: budget(40, 40)))
    // Requests at 0, 5, …, 1435 minutes: the first 40 granted, the other 248 refused.
    var expected = ReloadCounts()
    expected.requested = 288
    expected.granted = 40
    expected.refused = 248
    #expect(result.counts == expected)
    #expect(result.budgeted == everyFiveMinutes(40))
  }

  @Test func theBudgetGrowsWithHomeScreenVisits() {
    let budget = ReloadBudget()
    #expect([0, 45, 89, 90, 500].map { budget.allowance(visits: $0) } == [40, 55, 69, 70, 70])
    // No visits and none assumed before the start: 40 a day.
    let none = run(simulation([], policy: .after(minutes: 5)))
    #expect(none.counts.granted == 40)
    // 100 visits in the first tenth of a second: 70.
    let seen = run(simulation([], policy: .after(minutes: 5), visits: (0..<100).map { Int64($0) }))
    #expect(seen.counts.granted == 70)
    // Assumed 90 a day before the start, fading out: the request at minute 5j is granted
    // while j < ⌊70 - 30 · 5j / 1440⌋, i.e. for j = 0 … 62.
    let assumed = run(simulation([], policy: .after(minutes: 5), expected: 90))
    #expect(assumed.counts.granted == 63)
  }

  @Test func reloadsWhileTheAppIsInTheForegroundAreFree() {
    let result = run(
      simulation(
        [(3 * hour, 1, 0, true), (5 * hour, 2, 0, true), (6 * hour + 2 * minute, 3, 0, true)],
        policy: .never, onOpen: true, budget: budget(1, 1), length: 12 * hour,
        wants: [2 * hour, 4 * hour, 6 * hour]))
    var expected = ReloadCounts()
    expected.requested = 7  // the first reload, 3 opens, 3 events
    expected.granted = 4
    expected.free = 3  // the opens
    expected.refused = 3  // the events: the budget of 1 went to the first reload
    expected.delayed = 1  // the event 2 minutes after the open at 6 h waited until 6:05
    expected.entriesDelivered = 2
    expected.entriesDropped = 1
    #expect(result.counts == expected)
    #expect(result.budgeted == [t0])
    #expect(result.performed == [t0, t0 + 2 * hour, t0 + 4 * hour, t0 + 6 * hour])
    // Each event reached the stack at the next (free) reload; the last never did.
    #expect(delivered(result) == [[Double(4 * hour), 1, 0], [Double(6 * hour), 2, 0]])
  }

  @Test func requestsCloserThanFiveMinutesCoalesce() {
    let result = run(
      simulation(
        [
          (hour, 1, 0, true), (hour + minute, 2, 0, true), (hour + 2 * minute, 3, 0, true),
          (hour + 3 * minute, 4, 0, true),
        ],
        policy: .never, length: 2 * hour))
    var expected = ReloadCounts()
    expected.requested = 5
    expected.granted = 3  // at 0, at 1 h, and the delayed one at 1:05
    expected.delayed = 1  // 1:01 waits for 1:05
    expected.coalesced = 2  // 1:02 and 1:03 merge into it
    expected.entriesDelivered = 2
    expected.entriesDropped = 2  // 1:01 and 1:02 were superseded by 1:03 before 1:05
    #expect(result.counts == expected)
    #expect(result.performed == [t0, t0 + hour, t0 + hour + 5 * minute])
    #expect(delivered(result) == [[Double(hour), 1, 0], [Double(hour + 5 * minute), 4, 0]])

    // A scheduled reload and an event at one instant are one reload.
    let same = run(
      simulation([(hour, 1, 0, true)], policy: .after(minutes: 60), length: 90 * minute))
    #expect(same.counts.requested == 3 && same.counts.granted == 2 && same.counts.coalesced == 1)
  }

  @Test func entriesTakeEffectWhenAReloadDeliversThem() {
    let result = run(
      simulation(
        [
          (10 * hour, 5, 120 * minute, true),  // delivered at 10:30, still ending at 12:00
          (10 * hour + 50 * minute, 7, 20 * minute, true),  // over by 11:10, before 11:15
          (11 * hour + 20 * minute, 9, 0, true),  // the reload at 12:00 is past the end
          (11 * hour + 40 * minute, 3, 0, false),  // scheduled: delivered ahead, on time
        ],
        policy: .after(minutes: 45), onEvent: false, length: 12 * hour))
    #expect(
      delivered(result) == [
        [Double(11 * hour + 40 * minute), 3, 0],
        [Double(10 * hour + 30 * minute), 5, Double(90 * minute)],
      ])
    #expect(result.counts.entriesDelivered == 2)
    #expect(result.counts.entriesDropped == 2)
    #expect(result.performed.count == 16)  // 0:00, 0:45, …, 11:15

    // Of two undelivered entries before a reload, only the current one is delivered.
    let superseded = run(
      simulation(
        [(10 * hour, 1, 0, true), (10 * hour + 10 * minute, 2, 0, true)],
        policy: .after(minutes: 45), onEvent: false, length: 11 * hour))
    #expect(delivered(superseded) == [[Double(10 * hour + 30 * minute), 2, 0]])
    #expect(superseded.counts.entriesDropped == 1)
  }

  @Test func atEndAsksAgainAtTheLastEntryThenWhenTheSystemPicks() {
    for seed in UInt64(1)...20 {
      let result = run(
        simulation(
          [(hour, 1, 0, false), (2 * hour, 2, 0, false), (3 * hour, 3, 0, false)],
          policy: .atEnd, onEvent: false, length: 6 * hour), seed: seed)
      #expect(Array(result.performed.prefix(2)) == [t0, t0 + 3 * hour], "seed \(seed)")
      let third = result.performed[2] - t0
      #expect(third >= 3 * hour + 15 * minute && third <= 4 * hour, "seed \(seed)")
      // Everything was delivered ahead, at its own date.
      #expect(
        delivered(result).map { $0[0] } == [Double(hour), Double(2 * hour), Double(3 * hour)])
    }
  }

  @Test func countsAndSpacingHoldForRandomSetups() {
    for seed in UInt64(1)...200 {
      var g = SplitMix64(seed: seed)
      let length = Int64(1 + g.nextInt(below: 3)) * day
      var entries: [(Int64, Double?, Int64, Bool)] = []
      for _ in 0..<g.nextInt(below: 80) {
        let offset = Int64(g.nextInt(below: Int(length + 2 * hour))) - hour
        let score: Double? = g.nextBool(probability: 0.2) ? nil : Double(g.nextInt(in: -2...5))
        let duration = g.nextBool(probability: 0.5) ? 0 : Int64(g.nextInt(below: 300)) * minute
        entries.append((offset, score, duration, g.nextBool(probability: 0.6)))
      }
      let policies: [ReloadSpec.Policy] = [
        .atEnd, .after(minutes: Double(1 + g.nextInt(below: 90))), .never,
      ]
      let wants = (0..<g.nextInt(below: 60)).map { _ in Int64(g.nextInt(below: Int(length))) }
        .sorted()
      let visits = (0..<g.nextInt(below: 300)).map { _ in Int64(g.nextInt(below: Int(length))) }
        .sorted()
      var budget = budget(Double(g.nextInt(below: 50)), 0)
      budget.maximum = budget.minimum + Double(g.nextInt(below: 40))
      budget.spacingMinutes = Double(g.nextInt(below: 10))
      let sim = simulation(
        entries, policy: policies[g.nextInt(below: 3)], horizon: Double(g.nextInt(below: 30)),
        onEvent: g.nextBool(probability: 0.7), onOpen: g.nextBool(probability: 0.5), budget: budget,
        length: length, visits: visits, expected: Double(g.nextInt(below: 120)), wants: wants)
      let result = run(sim, seed: seed)
      let c = result.counts
      checkInvariants(c, "seed \(seed)")
      #expect(busiestDay(result.budgeted) <= Int(budget.maximum), "seed \(seed)")
      #expect(
        c.granted == result.performed.count && c.granted - c.free == result.budgeted.count,
        "seed \(seed)")
      let spacing = Int64(budget.spacingMinutes) * minute
      #expect(
        zip(result.performed, result.performed.dropFirst()).allSatisfy {
          $1 - $0 >= max(spacing, 1)
        },
        "seed \(seed)")
      #expect(
        result.entries.allSatisfy {
          $0.entry.date.milliseconds >= t0 && $0.entry.date.milliseconds < t0 + length
        })
      let beforeEnd = sim.timeline.entries.filter { $0.date.milliseconds < t0 + length }.count
      #expect(c.entriesDelivered + c.entriesDropped == beforeEnd, "seed \(seed)")
      #expect(Set(result.entries.map(\.order)).count == result.entries.count, "seed \(seed)")
    }
  }
}
