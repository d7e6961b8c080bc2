import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld
import SmartStackExperiments

/// What one simulation run of a (strategy, replicate) cell records beside its standard
/// metrics. Every recorder is attached to that one run: no cell is simulated twice to
/// get them.
public struct CellRecording: Sendable, Equatable {
  /// explain.csv rows (`ExplainObserver`).
  public var explain = false
  /// The world's logs in the public formats (`LogEmitter`, `--emit-log`).
  public var logs = false
  /// The exposure log and its sidecar's world (`ExposureRecorder` and a world-recording
  /// `LogEmitter`, `--emit-exposures`).
  public var exposures = false

  /// The standard metrics only.
  public init() {}

  public init(explain: Bool, logs: Bool, exposures: Bool) {
    self.explain = explain
    self.logs = logs
    self.exposures = exposures
  }
}

/// One (strategy, replicate) cell of a simulation and what its run records.
public struct SimulationJob: Sendable, Equatable {
  /// Index of the strategy in the run's choices.
  public var choice: Int
  public var replicate: Int
  public var recording: CellRecording

  public init(choice: Int, replicate: Int, recording: CellRecording = CellRecording()) {
    self.choice = choice
    self.replicate = replicate
    self.recording = recording
  }
}

/// What one run of a cell gave: its metrics and every recorder it carried.
public struct SimulatedCell: Sendable {
  /// The standard metrics, with the simulation's counts (`RunMetrics.simulation`).
  public var metrics: RunMetrics
  /// The explain rows (`CellRecording.explain`), nil otherwise.
  public var explain: ExplainObserver?
  /// The exposure log (`CellRecording.exposures`), nil otherwise.
  public var exposures: ExposureLog?
  /// The logs (`CellRecording.logs` or `exposures`), nil otherwise. With `exposures` it
  /// records the world (`LogEmitter.recordsWorld`): `--emit-log`'s timelines are then its
  /// `stackTimelines`.
  public var emitter: LogEmitter?

  /// A cell with its metrics and the recorders it carried (nil for none).
  public init(metrics: RunMetrics, explain: ExplainObserver? = nil, exposures: ExposureLog? = nil, emitter: LogEmitter? = nil) {
    self.metrics = metrics
    self.explain = explain
    self.exposures = exposures
    self.emitter = emitter
  }
}

/// `simulate`'s runs: every cell once, with all its recorders attached to that run.
public enum SimulationRuns {
  /// The jobs of `strategies` × `replicates`, strategy-major (strategy 0's replicates
  /// first), each cell exactly once. Replicate 0 of every strategy records explain rows
  /// when `explain`; replicate 0 of the first strategy records the logs when `logs` and
  /// the exposure log when `exposures` (what `simulate --explain --emit-log
  /// --emit-exposures` writes).
  public static func jobs(
    strategies: Int, replicates: Int, explain: Bool = false, logs: Bool = false, exposures: Bool = false
  ) -> [SimulationJob] {
    (0..<strategies).flatMap { c in
      (0..<replicates).map { r in
        SimulationJob(
          choice: c, replicate: r,
          recording: r != 0
            ? CellRecording() : CellRecording(explain: explain, logs: logs && c == 0, exposures: exposures && c == 0))
      }
    }
  }

  /// Runs every job once on a `WorkerPool` of `workers` tasks and returns the cells in
  /// the order of `jobs`, whatever `workers` is. `progress` is called with (runs done,
  /// runs) before the first run and after each.
  ///
  /// People in parallel (`PeopleInParallel`): when there are fewer jobs than `workers`,
  /// each job that records nothing beside its metrics is cut into blocks of people, run
  /// as units on the same pool and joined in person order (`RunMetrics(blocks:)`), so the
  /// metrics are bit-identical for any `workers`. A job with recorders (explain rows,
  /// logs, exposures) runs whole: those record every person of one run.
  public static func run(
    _ scenario: Scenario, choices: [StrategyChoice], jobs: [SimulationJob], seed: UInt64,
    options: SimulationOptions, workers: Int, progress: (Int, Int) -> Void = { _, _ in }
  ) async -> [SimulatedCell] {
    let people = options.people ?? 0..<scenario.personCount
    let blocks = PeopleInParallel.blocks(people: people.count, cells: jobs.count, jobs: workers)?
      .map { $0.lowerBound + people.lowerBound..<$0.upperBound + people.lowerBound }
    let parts = jobs.map { $0.recording == CellRecording() ? blocks ?? [] : [] }
    var cells = [SimulatedCell?](repeating: nil, count: jobs.count)
    var done = 0
    progress(0, jobs.count)
    await PeopleInParallel.run(parts: parts.map(\.count), jobs: workers) { k, part -> SimulatedCell in
      let job = jobs[k]
      let cell = SimulationCell(replicate: job.replicate, seed: seed, options: options)
      guard !parts[k].isEmpty else { return run(scenario, choice: choices[job.choice], cell: cell, recording: job.recording) }
      // A block's people are within the scenario's, so its run reports each of them.
      let metrics = Simulation.run(scenario, choice: choices[job.choice], cell: cell, people: parts[k][part])!
      return SimulatedCell(metrics: metrics)
    } finished: { k, results in
      cells[k] =
        parts[k].isEmpty ? results[0] : SimulatedCell(metrics: RunMetrics(blocks: results.map(\.metrics)))
      done += 1
      progress(done, jobs.count)
    }
    return cells.map { $0! }
  }

  /// Simulates `cell` of `scenario` under `choice` once, with the standard metrics and
  /// the recorders `recording` asks for, all fed by that one run.
  ///
  /// The strategy runs specialised for its type (`StrategyRunner`), the recorders beside
  /// the metrics through one `DynamicObserver` (an `ObserverPair` of explain rows and
  /// exposures when both are asked for). An exposure recorder makes the session compute
  /// shown probabilities, which change no decision.
  public static func run(
    _ scenario: Scenario, choice: StrategyChoice, cell: SimulationCell, recording: CellRecording
  ) -> SimulatedCell {
    let names = (0..<scenario.personCount).map(scenario.personName)
    let explain = recording.explain
      ? ExplainObserver(strategy: choice.descriptor.label, personNames: names, zone: scenario.zone) : nil
    let recorder = recording.exposures
      ? ExposureRecorder(personNames: names, appIDs: scenario.apps.map(\.id)) : nil
    var emitter: LogEmitter? = recording.exposures ? LogEmitter(recordsWorld: true) : recording.logs ? LogEmitter() : nil
    let extra: DynamicObserver?
    switch (explain, recorder) {
    case let (explain?, recorder?): extra = DynamicObserver(ObserverPair(explain, recorder))
    case let (explain?, nil): extra = DynamicObserver(explain)
    case let (nil, recorder?): extra = DynamicObserver(recorder)
    case (nil, nil): extra = nil
    }
    let (standard, counts, observed) = choice.simulate(scenario, cell, extra: extra, emitter: &emitter)
    var metrics = RunMetrics(standard, days: LocalDays(zone: scenario.zone))
    metrics.simulation = counts
    var result = SimulatedCell(metrics: metrics, explain: nil, exposures: nil, emitter: emitter)
    let exposures: [Exposure]?
    switch observed?.base {
    case let pair as ObserverPair<ExplainObserver, ExposureRecorder>:
      (result.explain, exposures) = (pair.first, pair.second.exposures)
    case let explain as ExplainObserver: (result.explain, exposures) = (explain, nil)
    case let recorder as ExposureRecorder: exposures = recorder.exposures
    default: exposures = nil
    }
    result.exposures = exposures.map { ExposureLog(loggingStrategy: choice.descriptor.description, exposures: $0) }
    return result
  }
}
