import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments

/// The watchOS Smart Stack in simulation (issue 33 item 5): which cards a wrist raise may
/// present (`WatchPlatform.raise`), and how the engine presents them (`WatchCardObserver`).
@Suite("The watch stack: cards, pins, groups, replacement, versions and K cards on screen")
struct WatchStackTests {
  static let t0: Int64 = 1_772_434_800_000  // 2026-03-02T07:00:00Z

  static func context(_ rows: [(Int64, ContextSignal, String)]) -> ContextCursor {
    var log = ContextLog(file: "test")
    for (time, signal, value) in rows {
      log.users.append("p")
      log.times.append(time)
      log.signals.append(signal)
      log.values.append(value)
      log.userPositions.append(TextPosition(line: 1, column: 1))
    }
    return ContextCursor(log: log, user: "p")
  }

  static func date(_ from: Int64, _ minutes: Int64, _ kind: WatchClueContext.DateKind? = nil) -> WatchClueContext {
    .date(from: Instant(milliseconds: from), to: Instant(milliseconds: from + minutes * 60_000), kind: kind)
  }

  /// A transit app: a pinned timeline card, a relevance widget replacing it with a date,
  /// a location and a workout clue, and a group of two timeline widgets.
  static func metro(permissions: [WatchPermission] = [.location, .fitness]) -> WatchApp {
    WatchApp(
      name: "Metro", version: .watchOS26, permissions: permissions,
      widgets: [
        WatchWidget(
          kind: "Next", mode: .timeline, pinned: true,
          clues: [WatchClue(configuration: "line=U2", context: .inferredLocation(.commute))]),
        WatchWidget(
          kind: "Trips", mode: .relevanceConfiguration(associatedKind: "Next"), group: .ungrouped,
          clues: [
            WatchClue(configuration: "trip=work", context: date(t0, 60, .scheduled)),
            WatchClue(configuration: "trip=home", context: .inferredLocation(.work)),
            WatchClue(configuration: "ride=gym", context: .fitness(.workoutActive)),
          ]),
        WatchWidget(
          kind: "Alerts", mode: .timeline, group: .named("alerts"),
          clues: [WatchClue(configuration: "", context: .inferredLocation(.commute))]),
        WatchWidget(
          kind: "Tickets", mode: .timeline, group: .named("alerts"),
          clues: [WatchClue(configuration: "", context: .headphonesConnected)]),
      ])
  }

  @Test func cardsAreOnePerTimelineWidgetAndOnePerRelevanceClue() {
    let platform = WatchPlatform(version: .watchOS26, apps: [Self.metro()])
    #expect(platform.instances.map(\.id) == ["Next", "Trips#0", "Trips#1", "Trips#2", "Alerts", "Tickets"])
    #expect(platform.instances[1].value(of: "trip") == "work")
    #expect(platform.instances[0].configuration.isEmpty)
    #expect(platform.cards == WatchPlatform.defaultCards)
  }

  @Test func relevanceCardsReplaceTheirPinnedTimelineCardWhileSuggested() {
    let platform = WatchPlatform(version: .watchOS26, apps: [Self.metro()])
    // Before the trip's date, at home: the pinned timeline card alone.
    var before = Self.context([(Self.t0 - 3_600_000, .place, "home")])
    let early = platform.raise(at: Instant(milliseconds: Self.t0 - 60_000), context: &before)
    #expect(early.pinned == [0])
    #expect(!early.rankable.contains(true))
    // During it, on the commute: Trips#0 takes Next's pinned place, and Next is gone.
    var during = Self.context([(Self.t0 - 3_600_000, .place, "commute")])
    let raise = platform.raise(at: Instant(milliseconds: Self.t0 + 60_000), context: &during)
    #expect(raise.pinned == [1])
    #expect(!raise.rankable[0])
  }

  @Test func aClueWithoutPermissionOrContextMakesNoCard() {
    let rows: [(Int64, ContextSignal, String)] = [(Self.t0 - 1, .workout, "active")]
    var withFitness = Self.context(rows)
    let granted = WatchPlatform(version: .watchOS26, apps: [Self.metro()])
      .raise(at: Instant(milliseconds: Self.t0 + 7_200_000), context: &withFitness)
    #expect(granted.pinned == [3])  // ride=gym replaces Next
    var without = Self.context(rows)
    let refused = WatchPlatform(version: .watchOS26, apps: [Self.metro(permissions: [.location])])
      .raise(at: Instant(milliseconds: Self.t0 + 7_200_000), context: &without)
    #expect(refused.pinned == [0])
    // No place known: the location clues do nothing.
    var unknown = Self.context([])
    let none = WatchPlatform(version: .watchOS26, apps: [Self.metro()])
      .raise(at: Instant(milliseconds: Self.t0 + 7_200_000), context: &unknown)
    #expect(none.rankable == [false, false, false, false, false, false])
  }

  @Test func aGroupShowsOneMemberAtATime() {
    var context = Self.context([(Self.t0 - 1, .place, "commute"), (Self.t0 - 1, .headphones, "connected")])
    let raise = WatchPlatform(version: .watchOS26, apps: [Self.metro()])
      .raise(at: Instant(milliseconds: Self.t0 + 7_200_000), context: &context)
    #expect(raise.rankable[4] != raise.rankable[5])
    #expect(raise.rankable[4])  // the first widget wins at equal clue ranks
  }

  @Test func relevanceWidgetsAreNeverPinnedEvenWhenDeclaredSoInCode() {
    var app = Self.metro()
    app.widgets[1].pinned = true
    app.widgets[0].pinned = false
    var context = Self.context([(Self.t0 - 1, .place, "work")])
    let raise = WatchPlatform(version: .watchOS26, apps: [app])
      .raise(at: Instant(milliseconds: Self.t0 + 7_200_000), context: &context)
    #expect(raise.pinned.isEmpty)
    #expect(raise.rankable[2])
  }

  @Test func olderVersionsLackRelevanceWidgetsAndDateKinds() {
    var context = Self.context([(Self.t0 - 1, .place, "work")])
    let raise = WatchPlatform(version: .watchOS11, apps: [Self.metro()])
      .raise(at: Instant(milliseconds: Self.t0 + 60_000), context: &context)
    #expect(raise.pinned == [0])  // no RelevanceConfiguration on 11: nothing replaces Next
    #expect(!raise.rankable[1] && !raise.rankable[2])
  }

  @Test func cluePriorityPutsScheduledDatesBeforeOtherClues() {
    var context = Self.context([(Self.t0 - 1, .place, "work")])
    var app = Self.metro()
    app.widgets[0].pinned = false
    let raise = WatchPlatform(version: .watchOS26, apps: [app])
      .raise(at: Instant(milliseconds: Self.t0 + 60_000), context: &context)
    #expect(raise.rankable[1] && raise.rankable[2])
    #expect(raise.priority[1] > raise.priority[2])  // scheduled date before a location clue
    #expect(raise.priority[0] == -.infinity)
  }

  @Test func presentingPutsPinnedCardsFirstAndCountsCardsOnScreen() {
    var outcome = VisitOutcome(
      person: 0, time: 0, dayIndex: 0, hourOfDay: 0, shown: 3, previous: -1, rotated: false, hasTarget: true,
      targetRank: 2, candidateCount: 4, shownState: .none, relevanceCritical: false, relevanceHonoured: false,
      rule: "score")
    let pinned = WatchCardObserver<StandardTestObserver>.presented(outcome, pinned: [7], capacity: 2, targets: [5])
    #expect(pinned.shown == 7 && pinned.decidedBy == .pinnedCard)
    #expect(pinned.targetRank == 3 && pinned.candidateCount == 5 && pinned.cards == 2)
    let pinnedTarget = WatchCardObserver<StandardTestObserver>.presented(outcome, pinned: [7, 5], capacity: 3, targets: [5])
    #expect(pinnedTarget.targetRank == 2 && pinnedTarget.cards == 3)
    outcome.candidateCount = 1
    outcome.targetRank = 1
    let alone = WatchCardObserver<StandardTestObserver>.presented(outcome, pinned: [], capacity: 2, targets: [3])
    #expect(alone.cards == 1 && alone.targetRank == 1 && alone.shown == 3)
  }
}

