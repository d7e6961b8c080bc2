import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Runs several strategies over a plan given one block of people at a time.
extension Replay {
  /// `runAll(_:choices:source:jobs:progress:)` for a plan that is never whole: `plan(k)`
  /// builds block `k` of `blockCount` (consecutive blocks of people in person order,
  /// each keeping its people's indices: `ReplayPlan(block:of:visits:options:)`), which
  /// is replayed with every choice and let go of before the next is built. Each choice's
  /// metrics are joined block after block, as `RunMetrics(blocks:)` joins them, and the
  /// local days are gathered from every block (`LocalDays.Spans`), so the records are
  /// bit-identical to `runAll` over the whole plan, for any blocks and any `jobs`.
  ///
  /// Within a block, people run in parallel as in `runAll` (`PeopleInParallel`).
  ///
  /// Memory: one block's plan, and per choice its people's counts (`MetricCounts`) and
  /// its distinct days' counts.
  ///
  /// - Returns: the records in the order of `choices`, and the first block's plan's
  ///   notes (every block has the whole plan's), people, visits and options.
  /// - Throws: what `plan` throws, for the first block it fails for.
  public static func runAll(
    blockCount: Int, plan: (Int) throws -> ReplayPlan, choices: [StrategyChoice], source: String, jobs: Int,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async throws -> (records: [RunRecord], summary: BlockRunSummary) {
    var joined = choices.map { _ in JoinedBlocks() }
    var summary = BlockRunSummary()
    var days: LocalDays.Spans? = nil
    let total = choices.count * max(blockCount, 1)
    var done = 0
    progress(0, total)
    for k in 0..<blockCount {
      let block = try plan(k)
      if k == 0 {
        summary.notes = block.notes
        summary.options = block.options
        summary.donations = block.donations
        days = LocalDays.Spans(zone: block.options.zone)
      }
      summary.people += block.people.count
      summary.visits += block.visitCount
      days?.add(block)
      let parts =
        PeopleInParallel.blocks(people: block.people.count, cells: choices.count, jobs: jobs)?
        .map { block.block($0) } ?? [block]
      await PeopleInParallel.run(parts: choices.map { _ in parts.count }, jobs: jobs) { c, part in
        Replay.run(parts[part], choice: choices[c])
      } finished: { c, results in
        for result in results { joined[c].add(result) }
        done += 1
        progress(done, total)
      }
    }
    let localDays = days?.days
    let options = summary.options
    let records = choices.indices.map { i in
      RunRecord(
        source: source, strategy: choices[i].descriptor, replicate: Int(options?.replicate ?? 0),
        seed: options?.seed ?? 0, metrics: joined[i].metrics(localDays), targetAware: choices[i].isTargetAware)
    }
    return (records, summary)
  }
}

/// What a replay in blocks (`Replay.runAll(blockCount:…)`) says of the whole plan: the
/// first block's notes and options (every block's are the whole plan's), the log's
/// donations, and the people and scored visits of all blocks.
public struct BlockRunSummary: Sendable {
  public var notes: [String] = []
  public var options: ReplayOptions? = nil
  public var donations = 0
  public var people = 0
  public var visits = 0
}

/// One choice's metrics joined block after block, in person order, exactly as
/// `RunMetrics(blocks:)` joins them: per-person values appended, each person-day's counts
/// added to its day's in the order counted. A day's offsets are looked up once every
/// block is in (`metrics(_:)`).
struct JoinedBlocks {
  private var perPerson: [MetricCounts] = []
  private var gini: [Double] = []
  private var timesToSurface: [Int64] = []
  /// Only looked up; its keys are sorted in `metrics`.
  private var days: [Int64: MetricCounts] = [:]

  /// Adds a block's run (a run of a block plan: its person-days logged in order).
  mutating func add(_ m: StandardMetrics) {
    perPerson += m.perPerson
    gini += m.exposureGini
    timesToSurface += m.timesToSurface
    for entry in m.dayLog ?? [] { days[entry.day, default: MetricCounts()] += entry.counts }
  }

  /// The joined metrics, each day with its offsets in `localDays` (the zone's when nil:
  /// no block).
  func metrics(_ localDays: LocalDays?) -> RunMetrics {
    RunMetrics(
      perPerson: perPerson, perPersonGini: gini, timesToSurface: timesToSurface,
      daily: days.keys.sorted().map { ($0, days[$0]!, localDays?.offsets(of: $0) ?? LocalDays(zone: .utc).offsets(of: $0)) })
  }
}
