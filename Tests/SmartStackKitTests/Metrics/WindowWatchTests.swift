import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// Shows the instance a script names for the visit's time (the lowest-index candidate
/// when the script names none or a non-candidate).
private struct Scripted: RankingStrategy {
  static let info = StrategyInfo(name: "scripted", summary: "test strategy: shows what the script says")
  /// Visit time (epoch ms) → instance to show.
  nonisolated(unsafe) static var script: [Int64: Int] = [:]
  init(parameters: StrategyParameters) {}
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let wanted = Self.script[context.now] ?? -1
    ranking.setCandidateScores(context) { i in i == wanted ? 1 : -Double(i) }
  }
}

/// The watch of top-percentile windows (`WindowWatch`), fed by the engine's stack events,
/// on a hand-built run whose windows, visits and times to surface are worked out by hand.
@Suite("Window watch")
struct WindowWatchTests {
  static let hour: Int64 = 3_600_000
  static let minute: Int64 = 60_000

  /// Threshold 0.5 with the instance normaliser: an instance's first score is at the
  /// mid-rank percentile 0.5 (top-percentile), a second one higher at 0.75, lower at 0.25.
  func run() -> (WindowRecorder, StandardMetrics) {
    let h = Self.hour
    let m = Self.minute
    Scripted.script = [
      10 * m: 1, 30 * m: 0, h: 0, 150 * m: 0, 210 * m: 0, 5 * h: 1, 390 * m: 1, 450 * m: 0,
    ]
    var options = EngineOptions()
    options.relevanceThreshold = 0.5
    let instances = [WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "B")]
    var session = StackSession(
      person: 0, instances: instances, strategy: Scripted(parameters: .none),
      observer: ObserverPair(WindowRecorder(), StandardMetrics()), zone: .utc, options: options, strategySeed: 1)
    session.makeAvailable(0)
    session.makeAvailable(1)
    func entry(_ i: Int, _ t: Int64, score: Double, duration: Int64 = 0) {
      session.relevanceEntry(
        instance: i,
        entry: RelevanceEntry(
          date: Instant(milliseconds: t), relevance: Relevance(score: score, durationMilliseconds: duration)))
    }
    func visit(_ t: Int64) { session.visit(at: t, hasTarget: false, targets: []) }
    // Window 1: a, [0, 2h), top-percentile from its start; visits at 10 min (shows b),
    // 30 min (shows a: surfaced after 30 min) and 1 h; it expires before 2.5 h.
    entry(0, 0, score: 5, duration: 2 * h)
    visit(10 * m)
    visit(30 * m)
    visit(h)
    visit(150 * m)
    // Window 2: b from 3 h, while b is no candidate: no visit counts; a new entry with a
    // lower score replaces it at 4 h (0.25: not top-percentile, not watched).
    entry(1, 3 * h, score: 1)
    session.setAvailable(1, false)
    visit(210 * m)
    entry(1, 4 * h, score: 0.5)
    session.setAvailable(1, true)
    visit(5 * h)
    // Window 3: a from 6 h (0.75), one visit showing b; replaced at 7 h by a higher
    // score (0.83): window 4 starts at once, shown at 7.5 h, open at the end.
    entry(0, 6 * h, score: 9)
    visit(390 * m)
    entry(0, 7 * h, score: 10)
    visit(450 * m)
    session.finish(at: 8 * h)
    let pair = session.finishedObserver()
    return (pair.first, pair.second)
  }

  @Test func everyWatchedWindowWithItsVisitsAndTimeToSurface() {
    let (recorder, _) = run()
    let h = Self.hour
    #expect(
      recorder.windows.map(\.window) == [
        WatchedWindow(instance: 0, start: 0, visits: 3, surfacedAfter: 30 * Self.minute),
        WatchedWindow(instance: 1, start: 3 * h, visits: 0, surfacedAfter: nil),
        WatchedWindow(instance: 0, start: 6 * h, visits: 1, surfacedAfter: nil),
        WatchedWindow(instance: 0, start: 7 * h, visits: 1, surfacedAfter: 30 * Self.minute),
      ])
  }

  /// The standard metrics count windows with at least one visit, and the surfaced ones'
  /// times.
  @Test func theStandardMetricsCountWindowsWithVisits() {
    let (_, metrics) = run()
    let counts = metrics.perPerson[0]
    #expect(counts.windows == 3)
    #expect(counts.windowsSurfaced == 2)
    #expect(metrics.timesToSurface == [30 * Self.minute, 30 * Self.minute])
  }
}
