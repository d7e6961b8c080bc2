import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A scenario simulated with fixed options: one source point of kind `"scenario"`.
///
/// Each replicate draws new people from (seed, replicate) (`Scenario.person`), shared by
/// every strategy of that replicate: the paired design. Units of the statistics are
/// (replicate, person) pairs.
public struct ScenarioSource: ExperimentSource {
  public let name: String
  public let scenario: Scenario
  public let options: SimulationOptions
  public let statistics: SourceStatistics
  public var kind: String { "scenario" }
  public var unitsArePeoplePerReplicate: Bool { true }

  public init(name: String, scenario: Scenario, options: SimulationOptions, statistics: SourceStatistics) {
    self.name = name
    self.scenario = scenario
    self.options = options
    self.statistics = statistics
  }

  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) -> RunMetrics {
    Simulation.run(scenario, choice: choice, replicate: replicate, seed: seed, options: options)
  }

  /// The people `people` simulated as in a whole run
  /// (`Simulation.run(_:choice:cell:people:)`), keeping their person-days
  /// (`StandardMetrics.dayLog`); the simulation counts are those people's.
  ///
  /// - Throws: `PeopleBlockError` when `people` is not within the scenario's people.
  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics {
    guard people.lowerBound >= 0, people.upperBound <= scenario.personCount else {
      throw PeopleBlockError(
        "\(name): people \(people.lowerBound)..<\(people.upperBound) are beyond the scenario's \(scenario.personCount) people")
    }
    guard
      let metrics = Simulation.run(
        scenario, choice: choice, cell: SimulationCell(replicate: replicate, seed: seed, options: options),
        people: people)
    else {
      throw PeopleBlockError("\(name): the simulation of people \(people.lowerBound)..<\(people.upperBound) did not report every person")
    }
    return metrics
  }

  public func runTraced(
    _ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String
  ) -> (metrics: RunMetrics, trace: TraceRecorder?) {
    let recorder = TraceRecorder(
      runID: runID, personNames: (0..<scenario.personCount).map(scenario.personName), zone: scenario.zone)
    var emitter: LogEmitter? = nil
    let (standard, counts, extra) = choice.simulate(
      scenario, SimulationCell(replicate: replicate, seed: seed, options: options),
      extra: DynamicObserver(recorder), emitter: &emitter)
    var metrics = RunMetrics(standard, days: LocalDays(zone: scenario.zone))
    metrics.simulation = counts
    return (metrics, extra?.base as? TraceRecorder)
  }
}

/// Where scenario sources are built.
enum ScenarioSupport {
  /// The source for a scenario point: reads and validates the scenario once.
  static func makeSource(_ spec: SourceSpec, _ input: ScenarioInput) throws -> ScenarioSource {
    let bytes = try FileIO.readBytes(input.scenario.resolved)
    let scenario = try Scenario.read(bytes: bytes, file: input.scenario.resolved)
    let hash = NumberFormat.hex(CRC32.checksum(bytes))
    var options = SimulationOptions()
    options.days = input.days
    options.engine = spec.engine
    // A watch scenario's app files are inputs too (a file gone since the scenario was read
    // is an error, not an empty hash).
    let apps = try (scenario.watch?.appFiles ?? []).map { file in
      SourceInput(role: "watch app", path: file, hash: try FileDigest(path: file).hexHash)
    }
    return ScenarioSource(
      name: spec.name, scenario: scenario, options: options,
      statistics: SourceStatistics(
        people: scenario.personCount, events: 0,
        first: scenario.startInstant.milliseconds,
        last: scenario.endInstant(days: input.days).milliseconds, contentHash: hash,
        inputs: [SourceInput(role: "scenario", path: input.scenario.written, hash: hash)] + apps))
  }
}

/// A scenario's people are simulated apart (`run(_:replicate:seed:people:)`).
extension ScenarioSource: PeopleApartSource {}
