import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Two small bundled-quality scenarios, kept inline so the test target needs no
/// resources: a commuter (weekday transit mornings and evenings, weather alerts, a
/// calendar) and a sports fan (games at fixed times, relevance-driven wants, purchases, a
/// suggested tickets widget).
enum ScenarioFixtures {
  static let commuter = """
    {
      "name": "commuter",
      "start": "2026-03-02",
      "days": 14,
      "timezone": "Europe/Berlin",
      "seed": 7,
      "people": [
        {
          "name": "commuter",
          "count": 3,
          "sleep": {"from": "23:00", "to": "06:30"},
          "wantProbability": 0.3,
          "routine": {
            "weekday": [
              {"hours": "6-9", "wants": {"transit": 6, "weather": 2, "news": 1}},
              {"hours": "9-17", "wants": {"calendar": 3, "news": 1}},
              {"hours": "17-19", "wants": {"transit": 6, "news": 1}},
              {"hours": "19-23", "wants": {"news": 3, "weather": 1}}
            ],
            "weekend": [
              {"hours": "9-22", "wants": {"news": 3, "weather": 2}}
            ]
          },
          "tap": 0.9,
          "swipe": 0.2,
          "drift": [
            {"fromDay": 7, "routine": {
              "weekday": [
                {"hours": "8-10", "wants": {"calendar": 2, "news": 2}},
                {"hours": "10-22", "wants": {"news": 3, "weather": 1}}
              ]
            }}
          ]
        }
      ],
      "stack": {
        "instances": [
          {"id": "u2", "kind": "TransitDepartures", "configuration": {"line": "U2"}},
          {"id": "weather", "kind": "Weather"},
          {"id": "calendar", "kind": "Calendar"},
          {"id": "news", "kind": "News"}
        ]
      },
      "apps": [
        {"id": "transit", "kind": "TransitDepartures", "intent": "ViewDepartures",
         "parameters": {"line": "U2", "stop": "Alexanderplatz"}},
        {"id": "weather", "kind": "Weather",
         "timeline": {"type": "weather", "alertsPerDay": 0.5, "alertMinutes": 180},
         "reload": {"policy": "after", "minutes": 30}},
        {"id": "calendar", "kind": "Calendar",
         "timeline": {"type": "calendar", "leadMinutes": 15, "schedule": [
           {"days": ["weekdays"], "time": "09:30", "minutes": 30},
           {"days": ["wed"], "time": "14:00", "minutes": 60},
           {"at": "2026-03-05T16:00", "minutes": 90}
         ]}},
        {"id": "news", "kind": "News"}
      ],
      "intents": {"ViewDepartures": [["line"]]}
    }
    """

  static let sportsFan = """
    {
      "name": "sports-fan",
      "start": "2026-03-07",
      "days": 7,
      "timezone": "America/New_York",
      "people": [
        {
          "name": "fan",
          "count": 2,
          "visitsPerDay": 120,
          "wantProbability": 0.2,
          "routine": {
            "weekday": [
              {"hours": "7-9", "wants": {"music": 2, "acme": 1}},
              {"hours": "18-23", "wants": {"scores": 3, "music": 1}}
            ],
            "weekend": [
              {"hours": "10-17", "wants": {"scores": 2, "music": 2}},
              {"hours": "17-19", "wants": {"tickets": 5, "scores": 1}},
              {"hours": "19-23", "wants": {"scores": 3}}
            ]
          },
          "open": 0.8
        }
      ],
      "stack": {
        "instances": [
          {"id": "knicks", "kind": "Scores", "configuration": {"team": "Knicks"}},
          {"id": "acme-grocery", "kind": "RecentPurchases",
           "configuration": {"card": "Acme", "category": "Grocery"}},
          {"id": "music", "kind": "Music"}
        ],
        "widgetSuggestions": true,
        "swipeCooldownMinutes": 30
      },
      "apps": [
        {"id": "scores", "kind": "Scores", "intent": "ViewTeam", "parameters": {"team": "Knicks"},
         "timeline": {"type": "sports", "leadMinutes": 30, "updateMinutes": 10,
           "wantProbability": 0.7,
           "schedule": [
             {"days": ["tue", "thu"], "time": "19:30", "minutes": 150},
             {"days": ["sat"], "time": "15:00", "minutes": 150}
           ]},
         "reload": {"policy": "atEnd"}},
        {"id": "acme", "kind": "RecentPurchases", "intent": "ViewRecentPurchases",
         "parameters": {"card": "Acme", "category": "Grocery"},
         "timeline": {"type": "purchases", "purchasesPerDay": 3},
         "reload": {"policy": "never"}},
        {"id": "music", "kind": "Music"},
        {"id": "tickets", "kind": "Tickets",
         "suggestion": {"windows": [{"start": "2026-03-10T12:00", "end": "2026-03-10T13:00"}],
                        "predicted": true}}
      ],
      "intents": {
        "ViewTeam": [["team"]],
        "ViewRecentPurchases": [["card"], ["card", "category"]]
      }
    }
    """
}

/// Helpers shared by the scenario and user suites (suites conform to get them).
protocol ScenarioTesting {}

extension ScenarioTesting {
  func read(_ text: String, file: String = "s.json") throws -> Scenario {
    try Scenario.read(bytes: Array(text.utf8), file: file)
  }

  /// The diagnostics reading `text` reports, as `FILE:LINE:COLUMN: message` lines.
  func problems(_ text: String) -> [String] {
    do {
      _ = try read(text)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["unexpected error \(error)"]
    }
  }

  /// A small valid scenario: UTC, starting Monday 2026-01-05, one persona of one person
  /// whose fields are `persona` (JSON members), apps `apps` (JSON array elements) and a
  /// stack of `instances` (JSON array elements).
  func scenarioText(
    days: Int = 7, timezone: String = "UTC", start: String = "2026-01-05",
    persona: String = #""name": "p""#,
    apps: String = #"{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}"#,
    instances: String = #"{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}"#,
    stackExtra: String = "", extra: String = ""
  ) -> String {
    """
    {"start": "\(start)", "days": \(days), "timezone": "\(timezone)",
     "people": [{\(persona)}],
     "stack": {"instances": [\(instances)]\(stackExtra)},
     "apps": [\(apps)]\(extra)}
    """
  }

  /// Local day index of `YYYY-MM-DD`.
  func day(_ text: String) -> Int64 { ScenarioText.date(text) ?? -1 }

  /// Epoch ms of an ISO 8601 timestamp (UTC when it has no designator).
  func ms(_ text: String, zone: ZoneRules = .utc) -> Int64 {
    switch ISO8601.parse(text) {
    case .success(let timestamp): return zone.resolve(timestamp).milliseconds
    case .failure: return Int64.min
    }
  }
}
