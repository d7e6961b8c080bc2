import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
import SmartStackTestSupport

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
      let copy = TestFolders.root.appendingPathComponent("watch-\(UUID().uuidString).json")
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

