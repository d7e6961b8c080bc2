import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Writes the output files of a batch into a folder. Every file is first written to a
/// temporary name in the same folder and then renamed over its final name, so an
/// interrupted run never leaves a half-written file; `manifest.json` is written last.
public enum ExperimentOutputs {
  /// The files of a complete experiment, in the order they are written.
  public static let completeFiles = ["runs.csv", "daily.csv", "summary.csv", "paired.csv"]
  /// The files of a shard (its cells only).
  public static let shardFiles = ["runs.csv", "daily.csv"]

  /// Creates `path` (and its parents) unless it is a folder already.
  ///
  /// - Throws: `OutputFileError`.
  public static func createFolder(_ path: String) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      if !isFolder.boolValue {
        throw OutputFileError(path: path, reason: "exists and is not a folder")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Writes `runs.csv`, `daily.csv`, `summary.csv`, `paired.csv` and, when the outline
  /// traces, `trace.csv` (from `traceParts`, one file per cell in key order) of a
  /// complete experiment; returns the file names written.
  ///
  /// - Precondition: `results` holds every cell exactly once.
  /// - Throws: `OutputFileError`; `InputFileError` for a trace part that cannot be read.
  public static func writeComplete(
    _ outline: ExperimentOutline, results: [CellResult], traceParts: [String], directory: String,
    jobs: Int
  ) async throws -> [String] {
    let sorted = results.sorted { $0.cell < $1.cell }
    try createFolder(directory)
    try FileIO.writeAtomically(ExperimentTables.runs(outline, sorted), to: directory + "/runs.csv")
    try FileIO.writeAtomically(
      ExperimentTables.daily(outline, sorted), to: directory + "/daily.csv")
    let grid = ResultGrid(outline: outline, results: sorted)
    let (summary, paired) = await StatisticsTables.tables(grid, jobs: jobs)
    try FileIO.writeAtomically(summary, to: directory + "/summary.csv")
    try FileIO.writeAtomically(paired, to: directory + "/paired.csv")
    var files = completeFiles
    if outline.trace {
      try writeTrace(traceParts, to: directory + "/trace.csv")
      files.append("trace.csv")
    }
    return files
  }

  /// Writes a shard's partial `runs.csv` and `daily.csv` (and `trace.csv`) of its own
  /// cells; returns the file names written.
  public static func writeShard(
    _ outline: ExperimentOutline, results: [CellResult], traceParts: [String], directory: String
  ) throws -> [String] {
    let sorted = results.sorted { $0.cell < $1.cell }
    try createFolder(directory)
    try FileIO.writeAtomically(ExperimentTables.runs(outline, sorted), to: directory + "/runs.csv")
    try FileIO.writeAtomically(
      ExperimentTables.daily(outline, sorted), to: directory + "/daily.csv")
    var files = shardFiles
    if outline.trace {
      try writeTrace(traceParts, to: directory + "/trace.csv")
      files.append("trace.csv")
    }
    return files
  }

  static func writeTrace(_ parts: [String], to path: String) throws {
    var bytes: [[UInt8]] = []
    bytes.reserveCapacity(parts.count)
    for part in parts { bytes.append(try FileIO.readBytes(part)) }
    try FileIO.writeAtomically(ExperimentTables.trace(parts: bytes), to: path)
  }
}
