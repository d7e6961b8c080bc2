import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData

/// The watch app file (issue 33 item 5): the shipped example reads, and every mistake is
/// refused at its place as `FILE:LINE:COLUMN: path: message`.
@Suite("Watch app files are read strictly and their mistakes located")
struct WatchAppFileTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The rendered diagnostics of reading `text`, or [] when it is fine.
  static func problems(_ text: String) -> [String] {
    do {
      _ = try WatchApp.read(bytes: Array(text.utf8), file: "app.json")
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  /// An app of one widget written as `widget`, after a timeline widget `Main`.
  static func app(_ widget: String, rest: String = "") -> String {
    """
    {"app": "A", "watchOS": 26, "permissions": ["location"],
     "widgets": [
      {"kind": "Main", "mode": "timeline", "relevance": []},
      \(widget)
     ]\(rest)}
    """
  }

  @Test func theShippedExampleReadsWithItsWidgetsGroupsAndIntents() throws {
    let app = try WatchApp.read(path: Self.root.appendingPathComponent("Datasets/watch/commuter-app.json").path)
    #expect(app.name == "Metro")
    #expect(app.version == .watchOS26)
    #expect(app.permissions == [.location, .fitness])
    #expect(app.widgets.map(\.kind) == ["NextDeparture", "Trips", "ServiceAlerts", "Tickets"])
    #expect(app.widgets.map(\.group) == [.appDefault, .ungrouped, .named("alerts"), .named("alerts")])
    #expect(app.widgets[0].pinned && app.widgets[0].mode.isPinnable)
    #expect(app.widgets[1].mode == .relevanceConfiguration(associatedKind: "NextDeparture"))
    #expect(!app.widgets[1].mode.isPinnable)
    #expect(app.widgets[1].clues.map(\.context.signal) == [nil, .place, .workout, .poi])
    #expect(app.intentUpdates.map(\.intents.count) == [1, 0])
  }

  @Test func theDocsExampleIsAValidAppFile() throws {
    let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/watchos.md"), encoding: .utf8)
    let start = try #require(doc.range(of: "```json\n"))
    let end = try #require(doc[start.upperBound...].range(of: "```"))
    let app = try WatchApp.read(bytes: Array(doc[start.upperBound..<end.lowerBound].utf8), file: "docs/watchos.md")
    #expect(app.widgets.map(\.kind) == ["NextDeparture", "Trips"])
    #expect(app.intentUpdates.count == 1)
  }

  @Test func aPinnedRelevanceWidgetIsRefusedAtItsPinnedKey() {
    let text = Self.app(#"{"kind": "Trips", "mode": "relevanceConfiguration", "pinned": true, "relevance": []}"#)
    #expect(
      Self.problems(text) == [
        "app.json:4:65: widgets[1].pinned: a relevanceConfiguration widget cannot be pinned: people can't add or pin "
          + "relevant widgets, only timeline widgets (remove \"pinned\" or make the mode \"timeline\")"
      ])
  }

  @Test func kindsAssociatedKindsAndIntentsAreCheckedAgainstTheOtherWidgets() {
    #expect(
      Self.problems(Self.app(#"{"kind": "Main", "mode": "timeline", "relevance": []}"#)) == [
        #"app.json:4:12: widgets[1].kind: duplicate widget kind "Main" (first used by widgets[0])"#
      ])
    #expect(
      Self.problems(Self.app(#"{"kind": "T", "mode": "timeline", "associatedKind": "Main", "relevance": []}"#)) == [
        #"app.json:4:55: widgets[1].associatedKind: "associatedKind" belongs to a relevanceConfiguration widget, not a timeline widget"#
      ])
    #expect(
      Self.problems(Self.app(#"{"kind": "R", "mode": "relevanceConfiguration", "associatedKind": "Nope", "relevance": []}"#)) == [
        #"app.json:4:69: widgets[1].associatedKind: no widget of kind "Nope" in this app"#
      ])
    let intent = Self.app(
      #"{"kind": "R", "mode": "relevanceConfiguration", "relevance": []}"#,
      rest: #", "relevantIntents": [{"at": "2026-03-02T00:00:00Z", "intents": [{"widget": "R", "configuration": "", "context": {"sleep": "bedtime"}}]}]"#)
    #expect(Self.problems(intent).count == 1, "\(Self.problems(intent))")
    #expect(Self.problems(intent).first?.hasPrefix("app.json:5:79: relevantIntents[0].intents[0].widget: \"R\" is a relevanceConfiguration widget") == true)
  }

  @Test func contextsVersionsAndPermissionsAreRefusedWhereTheyAreWrong() {
    let problems = Self.problems(
      """
      {"watchOS": 12, "permissions": ["location", "camera", "location"],
       "widgets": [{"kind": "W", "mode": "timeline", "relevance": [
         {"configuration": "a", "context": {"sleep": "bedtime", "fitness": "workoutActive"}},
         {"configuration": "b", "context": {"date": {"from": "2026-03-02T09:00:00Z", "to": "2026-03-02T08:00:00Z"}}},
         {"configuration": "c", "context": {"location": {"inferred": "gym"}}},
         {"configuration": "d", "context": {"date": {"from": "2026-03-02T09:00:00Z"}, "colour": 1}}
       ]}]}
      """)
    #expect(
      problems == [
        "app.json:1:13: watchOS: expected a watchOS version: one of 10, 11, 26, found 12",
        #"app.json:1:45: permissions[1]: expected one of "location", "fitness", "sleep", found "camera""#,
        #"app.json:1:55: permissions[2]: duplicate permission "location""#,
        #"app.json:3:48: widgets[0].relevance[0].context.sleep: expected one key of "date", "location", "fitness", "sleep", "hardware", found 2: "fitness", "sleep""#,
        #"app.json:4:86: widgets[0].relevance[1].context.date.to: "to" must be after "from" (2026-03-02T09:00:00Z)"#,
        #"app.json:5:64: widgets[0].relevance[2].context.location.inferred: expected one of "home", "work", "school", "commute", found "gym""#,
        #"app.json:6:47: widgets[0].relevance[3].context.date: expected either "to" or "duration" (seconds), not neither"#,
        #"app.json:6:81: widgets[0].relevance[3].context: unknown key "colour" (expected one of "date", "location", "fitness", "sleep", "hardware")"#,
      ])
  }

  @Test func relevantIntentsReplaceTheWholeSetAtEachUpdate() throws {
    let app = try WatchApp.read(
      bytes: Array(
        Self.app(
          #"{"kind": "T", "mode": "timeline", "relevance": []}"#,
          rest: """
            , "relevantIntents": [
              {"at": "2026-03-02T10:00:00Z", "intents": []},
              {"at": "2026-03-02T08:00:00Z", "intents": [
                {"widget": "T", "configuration": "x", "context": {"hardware": {"headphones": "connected"}}},
                {"widget": "Main", "configuration": "y", "context": {"hardware": {"headphones": "connected"}}}]},
              {"at": "2026-03-02T09:00:00Z", "intents": [
                {"widget": "Main", "configuration": "z", "context": {"hardware": {"headphones": "connected"}}}]}
            ]
            """
        ).utf8), file: "app.json")
    func at(_ text: String) -> [String] {
      app.intents(at: try! ZoneRules.utc.checkedInstant(ISO8601.parse(text).get()).get()).map(\.clue.configuration)
    }
    #expect(at("2026-03-02T07:59:59Z") == [])
    #expect(at("2026-03-02T08:00:00Z") == ["x", "y"])
    #expect(at("2026-03-02T09:30:00Z") == ["z"])
    #expect(at("2026-03-02T10:00:00Z") == [])
  }
}
