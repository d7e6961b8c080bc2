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

@Suite("Scenario validation")
struct ScenarioValidationTests: ScenarioTesting {
  @Test func everyProblemIsReportedAtItsPositionWithItsKeyPath() {
    let text = """
      {
        "start": "2026-01-05",
        "days": 400,
        "timezone": "Mars/Base",
        "people": [
          {
            "name": "p",
            "nmae": "x",
            "tap": 1.5,
            "routine": {
              "weekday": [
                {"hours": "7-25", "wants": {"a": 1}},
                {"hours": "8-9", "wants": {"bus": 2, "b": -1}}
              ]
            }
          }
        ],
        "stack": {
          "instances": [
            {"id": "a", "kind": "A"},
            {"id": "a", "kind": "B"}
          ]
        },
        "apps": [
          {"id": "a", "kind": "A"},
          {"id": "b", "kind": "B"},
          {"id": "a", "kind": "C"}
        ]
      }
      """
    #expect(
      problems(text) == [
        "s.json:3:11: days: expected an integer in 1...366, found 400",
        #"s.json:4:15: timezone: unknown time zone "Mars/Base" (expected an IANA name such as "Europe/Berlin")"#,
        #"s.json:8:7: people[0]: unknown key "nmae" (did you mean "name"?)"#,
        "s.json:9:14: people[0].tap: expected a number in 0...1, found 1.5",
        #"s.json:12:21: people[0].routine.weekday[0].hours: expected local hours "A-B" (A in 0...23, B in 0...24, A != B) or "A", found "7-25""#,
        #"s.json:13:38: people[0].routine.weekday[1].wants.bus: unknown app "bus" (apps: "a", "b")"#,
        "s.json:13:53: people[0].routine.weekday[1].wants.b: expected a number >= 0, found -1",
        #"s.json:21:14: stack.instances[1].id: duplicate instance id "a""#,
        #"s.json:27:12: apps[2].id: duplicate app id "a" (first used by apps[0])"#,
      ])
  }

  @Test func timesDriftBudgetsReloadsAndTimelinesAreChecked() {
    let text = """
      {
        "start": "2026-01-05",
        "days": 3,
        "people": [
          {
            "name": "p",
            "sleep": {"from": "25:00", "to": "7:00"},
            "wantProbability": [0.1, 0.2],
            "drift": [
              {"fromDay": 2, "routine": {"weekday": [{"hours": "9-9", "wants": {}}]}},
              {"fromDay": 2, "routine": {}}
            ]
          },
          {"name": "p", "count": 0}
        ],
        "stack": {
          "instances": [{"kind": "A"}],
          "reloadBudget": {"minimum": 50, "maximum": 45, "systemPickMinutes": [60, 15]}
        },
        "apps": [
          {"id": "a", "kind": "A", "reload": {"policy": "after"},
           "timeline": {"type": "sports", "schedule": [{"at": "2026-01-05T19:00", "days": ["mon"], "minutes": 90}]}},
          {"id": "b", "reload": {"policy": "never", "minutes": 5},
           "timeline": {"type": "empty-state", "emptyScore": 1, "score": 0}},
          {"id": "c", "timeline": {"type": "radio"}},
          {"id": "d", "timeline": {"type": "weather", "severityWeights": [1, 2]}},
          {"id": "e", "timeline": {"type": "calendar", "schedule": [{"days": ["someday"], "time": "9:30", "minutes": 0}]}}
        ]
      }
      """
    let clock = #"expected a local time "HH:MM" from 00:00 to 23:59"#
    #expect(
      problems(text) == [
        #"s.json:7:25: people[0].sleep.from: \#(clock), found "25:00""#,
        #"s.json:7:40: people[0].sleep.to: \#(clock), found "7:00""#,
        "s.json:8:26: people[0].wantProbability: expected 24 numbers, one per local hour 0...23, or 168, one per local hour of week (Monday 00h first), found 2",
        #"s.json:10:58: people[0].drift[0].routine.weekday[0].hours: expected local hours "A-B" (A in 0...23, B in 0...24, A != B) or "A", found "9-9""#,
        "s.json:11:21: people[0].drift[1].fromDay: a drift from day 2 is already given",
        #"s.json:14:14: people[1].name: duplicate persona name "p""#,
        "s.json:14:28: people[1].count: expected an integer in 1...1000000, found 0",
        "s.json:18:48: stack.reloadBudget.maximum: the maximum budget (45) is below the minimum (50)",
        "s.json:18:73: stack.reloadBudget.systemPickMinutes: expected [from, to] with from <= to",
        #"s.json:21:40: apps[0].reload: policy "after" needs "minutes" (the time from one reload to the next)"#,
        #"s.json:22:50: apps[0].timeline.schedule[0]: give either "at" (one date) or "days" and "time" (weekly), not both"#,
        #"s.json:23:58: apps[1].reload.minutes: "minutes" only applies to policy "after""#,
        "s.json:24:56: apps[1].timeline.emptyScore: expected a score <= 0 for the empty widget (reference rule 3), found 1",
        "s.json:24:68: apps[1].timeline.score: expected a score > 0 for the widget with content, found 0",
        #"s.json:25:38: apps[2].timeline.type: expected one of "calendar", "weather", "sports", "purchases", "empty-state", "entries", found "radio""#,
        "s.json:26:68: apps[3].timeline.severityWeights: expected 3 weights, for severities 1 (minor), 2 (moderate) and 3 (severe), found 2",
        #"s.json:27:73: apps[4].timeline.schedule[0].days[0]: unknown day "someday" (expected "mon", "tue", "wed", "thu", "fri", "sat", "sun", "weekdays", "weekend" or "daily")"#,
        #"s.json:27:93: apps[4].timeline.schedule[0].time: \#(clock), found "9:30""#,
        "s.json:27:112: apps[4].timeline.schedule[0].minutes: expected a number in 1...1440, found 0",
      ])
  }

  @Test func suggestedWidgetsAndTimelinesMustFitTheStack() {
    let text = """
      {
        "start": "2026-01-05",
        "days": 3,
        "people": [{"name": "p"}],
        "stack": {
          "instances": [
            {"id": "s1", "kind": "Scores", "configuration": {"team": "A"}},
            {"id": "t", "kind": "Tickets"}
          ],
          "widgetSuggestions": true
        },
        "apps": [
          {"id": "scores", "kind": "Scores", "intent": "ViewTeam", "parameters": {"team": "A"},
           "timeline": {"type": "purchases"}},
          {"id": "scores2", "kind": "Scores", "intent": "ViewTeam", "parameters": {"team": "A", "x": "1"},
           "timeline": {"type": "purchases"}},
          {"id": "tickets", "kind": "Tickets", "suggestion": {}},
          {"id": "radio", "kind": "Radio", "timeline": {"type": "weather"},
           "suggestion": {"id": "s1", "kind": "Music"}}
        ],
        "intents": {"ViewTeam": [["team"]]}
      }
      """
    #expect(
      problems(text) == [
        #"s.json:16:18: apps[1].timeline: widget "s1" would show the timelines of apps "scores" and "scores2"; give the apps parameters that tell their widgets apart"#,
        #"s.json:17:56: apps[2].suggestion: the suggested widget is already in the stack as "t" (a suggestion inserts a widget the stack lacks)"#,
        #"s.json:18:50: apps[3].timeline: no widget shows this timeline: no stack instance or suggested widget matches app "radio" (kind "Radio")"#,
        #"s.json:19:20: apps[3].suggestion: the suggested widget's id "s1" is already used; give it another "id""#,
        #"s.json:19:20: apps[3].suggestion: the suggested widget (kind "Music") does not match the app's donations, so wanting the app could never be served by it"#,
      ])
  }

  @Test func aStackHoldsAtMostTenWidgets() {
    let instances = (1...11).map { #"{"kind": "K\#($0)"}"# }.joined(separator: ", ")
    let text = """
      {"start": "2026-01-05", "days": 1, "people": [{"name": "p"}], "apps": [{"id": "K1"}],
       "stack": {"instances": [\(instances)]}}
      """
    #expect(
      problems(text) == ["s.json:2:25: stack.instances: a stack holds at most 10 widgets, found 11"]
    )
  }

  @Test func missingKeysAndEmptyListsAreReported() {
    let text = #"{"days": 0, "people": [], "stack": {"instances": []}, "apps": []}"#
    #expect(
      problems(text) == [
        #"s.json:1:1: missing required key "start""#,
        "s.json:1:10: days: expected an integer in 1...366, found 0",
        "s.json:1:23: people: expected at least one persona",
        "s.json:1:50: stack.instances: a stack needs at least one instance",
        "s.json:1:63: apps: expected at least one app",
      ])
  }

  @Test func aRunPastTheSupportedRangeIsRefused() {
    let text = scenarioText(days: 366, start: "2100-06-01")
    #expect(problems(text) == ["s.json:1:33: days: the simulation would run past 2100-12-31"])
  }

  @Test func wantProbabilitiesPerHourMustBeProbabilities() {
    let hours = (0..<24).map { $0 == 5 ? "1.2" : "0.5" }.joined(separator: ", ")
    let text = scenarioText(persona: #""name": "p", "wantProbability": [\#(hours)]"#)
    #expect(
      problems(text) == [
        "s.json:2:72: people[0].wantProbability[5]: expected a number in 0...1, found 1.2"
      ])
  }

  @Test func aRhythmWithoutAwakeVisitsIsRefused() {
    let rhythm = (0..<24).map { $0 == 3 ? "1" : "0" }.joined(separator: ", ")
    let text = scenarioText(persona: #""name": "p", "rhythm": [\#(rhythm)]"#)
    #expect(
      problems(text) == [
        "s.json:2:37: people[0].rhythm: the rhythm gives no visits while the person is awake (every awake hour has weight 0)"
      ])
  }

  @Test func explicitEntriesUseTheTimelineFileMessages() {
    let text = scenarioText(
      apps:
        #"{"id": "a", "kind": "A", "timeline": {"type": "entries", "entries": [{"date": "2026-13-01T00:00", "relevance": {"score": 1, "duration": -5}}]}}"#,
      instances: #"{"kind": "A"}"#)
    let found = problems(text)
    #expect(found.count == 2)
    #expect(found.allSatisfy { $0.contains("apps[0].timeline.entries[0]") })
  }
}
