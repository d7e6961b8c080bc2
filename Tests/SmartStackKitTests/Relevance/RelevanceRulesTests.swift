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

/// One test per relevance rule of DESIGN.md §4. Every check asks both the timeline (binary
/// search) and the tracker (fed the entries dated `<= t` in order), which must agree.
@Suite("Relevance rules")
struct RelevanceRulesTests: RelevanceFixtures {
  /// The state at `hours` by the timeline, after checking the tracker says the same.
  func state(_ entries: [RelevanceEntry], atHours hours: Double) -> RelevanceState {
    let t = at(hours: hours)
    let timeline = RelevanceTimeline(entries)
    var tracker = RelevanceTracker()
    for e in timeline.entries where e.date <= t { tracker.apply(e) }
    let fromTimeline = timeline.state(at: t)
    #expect(tracker.state(at: t) == fromTimeline, "tracker disagrees at \(hours) h")
    return fromTimeline
  }

  @Test func beforeTheFirstNonNilEntryTheStateIsNone() {
    let entries = [entry(0, nil), entry(1, nil), entry(2, 5)]
    #expect(state(entries, atHours: -1) == .none)
    #expect(state(entries, atHours: 0) == .none)
    #expect(state(entries, atHours: 1.5) == .none)
    #expect(state(entries, atHours: 2) == .active(score: 5))
    #expect(state([], atHours: 0) == .none)
  }

  @Test func aPositiveDurationCoversItsWindowThenExpiresUntilTheNextNonNilEntry() {
    let entries = [entry(1, 3, durationHours: 2), entry(10, 4)]
    #expect(state(entries, atHours: 1) == .active(score: 3))
    #expect(state(entries, atHours: 2.5) == .active(score: 3))
    #expect(state(entries, atHours: 3.5) == .expired)
    #expect(state(entries, atHours: 9.99) == .expired)
    #expect(state(entries, atHours: 10) == .active(score: 4))
  }

  @Test func theInstantAtTheEndOfTheWindowIsAlreadyExpired() {
    let entries = [entry(1, 3, durationHours: 2)]
    let end = at(hours: 3)
    let timeline = RelevanceTimeline(entries)
    #expect(timeline.state(at: end - 1) == .active(score: 3))
    #expect(timeline.state(at: end) == .expired)
    var tracker = RelevanceTracker()
    tracker.apply(entries[0])
    #expect(tracker.state(at: end - 1) == .active(score: 3))
    #expect(tracker.state(at: end) == .expired)
  }

  @Test func aZeroDurationLastsUntilTheNextNonNilEntry() {
    let entries = [entry(1, 7), entry(500, nil), entry(1000, 2)]
    #expect(state(entries, atHours: 1) == .active(score: 7))
    #expect(state(entries, atHours: 999) == .active(score: 7))
    #expect(state(entries, atHours: 1000) == .active(score: 2))
    #expect(state(entries, atHours: 100_000) == .active(score: 2))
  }

  @Test func aNilRelevanceNeitherEndsNorExtendsAWindow() {
    // The basketball example: score 1 for the 3 h game, nil updates during it.
    let game = [entry(19, 1, durationHours: 3), entry(20, nil), entry(21, nil), entry(21.5, nil)]
    #expect(state(game, atHours: 20.5) == .active(score: 1))
    #expect(state(game, atHours: 21.75) == .active(score: 1))
    #expect(state(game, atHours: 22) == .expired)
    // A nil entry after the window does not revive it either.
    let late = [entry(0, 5, durationHours: 1), entry(2, nil)]
    #expect(state(late, atHours: 2) == .expired)
    #expect(state(late, atHours: 3) == .expired)
  }

  @Test func aNewerNonNilRelevanceReplacesAnOpenWindowAtOnce() {
    // A 3 h window at score 5 is replaced after 1 h by a 30 min window at score 2; when
    // that ends the state is expired, not back to the first window.
    let entries = [entry(0, 5, durationHours: 3), entry(1, 2, durationHours: 0.5)]
    #expect(state(entries, atHours: 0.99) == .active(score: 5))
    #expect(state(entries, atHours: 1) == .active(score: 2))
    #expect(state(entries, atHours: 1.5) == .expired)
    #expect(state(entries, atHours: 2.5) == .expired)
    // An open-ended window is replaced by a bounded one, which then expires.
    let open = [entry(0, 5), entry(1, 8, durationHours: 1)]
    #expect(state(open, atHours: 1.5) == .active(score: 8))
    #expect(state(open, atHours: 2) == .expired)
  }

  @Test func insideAWindowAScoreAtOrBelowZeroIsSuppressed() {
    #expect(state([entry(0, 0)], atHours: 1) == .suppressed(score: 0))
    #expect(state([entry(0, -2.5)], atHours: 1) == .suppressed(score: -2.5))
    #expect(state([entry(0, 0.001)], atHours: 1) == .active(score: 0.001))
    // A suppressed window expires like any other.
    #expect(state([entry(0, 0, durationHours: 1)], atHours: 1) == .expired)
  }

  @Test func atEqualDatesTheLaterEntryInTheInputWins() {
    #expect(state([entry(1, 5), entry(1, 9)], atHours: 1) == .active(score: 9))
    #expect(state([entry(1, 9), entry(1, 5)], atHours: 1) == .active(score: 5))
    // A nil entry at the same date changes nothing.
    #expect(state([entry(1, 5), entry(1, nil)], atHours: 2) == .active(score: 5))
    // Input order matters only among equal dates: the later date wins otherwise.
    #expect(state([entry(2, 1), entry(1, 9)], atHours: 3) == .active(score: 1))
  }

  @Test func entriesDatedAfterNowHaveNoEffectYet() {
    let entries = [entry(0, 5), entry(4, 0), entry(8, 1, durationHours: 1)]
    #expect(state(entries, atHours: 3.99) == .active(score: 5))
    #expect(state(entries, atHours: 4) == .suppressed(score: 0))
    #expect(state(entries, atHours: 7.99) == .suppressed(score: 0))
  }

  @Test func entriesAreSortedByDateWhateverTheInputOrder() {
    let timeline = RelevanceTimeline([entry(5, 1), entry(1, nil), entry(3, 2)])
    #expect(timeline.entries.map(\.date) == [at(hours: 1), at(hours: 3), at(hours: 5)])
    #expect(timeline.windowCount == 2)
    #expect(timeline.state(at: at(hours: 4)) == .active(score: 2))
  }

  @Test func aNegativeDurationIsAnEmptyWindow() {
    let e = RelevanceEntry(
      date: at(hours: 1), relevance: Relevance(score: 3, durationMilliseconds: -5))
    #expect(state([entry(0, 9), e], atHours: 1) == .expired)
  }

  @Test func aHugeDurationSaturatesInsteadOfOverflowing() {
    let e = RelevanceEntry(
      date: at(hours: 0), relevance: Relevance(score: 3, durationMilliseconds: .max))
    #expect(state([e], atHours: 1_000_000) == .active(score: 3))
    #expect(RelevanceTimeline([e]).window(at: at(hours: 1))?.end == Instant(milliseconds: .max))
  }

  @Test func windowReportsStartOwnEndAndScoreOnlyInsideTheWindow() throws {
    let timeline = RelevanceTimeline([entry(1, 3, durationHours: 2), entry(5, -1)])
    #expect(timeline.window(at: at(hours: 0)) == nil)
    let w = try #require(timeline.window(at: at(hours: 2)))
    #expect(w.start == at(hours: 1))
    #expect(w.end == at(hours: 3))
    #expect(w.score == 3)
    #expect(timeline.window(at: at(hours: 3)) == nil)
    let open = try #require(timeline.window(at: at(hours: 6)))
    #expect(open.start == at(hours: 5))
    #expect(open.end == nil)
    #expect(open.score == -1)
  }

  @Test func trackerKeepsTheCurrentWindowAfterItExpires() throws {
    var tracker = RelevanceTracker()
    #expect(tracker.window == nil)
    #expect(tracker.windowStart == nil)
    tracker.apply(entry(1, 3, durationHours: 2))
    tracker.apply(entry(2, nil))
    #expect(tracker.lastEntryDate == at(hours: 2))
    #expect(tracker.windowStart == at(hours: 1))
    #expect(tracker.windowEnd == at(hours: 3))
    let w = try #require(tracker.window)
    #expect(w.score == 3)
    #expect(tracker.state(at: at(hours: 4)) == .expired)
  }

  @Test func trackerRefusesAnEntryOlderThanTheLastOne() {
    var tracker = RelevanceTracker()
    let first = tracker.apply(entry(2, 5))
    let older = tracker.apply(entry(1, 9))
    #expect(first)
    #expect(!older)
    #expect(tracker.state(at: at(hours: 3)) == .active(score: 5))
    let equalDate = tracker.apply(entry(2, 7))
    #expect(equalDate)
    #expect(tracker.state(at: at(hours: 3)) == .active(score: 7))
  }

  @Test func stateNamesEligibilityAndScores() {
    let states: [RelevanceState] = [.none, .active(score: 2), .suppressed(score: 0), .expired]
    #expect(states.map(\.name) == ["none", "active", "suppressed", "expired"])
    #expect(states.map(\.isEligible) == [false, true, false, false])
    #expect(states.map(\.windowScore) == [nil, 2, 0, nil])
    #expect(states.map(\.effectiveScore) == [nil, 2, 0, 0])
    #expect(RelevanceState(windowScore: .nan).name == "suppressed")
    #expect(!RelevanceState(windowScore: .nan).isEligible)
  }
}
