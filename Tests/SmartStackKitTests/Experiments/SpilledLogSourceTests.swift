import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments

/// A log of `people` people (named in a shuffled order, so canonical ids are not name
/// order) over four days in Europe/Berlin local time, 3 to 8 donations a day each of four
/// kinds, and a visit log with a visit before most donations plus rows of a user with no
/// donation. Deterministic (a fixed LCG).
private func writeManyPeopleLog(people: Int, in folder: String) throws {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next(_ n: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(n))
  }
  let kinds = ["Weather", "Music", "Notes", "Maps"]
  var rows: [(Int, String)] = []
  var visits: [(Int, String)] = []
  for p in 0..<people {
    let name = "p\((p * 7919) % 10007)"
    for day in 0..<4 {
      for _ in 0..<(3 + next(6)) {
        let minute = day * 1440 + 360 + next(960)
        rows.append((minute, "\(name),\(kinds[next(kinds.count)])"))
        if next(4) != 0 { visits.append((minute - next(3), name)) }
      }
    }
  }
  visits.append((500, "nobody"))
  func time(_ minute: Int) -> String {
    String(format: "2026-03-%02dT%02d:%02d:00", 2 + minute / 1440, (minute % 1440) / 60, minute % 60)
  }
  let log = "timestamp,user,kind\n" + rows.sorted { $0.0 < $1.0 }.map { "\(time($0.0)),\($0.1)\n" }.joined()
  let visitLog = "timestamp,user\n" + visits.sorted { $0.0 < $1.0 }.map { "\(time($0.0)),\($0.1)\n" }.joined()
  try ExperimentFixture.write(log, "many.csv", in: folder)
  try ExperimentFixture.write(visitLog, "many-visits.csv", in: folder)
}

/// A config over the 600-people log (three spill buckets of 256): a point with the visit
/// log (and `split`, when given) and, with `sessions`, a second point with visits made
/// from the donations.
private func config(
  strategies: String = #""mfu", "random", "hour-of-day", "oracle""#, replicates: Int = 2, sessions: Bool = true,
  split: String? = nil
) -> String {
  let baseline = strategies.contains(#""mfu""#) ? "mfu" : "random"
  let visits =
    #"{"name": "visits", "log": "many.csv", "visits": "many-visits.csv", "timezone": "Europe/Berlin", "horizon": 120"#
    + (split.map { #", "split": "# + $0 } ?? "") + "}"
  let second = sessions ? #", {"name": "sessions", "log": "many.csv", "visits": "sessions:30", "timezone": "Europe/Berlin"}"# : ""
  return #"{"name": "blocks", "seed": 9, "replicates": "# + "\(replicates)" + #", "baseline": ""# + baseline + #"", "#
    + #""sources": ["# + visits + second + #"], "strategies": ["# + strategies + #"], "outputs": {"people": true}}"#
}

private let files = ExperimentOutputs.completeFiles + ["people.csv"]

@Suite("A batch's log source replayed in blocks of people from a spill (SpilledLogSource)")
struct SpilledLogSourceTests {
  static func folder(_ text: String = config()) throws -> String {
    let folder = try ExperimentFixture.folder()
    try writeManyPeopleLog(people: 600, in: folder)
    try ExperimentFixture.write(text, "exp.json", in: folder)
    return folder
  }

  static func run(
    _ folder: String, into name: String, budget: Int?, jobs: Int
  ) async throws -> [any ExperimentSource] {
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let sources = try SourceLoader.load(design, budget: budget, jobs: jobs)
    _ = try await BatchSession.run(design, sources: sources, options: BatchOptions(directory: folder + "/" + name, jobs: jobs))
    return sources
  }

  /// Every report of the batch, with both points in blocks (a budget of one byte), is
  /// byte for byte the batch's with both plans in memory, for 1 and 2 workers.
  @Test func aBatchInBlocksWritesTheBytesOfTheBatchInMemory() async throws {
    let folder = try Self.folder()
    let memory = try await Self.run(folder, into: "memory", budget: nil, jobs: 1)
    #expect(memory.allSatisfy { $0 is LogSource })
    let expected = try ExperimentFixture.outputs(folder + "/memory", files)
    for jobs in [1, 2] {
      let spilled = try await Self.run(folder, into: "blocks\(jobs)", budget: 1, jobs: jobs)
      let blocks = spilled.compactMap { ($0 as? SpilledLogSource)?.blockCount }
      #expect(blocks == [3, 3])
      #expect(try ExperimentFixture.outputs(folder + "/blocks\(jobs)", files) == expected)
      #expect(spilled.map(\.statistics) == memory.map(\.statistics))
    }
  }

  /// One cell and three workers: the runner cuts the cell into blocks of people
  /// (`PeopleInParallel`) that straddle the spill's blocks; the bytes stay those of one run
  /// in memory.
  @Test func peopleBlocksAcrossTheSpillsBlocksJoinToTheSameBytes() async throws {
    let one = config(strategies: #""random""#, replicates: 1, sessions: false)
    let folder = try Self.folder(one)
    _ = try await Self.run(folder, into: "memory", budget: nil, jobs: 1)
    let spilled = try await Self.run(folder, into: "blocks", budget: 1, jobs: 3)
    #expect(spilled.count == 1 && spilled[0] is SpilledLogSource)
    #expect(try ExperimentFixture.outputs(folder + "/blocks", files) == ExperimentFixture.outputs(folder + "/memory", files))
  }

  /// Successive halving runs its early rungs on the first people of a log: in blocks, the
  /// first ⌈P/η^k⌉ people as in memory, so tuning.csv and every report are the same bytes.
  @Test func tuningByHalvingOnALogInBlocksChoosesAsInMemory() async throws {
    let tuned = config(
      strategies: #""mfu", {"name": "hour-of-week", "tune": {"parameters": {"half-life-days": {"min": 0.25, "max": 28, "scale": "log"}}, "search": "halving", "trials": 9, "eta": 3}}"#,
      sessions: false,
      split: #"{"train": "2026-03-02..2026-03-03", "validation": "2026-03-04..2026-03-04", "test": "2026-03-05..2026-03-05"}"#)
    let folder = try Self.folder(tuned)
    _ = try await Self.run(folder, into: "memory", budget: nil, jobs: 2)
    let spilled = try await Self.run(folder, into: "blocks", budget: 1, jobs: 2)
    #expect(spilled.contains { $0 is SpilledLogSource })
    let names = files + ["tuning.csv"]
    #expect(try ExperimentFixture.outputs(folder + "/blocks", names) == ExperimentFixture.outputs(folder + "/memory", names))
  }

  /// Which points go to blocks: none while every plan fits half the budget; else the
  /// biggest first (the earlier of equal ones) until the rest fit; never with the trace.
  @Test func theBiggestPointsGoToBlocksUntilTheRestFitHalfTheBudget() throws {
    let folder = try Self.folder()
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let each = SourceLoader.estimatedPlanBytes(design.sources[1])
    let withVisits = SourceLoader.estimatedPlanBytes(design.sources[0])
    #expect(each > 0 && withVisits > each)
    #expect(SourceLoader.estimatedPlanBytes(design) == each + withVisits)
    #expect(SourceLoader.spilledPoints(design, budget: 2 * (each + withVisits)) == [])
    #expect(SourceLoader.spilledPoints(design, budget: 2 * each) == [0])
    #expect(SourceLoader.spilledPoints(design, budget: 2 * each - 2) == [0, 1])
    var traced = design
    traced.trace = true
    #expect(SourceLoader.spilledPoints(traced, budget: 1) == [])
  }

  /// The design's two points read the same donation log: the loader spills it once and
  /// both sources read that spill; the visit log, read by one point, is spilled once.
  @Test func pointsThatReadTheSameLogShareOneSpill() throws {
    let folder = try Self.folder()
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    var loader = LogLoader()
    var spills: [SpilledLog] = []
    for spec in design.sources {
      guard case .log(let input) = spec.input else { continue }
      spills.append(try loader.spill(input, engine: spec.engine))
    }
    #expect(loader.parsed == [folder + "/many.csv", folder + "/many-visits.csv"])
    #expect(spills.count == 2 && spills[0].donations.spillFile === spills[1].donations.spillFile)
    #expect(spills[0].visits != nil && spills[1].visits == nil)
    #expect(spills[0].options.horizonSeconds == 120 && spills[1].options.horizonSeconds != 120)
  }

  /// The three ways a source in blocks runs a cell (alone, block by block; all a source's
  /// cells together, each block built once; and in people ranges joined, for people
  /// shards) give what the source in memory gives, bit for bit.
  @Test func everyWayOfRunningACellInBlocksGivesTheMetricsOfTheLogInMemory() async throws {
    let folder = try Self.folder()
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let memory = try #require(try SourceLoader.load(design)[0] as? LogSource)
    let spilled = try #require(try SourceLoader.load(design, budget: 1, jobs: 2)[0] as? SpilledLogSource)
    let choices = try ["mfu", "random", "hour-of-day"].map { try StrategyRegistry.builtIn.parse($0) }
    let cells = choices.flatMap { c in (0..<2).map { (choice: c, replicate: $0) } }
    func bits(_ m: RunMetrics) -> [String] {
      [
        "\(m.total)", "\(m.perPerson)", "\(m.perPersonGini.map(\.bitPattern))", "\(m.timesToSurface)",
        "\(m.daily.map { "\($0.day) \($0.counts) \($0.offsets)" })", "\(m.exposureGini.bitPattern)",
        "\(m.medianTimeToSurfaceSeconds.bitPattern)",
      ]
    }
    let together = try await spilled.run(cells, seed: 5, jobs: 3)
    for (cell, joined) in zip(cells, together) {
      let expected = bits(memory.run(cell.choice, replicate: cell.replicate, seed: 5))
      #expect(bits(try spilled.run(cell.choice, replicate: cell.replicate, seed: 5)) == expected)
      #expect(bits(joined) == expected)
      let ranges = [0..<100, 100..<300, 300..<301, 301..<600]
      let parts = try ranges.map { try spilled.run(cell.choice, replicate: cell.replicate, seed: 5, people: $0) }
      #expect(bits(RunMetrics(blocks: parts)) == expected)
      let memoryParts = ranges.map { try! memory.run(cell.choice, replicate: cell.replicate, seed: 5, people: $0) }
      #expect(zip(parts, memoryParts).allSatisfy { bits($0) == bits($1) }, "people shards' own rows, as in memory")
    }
  }

  /// A source in blocks refuses to trace (the loader never makes one for a traced design),
  /// and people beyond the log.
  @Test func aSourceInBlocksRefusesTheTraceAndPeopleBeyondTheLog() throws {
    let folder = try Self.folder()
    let design = try ExperimentConfig.read(path: folder + "/exp.json")
    let source = try #require(try SourceLoader.load(design, budget: 1)[0] as? SpilledLogSource)
    let mfu = try StrategyRegistry.builtIn.parse("mfu")
    #expect(throws: PeopleBlockError.self) { try source.runTraced(mfu, replicate: 0, seed: 1, runID: "x") }
    #expect(throws: PeopleBlockError.self) { try source.run(mfu, replicate: 0, seed: 1, people: 0..<601) }
    #expect(source.notes.contains { $0.contains("nobody") || $0.contains("no donation") })
    #expect(source.statistics.people == 600)
  }
}
