import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackEngine
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// A source that refuses whole runs: a cell of it finishes only when the runner cut it
/// into blocks of people (`PeopleInParallel`).
private struct BlocksOnlySource: PeopleApartSource {
  struct WholeRun: Error, CustomStringConvertible {
    var description: String { "a whole run" }
  }
  let base: any ExperimentSource
  var name: String { base.name }
  var kind: String { base.kind }
  var statistics: SourceStatistics { base.statistics }
  var unitsArePeoplePerReplicate: Bool { base.unitsArePeoplePerReplicate }
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics { throw WholeRun() }
  func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics {
    try base.run(choice, replicate: replicate, seed: seed, people: people)
  }
}

@Suite("People in parallel: simulate's and batch's cells cut into blocks of people on one machine")
struct PeopleInParallelRunTests {
  /// The commuter scenario (20 people), 3 days.
  static func scenario() throws -> (Scenario, SimulationOptions) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var options = SimulationOptions()
    options.days = 3
    return (try Scenario.read(path: root.appendingPathComponent("Datasets/scenarios/commuter.json").path), options)
  }

  static func record(_ metrics: RunMetrics, _ choice: StrategyChoice, replicate: Int = 0) -> RunRecord {
    RunRecord(
      source: "commuter", strategy: choice.descriptor, replicate: replicate, seed: 4, metrics: metrics,
      targetAware: choice.isTargetAware)
  }

  /// runs.csv, daily.csv and the per-person counts of one strategy's simulation: the
  /// same for every number of workers (1 runs the cell whole; 2, 3 and 4 cut it into 4, 6
  /// and 8 blocks), for one replicate and for two.
  @Test(arguments: ["mfu", "random", "smart-rotate"])
  func simulateGivesTheBytesOfOneRunForEveryWorkerCount(strategy: String) async throws {
    let (scenario, options) = try Self.scenario()
    let choice = try StrategyRegistry.builtIn.parse(strategy)
    for replicates in 1...2 {
      let jobs = SimulationRuns.jobs(strategies: 1, replicates: replicates)
      let whole = jobs.map { job in
        SimulationRuns.run(
          scenario, choice: choice, cell: SimulationCell(replicate: job.replicate, seed: 4, options: options),
          recording: CellRecording()
        ).metrics
      }
      let expected = whole.enumerated().map { Self.record($0.element, choice, replicate: $0.offset) }
      for workers in 1...4 {
        let cells = await SimulationRuns.run(
          scenario, choices: [choice], jobs: jobs, seed: 4, options: options, workers: workers)
        let records = cells.enumerated().map { Self.record($0.element.metrics, choice, replicate: $0.offset) }
        #expect(RunTables.runs(records) == RunTables.runs(expected), "\(strategy), \(replicates), \(workers)")
        #expect(RunTables.daily(records) == RunTables.daily(expected), "\(strategy), \(replicates), \(workers)")
        #expect(cells.map(\.metrics.perPerson) == whole.map(\.perPerson))
        #expect(cells.map { $0.metrics.simulation?.values } == whole.map { $0.simulation?.values })
      }
    }
  }

  /// The join is in person order: the same blocks given in another order are not one
  /// run (the per-person counts, hence people.csv, come out permuted), so the test above
  /// would see a runner that joins blocks as they finish.
  @Test func blocksJoinedOutOfOrderAreNotOneRun() throws {
    let (scenario, options) = try Self.scenario()
    let choice = try StrategyRegistry.builtIn.parse("mfu")
    let cell = SimulationCell(replicate: 0, seed: 4, options: options)
    let whole = SimulationRuns.run(scenario, choice: choice, cell: cell, recording: CellRecording()).metrics
    let blocks = try [0..<7, 7..<14, 14..<20].map {
      try #require(Simulation.run(scenario, choice: choice, cell: cell, people: $0))
    }
    PeopleBlockMetricsTests.expectIdentical(RunMetrics(blocks: blocks), whole)
    #expect(RunMetrics(blocks: blocks.reversed()).perPerson != whole.perPerson)
  }

  /// A cell with recorders (here explain rows) runs whole, so its rows cover every
  /// person; its metrics are those of a run without them.
  @Test func aRecordingCellRunsWhole() async throws {
    let (scenario, options) = try Self.scenario()
    let choice = try StrategyRegistry.builtIn.parse("mfu")
    let jobs = SimulationRuns.jobs(strategies: 1, replicates: 1, explain: true)
    let cells = await SimulationRuns.run(scenario, choices: [choice], jobs: jobs, seed: 4, options: options, workers: 3)
    let alone = await SimulationRuns.run(
      scenario, choices: [choice], jobs: SimulationRuns.jobs(strategies: 1, replicates: 1), seed: 4, options: options,
      workers: 1)
    let explain = try #require(cells.first?.explain)
    let rows = explain.csv.bytes.split(separator: UInt8(ascii: "\n")).count - 1
    #expect(rows == cells[0].metrics.total.visits)
    #expect(RunTables.runs([Self.record(cells[0].metrics, choice)]) == RunTables.runs([Self.record(alone[0].metrics, choice)]))
  }

  /// The batch runner cuts a lone cell into blocks when there are more workers than
  /// cells, and hands it on as one whole cell with a whole run's metrics; with one worker,
  /// or with the trace on, the cell runs whole (and this source refuses that).
  @Test func theRunnerCutsALoneCellIntoBlocksAndJoinsThem() async throws {
    let (scenario, options) = try Self.scenario()
    let base = ScenarioSource(
      name: "commuter", scenario: scenario, options: options,
      statistics: SourceStatistics(people: scenario.personCount, events: 0, contentHash: ""))
    let choice = try StrategyRegistry.builtIn.parse("random")
    let cell = Cell(index: 0, source: 0, strategy: 0, replicate: 1)
    func run(jobs: Int, trace: Bool = false) async throws -> [CellResult] {
      var results: [CellResult] = []
      try await ExperimentRunner.run(
        [cell], sources: [BlocksOnlySource(base: base)], strategies: [choice], seed: 4, jobs: jobs, trace: trace,
        runID: { _ in "commuter|random|1" }
      ) { result, _ in results.append(result) }
      return results
    }
    let results = try await run(jobs: 2)
    #expect(results.count == 1 && results.first?.people == nil)
    PeopleBlockMetricsTests.expectIdentical(try #require(results.first).metrics, base.run(choice, replicate: 1, seed: 4))
    for (jobs, trace) in [(1, false), (2, true)] {
      await #expect(throws: BatchError.self) { _ = try await run(jobs: jobs, trace: trace) }
    }
  }

  @Test func blockCountKeepsEveryWorkerBusy() {
    #expect(PeopleInParallel.blockCount(people: 100, cells: 1, jobs: 2) == 4)
    #expect(PeopleInParallel.blockCount(people: 100, cells: 3, jobs: 8) == 6)
    #expect(PeopleInParallel.blockCount(people: 3, cells: 1, jobs: 4) == 3)
    #expect(PeopleInParallel.blockCount(people: 100, cells: 2, jobs: 2) == 1)
    #expect(PeopleInParallel.blockCount(people: 1, cells: 1, jobs: 4) == 1)
    #expect(PeopleInParallel.blocks(people: 10, cells: 1, jobs: 2) == [0..<2, 2..<5, 5..<7, 7..<10])
    #expect(PeopleInParallel.blocks(people: 10, cells: 2, jobs: 2) == nil)
  }
}
