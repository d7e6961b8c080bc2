// MARK: - Scenario sources (issue 4)
//
// Scenario sources (`{"scenario": "path", "days": N}` in a config) need the simulation
// (`Scenario.read(path:)`, `Simulation.run(...)`), which is not in this build yet. Until
// it is, config validation reports `unavailableReason` at the source's "scenario" key.
//
// To wire them in:
// 1. set `unavailableReason` to nil;
// 2. build the source in `makeSource`, e.g.
//
//    public struct ScenarioSource: ExperimentSource {
//      public let name: String
//      public let scenario: Scenario
//      public let days: Int?
//      public let engine: EngineOptions
//      public let statistics: SourceStatistics   // people, events, first/last, FNV-1a of the file
//      public var kind: String { "scenario" }
//      public var unitsArePeoplePerReplicate: Bool { true }
//      public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics {
//        Simulation.run(scenario: scenario, choice: choice, replicate: replicate, seed: seed,
//                       days: days, engine: engine)
//      }
//    }
//
//    static func makeSource(_ spec: SourceSpec, _ input: ScenarioInput) throws -> any ExperimentSource {
//      let bytes = try FileIO.readBytes(input.scenario.resolved)
//      let scenario = try Scenario.read(path: input.scenario.resolved)
//      let hash = FNV1a.hexHash(bytes)
//      return ScenarioSource(name: spec.name, scenario: scenario, days: input.days,
//        engine: spec.engine,
//        statistics: SourceStatistics(people: …, events: 0, contentHash: hash,
//          inputs: [SourceInput(role: "scenario", path: input.scenario.written, hash: hash)]))
//    }

/// Where scenario sources are built (see the comment above).
enum ScenarioSupport {
  /// Why scenario sources cannot be used in this build, or nil when they can.
  static let unavailableReason: String? = "scenario sources are not available in this build"

  /// The source for a scenario point.
  static func makeSource(_ spec: SourceSpec, _ input: ScenarioInput) throws -> any ExperimentSource
  {
    throw DiagnosticList([
      spec.location.diagnostic(unavailableReason ?? "scenario sources are not wired in")
    ])
  }
}
