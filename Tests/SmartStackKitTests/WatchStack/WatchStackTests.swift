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

/// Keeps every outcome it is told.
struct StandardTestObserver: OutcomeObserver {
  var outcomes: [VisitOutcome] = []
  var responses: [VisitResponse] = []
  var windows = 0
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) { outcomes.append(outcome) }
  mutating func responded(_ response: VisitResponse) { responses.append(response) }
  mutating func windowEnded(instance: Int32) { windows += 1 }
}

/// The watch stack through `Simulation` on the bundled watchOS 26 scenario.
@Suite("A watchOS scenario simulates under the watch's rules")
struct WatchSimulationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The bundled scenario, with `edit` applied to its JSON (app paths made absolute).
  /// With `pinned`, the person pinned `metro.json`'s NextDeparture (a copy of the app in
  /// a temporary folder).
  static func scenario(pinned: Bool = false, _ edit: (inout [String: Any]) -> Void = { _ in }) throws -> Scenario {
    let file = root.appendingPathComponent("Datasets/scenarios/commuter-watch.json")
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
    var watch = json["watch"] as! [String: Any]
    watch["apps"] = try (watch["apps"] as! [String]).map { path -> String in
      let app = root.appendingPathComponent("Datasets/scenarios").appendingPathComponent(path).standardized
      guard pinned, app.lastPathComponent == "metro.json" else { return app.path }
      var metro = try JSONSerialization.jsonObject(with: Data(contentsOf: app)) as! [String: Any]
      var widgets = metro["widgets"] as! [[String: Any]]
      widgets[0]["pinned"] = true
      metro["widgets"] = widgets
      let copy = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString).json")
      try JSONSerialization.data(withJSONObject: metro).write(to: copy)
      return copy.path
    }
    json["watch"] = watch
    json["days"] = 2
    json["people"] = (json["people"] as! [[String: Any]]).map { var p = $0; p["count"] = 3; return p }
    edit(&json)
    let bytes = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    return try Scenario.read(bytes: [UInt8](bytes), file: file.path)
  }

  static func run(_ scenario: Scenario, _ name: String) throws -> StandardTestObserver {
    let choice = try StrategyRegistry.builtIn.parse(name)
    var emitter: LogEmitter? = nil
    return Simulation.run(
      scenario, choice: choice, replicate: 0, seed: scenario.seed, options: SimulationOptions(),
      observer: StandardTestObserver(), emitter: &emitter
    ).observer
  }

  @Test(arguments: ["clues", "mfu", "oracle"])
  func everyRaiseShowsAtMostKCardsWithThePinnedCardOnTop(strategy: String) throws {
    let scenario = try Self.scenario(pinned: true)
    let seen = try Self.run(scenario, strategy)
    #expect(seen.outcomes.count > 100)
    for o in seen.outcomes {
      #expect(Int(o.cards) == min(2, o.candidateCount))
      #expect(o.targetRank <= o.candidateCount)
      // NextDeparture (card 0) is pinned: it, or a Trips card replacing it, is on top.
      #expect(o.decidedBy == .pinnedCard)
      #expect(o.shown == 0 || scenario.stack.instances[Int(o.shown)].kind == "Trips")
    }
    // Taps only happen on cards on screen (the first K presented).
    #expect(seen.responses.contains { $0.action == .tap })
  }

  @Test func withoutAPinTheStrategyDecidesTheTopCard() throws {
    let scenario = try Self.scenario()
    let clues = try Self.run(scenario, "clues").outcomes
    let oracle = try Self.run(scenario, "oracle").outcomes
    #expect(!clues.contains { $0.decidedBy == .pinnedCard })
    #expect(clues.allSatisfy { Int($0.cards) == min(2, $0.candidateCount) })
    // The same raises, different cards on top.
    #expect(clues.map(\.time) == oracle.map(\.time))
    #expect(clues.filter(\.isHit).count < oracle.filter(\.isHit).count)
  }

  @Test func entryRelevanceReachesTheStackOnWatchOS10Only() throws {
    func timeline(_ version: Int) throws -> StandardTestObserver {
      let scenario = try Self.scenario { json in
        var watch = json["watch"] as! [String: Any]
        watch["version"] = version
        json["watch"] = watch
        json["apps"] = (json["apps"] as! [[String: Any]]).map { app in
          guard app["id"] as? String == "weather" else { return app }
          var app = app
          app["timeline"] = [
            "type": "sports", "leadMinutes": 15, "updateMinutes": 10,
            "schedule": [["days": ["mon", "tue"], "time": "19:30", "minutes": 150]],
          ]
          return app
        }
      }
      return try Self.run(scenario, "relevance")
    }
    #expect(try timeline(10).windows > 0)
    #expect(try timeline(26).windows == 0)
  }

  @Test func cluesIsRefusedOutsideAWatchScenarioAndAStackInsideOne() throws {
    #expect(throws: DiagnosticList.self) {
      try Self.scenario { json in json["stack"] = ["instances": [["id": "a", "kind": "A"]]] }
    }
    #expect(throws: DiagnosticList.self) {
      try Self.scenario { json in json["platform"] = "tvOS" }
    }
    #expect(throws: DiagnosticList.self) {
      try Self.scenario { json in
        var watch = json["watch"] as! [String: Any]
        watch["cards"] = 0
        json["watch"] = watch
      }
    }
  }
}
