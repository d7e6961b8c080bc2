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

@Suite("Scenario reading")
struct ScenarioReadingTests: ScenarioTesting {
  @Test func theCommuterFixtureReadsWithEveryValue() throws {
    let s = try read(ScenarioFixtures.commuter)
    #expect(s.name == "commuter")
    #expect(s.startDay == day("2026-03-02"))
    #expect(s.startDate == "2026-03-02")
    #expect(s.days == 14)
    #expect(s.zone.identifier == "Europe/Berlin")
    #expect(s.seed == 7)
    #expect(s.personCount == 3)
    #expect((0..<4).map(s.personName) == ["commuter-1", "commuter-2", "commuter-3", "person-4"])
    // Berlin is UTC+1 in March before the 29th.
    #expect(s.startInstant == Instant(milliseconds: ms("2026-03-01T23:00:00Z")))
    #expect(s.endInstant() == Instant(milliseconds: ms("2026-03-15T23:00:00Z")))

    let persona = s.personas[0]
    #expect(persona.sleep == SleepWindow(fromMinute: 23 * 60, toMinute: 6 * 60 + 30))
    #expect(persona.wantProbability == Array(repeating: 0.3, count: 24))
    #expect(persona.visitsPerDay == 90)
    #expect(persona.rhythm == Persona.defaultRhythm)
    #expect((persona.tap, persona.open, persona.swipe) == (0.9, 1, 0.2))
    #expect(persona.routine.weekday.count == 4)
    #expect(
      persona.routine.weekday[0]
        == RoutineBlock(
          startHour: 6, endHour: 9,
          wants: [
            AppWeight(app: 0, weight: 6), AppWeight(app: 1, weight: 2),
            AppWeight(app: 3, weight: 1),
          ]))
    #expect(
      persona.routine.weekend == [
        RoutineBlock(
          startHour: 9, endHour: 22,
          wants: [
            AppWeight(app: 3, weight: 3), AppWeight(app: 1, weight: 2),
          ])
      ])
    #expect(persona.drift.map(\.fromDay) == [7])
    // A drift without "weekend" repeats its weekday blocks on weekends.
    #expect(persona.drift[0].routine.weekend == persona.drift[0].routine.weekday)

    #expect(s.stackInstances.map(\.id) == ["u2", "weather", "calendar", "news"])
    #expect(s.instances == s.stackInstances)  // Widget Suggestions are off
    #expect(s.apps.map(\.id) == ["transit", "weather", "calendar", "news"])
    #expect(s.apps[0].parameters == [Parameter("line", "U2"), Parameter("stop", "Alexanderplatz")])
    #expect(s.catalog.combinations(of: "ViewDepartures") == [["line"]])
    #expect(s.apps[1].reload == ReloadSpec(policy: .after(minutes: 30)))
    #expect(s.apps[2].reload == ReloadSpec())
    guard case .calendar(let calendar) = s.apps[2].timeline else {
      Issue.record("expected a calendar timeline")
      return
    }
    #expect(calendar.schedule.count == 3)
    #expect(
      calendar.schedule[0]
        == ScheduleItem(start: .weekly(weekdays: 31, minuteOfDay: 570), minutes: 30))
    #expect(
      calendar.schedule[2]
        == ScheduleItem(
          start: .once(Instant(milliseconds: ms("2026-03-05T15:00:00Z"))), minutes: 90))
    // The transit app matches the U2 widget through the ["line"] combination.
    #expect(s.appMatches() == [[0], [1], [2], [3]])
    #expect(s.timelineApps() == [-1, 1, 2, -1])
  }

  @Test func absentKeysTakeTheirDocumentedDefaults() throws {
    let s = try read(scenarioText())
    #expect(s.name == "scenario")
    #expect(s.seed == 1)
    #expect(s.zone.identifier == "UTC")
    let persona = s.personas[0]
    #expect(persona.count == 1)
    #expect(persona.visitsPerDay == 90)
    #expect(persona.sleep == SleepWindow.default)
    #expect(persona.rhythm == Persona.defaultRhythm)
    #expect(persona.wantProbability == Array(repeating: 0.25, count: 24))
    #expect(persona.routine == Routine())
    #expect((persona.tap, persona.open, persona.swipe, persona.foregroundMinutes) == (1, 1, 0, 3))
    let stack = s.stack
    #expect(stack.smartRotate && !stack.widgetSuggestions && !stack.developerMode)
    #expect(stack.swipeCooldownMinutes == 60)
    #expect(stack.rotationLimit == RotationLimit(perHour: 4, perDay: 40))
    #expect(stack.reloadBudget == ReloadBudget())
    #expect(stack.reloadBudget.systemPickMinutes == 15...60)
    #expect(s.apps[0] == ScenarioApp(id: "a", kind: "A"))
    #expect(
      s.apps[0].reload == ReloadSpec(policy: .atEnd, horizonHours: 24, onEvent: true, onOpen: false)
    )
  }

  @Test func timelineParametersHaveDefaults() throws {
    let apps = """
      {"id": "w", "timeline": {"type": "weather"}},
      {"id": "p", "timeline": {"type": "purchases"}},
      {"id": "e", "timeline": {"type": "empty-state"}},
      {"id": "s", "timeline": {"type": "sports", "schedule": [{"days": ["sat"], "time": "15:30", "minutes": 110}]}},
      {"id": "x", "timeline": {"type": "entries", "entries": []}}
      """
    let s = try read(
      scenarioText(
        apps: apps,
        instances: #"{"kind": "w"}, {"kind": "p"}, {"kind": "e"}, {"kind": "s"}, {"kind": "x"}"#))
    #expect(s.apps[0].timeline == .weather(WeatherTimeline()))
    #expect(s.apps[1].timeline == .purchases(PurchasesTimeline()))
    #expect(s.apps[2].timeline == .emptyState(EmptyStateTimeline()))
    var sports = SportsTimeline(schedule: [
      ScheduleItem(start: .weekly(weekdays: 32, minuteOfDay: 930), minutes: 110)
    ])
    sports.updateMinutes = 15
    #expect(s.apps[3].timeline == .sports(sports))
    #expect(s.apps[4].timeline == .entries(EntriesTimeline(entries: [])))
    #expect(s.apps.map { $0.timeline?.wantProbability } == [0.5, 0.5, 0.5, 0.5, 0])
    #expect(
      s.apps.map { $0.timeline?.typeName } == [
        "weather", "purchases", "empty-state", "sports", "entries",
      ])
  }

  @Test func suggestionsDefaultToTheAppsWidgetAndPredictedWindows() throws {
    let apps = """
      {"id": "a", "kind": "A"},
      {"id": "t", "kind": "Tickets", "intent": "Buy", "parameters": {"team": "X"},
       "suggestion": {}},
      {"id": "u", "kind": "U", "suggestion": {"id": "u-big", "configuration": {"size": "large"},
         "windows": [{"start": "2026-01-06T10:00", "end": "2026-01-06T11:30Z"}], "afterEventMinutes": 30}}
      """
    let s = try read(scenarioText(apps: apps, stackExtra: #", "widgetSuggestions": true"#))
    #expect(
      s.apps[1].suggestion
        == SuggestionSpec(
          instance: WidgetInstance(
            id: "t-suggested", kind: "Tickets", configuration: [Parameter("team", "X")]),
          predicted: true))
    #expect(
      s.apps[2].suggestion
        == SuggestionSpec(
          instance: WidgetInstance(
            id: "u-big", kind: "U", configuration: [Parameter("size", "large")]),
          windows: [
            TimeWindow(
              start: Instant(milliseconds: ms("2026-01-06T10:00:00Z")),
              end: Instant(milliseconds: ms("2026-01-06T11:30:00Z")))
          ],
          predicted: false, afterEventMinutes: 30))
    #expect(s.suggestionApps == [1, 2])
    #expect(s.instances.map(\.id) == ["a", "b", "t-suggested", "u-big"])
    #expect(s.appMatches() == [[0], [2], [3]])
  }

  @Test func instancesMatchAppsThroughSupportedCombinations() throws {
    let apps = """
      {"id": "acme", "kind": "Purchases", "intent": "View", "parameters": {"card": "Acme", "category": "Grocery"}},
      {"id": "other", "kind": "Purchases", "intent": "View", "parameters": {"card": "Other"}}
      """
    let instances = """
      {"id": "grocery", "kind": "Purchases", "configuration": {"card": "Acme", "category": "Grocery"}},
      {"id": "travel", "kind": "Purchases", "configuration": {"card": "Acme", "category": "Travel"}},
      {"id": "other", "kind": "Purchases", "configuration": {"card": "Other"}}
      """
    let cardOnly = try read(
      scenarioText(apps: apps, instances: instances, extra: #", "intents": {"View": [["card"]]}"#))
    #expect(cardOnly.appMatches() == [[0, 1], [2]])
    let both = try read(
      scenarioText(
        apps: apps, instances: instances, extra: #", "intents": {"View": [["card", "category"]]}"#))
    #expect(both.appMatches() == [[0], []])
  }

  @Test func routinesNameAppsAndBlocksAddTheirWeights() throws {
    let persona = """
      "name": "p", "routine": {"weekday": [
        {"hours": "0-24", "wants": {"a": 1}},
        {"hours": "22-2", "wants": {"a": 1, "b": 2}},
        {"hours": "7", "wants": {"b": 4}}
      ]}
      """
    let s = try read(scenarioText(persona: persona))
    let table = RoutineTable(s.personas[0].routine, appCount: 2)
    // Monday 01h: both blocks; 07h: the one-hour block; 12h: the base block only.
    #expect((table.weight(app: 0, hourOfWeek: 1), table.weight(app: 1, hourOfWeek: 1)) == (2, 2))
    #expect((table.weight(app: 0, hourOfWeek: 7), table.weight(app: 1, hourOfWeek: 7)) == (1, 4))
    #expect((table.weight(app: 0, hourOfWeek: 12), table.weight(app: 1, hourOfWeek: 12)) == (1, 0))
    #expect(table.totals[23] == 4)
    // No "weekend": Saturday repeats the weekday blocks.
    #expect(table.weight(app: 1, hourOfWeek: 5 * 24 + 7) == 4)
    #expect(table.pick(hourOfWeek: 7, u: 0.19) == 0)
    #expect(table.pick(hourOfWeek: 7, u: 0.2) == 1)
    #expect(table.pick(hourOfWeek: 12, u: 0.999) == 0)
  }

  @Test func theHourAndDateFormsParse() {
    #expect(ScenarioText.clock("00:00") == 0)
    #expect(ScenarioText.clock("23:59") == 1439)
    #expect(ScenarioText.clock("24:00") == nil)
    #expect(ScenarioText.clock("7:00") == nil)
    #expect(ScenarioText.hours("7-9")! == (7, 9))
    #expect(ScenarioText.hours("22-24")! == (22, 24))
    #expect(ScenarioText.hours("22-2")! == (22, 2))
    #expect(ScenarioText.hours("23")! == (23, 24))
    #expect(ScenarioText.hours("24") == nil)
    #expect(ScenarioText.hours("24-2") == nil)
    #expect(ScenarioText.hours("5-5") == nil)
    #expect(ScenarioText.hours("7-25") == nil)
    #expect(ScenarioText.hours("-3") == nil)
    #expect(ScenarioText.date("2026-02-29") == nil)
    #expect(ScenarioText.date("2028-02-29") == ISO8601.daysFromCivil(year: 2028, month: 2, day: 29))
    #expect(ScenarioText.date("1969-12-31") == nil)
    #expect(ScenarioText.date("2026-3-01") == nil)
    #expect(ScenarioText.weekdays("weekend") == 0b110_0000)
  }

  @Test func aMissingFileIsAnInputError() {
    #expect(throws: InputFileError.self) {
      try Scenario.read(path: "/nonexistent/scenario.json")
    }
  }
}
