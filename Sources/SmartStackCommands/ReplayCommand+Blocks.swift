import ArgumentParser
import Foundation
import SmartStackKit

/// How much of a log `replay` holds in memory, and when it replays in blocks of people
/// instead (docs/performance.md, "Streaming replay").
enum ReplayMemory {
  /// A replay in memory peaks at about half its inputs' size in bytes (a 2.07 GB log and
  /// visit log: 0.87 GB), and with `--split` it holds a plan per scored window, each
  /// further window adding about a quarter of the inputs' size (the 288 MB log and visit
  /// log of 2,000 people × 30 days: 148, 231, 281, 310 and 408 MB for 1, 2, 3, 4 and 6
  /// windows): inputs whose estimate is over the budget are replayed in blocks, one
  /// window's block at a time.
  static func replaysInBlocks(inputBytes: Int, windows: Int, budget: Int) -> Bool {
    inputBytes / 2 + max(windows - 1, 0) * (inputBytes / 4) > budget
  }

  /// The most bytes a block's people take on disk (`DonationSpill.blocks(maxBytes:visitRows:)`)
  /// for `budget`: a block's plan and the rows it is built from take about three times
  /// their bytes on disk, and the rest of the run needs room too.
  static func blockBytes(_ budget: Int) -> Int { max(budget / 4, 1) }

  /// The default budget: a quarter of the memory the process may use, the machine's or
  /// its control group's limit when that is smaller (`MemoryLimit`: a container's, a
  /// Slurm job's, a Kubernetes pod's).
  static var defaultBudget: Int { Int(clamping: MemoryLimit.current() / 4) }

  /// `text` as a number of bytes: a whole or decimal number with an optional K, M, G or T
  /// (powers of 1024; a trailing B or iB is allowed), e.g. `512M`, `1.5G`, `800000`.
  static func parse(_ text: String) -> Int? {
    var number = text.trimmingCharacters(in: .whitespaces).uppercased()
    for suffix in ["IB", "B"] where number.hasSuffix(suffix) && number.count > suffix.count {
      number.removeLast(suffix.count)
      break
    }
    var scale = 1.0
    if let unit = number.last, let power = ["K": 1.0, "M": 2.0, "G": 3.0, "T": 4.0][String(unit)] {
      scale = pow(1024, power)
      number.removeLast()
    }
    guard let value = Double(number), value.isFinite, value >= 1, number.allSatisfy({ $0.isNumber || $0 == "." })
    else { return nil }
    let bytes = value * scale
    return bytes < 9e18 ? Int(bytes) : nil
  }
}

extension ReplayCommand {
  /// `--max-memory` read (`ReplayMemory.parse`), else the default.
  ///
  /// - Throws: `ValidationError` for a size it cannot read.
  func memoryBudget() throws -> Int {
    guard let maxMemory else { return ReplayMemory.defaultBudget }
    guard let bytes = ReplayMemory.parse(maxMemory) else {
      throw ValidationError("--max-memory must be a size such as 512M, 4G or 800000 (bytes), not '\(maxMemory)'")
    }
    return bytes
  }

  /// The replay in blocks of people: the donation log and a visit log are read once each
  /// to a spill on disk (`LogLoader.spill`), then each window's plan is built, replayed
  /// and let go of one block of people at a time (`Replay.runAll(blockCount:plan:…)`),
  /// each block within `blockBytes(budget)` on disk. The reports, notes and messages are
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
    var blocks = spilled.donations.blocks(
      maxBytes: ReplayMemory.blockBytes(budget), visitRows: spilled.visits?.personRows)
    if blocks.isEmpty { blocks = [0..<0] }
    let plan = { (window: Int, block: Int) throws -> ReplayPlan in
      do {
        return try reportingErrors { try spilled.plan(blocks[block], options: windowOptions[window]) }
      } catch let error as ReplayError {
        throw ValidationError(error.description)
      }
    }
    // The first window's first block, built before the folder is claimed: its notes are
    // every window's (they come from the log, the visits and the timelines, not from a
    // window), and most refusals of the options come from the first people.
    var first: ReplayPlan? = try plan(0, 0)
    let (claim, manifest) = try OutputFolder.claim(
      out, manifest: OutputFolder.manifest(run: "replay", inputs: spilled.digests, started: started),
      inputs: inputPaths, overwrite: overwrite)
    for note in first!.notes where !quiet { StandardError.write("note: \(note)") }
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
      let run = try await Replay.runAll(
        blockCount: blocks.count,
        plan: { k in
          if w == 0 && k == 0, let built = first {
            first = nil
            return built
          }
          return try plan(w, k)
        }, choices: choices, source: window.label, jobs: jobs
      ) { finished, _ in
        progress.update(done: done + finished, total: total)
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
  /// The sizes of the donation log and of a visit log file, in bytes (0 for one that
  /// cannot be read: the loader reports it).
  var logBytes: Int {
    ([log] + (visitLog.map { [$0] } ?? [])).reduce(0) { total, path in
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      return total + size
    }
  }
}
