import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackEngine
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// `simulate`'s runs: each (strategy, replicate) cell is simulated once, and the
/// recorders attached to that one run (explain rows, emitted logs, the exposure log)
/// record what separate runs of each would.
@Suite("One simulation run per cell carries every recorder")
struct SimulationRunsTests {
  /// The plan holds every (strategy, replicate) cell exactly once, strategy-major; the
  /// recorders sit on replicate 0 (explain for every strategy, logs and exposures for
  /// the first), so no replicate is run again to get them.
  @Test func thePlanHoldsEachCellOnceWithTheRecordersOnReplicateZero() {
    let jobs = SimulationRuns.jobs(strategies: 3, replicates: 4, explain: true, logs: true, exposures: true)
    #expect(jobs.map { [$0.choice, $0.replicate] } == (0..<3).flatMap { c in (0..<4).map { [c, $0] } })
    #expect(jobs.filter(\.recording.explain).map(\.choice) == [0, 1, 2])
    #expect(jobs.filter(\.recording.explain).allSatisfy { $0.replicate == 0 })
    #expect(jobs.filter(\.recording.logs).map { [$0.choice, $0.replicate] } == [[0, 0]])
    #expect(jobs.filter(\.recording.exposures).map { [$0.choice, $0.replicate] } == [[0, 0]])
    #expect(SimulationRuns.jobs(strategies: 2, replicates: 2).allSatisfy { $0.recording == CellRecording() })
  }

  /// One run with every recorder gives the metrics of a metrics-only run, the explain
  /// rows of an explain-only run, the logs of a logs-only run (the stack's timelines,
  /// without the suggested widgets' that the exposure sidecar keeps) and the exposure
  /// log and sidecar of `ExposureRun`, on a scenario with widget suggestions (sports-fan)
  /// and one without. (Where the suggested widgets receive entries, the world's and the
  /// stack's timelines differ: `LogEmitterTests`.)
  @Test(arguments: ["sports-fan", "tiny"])
  func oneRunRecordsWhatSeparateRunsWould(name: String) throws {
    var scenario = try bundledScenario(name)
    scenario.days = min(scenario.days, 5)
    let choice = try StrategyRegistry.builtIn.parse("epsilon:rate=0.2:base=mfu")
    let cell = SimulationCell(replicate: 0, seed: 11, options: SimulationOptions())
    let all = SimulationRuns.run(
      scenario, choice: choice, cell: cell, recording: CellRecording(explain: true, logs: true, exposures: true))

    let metricsOnly = Simulation.run(scenario, choice: choice, replicate: 0, seed: 11, options: SimulationOptions())
    #expect(Self.tables(all.metrics) == Self.tables(metricsOnly))

    var none: LogEmitter? = nil
    let explainOnly = Simulation.run(
      scenario, choice: choice, replicate: 0, seed: 11, options: SimulationOptions(),
      observer: ExplainObserver(
        strategy: choice.descriptor.label, personNames: (0..<scenario.personCount).map(scenario.personName),
        zone: scenario.zone),
      emitter: &none
    ).observer.csv.text
    let explain = try #require(all.explain).csv.text
    #expect(explain == explainOnly)
    #expect(explain.split(separator: "\n").count > 10)

    var logsOnly: LogEmitter? = LogEmitter()
    _ = Simulation.run(
      scenario, choice: choice, replicate: 0, seed: 11, options: SimulationOptions(), observer: StandardMetrics(),
      emitter: &logsOnly)
    let world = try #require(all.emitter)
    #expect(world.stackTimelines.jsonText() == logsOnly!.timelines.jsonText())
    #expect(world.donationLog.csvText() == logsOnly!.donationLog.csvText())
    #expect(world.visitLogCSV == logsOnly!.visitLogCSV)
    #expect(world.context.csvText() == logsOnly!.context.csvText())

    let files = ExposureRun.files(scenario, choice: choice, cell: cell, logName: "x.csv")
    let recorded = ExposureRun.files(
      log: try #require(all.exposures), sidecar: ExposureSidecar(scenario: scenario, emitter: world), logName: "x.csv")
    #expect(recorded.map(\.name) == files.map(\.name))
    #expect(recorded.map(\.text) == files.map(\.text))
    #expect(try #require(all.exposures).exposures.count > 10)
  }

  /// The cells come back in the plan's order with the same results for any number of
  /// workers, one per job.
  @Test func theCellsAreTheSameForAnyNumberOfWorkers() async throws {
    let scenario = try bundledScenario("tiny")
    let choices = try StrategyRegistry.builtIn.parseList("mfu,random")
    let jobs = SimulationRuns.jobs(strategies: 2, replicates: 3, explain: true, logs: true)
    var reports: [Int] = []
    let one = await SimulationRuns.run(
      scenario, choices: choices, jobs: jobs, seed: 4, options: SimulationOptions(), workers: 1,
      progress: { done, _ in reports.append(done) })
    let two = await SimulationRuns.run(
      scenario, choices: choices, jobs: jobs, seed: 4, options: SimulationOptions(), workers: 2)
    #expect(reports == Array(0...jobs.count))
    #expect(one.map { Self.tables($0.metrics) } == two.map { Self.tables($0.metrics) })
    #expect(one.map { $0.explain?.csv.text } == two.map { $0.explain?.csv.text })
    #expect(one.map { $0.emitter?.visitLogCSV } == two.map { $0.emitter?.visitLogCSV })
    for (k, job) in jobs.enumerated() {
      let alone = Simulation.run(scenario, choice: choices[job.choice], replicate: job.replicate, seed: 4, options: SimulationOptions())
      #expect(Self.tables(one[k].metrics) == Self.tables(alone), "job \(k)")
    }
  }

  /// runs.csv and daily.csv of one run's metrics: every metric, in the written form.
  static func tables(_ metrics: RunMetrics) -> [String] {
    let record = RunRecord(
      source: "s", strategy: StrategyDescriptor(name: "x", parameters: .none), replicate: 0, seed: 0,
      metrics: metrics, targetAware: false)
    return [RunTables.runs([record]), RunTables.daily([record])]
  }
}
