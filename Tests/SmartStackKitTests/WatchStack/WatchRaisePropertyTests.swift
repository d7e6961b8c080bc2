import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments

/// `WatchPlatform.raise` over seeded random apps and contexts (the generators of
/// `ClueEvaluationTests`), every 30 minutes of a day.
@Suite("A wrist raise's cards obey the watch's rules for any app and context")
struct WatchRaisePropertyTests {
  @Test func noRelevanceWidgetIsPinnedSuggestionsRespectGroupsAndReplacedCardsLeave() throws {
    var pinnedSeen = 0
    var replacedSeen = 0
    for seed in UInt64(0)..<60 {
      var rng = Xoshiro256StarStar(seed: seed)
      var app = ClueEvaluationTests.app(&rng)
      for w in app.widgets.indices { app.widgets[w].pinned = rng.nextBool(probability: 0.3) }  // relevance ones too
      let log = try ClueEvaluationTests.context(&rng)
      let platform = WatchPlatform(version: app.version, apps: [app])
      var cursor = ContextCursor(log: log, user: "p")
      for step in 0..<48 {
        let time = Instant(milliseconds: ClueEvaluationTests.start + Int64(step) * 30 * 60_000)
        let raise = platform.raise(at: time, context: &cursor)
        let widgetOf = { (card: Int) in app.widgets[platform.cardWidget[card]] }
        let eligible = { (card: Int) in raise.rankable[card] || raise.pinned.contains(Int32(card)) }
        for p in raise.pinned.map(Int.init) {
          pinnedSeen += 1
          let widget = widgetOf(p)
          if case .relevanceConfiguration(let associated) = widget.mode {
            // Only in the place of the pinned timeline widget it replaces.
            let target = associated.flatMap(app.widgetIndex(kind:)).map { app.widgets[$0] }
            #expect(target?.pinned == true && target?.mode.isPinnable == true, "seed \(seed): \(widget.kind) pinned")
          } else {
            #expect(widget.pinned)
          }
        }
        // A suggested (unpinned, rankable) card has a matching clue.
        for card in raise.rankable.indices where raise.rankable[card] {
          #expect(raise.priority[card] > -.infinity)
        }
        // Suggestions: at most one member of a group.
        for group in Set(app.widgets.map(\.group)) where group != .ungrouped {
          let members = Set(raise.rankable.indices.filter { raise.rankable[$0] && widgetOf($0).group == group }.map { platform.cardWidget[$0] })
          #expect(members.count <= 1, "seed \(seed) group \(group.name)")
        }
        // A timeline card whose relevance widget has a card now is neither ranked nor pinned.
        for (w, widget) in app.widgets.enumerated() {
          guard case .relevanceConfiguration(let associated?) = widget.mode, let t = app.widgetIndex(kind: associated),
            app.widgets[t].mode.isPinnable,
            let tCard = platform.cardWidget.indices.first(where: { platform.cardWidget[$0] == t }),
            platform.cardWidget.indices.contains(where: { platform.cardWidget[$0] == w && eligible($0) })
          else { continue }
          replacedSeen += 1
          #expect(!eligible(tCard), "seed \(seed): \(associated) not replaced")
        }
      }
    }
    #expect(pinnedSeen > 0 && replacedSeen > 0)  // the generator exercises both rules
  }
}
