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

/// Records what the engine tells a strategy: the clock fields at every call.
private struct ClockProbe: RankingStrategy {
  static let info = StrategyInfo(name: "clock-probe", summary: "test strategy: records the clock fields")
  var seen: [(now: Int64, hour: Int, hourOfWeek: Int, day: Int64)] = []
  init(parameters: StrategyParameters) {}
  mutating func observe(_ event: ObservedEvent, context: StackContext) { record(context) }
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) { record(context) }
  mutating func record(_ c: StackContext) { seen.append((c.now, c.hourOfDay, c.hourOfWeek, c.dayIndex)) }
}

/// Keeps each visit's relevance state, its kind and percentile of every instance.
private struct RelevanceProbe: OutcomeObserver {
  var visits: [(time: Int64, states: [RelevanceState], kinds: [RelevanceState.Kind], percentiles: [Double])] = []
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    visits.append((outcome.time, features.relevance, features.relevanceKind, features.percentile))
  }
}

/// The engine caches the clock fields per local hour and refreshes relevance only when it
/// can have changed; these tests compare what it shows with values computed from scratch.
@Suite("Engine caches")
struct EngineCacheTests {
  let instances = [
    WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "A"), WidgetInstance(id: "c", kind: "C"),
  ]

  /// Around daylight-saving transitions and across days, in increasing and sometimes
  /// decreasing time, every event sees the fields `ZoneRules` computes.
  @Test func clockFieldsEqualTheZoneRulesAtEveryEvent() throws {
    for zoneName in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC"] {
      let zone = try #require(ZoneRules(identifier: zoneName))
      for seed in 0..<20 {
        var rng = SplitMix64(seed: UInt64(seed))
        var session = StackSession(
          person: 0, instances: instances, strategy: ClockProbe(parameters: .none),
          observer: RelevanceProbe(), zone: zone, options: EngineOptions(), strategySeed: 1)
        session.makeAvailable(0)
        // 2026-03-29 (EU spring forward) and 2026-11-01 (US fall back), ± a few days.
        var t = (seed % 2 == 0 ? Int64(1_774_656_000_000) : 1_793_404_800_000) - 3 * 86_400_000
        for _ in 0..<300 {
          t += Int64(rng.nextInt(below: 40 * 60_000)) - (rng.nextInt(below: 30) == 0 ? 3_600_000 : 0)
          if rng.nextInt(below: 2) == 0 {
            session.visit(at: t, hasTarget: false, targets: [])
          } else {
            session.donation(at: t, kind: 0, matched: [0])
          }
        }
        for s in session.strategy.seen {
          let instant = Instant(milliseconds: s.now)
          #expect(s.hour == zone.hourOfDay(at: instant), "\(zoneName) seed \(seed) at \(instant)")
          #expect(s.hourOfWeek == zone.hourOfWeek(at: instant), "\(zoneName) seed \(seed) at \(instant)")
          #expect(s.day == zone.dayIndex(at: instant), "\(zoneName) seed \(seed) at \(instant)")
        }
      }
    }
  }

  /// Random timelines (some entries without relevance, scores <= 0, windows that
  /// expire) with both normaliser scopes and windows: at every visit each instance's
  /// state and percentile equal a from-scratch computation over the entries so far.
  @Test func relevanceAtEveryVisitEqualsAFromScratchComputation() {
    let scopes: [(PercentileNormaliser.Scope, PercentileNormaliser.Window)] = [
      (.instance, .all), (.kind, .all), (.instance, .days(1)), (.kind, .days(2)),
    ]
    for (scope, window) in scopes {
      for seed in 0..<40 {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1_000)
        var options = EngineOptions()
        options.normaliserScope = scope
        options.normaliserWindow = window
        var session = StackSession(
          person: 0, instances: instances, strategy: MostFrequentlyUsedStrategy(parameters: .none),
          observer: RelevanceProbe(), zone: .utc, options: options, strategySeed: 1)
        for i in instances.indices { session.makeAvailable(i) }
        var entries: [(instance: Int, entry: RelevanceEntry)] = []
        // Entries fed before each visit (an entry at a visit's instant may come after it).
        var entriesBefore: [Int] = []
        var t: Int64 = 1_772_409_600_000
        for _ in 0..<250 {
          t += Int64(rng.nextInt(below: 3)) * Int64(rng.nextInt(below: 90 * 60_000))
          if rng.nextInt(below: 3) == 0 {
            let i = rng.nextInt(below: instances.count)
            var relevance: Relevance? = nil
            if rng.nextInt(below: 8) != 0 {
              relevance = Relevance(
                score: Double(rng.nextInt(below: 7)) - 2,
                durationMilliseconds: [0, 600_000, 3_600_000][rng.nextInt(below: 3)])
            }
            let entry = RelevanceEntry(date: Instant(milliseconds: t), relevance: relevance)
            entries.append((i, entry))
            session.relevanceEntry(instance: i, entry: entry)
          } else {
            entriesBefore.append(entries.count)
            session.visit(at: t, hasTarget: false, targets: [])
          }
        }
        let kindOf = [0, 0, 1]
        for (visit, count) in zip(session.observer.visits, entriesBefore) {
          let now = Instant(milliseconds: visit.time)
          let entries = entries.prefix(count)
          for i in instances.indices {
            let mine = entries.filter { $0.instance == i && $0.entry.date <= now }.map(\.entry)
            let state = RelevanceTimeline(mine).state(at: now)
            #expect(visit.states[i] == state, "seed \(seed) \(scope) \(window) visit at \(now) instance \(i)")
            #expect(visit.kinds[i] == state.kind)
            var expected = Double.nan
            if let score = state.windowScore {
              var population = entries.filter { e in
                let sameKey = scope == .instance ? e.instance == i : kindOf[e.instance] == kindOf[i]
                guard sameKey, e.entry.date <= now, e.entry.relevance != nil else { return false }
                if case .days(let n) = window { return e.entry.date.milliseconds > now.milliseconds - Int64(n) * 86_400_000 }
                return true
              }.compactMap { $0.entry.relevance?.score }
              // The current score is part of its own population, also once its entry
              // has left the day window (the latest entry with relevance opened it).
              let current = mine.enumerated().filter { $0.element.relevance != nil }.max {
                ($0.element.date.milliseconds, $0.offset) < ($1.element.date.milliseconds, $1.offset)
              }?.element.date
              if case .days(let n) = window, let current,
                current.milliseconds <= now.milliseconds - Int64(n) * 86_400_000
              {
                population.append(score)
              }
              if !population.isEmpty {
                let below = population.filter { $0 < score }.count
                let equal = population.filter { $0 == score }.count
                expected = (Double(below) + 0.5 * Double(equal)) / Double(population.count)
              }
            }
            let got = visit.percentiles[i]
            #expect(
              got == expected || (got.isNaN && expected.isNaN),
              "seed \(seed) \(scope) \(window) visit at \(now) instance \(i): \(got) != \(expected)")
          }
        }
      }
    }
  }

  /// Built-in strategies reach a visitor as their own type (so the engine is
  /// specialised for them); a user's strategy still runs, through the generic path.
  @Test func builtInStrategiesOpenAsTheirConcreteType() throws {
    struct TypeName: StrategyTypeVisitor {
      func visit<S: RankingStrategy>(_ prototype: S) -> String { "\(S.self)" }
    }
    let registry = StrategyRegistry.builtIn
    for choice in try registry.allWithDefaults(having: [.scores, .context]) {
      #expect(choice.open(TypeName()) == "\(type(of: choice.prototype))")
    }
    var custom = StrategyRegistry.builtIn
    custom.register(ClockProbe.self)
    #expect(try custom.parse("clock-probe").open(TypeName()) == "ClockProbe")
  }
}
