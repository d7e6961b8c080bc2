import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData

/// Clue evaluation (issue 33 items 5 and 6) over seeded random apps and contexts: the
/// rules hold for every app, person and time, not only for the shipped example.
@Suite("Watch clues do nothing without context, permission, version or their group")
struct ClueEvaluationTests {
  static let start: Int64 = 1_772_409_600_000  // 2026-03-02T00:00:00Z
  static let signals: [(ContextSignal, [String])] = [
    (.place, ["home", "work", "school", "commute", "gym", "none"]), (.poi, ["cafe", "fitnessCenter", "none"]),
    (.headphones, ["connected", "disconnected"]), (.workout, ["active", "inactive"]),
    (.rings, ["incomplete", "complete"]), (.sleep, ["awake", "bedtime", "asleep", "wakeup"]),
  ]

  /// A random clue context.
  static func clue(_ rng: inout Xoshiro256StarStar) -> WatchClueContext {
    switch rng.nextInt(below: 8) {
    case 0:
      let from = start + Int64(rng.nextInt(below: 24 * 60)) * 60_000
      let kinds: [WatchClueContext.DateKind?] = [nil, .default, .scheduled, .informational]
      return .date(
        from: Instant(milliseconds: from), to: Instant(milliseconds: from + Int64(1 + rng.nextInt(below: 240)) * 60_000),
        kind: kinds[rng.nextInt(below: 4)])
    case 1: return .inferredLocation(WatchClueContext.InferredLocation.allCases[rng.nextInt(below: 4)])
    case 2: return .region(["gym", "home"][rng.nextInt(below: 2)])
    case 3: return .pointOfInterest(["cafe", "fitnessCenter"][rng.nextInt(below: 2)])
    case 4: return .fitness(rng.nextBool(probability: 0.5) ? .workoutActive : .activityRingsIncomplete)
    case 5: return .sleep(rng.nextBool(probability: 0.5) ? .bedtime : .wakeup)
    default: return .headphonesConnected
    }
  }

  /// A random app: up to 5 widgets of either mode in a few groups, with random clues,
  /// permissions, version and a few relevant-intent updates.
  static func app(_ rng: inout Xoshiro256StarStar) -> WatchApp {
    let groups: [WatchWidget.Group] = [.appDefault, .named("g"), .named("h"), .ungrouped]
    let widgets = (0..<(1 + rng.nextInt(below: 5))).map { w in
      WatchWidget(
        kind: "W\(w)",
        mode: rng.nextBool(probability: 0.6) ? .timeline : .relevanceConfiguration(associatedKind: w > 0 ? "W0" : nil),
        group: groups[rng.nextInt(below: groups.count)],
        clues: (0..<rng.nextInt(below: 5)).map { c in WatchClue(configuration: "c\(c)", context: clue(&rng)) })
    }
    let timelines = widgets.filter(\.mode.isPinnable).map(\.kind)
    let updates = timelines.isEmpty ? [] : (0..<rng.nextInt(below: 3)).map { u in
      RelevantIntentUpdate(
        time: Instant(milliseconds: start + Int64(u) * 8 * 3_600_000),
        intents: (0..<rng.nextInt(below: 3)).map { i in
          RelevantIntent(widget: timelines[rng.nextInt(below: timelines.count)], clue: WatchClue(configuration: "i\(i)", context: clue(&rng)))
        })
    }
    let permissions = WatchPermission.allCases.filter { _ in rng.nextBool(probability: 0.6) }
    return WatchApp(
      name: "A", version: WatchVersion.allCases[rng.nextInt(below: 3)], permissions: permissions, widgets: widgets,
      intentUpdates: updates)
  }

  /// A random day of context for person `p`: each signal changes a few times, some never.
  static func context(_ rng: inout Xoshiro256StarStar) throws -> ContextLog {
    var csv = "timestamp_ms,user,signal,value\n"
    for (signal, values) in signals where rng.nextBool(probability: 0.8) {
      for _ in 0..<rng.nextInt(in: 1...6) {
        let t = start + Int64(rng.nextInt(below: 24 * 60)) * 60_000
        csv += "\(t),p,\(signal.name),\(values[rng.nextInt(below: values.count)])\n"
      }
    }
    return try ContextLog.read(bytes: Array(csv.utf8), file: "c.csv")
  }

  /// Evaluates `seeds` random apps and contexts every 30 minutes of the day and hands
  /// each time's rows to `check` with the app, the rules and the cursor.
  static func forEachEvaluation(
    seeds: Range<UInt64> = 0..<60,
    _ check: (WatchApp, ClueRules, ContextCursor, [EvaluatedClue]) -> Void
  ) throws {
    for seed in seeds {
      var rng = Xoshiro256StarStar(seed: seed)
      let app = app(&rng)
      let log = try context(&rng)
      let rules = ClueRules(version: app.version, prefixLength: rng.nextBool(probability: 0.5) ? 1 + rng.nextInt(below: 3) : nil)
      var cursor = ContextCursor(log: log, user: "p")
      for step in 0..<48 {
        let time = Instant(milliseconds: start + Int64(step) * 30 * 60_000)
        cursor.advance(to: time)
        check(app, rules, cursor, app.evaluate(at: time, context: cursor, rules: rules))
      }
    }
  }

  @Test func aClueNeverMatchesWithoutItsContext() throws {
    try Self.forEachEvaluation { _, _, cursor, rows in
      for row in rows where row.verdict == .matches {
        if let signal = row.context.signal {
          #expect(!WatchClueContext.isUnknown(cursor[signal], signal), "\(row)")
        }
      }
      for row in rows {
        guard let signal = row.context.signal, WatchClueContext.isUnknown(cursor[signal], signal) else { continue }
        #expect(row.verdict != .matches)
      }
    }
  }

  @Test func aClueNeverMatchesWithoutItsPermission() throws {
    try Self.forEachEvaluation { app, _, _, rows in
      for row in rows where row.verdict == .matches {
        if let permission = row.context.permission { #expect(app.permissions.contains(permission), "\(row)") }
      }
    }
  }

  @Test func atMostOneMemberOfAGroupIsEligibleAtATime() throws {
    var contested = 0
    try Self.forEachEvaluation { app, _, _, rows in
      let eligible = Set(rows.filter { $0.card != nil }.map(\.widget))
      for group in Set(app.widgets.map(\.group)) where group != .ungrouped {
        let members = eligible.filter { app.widgets[$0].group == group }
        #expect(members.count <= 1, "group \(group.name): \(members)")
      }
      contested += rows.filter { if case .dropped(.group) = $0.verdict { true } else { false } }.count
      // A group loss names a member that is eligible.
      for row in rows {
        guard case .dropped(.group(_, let winner)) = row.verdict else { continue }
        #expect(rows.contains { $0.card != nil && app.widgets[$0.widget].kind == winner })
      }
    }
    #expect(contested > 0)  // the generator does make groups compete
  }

  @Test func aRelevanceWidgetHasACardPerMatchingClueAndATimelineWidgetOne() throws {
    try Self.forEachEvaluation { app, _, _, rows in
      for row in rows {
        #expect((row.card != nil) == (row.verdict == .matches))
        guard let card = row.card else { continue }
        let widget = app.widgets[row.widget]
        #expect(card == (widget.mode.isPinnable ? widget.kind : "\(widget.kind)#\(row.index)"))
        #expect(widget.mode.isPinnable || row.source == .relevance)
      }
    }
  }

  @Test func aRelevanceWidgetIsNeverPinnable() {
    #expect(!WatchWidget.Mode.relevanceConfiguration(associatedKind: nil).isPinnable)
    #expect(!WatchWidget.Mode.relevanceConfiguration(associatedKind: "T").isPinnable)
    #expect(WatchWidget.Mode.timeline.isPinnable)
  }

  @Test func theVersionDecidesWhichCluesCanMatch() throws {
    try Self.forEachEvaluation { app, rules, _, rows in
      for row in rows where row.verdict == .matches {
        let widget = app.widgets[row.widget]
        #expect(row.context.since <= rules.version)
        #expect(widget.mode.since <= rules.version)
        if rules.version == .watchOS10 { #expect(row.source == .intent) }
      }
      for row in rows where max(row.context.since, row.source.since, app.widgets[row.widget].mode.since) > rules.version {
        guard case .dropped(.notOnVersion) = row.verdict else {
          Issue.record("\(row) should be notOnVersion on \(rules.version)")
          continue
        }
      }
    }
    #expect(WatchVersion.watchOS10.honoursEntryRelevance)
    #expect(!WatchVersion.watchOS11.honoursEntryRelevance && !WatchVersion.watchOS26.honoursEntryRelevance)
  }

  @Test func onlyThePrefixOfARelevanceListIsUsed() throws {
    try Self.forEachEvaluation { _, rules, _, rows in
      guard let prefix = rules.prefixLength else { return }
      for row in rows where row.source == .relevance && row.index >= prefix {
        #expect(row.verdict != .matches)
      }
    }
  }

  @Test func theDefaultWeighingPrefersScheduledThenPriorityThenWidgetOrder() {
    let weighing = PriorityOrderWeighing()
    func member(_ widget: Int, _ kind: WatchClueContext.DateKind, _ index: Int) -> GroupCandidate {
      GroupCandidate(widget: widget, kind: "W\(widget)", matches: [MatchingClue(source: .relevance, index: index, dateKind: kind)])
    }
    #expect(weighing.winner(of: [member(0, .default, 0), member(1, .scheduled, 3)]) == 1)
    #expect(weighing.winner(of: [member(0, .informational, 0), member(1, .default, 2)]) == 1)
    #expect(weighing.winner(of: [member(0, .default, 1), member(1, .default, 0)]) == 1)
    #expect(weighing.winner(of: [member(0, .default, 0), member(1, .default, 0)]) == 0)
    #expect(PriorityOrderWeighing(usesDateKind: false).winner(of: [member(0, .default, 0), member(1, .scheduled, 3)]) == 0)
  }
}
