import SmartStackBase
import SmartStackData
import SmartStackEngine

/// One replay of a plan given in blocks of people (`Replay.runInBlocks`): a strategy,
/// and the seed and replicate it runs with (nil: the block plans' own).
package struct BlockRun: Sendable {
  package var choice: StrategyChoice
  package var seed: UInt64?
  package var replicate: UInt64?

  package init(_ choice: StrategyChoice, seed: UInt64? = nil, replicate: UInt64? = nil) {
    self.choice = choice
    self.seed = seed
    self.replicate = replicate
  }
}

/// Runs several strategies over a plan given one block of people at a time.
extension Replay {
  /// `runAll(_:choices:source:jobs:progress:)` for a plan that is never whole: `plan(k)`
  /// builds block `k` of `blockCount` (consecutive blocks of people in person order,
  /// each keeping its people's indices: `ReplayPlan(block:of:visits:options:)`), which
  /// is replayed with every choice and let go of (`runInBlocks`). Each choice's
  /// metrics are joined block after block, as `RunMetrics(blocks:)` joins them, and the
  /// local days are gathered from every block (`LocalDays.Spans`), so the records are
  /// bit-identical to `runAll` over the whole plan, for any blocks and any `jobs`.
  ///
  /// `first`, when given, is block 0 already built (`plan` is not called for it; it is
  /// let go of with the block, so pass it over: `first.take()`). With
  /// `buildsAhead`, the next block's plan is built while one is replayed.
  ///
  /// Memory: one block's plan, two with `buildsAhead`, and per choice its people's counts
  /// (`MetricCounts`) and its distinct days' counts.
  ///
  /// - Returns: the records in the order of `choices`, and the first block's plan's
  ///   notes (every block has the whole plan's), people, visits and options.
  /// - Throws: what `plan` throws, for the first block it fails for.
  public static func runAll(
    blockCount: Int, first: consuming ReplayPlan? = nil, plan: @escaping @Sendable (Int) throws -> ReplayPlan,
    buildsAhead: Bool = true, choices: [StrategyChoice], source: String, jobs: Int,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async throws -> (records: [RunRecord], summary: BlockRunSummary) {
    var summary = BlockRunSummary()
    var days: LocalDays.Spans? = nil
    let joined = try await runInBlocks(
      blockCount: blockCount, first: consume first, plan: plan, buildsAhead: buildsAhead,
      runs: choices.map { BlockRun($0) }, jobs: jobs,
      built: { k, block in
        if k == 0 {
          summary.notes = block.notes
          summary.options = block.options
          summary.donations = block.donations
          days = LocalDays.Spans(zone: block.options.zone)
        }
        summary.people += block.people.count
        summary.visits += block.visitCount
        days?.add(block)
      }, progress: progress)
    let localDays = days?.days
    let options = summary.options
    let records = choices.indices.map { i in
      RunRecord(
        source: source, strategy: choices[i].descriptor, replicate: Int(options?.replicate ?? 0),
        seed: options?.seed ?? 0, metrics: joined[i].metrics(localDays), targetAware: choices[i].isTargetAware)
    }
    return (records, summary)
  }

  /// Replays `runs` over a plan given one block of people at a time: the one loop of a
  /// replay in blocks, for `replay` (`runAll(blockCount:…)`) and `batch`
  /// (`SpilledLogSource.run(_:seed:jobs:)`).
  ///
  /// Block `k`'s plan (`first` for block 0 when given, else `plan(k)`) is replayed with
  /// every run, on `jobs` workers (its people cut into parts when there are fewer runs
  /// than workers, `PeopleInParallel`), and let go of. With `buildsAhead`, block
  /// `k + 1`'s plan is built on a task of its own while block `k` is replayed: a plan's
  /// build is one thread's work, which would otherwise keep the other workers waiting;
  /// at most two blocks' plans are then held at once (callers build ahead only when two
  /// blocks fit their budget). Either way `plan` is called in block order, one block at a
  /// time. `built(k, plan)` sees each block's plan once, in block order, before its
  /// replays; `progress(done, total)` is called before the first replay and after each
  /// (run, block), `total` being `runs.count × max(blockCount, 1)`.
  ///
  /// Each run's metrics are joined block after block in person order as they come
  /// (`JoinedBlocks`, the additions of `RunMetrics(blocks:)`): bit for bit what one run
  /// over the whole plan gives, for any blocks and any `jobs`.
  ///
  /// - Throws: what `plan` throws, for the first block it fails for (the blocks before
  ///   it have been replayed; their results are dropped).
  package static func runInBlocks(
    blockCount: Int, first: consuming ReplayPlan? = nil, plan: @escaping @Sendable (Int) throws -> ReplayPlan,
    buildsAhead: Bool = true, runs: [BlockRun], jobs: Int, built: (Int, ReplayPlan) -> Void = { _, _ in },
    progress: (Int, Int) -> Void = { _, _ in }
  ) async throws -> [JoinedBlocks] {
    var joined = runs.map { _ in JoinedBlocks() }
    let total = runs.count * max(blockCount, 1)
    var done = 0
    progress(0, total)
    // Block 0 as given, held only until its task hands it over.
    var given: ReplayPlan? = consume first
    func build(_ k: Int) -> Task<ReplayPlan, any Error>? {
      guard k < blockCount else { return nil }
      if k == 0, let plan = given.take() { return Task { plan } }
      return Task { try plan(k) }
    }
    var next: Task<ReplayPlan, any Error>? = nil
    defer { next?.cancel() }
    for k in 0..<blockCount {
      // Without building ahead, block k is built here, once block k - 1 is let go of.
      guard let building = next ?? build(k) else { break }
      let block = try await building.value
      next = buildsAhead ? build(k + 1) : nil
      built(k, block)
      let parts =
        PeopleInParallel.blocks(people: block.people.count, cells: runs.count, jobs: jobs)?
        .map { block.block($0) } ?? [block]
      await PeopleInParallel.run(parts: runs.map { _ in parts.count }, jobs: jobs) { r, part in
        var piece = parts[part]
        if let seed = runs[r].seed { piece.options.seed = seed }
        if let replicate = runs[r].replicate { piece.options.replicate = replicate }
        return Replay.run(piece, choice: runs[r].choice)
      } finished: { r, results in
        for result in results { joined[r].add(result) }
        done += 1
        progress(done, total)
      }
    }
    return joined
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
package struct JoinedBlocks {
  private var perPerson: [MetricCounts] = []
  private var gini: [Double] = []
  private var timesToSurface: [Int64] = []
  /// Only looked up; its keys are sorted in `metrics`.
  private var days: [Int64: MetricCounts] = [:]

  /// Adds a block's run (a run of a block plan: its person-days logged in order).
  package mutating func add(_ m: StandardMetrics) {
    perPerson += m.perPerson
    gini += m.exposureGini
    timesToSurface += m.timesToSurface
    for entry in m.dayLog ?? [] { days[entry.day, default: MetricCounts()] += entry.counts }
  }

  /// The joined metrics, each day with its offsets in `localDays` (the zone's when nil:
  /// no block).
  package func metrics(_ localDays: LocalDays?) -> RunMetrics {
    RunMetrics(
      perPerson: perPerson, perPersonGini: gini, timesToSurface: timesToSurface,
      daily: days.keys.sorted().map { ($0, days[$0]!, localDays?.offsets(of: $0) ?? LocalDays(zone: .utc).offsets(of: $0)) })
  }
}
