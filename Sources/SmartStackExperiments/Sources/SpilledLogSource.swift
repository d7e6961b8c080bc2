import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A donation log replayed in blocks of people from a spill on disk: the log source of a
/// `batch` whose plans would not fit its memory budget (`SourceLoader.load(_:budget:jobs:)`).
///
/// It runs what a `LogSource` of the same point runs, to the same bits. The batch runner
/// runs a source's whole cells all together (`run(_:seed:jobs:)`, through
/// `Replay.runInBlocks`): each block's plan is built from the spill once
/// (`ReplayPlan(block:of:visits:options:)`), replayed with every cell and let go of, and
/// each cell's metrics are joined block after block in person order. A cell run alone
/// (`run(_:replicate:seed:)`) or a people shard's range (`run(_:replicate:seed:people:)`)
/// builds the blocks it needs itself. The statistics,
/// local days and notes are gathered when the source is built, by building every block
/// once (which also reports every refusal of the options before anything runs).
///
/// Memory: the spill's bookkeeping (names, per-person row counts, 64 KiB a bucket while
/// it is written); block plans: `jobs` at once while the source is built, two while its
/// cells run together (the one replayed and the next, built beside it), one per cell
/// running for cells run alone (one at a time in the first two cases when a single
/// bucket of the spill is over the block size, `blocksFit`); and per cell its people's
/// counts. Time: every block's plan is built once more per run of the source's cells
/// (docs/performance.md, "Streaming replay").
public struct SpilledLogSource: ExperimentSource {
  public let name: String
  public let statistics: SourceStatistics
  /// Where the plan's local days lie in UTC, gathered from every block.
  public let days: LocalDays
  /// The whole plan's notes (every block's plan has the same).
  public let notes: [String]
  /// `FILE:LINE:COLUMN: warning: …` about the log's naive local times, as `LogSource`'s.
  public var warnings: [String] = []
  /// What the point's plan would take in memory (`PlanMemory.estimatedBytes`), for
  /// messages; set by `SourceLoader`.
  public var estimatedPlanBytes = 0
  /// The number of blocks of people a cell replays.
  public var blockCount: Int { blocks.count }
  /// The blocks of people (canonical ids, consecutive, covering the people `people`).
  let blocks: [Range<Int>]
  /// The people a cell runs: all of the log's, or the first of them (`prefix(people:)`).
  let people: Range<Int>
  let spill: SharedSpill
  let options: ReplayOptions
  /// True when every block is within the block size asked for (none is a single bucket
  /// over it, `DonationSpill.blocks(maxBytes:visitRows:)`): then `jobs` blocks are built
  /// at once while the source is built, and the next block beside a block's replays
  /// (`Replay.runInBlocks`); else one at a time.
  let blocksFit: Bool

  public var kind: String { "log" }
  public var unitsArePeoplePerReplicate: Bool { false }

  /// The source of `spilled` with `options`, in blocks of at most `blockBytes` on disk
  /// (`DonationSpill.blocks(maxBytes:visitRows:)`). Every block's plan is built once here,
  /// `jobs` at a time, for the statistics, the local days and the notes.
  ///
  /// - Throws: `ReplayError` for the first block the options refuse; `InputFileError`
  ///   when the spill cannot be read back.
  package init(name: String, spilled: SpilledLog, options: ReplayOptions, blockBytes: Int, jobs: Int = 1) throws {
    self.name = name
    self.options = options
    spill = SharedSpill(spilled)
    let (blocks, fit) = spilled.donations.blocks(
      maxBytes: blockBytes, visitRows: spilled.visits?.personRows)
    self.blocks = blocks
    blocksFit = fit
    let people = spilled.donations.userRows.count
    self.people = 0..<people
    var spans = LocalDays.Spans(zone: options.zone)
    var visits = 0
    var notes: [String] = []
    // A plan's build is one thread's work: `jobs` blocks at once (when blocks fit), each
    // plan let go of as soon as its days, visits and notes are taken; joined in block order.
    let width = blocksFit ? max(1, jobs) : 1
    for start in stride(from: 0, to: blocks.count, by: width) {
      let built = ParallelMap.map(Array(blocks[start..<min(start + width, blocks.count)])) { block in
        Result { () throws -> (notes: [String], days: LocalDays.Spans, visits: Int) in
          let plan = try spilled.plan(block, options: options)
          var days = LocalDays.Spans(zone: options.zone)
          days.add(plan)
          return (plan.notes, days, plan.visitCount)
        }
      }
      for (i, result) in built.enumerated() {
        let block = try result.get()
        if start + i == 0 { notes = block.notes }
        spans.add(block.days)
        visits += block.visits
      }
    }
    if blocks.isEmpty { notes = try spilled.plan(0..<0, options: options).notes }
    self.notes = notes
    days = spans.days
    statistics = SourceStatistics(
      people: people, events: spilled.donations.count, visits: visits, first: spilled.donations.firstTimestamp,
      last: spilled.donations.lastTimestamp, contentHash: spilled.inputs[0].hash, inputs: spilled.inputs)
  }

  private init(_ base: SpilledLogSource, people: Range<Int>, statistics: SourceStatistics) {
    name = base.name
    self.statistics = statistics
    days = base.days
    notes = base.notes
    warnings = base.warnings
    estimatedPlanBytes = base.estimatedPlanBytes
    blocks = base.blocks
    self.people = people
    spill = base.spill
    options = base.options
    blocksFit = base.blocksFit
  }

  /// The source with only its first `count` people (tuning's rungs, `Tuner.subset`), as a
  /// `LogSource` whose plan keeps its first `count` people; the statistics' people say so.
  func prefix(people count: Int) -> SpilledLogSource {
    var statistics = self.statistics
    let people = 0..<max(0, min(count, self.people.count))
    statistics.people = people.count
    return SpilledLogSource(self, people: people, statistics: statistics)
  }

  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64) throws -> RunMetrics {
    RunMetrics(blocks: try blockMetrics(choice, replicate: replicate, seed: seed, people: 0..<people.count))
  }

  /// The people `people` replayed block by block, each block's plan built from the spill
  /// and let go of before the next (see the type), for a people-shard: as `LogSource`'s,
  /// their per-person values and, as `daily`, their person-days in the order counted
  /// (`RunMetrics(block:days:)`), for `RunMetrics(blocks:)` to join with other shards'.
  ///
  /// - Throws: `PeopleBlockError` when `people` is not within the source's people;
  ///   `InputFileError` when the spill cannot be read back.
  public func run(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws -> RunMetrics {
    guard people.lowerBound >= 0, people.upperBound <= self.people.count else {
      throw PeopleBlockError(
        "\(name): people \(people.lowerBound)..<\(people.upperBound) are beyond the log's \(self.people.count) people")
    }
    let parts = try blockMetrics(choice, replicate: replicate, seed: seed, people: people)
    return RunMetrics(
      perPerson: parts.flatMap(\.perPerson), perPersonGini: parts.flatMap(\.perPersonGini),
      timesToSurface: parts.flatMap(\.timesToSurface), daily: parts.flatMap(\.daily))
  }

  /// The metrics of the people `people` (within the source's), one `RunMetrics(block:days:)`
  /// per block of the spill that holds some of them, in person order.
  private func blockMetrics(_ choice: StrategyChoice, replicate: Int, seed: UInt64, people: Range<Int>) throws
    -> [RunMetrics]
  {
    var options = self.options
    options.seed = seed
    options.replicate = UInt64(max(0, replicate))
    var parts: [RunMetrics] = []
    for block in blocks {
      let range = block.clamped(to: people)
      guard !range.isEmpty else { continue }
      let plan = try spill.spilled.plan(range, options: options)
      parts.append(RunMetrics(block: Replay.run(plan, choice: choice), days: days))
    }
    return parts
  }
}

extension SpilledLogSource {
  /// Runs `cells` (a strategy and a replicate each) block by block, all together
  /// (`Replay.runInBlocks`): each block's plan is built from the spill once, beside the
  /// previous block's replays, and replayed with every cell (its people cut into parts on
  /// `jobs` workers when there are fewer cells than workers, `PeopleInParallel`), and let
  /// go of. Each cell's metrics are joined block after block in person order as they come
  /// (`JoinedBlocks`, the additions of `RunMetrics(blocks:)`), so each is bit for bit what
  /// `run(_:replicate:seed:)` gives, which builds every block again for each cell.
  /// The batch runner runs a source's whole cells this way (`ExperimentRunner`).
  ///
  /// Memory: two blocks' plans, and per cell its people's counts and its days' counts.
  ///
  /// - Throws: `InputFileError` when the spill cannot be read back.
  package func run(
    _ cells: [(choice: StrategyChoice, replicate: Int)], seed: UInt64, jobs: Int
  ) async throws -> [RunMetrics] {
    let ranges = blocks.map { $0.clamped(to: people) }.filter { !$0.isEmpty }
    let (spill, options) = (spill, options)
    let joined = try await Replay.runInBlocks(
      blockCount: ranges.count, plan: { try spill.spilled.plan(ranges[$0], options: options) }, buildsAhead: blocksFit,
      runs: cells.map { BlockRun($0.choice, seed: seed, replicate: UInt64(max(0, $0.replicate))) }, jobs: jobs)
    return joined.map { $0.metrics(days) }
  }

  /// Refused: a traced cell records its rows over the whole plan, and `SourceLoader`
  /// never spills a design with the trace (`spilledPoints(_:budget:)`).
  public func runTraced(
    _ choice: StrategyChoice, replicate: Int, seed: UInt64, runID: String
  ) throws -> (metrics: RunMetrics, trace: TraceRecorder?) {
    throw PeopleBlockError(
      "\(name): a log replayed in blocks of people cannot be traced: "
        + "trace.csv needs the whole plan")
  }
}

/// A log's people are replayed apart (`run(_:replicate:seed:people:)`).
extension SpilledLogSource: PeopleApartSource {}

/// A finished spill shared by what reads it at once: a batch's cells, and the block plan
/// built beside the replays of the one before it (`Replay.runInBlocks`).
///
/// `@unchecked Sendable`, by this invariant: the spill is complete (written and flushed
/// by `LogLoader.spill`) before it is wrapped, and nothing but `SpilledLog.plan(_:options:)`
/// reads it afterwards, which only reads (`SpillFile.read(_:as:)`: `pread(2)` at fixed
/// offsets, and arrays no one writes), so concurrent calls cannot race. The file goes
/// when the last holder does.
package final class SharedSpill: @unchecked Sendable {
  package let spilled: SpilledLog
  package init(_ spilled: SpilledLog) { self.spilled = spilled }
}
