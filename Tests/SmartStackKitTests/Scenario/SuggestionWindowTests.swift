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

@Suite("Suggestion windows")
struct SuggestionWindowTests: ScenarioTesting {
  @Test func predictedAndExplicitWindowsOfTheSportsFan() throws {
    let s = try read(ScenarioFixtures.sportsFan)
    #expect(s.instances.map(\.id) == ["knicks", "acme-grocery", "music", "tickets-suggested"])
    let person = s.person(0, replicate: 0, seed: 1)
    #expect(person.stackCount == 3)
    // Weekends 17-19 give tickets 5/6 of the routine: predicted windows on Saturday
    // (EST, UTC-5) and Sunday (EDT from 2026-03-08, UTC-4); plus the explicit one.
    #expect(
      person.suggestionWindows == [
        SuggestionWindow(
          instance: 3, start: ms("2026-03-07T22:00:00Z"), end: ms("2026-03-08T00:00:00Z")),
        SuggestionWindow(
          instance: 3, start: ms("2026-03-08T21:00:00Z"), end: ms("2026-03-08T23:00:00Z")),
        SuggestionWindow(
          instance: 3, start: ms("2026-03-10T16:00:00Z"), end: ms("2026-03-10T17:00:00Z")),
      ])
    // Wanting tickets can be served by the suggested widget.
    #expect(Array(person.instances(matchingApp: 3)) == [3])
  }

  @Test func windowsFollowEventsMergeAndStayInsideTheRun() throws {
    let apps = #"""
      {"id": "a", "kind": "A"},
      {"id": "shop", "kind": "Shop", "timeline": {"type": "purchases", "purchasesPerDay": 6},
       "suggestion": {"afterEventMinutes": 45, "windows": [
         {"start": "2026-01-04T22:00", "end": "2026-01-05T01:00"},
         {"start": "2026-01-05T00:30", "end": "2026-01-05T02:00"}]}}
      """#
    let s = try read(scenarioText(days: 3, apps: apps, stackExtra: #", "widgetSuggestions": true"#))
    #expect(s.apps[1].suggestion?.predicted == false)
    let person = s.person(0, replicate: 0, seed: 8)
    let windows = person.suggestionWindows
    // The explicit windows overlap: one window, cut at the run's start.
    #expect(
      windows.first
        == SuggestionWindow(
          instance: 2, start: ms("2026-01-05T00:00:00Z"), end: ms("2026-01-05T02:00:00Z")))
    #expect(person.events.count > 5)
    for event in person.events {
      let end = min(event.start + 45 * 60_000, person.end)
      #expect(
        windows.contains { $0.start <= event.start && $0.end >= end }, "purchase at \(event.start)")
    }
    // Sorted, disjoint, not touching, inside the run.
    for (a, b) in zip(windows, windows.dropFirst()) { #expect(a.end < b.start) }
    #expect(
      windows.allSatisfy { $0.start >= person.start && $0.end <= person.end && $0.start < $0.end })
  }

  @Test func withWidgetSuggestionsOffNothingIsSuggested() throws {
    let text = ScenarioFixtures.sportsFan.replacingOccurrences(
      of: #""widgetSuggestions": true"#, with: #""widgetSuggestions": false"#)
    let s = try read(text)
    #expect(s.instances.map(\.id) == ["knicks", "acme-grocery", "music"])
    let person = s.person(0, replicate: 0, seed: 1)
    #expect(person.suggestionWindows.isEmpty)
    #expect(person.instances(matchingApp: 3).isEmpty)
    #expect(person.reloadCounts.count == 3)
  }
}
