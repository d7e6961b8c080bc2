import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The output files of a batch (or merge) and how they reach their folder: built in
/// memory, then put in place as one set (`OutputSet`: staged, committed with one rename,
/// moved in, `manifest.json` last), so that the folder holds the previous complete set or
/// the new one, never a mix.
public enum ExperimentOutputs {
  /// The files of a complete experiment, in the order they are written.
  public static let completeFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]
  /// The files of a shard (its cells only).
  public static let shardFiles = ["runs.csv", "daily.csv"]
  /// Every report file a batch, shard or merge can write (a new set removes those of the
  /// previous set it does not have, e.g. `trace.csv`).
  public static let knownFiles = completeFiles + ["trace.csv", tuningFile, peopleFile, "manifest.json"]
  /// Every trial of a tuned experiment (`Tuner.csv`), written by `batch` (and each
  /// shard) when the config tunes a strategy point, and by `merge`, which checks that
  /// every shard wrote the same (`BatchMerge.tuningFile(of:outline:)`).
  public static let tuningFile = "tuning.csv"
  /// One row per person of every cell (`ExperimentTables.people`), written by `batch`,
  /// each shard and `merge` when the outline asks for it (`ExperimentOutline.people`).
  public static let peopleFile = "people.csv"

  /// Creates `path` (and its parents) unless it is a folder already.
  ///
  /// - Throws: `OutputFileError`.
  public static func createFolder(_ path: String) throws {
    try OutputPath.createFolder(path)
  }

  /// Refuses an output folder that exists and is not a folder, or holds one of the
  /// report files, the lock file or the journal folder as something other than a regular
  /// file (a folder, for `.journal`): a device, a FIFO, a socket, a symbolic link.
  ///
  /// - Throws: `OutputFileError` naming the path and its kind.
  public static func checkFolder(_ path: String) throws {
    try OutputClaim.checkPath(path)
    try OutputPath.checkFolder(path, files: knownFiles + [FolderLock.fileName])
    try OutputPath.checkFolder(path + "/" + Journal.folderName)
  }

  /// Cleans up after a killed run in `directory` (`OutputSet.recover`, and temporary
  /// files in the journal folder); call it holding the folder's lock. Returns notes.
  public static func recover(_ directory: String) throws -> [String] {
    var notes = try OutputSet.recover(directory, known: knownFiles)
    let journal = directory + "/" + Journal.folderName
    var folders = [journal]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
    folders += names.filter { $0.hasPrefix("trace-") }.sorted().map { journal + "/" + $0 }
    for folder in folders {
      let stale = AtomicFile.removeTemporaryFiles(in: folder)
      if !stale.isEmpty {
        notes.append("\(folder): removed temporary files of an interrupted run: " + stale.joined(separator: ", "))
      }
    }
    return notes
  }

  /// Puts `files` into `directory` as one set (`OutputSet.publish`), removing the files of
  /// the previous set (`replacing`, from its manifest) that the new one lacks.
  public static func publish(
    _ files: [OutputSet.File], into directory: String, replacing: [String] = []
  ) throws {
    try OutputSet.publish(files, into: directory, known: knownFiles + replacing.filter { !knownFiles.contains($0) })
  }

  /// `runs.csv`, `daily.csv`, `summary.csv`, `paired.csv`, `people.csv` when the outline
  /// asks for it and, when the outline traces, `trace.csv` (`traceRows`: each cell's rows in key order, `JournalTrace.rows`) of a
  /// complete experiment, in that order.
  ///
  /// - Precondition: `results` holds every cell exactly once.
  public static func completeSet(
    _ outline: ExperimentOutline, results: [CellResult], traceRows: [ArraySlice<UInt8>], jobs: Int
  ) async -> [OutputSet.File] {
    let sorted = results.sorted { $0.cell < $1.cell }
    let grid = ResultGrid(outline: outline, results: sorted)
    let (summary, paired) = await StatisticsTables.tables(grid, jobs: jobs)
    var files = [
      OutputSet.File(name: "runs.csv", bytes: ExperimentTables.runs(outline, sorted)),
      OutputSet.File(name: "daily.csv", bytes: ExperimentTables.daily(outline, sorted)),
      OutputSet.File(name: "summary.csv", bytes: summary),
      OutputSet.File(name: "paired.csv", bytes: paired),
    ]
    if outline.people {
      files.append(OutputSet.File(name: peopleFile, bytes: ExperimentTables.people(outline, sorted)))
    }
    if outline.trace {
      files.append(OutputSet.File(name: "trace.csv", bytes: ExperimentTables.trace(rows: traceRows)))
    }
    return files
  }

  /// A shard's partial `runs.csv` and `daily.csv` (and `people.csv`, `trace.csv`) of its
  /// own cells.
  public static func shardSet(
    _ outline: ExperimentOutline, results: [CellResult], traceRows: [ArraySlice<UInt8>]
  ) -> [OutputSet.File] {
    let sorted = results.sorted { $0.cell < $1.cell }
    var files = [
      OutputSet.File(name: "runs.csv", bytes: ExperimentTables.runs(outline, sorted)),
      OutputSet.File(name: "daily.csv", bytes: ExperimentTables.daily(outline, sorted)),
    ]
    if outline.people {
      files.append(OutputSet.File(name: peopleFile, bytes: ExperimentTables.people(outline, sorted)))
    }
    if outline.trace {
      files.append(OutputSet.File(name: "trace.csv", bytes: ExperimentTables.trace(rows: traceRows)))
    }
    return files
  }
}
