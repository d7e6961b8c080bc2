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

/// An unknown key far from every accepted key is reported with the object's keys in
/// their documented order, whatever order the reader needs them in.
@Suite("Scenario unknown keys")
struct ScenarioUnknownKeyTests: ScenarioTesting {
  /// The one problem of `text`, without its `FILE:LINE:COLUMN: `.
  private func message(_ text: String) -> String {
    let found = problems(text)
    #expect(found.count == 1, "\(found)")
    guard let first = found.first, let colon = first.firstRange(of: ": ") else { return "" }
    return String(first[colon.upperBound...])
  }

  @Test func topLevelKeysAreListedInTheirDocumentedOrder() {
    #expect(
      message(scenarioText(extra: #", "zzzzzz": 1"#))
        == #"unknown key "zzzzzz" (expected one of "name", "start", "days", "timezone", "seed", "people", "stack", "apps", "intents", "platform", "watch")"#
    )
  }

  @Test func stackKeysAreListedInTheirDocumentedOrder() {
    #expect(
      message(scenarioText(stackExtra: #", "zzzzzz": 1"#))
        == #"stack: unknown key "zzzzzz" (expected one of "instances", "smartRotate", "widgetSuggestions", "developerMode", "swipeCooldownMinutes", "rotationLimit", "reloadBudget")"#
    )
  }

  @Test func aTimelineListsItsTypesKeysWithWantProbabilityLast() {
    let app = #"{"id": "a", "kind": "A", "timeline": {"type": "calendar", "schedule": [{"at": "2026-01-05T09:00", "minutes": 30}], "zzzzzz": 1}}, {"id": "b", "kind": "B"}"#
    #expect(
      message(scenarioText(apps: app))
        == #"apps[0].timeline: unknown key "zzzzzz" (expected one of "type", "schedule", "leadMinutes", "score", "wantProbability")"#
    )
  }

  @Test func aTimelineOfNoKnownTypeAcceptsTheKeysOfEveryType() {
    let app = #"{"id": "a", "kind": "A", "timeline": {"type": "radio", "schedule": 1, "zzzzzz": 1}}, {"id": "b", "kind": "B"}"#
    let found = problems(scenarioText(apps: app))
    #expect(found.count == 2, "\(found)")
    #expect(
      found.last?.hasSuffix(
        #"apps[0].timeline: unknown key "zzzzzz" (expected one of "type", "schedule", "leadMinutes", "score", "wantProbability", "alertsPerDay", "alertMinutes", "severityWeights", "updateMinutes", "purchasesPerDay", "medianAmount", "amountSigma", "wantMinutes", "contentMinutes", "emptyMinutes", "emptyScore", "entries")"#
      ) == true)
  }

  @Test(arguments: [
    #""minutes": 30, "at": "2026-01-05T09:00""#,
    #""days": ["mon"], "time": "09:00", "minutes": 30"#,
  ])
  func aScheduleEntryListsItsKeysInTheirDocumentedOrder(entry: String) {
    let app = #"{"id": "a", "kind": "A", "timeline": {"type": "calendar", "schedule": [{"#
      + entry + #", "zzzzzz": 1}]}}, {"id": "b", "kind": "B"}"#
    #expect(
      message(scenarioText(apps: app))
        == #"apps[0].timeline.schedule[0]: unknown key "zzzzzz" (expected one of "at", "days", "time", "minutes")"#
    )
  }

  @Test func aSuggestionListsItsKeysInTheirDocumentedOrder() {
    let app = #"{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}, {"id": "c", "kind": "C", "timeline": {"type": "entries", "entries": []}, "suggestion": {"zzzzzz": 1}}"#
    #expect(
      message(scenarioText(apps: app))
        == #"apps[2].suggestion: unknown key "zzzzzz" (expected one of "id", "kind", "configuration", "windows", "predicted", "predictedShare", "afterEventMinutes")"#
    )
  }

  @Test func aRepeatedDriftDayLeavesItsRoutineUnread() {
    let persona = #""name": "p", "drift": [{"fromDay": 2, "routine": {}}, {"fromDay": 2, "routine": 5}]"#
    let found = problems(scenarioText(persona: persona))
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.hasSuffix("people[0].drift[1].fromDay: a drift from day 2 is already given") == true)
  }
}
