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

/// Random timelines: the timeline, the tracker and a plain brute-force reference agree.
@Suite("Relevance properties")
struct RelevancePropertyTests {
  /// The rules written as plainly as possible, straight from DESIGN.md §4, over the
  /// entries in input order: the governing entry is the non-nil one with the greatest
  /// date `<= t`, and of equal dates the one latest in the input.
  static func reference(_ entries: [RelevanceEntry], at t: Int64) -> RelevanceState {
    var best: (date: Int64, relevance: Relevance)? = nil
    for e in entries {
      guard let r = e.relevance, e.date.milliseconds <= t else { continue }
      if let b = best, e.date.milliseconds < b.date { continue }
      best = (e.date.milliseconds, r)
    }
    guard let (start, r) = best else { return .none }
    let d = r.durationMilliseconds
    let inside: Bool
    if d == 0 {
      inside = true
    } else if d < 0 {
      inside = false
    } else {
      inside = t < start + d
    }
    if !inside { return .expired }
    return r.score > 0 ? .active(score: r.score) : .suppressed(score: r.score)
  }

  static func randomEntries(_ rng: inout RelevanceTestRandom) -> [RelevanceEntry] {
    let count = rng.below(12)
    // Dates on a coarse grid of 10 ms steps over 0...200 ms, so ties are frequent.
    return (0..<count).map { _ in
      let date = Instant(milliseconds: Int64(rng.below(21)) * 10)
      if rng.below(3) == 0 { return RelevanceEntry(date: date, relevance: nil) }
      let scores: [Double] = [-1, 0, 0.5, 1, 2, 10]
      let durations: [Int64] = [0, 0, 5, 10, 30, 100]
      return RelevanceEntry(
        date: date,
        relevance: Relevance(
          score: scores[rng.below(scores.count)],
          durationMilliseconds: durations[rng.below(durations.count)]))
    }
  }

  @Test func trackerTimelineAndBruteForceAgreeOnRandomTimelines() {
    for seed in UInt64(1)...2000 {
      var rng = RelevanceTestRandom(seed: seed)
      let entries = Self.randomEntries(&rng)
      let timeline = RelevanceTimeline(entries)
      // Query times: every ms from before the first date to after the last window, in
      // order, feeding the tracker incrementally as a clock would.
      var tracker = RelevanceTracker()
      var next = 0
      for t in Int64(-5)...Int64(340) {
        while next < timeline.entries.count && timeline.entries[next].date.milliseconds <= t {
          if !tracker.apply(timeline.entries[next]) {
            Issue.record("seed \(seed): tracker refused an in-order entry")
          }
          next += 1
        }
        let expected = Self.reference(entries, at: t)
        let instant = Instant(milliseconds: t)
        let fromTimeline = timeline.state(at: instant)
        let fromTracker = tracker.state(at: instant)
        if fromTimeline != expected || fromTracker != expected {
          Issue.record(
            "seed \(seed), t = \(t): reference \(expected), timeline \(fromTimeline), tracker \(fromTracker), entries \(entries)"
          )
          return
        }
        // window(at:) is non-nil exactly when the state has a window score, with that score.
        if timeline.window(at: instant)?.score != expected.windowScore {
          Issue.record("seed \(seed), t = \(t): window(at:) disagrees with state \(expected)")
          return
        }
      }
    }
  }
}
