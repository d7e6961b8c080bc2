import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// How a batch runs (none of this changes results).
public struct BatchOptions: Sendable {
  /// The output folder.
  public var directory: String
  /// Cells run at the same time (>= 1).
  public var jobs: Int
  /// Skip the cells already in the folder's journal.
  public var resume: Bool
  /// Run only this part of the cells.
  public var shard: Shard?
  /// Replace the report set of another run in the folder (`OutputClaim`).
  public var overwrite: Bool
  /// With `shard`: the shard's units are cells and blocks of cells' people
  /// (`PeopleBlocks`), not whole cells.
  public var peopleBlocks: PeopleBlocks?

  public init(
    directory: String, jobs: Int, resume: Bool = false, shard: Shard? = nil, overwrite: Bool = false,
    peopleBlocks: PeopleBlocks? = nil
  ) {
    self.directory = directory
    self.jobs = jobs
    self.resume = resume
    self.shard = shard
    self.overwrite = overwrite
    self.peopleBlocks = peopleBlocks
  }
}

/// What a batch (or merge) did.
public struct BatchReport: Sendable {
  public var outline: ExperimentOutline
  public var directory: String
  /// The files written, manifest last.
  public var files: [String]
  public var cellsRun: Int
  public var cellsFromJournal: Int
  public var cellsInOutputs: Int
  /// Things the user should know that are not errors.
  public var notes: [String]
}

/// A batch that cannot go on (a journal of another experiment, missing or duplicated
/// cells in a merge): exit 65 with this message.
public struct BatchError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Runs an experiment into a folder: journal, cells, outputs, manifest.
public enum BatchSession {
  /// Runs `design` (with its loaded `sources`) into `options.directory`.
  ///
  /// Without `resume`, a journal already in the folder for the same shard is replaced.
  /// With `resume`, it must come from the same experiment (same config hash), and its
  /// cells are not run again; the final files are byte-identical to those of an
  /// uninterrupted run (except the manifest).
  ///
  /// - Parameters:
  ///   - progress: called after each finished cell with (cells done, cells in this run),
  ///     both counting journaled cells; first called before any cell runs.
  /// The folder is checked (`ExperimentOutputs.checkFolder`) and locked (`FolderLock`,
  /// held until the function returns) before anything else; what a killed run left is
  /// cleaned up (`ExperimentOutputs.recover`); a folder holding another run's reports is
  /// refused unless `overwrite` (`OutputClaim`); the reports are put in place as one set
  /// (`OutputSet`). On resume, journal lines that do not verify or belong
  /// (`Journal.Rejection`) are dropped from the journal, named in `notes`, and their cells
  /// run again.
  ///
  /// - Throws: `OutputFileError`, `FolderBusyError`, `BatchError`, `DiagnosticList` (a
  ///   damaged journal header), or a cell's error.
  /// The claim of the output folder (`OutputClaim`): a `batch` (or `shard`) with the
  /// outline's config hash, resuming when `resume` and the folder holds this run's journal.
  /// `run` makes it under the folder's lock; `batch --emit-exposures` also calls it before
  /// making its logs, so that another run's folder is refused before any work.
  ///
  /// - Throws: `OutputFileError`.
  public static func claim(
    _ design: ExperimentDesign, outline: ExperimentOutline, options: BatchOptions
  ) throws -> OutputClaim {
    let resuming =
      options.resume
      && FileManager.default.fileExists(atPath: Journal.path(directory: options.directory, shard: options.shard))
    return try OutputClaim.check(
      options.directory,
      identity: OutputClaim.Identity(
        run: options.shard == nil ? "batch" : "shard", configHash: outline.configHash,
        shard: options.shard?.description),
      mode: options.overwrite ? .overwrite : resuming ? .resume : .fresh,
      inputs: design.inputPaths)
  }

  public static func run(
    _ design: ExperimentDesign, sources: [any ExperimentSource], options: BatchOptions,
    progress: (Int, Int) -> Void = { _, _ in }
  ) async throws -> BatchReport {
    let (tuned, tuningCSV) = try await tune(design, sources: sources, options: options)
    return try await run(tuned, sources: sources, options: options, tuningCSV: tuningCSV, progress: progress)
  }

  /// `design` with its tuned points (`tune`) replaced by the configurations chosen on the
  /// validation window (`Tuner.tune`; docs/batch.md, "Tuning"), its `tuning` kept so the
  /// resolved config records it, and the bytes of `tuning.csv`; `design` as it is and nil
  /// when it tunes nothing. What `run` runs: callers that need the chosen points before the
  /// cells (`batch --emit-exposures`) tune first and pass both to
  /// `run(_:sources:options:tuningCSV:progress:)`.
  public static func tune(
    _ design: ExperimentDesign, sources: [any ExperimentSource], options: BatchOptions
  ) async throws -> (design: ExperimentDesign, tuningCSV: [UInt8]?) {
    guard !design.tuning.isEmpty else { return (design, nil) }
    try ExperimentOutputs.checkFolder(options.directory)
    let (tuned, trials) = try await Tuner.tune(design, sources: sources, jobs: options.jobs)
    var tunedDesign = tuned
    tunedDesign.tuning = design.tuning
    return (tunedDesign, Tuner.csv(trials))
  }

  /// `run(_:sources:options:progress:)` of a design already tuned (`tune`), with its
  /// `tuning.csv` (nil when it tunes nothing): the design is run as it is.
  public static func run(
    _ design: ExperimentDesign, sources: [any ExperimentSource], options: BatchOptions, tuningCSV: [UInt8]?,
    progress: (Int, Int) -> Void
  ) async throws -> BatchReport {
    let started = Instant.now
    let clock = ContinuousClock()
    let startedClock = clock.now
    let outline = ExperimentOutline(design: design, sources: sources)
    let directory = options.directory
    if options.peopleBlocks != nil {
      guard options.shard != nil else { throw BatchError("people blocks divide cells among shards: give a shard") }
      guard !design.trace else {
        throw BatchError("people blocks cannot be traced: trace.csv is kept per cell; run without the trace or without people blocks")
      }
    }
    try ExperimentOutputs.checkFolder(directory)
    try ExperimentOutputs.createFolder(directory)
    let lock = try FolderLock(folder: directory)
    defer { lock.release() }
    var notes = try ExperimentOutputs.recover(directory)
    if let blocks = options.peopleBlocks {
      notes += Self.peopleBlockNotes(blocks, outline: outline)
    }

    // The journal: continue it (resume) or start over.
    let journalPath = Journal.path(directory: directory, shard: options.shard)
    let resuming = options.resume && FileManager.default.fileExists(atPath: journalPath)
    let claim = try claim(design, outline: outline, options: options)
    var done: [CellResult] = []
    let writer: JournalWriter
    if resuming {
      let contents = try Journal.read(path: journalPath)
      guard contents.outline.configHash == outline.configHash else {
        throw BatchError(
          "\(journalPath) was written by a different experiment (config hash \(contents.outline.configHash), this one \(outline.configHash)): its cells cannot be reused. Run without --resume to start over, or use another --out folder"
        )
      }
      guard contents.shard == options.shard else {
        throw BatchError(
          "\(journalPath) belongs to \(contents.shard.map { "shard \($0)" } ?? "a whole run"), not \(options.shard.map { "shard \($0)" } ?? "a whole run")"
        )
      }
      guard contents.peopleBlocks == options.peopleBlocks else {
        func what(_ blocks: PeopleBlocks?) -> String { blocks.map { "people blocks of \($0)" } ?? "whole cells" }
        throw BatchError(
          "\(journalPath) was written with \(what(contents.peopleBlocks)), not \(what(options.peopleBlocks)): resume with the same --people-block, or run without --resume to start over"
        )
      }
      if contents.incompleteTail {
        notes.append(
          "\(journalPath): ignored an incomplete last line (the previous run was interrupted while writing it)"
        )
      }
      done = contents.cells
      if contents.rejected.isEmpty {
        writer = try JournalWriter(appendingTo: journalPath, after: contents.completeLength)
      } else {
        // Rejected lines are dropped from the journal and their cells run again.
        notes += contents.rejected.map { "\($0); it runs again" }
        writer = try JournalWriter(
          creating: journalPath, outline: outline, shard: options.shard, peopleBlocks: options.peopleBlocks,
          cells: done)
      }
    } else {
      if options.resume {
        notes.append("no journal at \(journalPath): running every cell")
      }
      writer = try JournalWriter(
        creating: journalPath, outline: outline, shard: options.shard, peopleBlocks: options.peopleBlocks)
    }
    defer { writer.close() }

    let mine = (0..<outline.cellCount).filter { options.shard?.contains($0) ?? true }
    // The units this run owns: its cells, or with people blocks its cells and blocks.
    let units =
      if let blocks = options.peopleBlocks, let shard = options.shard {
        blocks.units(outline, shard: shard)
      } else {
        mine.map { WorkUnit(cell: $0, people: nil) }
      }
    let finished = Set(done.map(\.unit))
    let todo = units.filter { !finished.contains($0) }.map { (cell: outline.cell($0.cell), people: $0.people) }
    let traceStore = JournalTrace(directory: directory, configHash: outline.configHash)
    if design.trace {
      try ExperimentOutputs.createFolder(traceStore.folder)
      if !resuming { traceStore.removeFolded() }
      if let cell = traceStore.missing(done.map(\.cell.index)).first {
        throw BatchError(
          "\(traceStore.partPath(cell: cell)) is missing: the journaled cell \(outline.runID(outline.cell(cell))) has no trace. Run without --resume to start over"
        )
      }
    }

    progress(done.count, units.count)
    var results = done
    let runID = { (cell: Cell) in outline.runID(cell) }
    try await ExperimentRunner.run(
      todo, sources: sources, strategies: design.strategies, seed: design.seed, jobs: options.jobs,
      trace: design.trace, runID: runID
    ) { result, recorder in
      if let recorder {
        try FileIO.writeAtomically(
          recorder.csv.bytes,
          to: traceStore.partPath(cell: result.cell.index))
      }
      try writer.append(result, runID: outline.runID(result.cell), configHash: outline.configHash)
      FaultInjection.reached("cell")
      results.append(result)
      progress(results.count, units.count)
    }
    writer.close()

    // A people-shard's reports hold its whole cells; merge adds up the blocks.
    let wholeCells = results.filter { $0.people == nil }
    let traceRows =
      design.trace ? try JournalTrace.rows(of: mine.map { JournalTrace.Part(store: traceStore, cell: $0) }) : []
    var files: [OutputSet.File]
    if options.shard == nil {
      files = await ExperimentOutputs.completeSet(
        outline, results: results, traceRows: traceRows, jobs: options.jobs)
    } else {
      files = ExperimentOutputs.shardSet(outline, results: wholeCells, traceRows: traceRows)
    }
    if let tuningCSV { files.append(OutputSet.File(name: ExperimentOutputs.tuningFile, bytes: tuningCSV)) }
    let manifest = ExperimentManifest(
      kind: options.shard == nil ? .batch : .shard, configFile: design.configFile,
      shard: options.shard, cellsInOutputs: wholeCells.count, cellsRun: todo.count,
      cellsFromJournal: done.count, jobs: options.jobs, started: started, finished: Instant.now,
      durationSeconds: seconds(clock.now - startedClock), files: files)
    files.append(OutputSet.File(name: "manifest.json", bytes: Array(manifest.json(outline).utf8)))
    try ExperimentOutputs.publish(files, into: directory, replacing: claim.previousFiles)
    if design.trace, let trace = files.first(where: { $0.name == "trace.csv" }) {
      // The journal keeps the published file's bytes (a hard link), not a copy of them.
      // The reports are in place by now: a fold that fails is a note, not an error (the
      // cell files, removed last, are still there).
      do {
        if let note = try traceStore.fold(
          published: directory + "/trace.csv", file: trace.bytes, cells: mine,
          lengths: traceRows.map(\.count))
        {
          notes.append(note)
        }
      } catch {
        notes.append("\(traceStore.folder): the journal keeps its own copy of the trace rows (\(error))")
      }
    }
    return BatchReport(
      outline: outline, directory: directory, files: files.map(\.name), cellsRun: todo.count,
      cellsFromJournal: done.count, cellsInOutputs: wholeCells.count, notes: notes)
  }

  /// What a user of `blocks` should know: when no source is cut at all.
  static func peopleBlockNotes(_ blocks: PeopleBlocks, outline: ExperimentOutline) -> [String] {
    guard !outline.sources.contains(where: blocks.splits) else { return [] }
    return ["no source has more than \(blocks) people (--people-block): the shards take whole cells"]
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

extension Instant {
  /// The current wall-clock time (for manifests only, never for results).
  static var now: Instant { Instant(Date()) }
}
