import ArgumentParser
import Foundation
import SmartStackKit

/// `--max-memory SIZE` of `replay` and `batch`: the memory budget a command keeps its
/// replay plans within, replaying logs in blocks of people when they would not fit
/// (`PlanMemory`; docs/performance.md, "Streaming replay").
enum MemoryBudgetOption {
  /// `text` read (`PlanMemory.parse`), else the default (`PlanMemory.defaultBudget`).
  ///
  /// - Throws: `ValidationError` for a size it cannot read.
  static func budget(_ text: String?) throws -> Int {
    guard let text else { return PlanMemory.defaultBudget }
    guard let bytes = PlanMemory.parse(text) else {
      throw ValidationError("--max-memory must be a size such as 512M, 4G or 800000 (bytes), not '\(text)'")
    }
    return bytes
  }
}

extension ReplayCommand {
  /// `--max-memory` read, else the default (`MemoryBudgetOption`).
  ///
  /// - Throws: `ValidationError` for a size it cannot read.
  func memoryBudget() throws -> Int { try MemoryBudgetOption.budget(maxMemory) }

  /// True when the replay goes in blocks: its plans' estimate (`PlanMemory.estimatedBytes`,
  /// one plan per scored window of `--split`) is over `budget`.
  func replaysInBlocks(budget: Int) throws -> Bool {
    let windows = try timeSplit()?.points.count ?? 1
    return PlanMemory.estimatedBytes(inputBytes: PlanMemory.fileBytes(input.logPaths), windows: windows) > budget
  }

  /// The replay in blocks of people: the donation log and a visit log are read once each
  /// to a spill on disk (`LogLoader.spill`), then each window's plan is built, replayed
  /// and let go of one block of people at a time (`Replay.runAll(blockCount:plan:…)`,
  /// the next block built while one is replayed), each block within
  /// `blockBytes(budget / 2)` on disk. The reports, notes and messages are
  /// those of the replay in memory; a person the options refuse (`ReplayError`) is
  /// reported when its block is built, so after the output folder is claimed (and left
  /// as it was).
  func runInBlocks(choices: [StrategyChoice], inputPaths: [String], budget: Int) async throws {
    let started = Instant.current
    let logInput = try input.logInput()
    let zone = try input.zone()
    var loader = LogLoader()
    let spilled = try reportingErrors {
      try loader.spill(logInput, engine: input.engine.options) { localTimes in
        try LocalTimeWarnings.report(localTimes, file: input.log, zone: zone, strict: input.strictLocalTimes)
      }
    }
    var options = spilled.options
    options.seed = seed
    options.stackRules = try stackRules(over: options.rules)
    let source = URL(fileURLWithPath: input.log).lastPathComponent
    let windows = try timeSplit().map {
      try ReplaySplit.windows(
        $0, first: spilled.donations.firstTimestamp, last: spilled.donations.lastTimestamp, zone: options.zone,
        source: source)
    }
    let planned = windows ?? [ReplaySplit.Window(label: source, point: "", scored: nil)]
    let windowOptions = planned.map { window in
      var o = options
      o.scoredWindow = window.scored
      return o
    }
    // Two blocks' plans are held at once (the one replayed and the next, built beside it:
    // `Replay.runInBlocks`), each within half the budget's block size; when a single
    // bucket is over that size, one block at a time.
    let blockBytes = PlanMemory.blockBytes(budget / 2)
    let (spilledBlocks, buildsAhead) = spilled.donations.blocks(
      maxBytes: blockBytes, visitRows: spilled.visits?.personRows)
    let blocks = spilledBlocks.isEmpty ? [0..<0] : spilledBlocks
    let spill = SharedSpill(spilled)
    let plan = { @Sendable (window: Int, block: Int) throws -> ReplayPlan in
      try spill.spilled.plan(blocks[block], options: windowOptions[window])
    }
    // The first window's first block, built before the folder is claimed: its notes are
    // every window's (they come from the log, the visits and the timelines, not from a
    // window), and most refusals of the options come from the first people. A refusal is
    // a usage error, as in memory; a spill that cannot be read back, an input error
    // (`reportingReplayErrors`).
    var first: ReplayPlan? = try await reportingReplayErrors { try plan(0, 0) }
    let (claim, manifest) = try OutputFolder.claim(
      out, manifest: OutputFolder.manifest(run: "replay", inputs: spilled.digests, started: started),
      inputs: inputPaths, overwrite: overwrite)
    for note in first?.notes ?? [] where !quiet { StandardError.write("note: \(note)") }
    let held = try OutputFolder.lock(out, files: OutputFolder.replayFiles)
    var published = false
    defer { held.release(kept: published) }
    let progress = ProgressReporter(label: "replay", unit: "runs", quiet: quiet)
    var records: [RunRecord] = []
    var visits: [Int] = []
    var people = 0
    let total = planned.count * choices.count * blocks.count
    for (w, window) in planned.enumerated() {
      let done = w * choices.count * blocks.count
      let run = try await reportingReplayErrors {
        try await Replay.runAll(
          blockCount: blocks.count, first: first.take(), plan: { try plan(w, $0) },
          buildsAhead: buildsAhead, choices: choices, source: window.label, jobs: jobs
        ) { finished, _ in
          progress.update(done: done + finished, total: total)
        }
      }
      records += run.records
      visits.append(run.summary.visits)
      if w == 0 { people = run.summary.people }
    }
    try publish(
      records, windows: windows, held: held, claim: claim, manifest: manifest, people: people,
      visits: visits, donations: spilled.donations.count)
    published = true
  }
}

extension ReplayInputOptions {
  /// The donation log and a visit log file, as given.
  var logPaths: [String] { [log] + (visitLog.map { [$0] } ?? []) }
}
