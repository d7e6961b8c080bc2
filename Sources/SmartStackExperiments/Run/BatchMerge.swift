import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Combines the journals of shard folders into the files one whole run writes.
public enum BatchMerge {
  /// Reads every journal (`.journal/*.jsonl`) in `directories`, checks that they come
  /// from one experiment (equal config hashes) and together hold every cell exactly
  /// once (whole, or as blocks of its people that cover them once: `gather`), and writes the complete outputs into `output`, with the shards' `tuning.csv`
  /// when the experiment tunes (`tuningFile(of:outline:)`).
  ///
  /// - Throws: `InputFileError` for a folder that does not exist; `BatchError` when
  ///   journals disagree, a folder has none, or cells are missing or duplicated;
  ///   `DiagnosticList` for a damaged journal header; `BatchError` for journal lines that
  ///   do not verify or belong (a merge cannot run their cells again); `OutputFileError`;
  ///   `FolderBusyError` when another run holds `output`'s lock.
  public static func merge(
    _ directories: [String], into output: String, jobs: Int, overwrite: Bool = false
  ) async throws
    -> BatchReport
  {
    let started = Instant.now
    let clock = ContinuousClock()
    let startedClock = clock.now
    try ExperimentOutputs.checkFolder(output)
    var journals: [(directory: String, contents: Journal.Contents)] = []
    var notes: [String] = []
    for directory in directories {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        throw InputFileError(path: directory, reason: "no such folder")
      }
      let files = Journal.files(in: directory)
      if files.isEmpty {
        throw BatchError(
          "\(directory) has no batch journal (\(Journal.folderName)/*.jsonl): is it a folder written by 'smartstack batch'?"
        )
      }
      for file in files {
        let contents = try Journal.read(path: file)
        if !contents.rejected.isEmpty {
          throw BatchError(
            "\(contents.rejected.count) line(s) of \(file) cannot be used, so its shard is incomplete:\n"
              + contents.rejected.prefix(10).map { "  \($0)" }.joined(separator: "\n")
              + "\nrun that shard again with --resume (it runs those cells again), then merge")
        }
        if contents.incompleteTail {
          notes.append("\(file): ignored an incomplete last line (that run was interrupted)")
        }
        journals.append((directory, contents))
      }
    }
    guard let first = journals.first else {
      throw BatchError("nothing to merge: give at least one folder")
    }
    let outline = first.contents.outline
    let mismatched = journals.filter { $0.contents.outline.configHash != outline.configHash }
    if !mismatched.isEmpty {
      let lines = journals.map {
        "  \($0.contents.file): config hash \($0.contents.outline.configHash)"
      }
      throw BatchError(
        "the journals come from different experiments (config hashes differ):\n"
          + lines.joined(separator: "\n"))
    }

    // Every cell exactly once: whole, or from its blocks of people.
    let (results, owner) = try gather(journals, outline: outline)

    let traceRows =
      outline.trace
      ? try JournalTrace.rows(
        of: (0..<outline.cellCount).map {
          JournalTrace.Part(
            store: JournalTrace(directory: journals[owner[$0]].directory, configHash: outline.configHash),
            cell: $0)
        }) : []
    var files = await ExperimentOutputs.completeSet(
      outline, results: results, traceRows: traceRows, jobs: jobs)
    if let tuning = try tuningFile(of: journals.map(\.directory), outline: outline) {
      files.append(OutputSet.File(name: ExperimentOutputs.tuningFile, bytes: tuning))
    }
    let manifest = ExperimentManifest(
      kind: .merge, configFile: nil, shard: nil, cellsInOutputs: results.count, cellsRun: 0,
      cellsFromJournal: results.count, jobs: jobs, started: started, finished: Instant.now,
      durationSeconds: BatchSession.seconds(clock.now - startedClock), files: files,
      mergedFrom: journals.map(\.contents.file))
    files.append(OutputSet.File(name: "manifest.json", bytes: Array(manifest.json(outline).utf8)))
    try ExperimentOutputs.createFolder(output)
    let lock = try FolderLock(folder: output)
    defer { lock.release() }
    notes += try ExperimentOutputs.recover(output)
    let claim = try OutputClaim.check(
      output, identity: OutputClaim.Identity(run: "merge", configHash: outline.configHash),
      mode: overwrite ? .overwrite : .fresh)
    try ExperimentOutputs.publish(files, into: output, replacing: claim.previousFiles)
    return BatchReport(
      outline: outline, directory: output, files: files.map(\.name), cellsRun: 0,
      cellsFromJournal: results.count, cellsInOutputs: results.count, notes: notes)
  }
}
