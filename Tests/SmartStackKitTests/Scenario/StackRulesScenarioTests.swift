import Foundation
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

/// Every visit of one simulated run as the checks need it, per person in time order.
private struct RotationLog: OutcomeObserver {
  struct Visit {
    var time: Int64
    var shown: Int32
    var previous: Int32
    var rotated: Bool
    /// The instance on top before the visit was still a candidate.
    var previousStays: Bool
    var shownSuppressed: Bool
    var allCandidatesSuppressed: Bool
  }
  var visits: [[Visit]] = []
  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) { visits.append([]) }
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features f: StackFeatures
  ) {
    let n = f.instanceCount
    visits[visits.count - 1].append(
      Visit(
        time: o.time, shown: o.shown, previous: o.previous, rotated: o.rotated,
        previousStays: o.previous >= 0 && f.available[Int(o.previous)],
        shownSuppressed: o.shown >= 0 && f.relevanceKind[Int(o.shown)] == .suppressed,
        allCandidatesSuppressed: (0..<n).allSatisfy { !f.available[$0] || f.relevanceKind[$0] == .suppressed }))
  }
}

/// The stack rules hold in simulation, for every built-in strategy but the oracle, on
/// every bundled scenario: as it is, with Smart Rotate off, and with a tight rotation
/// limit.
@Suite("Stack rules in simulation")
struct StackRulesScenarioTests {
  /// `Datasets/scenarios/*.json`, sorted by name, but watchOS scenarios: the watch has
  /// no Smart Rotate switch, rotation limit or swipe (its rules: `WatchSimulationTests`).
  static let scenarioFiles: [URL] = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Datasets/scenarios")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
      .filter { url in
        let json = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: Any]
        return json?["platform"] as? String != "watchOS"
      }
  }()

  enum Variant: CaseIterable, CustomStringConvertible {
    case asBundled, smartRotateOff, limit
    var description: String {
      switch self {
      case .asBundled: "as bundled"
      case .smartRotateOff: "Smart Rotate off"
      case .limit: "2 rotations an hour, 3 a day"
      }
    }
  }

  /// The scenario at `url` with `variant`'s stack settings, shortened to 3 days.
  func scenario(_ url: URL, _ variant: Variant) throws -> Scenario {
    var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    var stack = json["stack"] as! [String: Any]
    switch variant {
    case .asBundled: break
    case .smartRotateOff: stack["smartRotate"] = false
    case .limit: stack["rotationLimit"] = ["perHour": 2, "perDay": 3]
    }
    json["stack"] = stack
    json["days"] = 3
    let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    return try Scenario.read(bytes: [UInt8](data), file: url.lastPathComponent)
  }

  private struct Check: StrategyTypeVisitor {
    let scenario: Scenario
    let variant: Variant
    func visit<S: RankingStrategy>(_ prototype: S) -> [String] {
      var emitter: LogEmitter? = nil
      let (log, _) = Simulation.run(
        scenario, strategy: prototype, descriptor: StrategyDescriptor(name: S.name, parameters: .none),
        replicate: 0, seed: 11, options: SimulationOptions(), observer: RotationLog(), emitter: &emitter)
      let stack = scenario.stack
      let cooldown = Int64(stack.swipeCooldownMinutes * 60_000)
      var problems: [String] = []
      for (p, visits) in log.visits.enumerated() {
        var pinnedUntil = Int64.min
        var rotationTimes: [Int64] = []
        for (k, v) in visits.enumerated() {
          let at = "person \(p), visit \(k) at \(Instant(milliseconds: v.time))"
          // A swipe happens at a visit, after the decision: the next visit starts from
          // the swiped instance, which stays pinned for the cooldown.
          if k > 0 && v.previous != visits[k - 1].shown && v.previous >= 0 {
            pinnedUntil = visits[k - 1].time + cooldown
          }
          guard v.rotated && v.previousStays else { continue }
          rotationTimes.append(v.time)
          if v.time < pinnedUntil { problems.append("\(at): rotated while a swipe pinned \(v.previous)") }
          if variant == .smartRotateOff { problems.append("\(at): rotated with Smart Rotate off") }
          if v.shownSuppressed && !v.allCandidatesSuppressed { problems.append("\(at): rotated to a suppressed instance") }
          if variant == .limit && !stack.developerMode {
            let day = rotationTimes.filter { $0 > v.time - 86_400_000 }.count
            let hour = rotationTimes.filter { $0 > v.time - 3_600_000 }.count
            if day > 3 || hour > 2 { problems.append("\(at): \(hour) rotations in the last hour, \(day) in 24 hours") }
          }
        }
      }
      return problems
    }
  }

  /// True for the full loop, every scenario under every variant
  /// (`SMARTSTACK_STACK_RULES=all`, set by `Scripts/stack-rules.sh`, which `.ci/run` runs).
  /// `swift test` checks each scenario under one variant (the k-th scenario, in name
  /// order, under variant k mod 3), a third of the work, so that every scenario and every
  /// variant is still checked.
  static var full: Bool { ProcessInfo.processInfo.environment["SMARTSTACK_STACK_RULES"] == "all" }

  @Test(arguments: Variant.allCases)
  func noBuiltInStrategyButTheOracleBreaksAStackRule(_ variant: Variant) throws {
    #expect(Self.scenarioFiles.count >= 8)
    let v = Variant.allCases.firstIndex(of: variant)!
    for (k, url) in Self.scenarioFiles.enumerated() where Self.full || k % Variant.allCases.count == v {
      let scenario = try scenario(url, variant)
      for choice in try StrategyRegistry.builtIn.allWithDefaults(having: [.scores, .context]) where !(choice.type is any TargetAwareStrategy.Type) {
        let problems = choice.open(Check(scenario: scenario, variant: variant))
        #expect(problems.isEmpty, "\(url.lastPathComponent), \(choice.descriptor): \(problems.count) problems, first \(problems.prefix(3))")
      }
    }
  }
}
