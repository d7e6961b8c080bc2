import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A deterministic part of the cells: shard `index` of `count` runs the cells whose
/// index in expansion order is `≡ index - 1 (mod count)`.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  /// 1-based.
  public var index: Int
  public var count: Int

  public init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// Parses `K/N` with 1 <= K <= N.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
    self.init(index: k, count: n)
  }

  /// True when the cell at `cellIndex` belongs to this shard.
  public func contains(_ cellIndex: Int) -> Bool { cellIndex % count == index - 1 }

  /// `K/N`.
  public var description: String { "\(index)/\(count)" }
}

/// One finished cell: its position and its metrics.
public struct CellResult: Sendable {
  public var cell: Cell
  public var metrics: RunMetrics
  public init(cell: Cell, metrics: RunMetrics) {
    self.cell = cell
    self.metrics = metrics
  }
}

/// The batch journal: `DIR/.journal/cells.jsonl` (or `shard-K-of-N.jsonl`), JSON Lines.
///
/// The first line is a header naming the experiment (its outline and config hash); every
/// finished cell then appends one line with its full per-person counts, per-person Gini,
/// times to surface and daily counts: enough to rebuild every output without running
/// anything again. A line is written with one `write` call, newline included, as soon as
/// its cell finishes, so a run that is killed leaves at most one incomplete last line,
/// which `read` ignores. Trace rows, when traced, are kept beside it in
/// `DIR/.journal/trace-HASH/cell-INDEX.csv`.
public enum Journal {
  public static let folderName = ".journal"

  /// `cells.jsonl` for a whole run, `shard-K-of-N.jsonl` for a shard.
  public static func fileName(shard: Shard?) -> String {
    guard let shard else { return "cells.jsonl" }
    return "shard-\(shard.index)-of-\(shard.count).jsonl"
  }

  public static func path(directory: String, shard: Shard?) -> String {
    directory + "/" + folderName + "/" + fileName(shard: shard)
  }

  /// The folder of trace parts of the experiment with `configHash`.
  public static func traceFolder(directory: String, configHash: String) -> String {
    directory + "/" + folderName + "/trace-" + configHash
  }

  public static func tracePart(directory: String, configHash: String, cell: Int) -> String {
    traceFolder(directory: directory, configHash: configHash) + "/cell-\(cell).csv"
  }

  /// Every journal file in `directory/.journal`, sorted by name.
  public static func files(in directory: String) -> [String] {
    let folder = directory + "/" + folderName
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
  }

  static func notAJournal(_ path: String, _ reason: String) -> Diagnostic {
    Diagnostic(file: path, line: 1, column: 1, message: "not a batch journal: \(reason)")
  }

  /// What a journal file holds.
  public struct Contents: Sendable {
    public var file: String
    public var outline: ExperimentOutline
    public var shard: Shard?
    /// Finished cells in file order.
    public var cells: [CellResult]
    /// Byte length of the complete lines (an incomplete last line starts here).
    public var completeLength: Int
    /// True when the file ended in an incomplete line (a run killed mid-write), which
    /// was ignored.
    public var incompleteTail: Bool
  }

  /// Reads a journal.
  ///
  /// - Throws: `InputFileError` when it cannot be read; `DiagnosticList` when a line is
  ///   not what `JournalCell` and `JournalHeader` write (other than an incomplete last line) or names a
  ///   cell that does not fit the header.
  public static func read(path: String) throws -> Contents {
    let bytes = try FileIO.readBytes(path)
    var json = JSONDecoding(file: path, bytes: bytes)
    var lineStarts: [Int] = [0]
    for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(i + 1) }
    let completeLength = lineStarts.last!
    let incompleteTail = completeLength < bytes.count
    guard lineStarts.count >= 2 else {
      throw DiagnosticList([notAJournal(path, "no complete header line")])
    }
    var header: JournalHeader? = nil
    if let root = json.parse(range: 0..<(lineStarts[1] - 1)) {
      header = JournalHeader(json: root, in: &json)
    }
    try json.throwIfAny()
    guard let outline = header?.outline else {
      throw DiagnosticList([notAJournal(path, "the header has no outline")])
    }
    let shard = header?.shard
    var cells: [CellResult] = []
    var seen = Set<Int>()
    for l in 1..<(lineStarts.count - 1) {
      let range = lineStarts[l]..<(lineStarts[l + 1] - 1)
      if range.isEmpty { continue }
      guard let root = json.parse(range: range), let line = JournalCell(json: root, in: &json)
      else {
        if json.isFull { break }
        continue
      }
      let (index, runID) = (line.index, line.runID)
      guard index < outline.cellCount else {
        json.report(
          "cell \(index) is beyond the experiment's \(outline.cellCount) cells",
          at: range.lowerBound)
        continue
      }
      let cell = outline.cell(index)
      if runID != outline.runID(cell) {
        json.report(
          "cell \(index) is \(JSONEscaping.quoted(outline.runID(cell))) in this experiment, not \(JSONEscaping.quoted(runID))",
          at: range.lowerBound)
      } else if let shard, !shard.contains(index) {
        json.report("cell \(index) does not belong to shard \(shard)", at: range.lowerBound)
      } else if !seen.insert(index).inserted {
        json.report("cell \(index) (\(runID)) is journaled twice", at: range.lowerBound)
      } else {
        cells.append(CellResult(cell: cell, metrics: line.metrics))
      }
    }
    try json.throwIfAny()
    return Contents(
      file: path, outline: outline, shard: shard, cells: cells, completeLength: completeLength,
      incompleteTail: incompleteTail)
  }
}

/// Appends lines to a journal, each with one `write` call.
public final class JournalWriter {
  public let path: String
  let handle: FileHandle

  /// Starts a new journal at `path` (replacing any file there) with the header of
  /// `outline`.
  public init(creating path: String, outline: ExperimentOutline, shard: Shard?) throws {
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw OutputFileError(path: folder, reason: (error as NSError).localizedDescription)
    }
    try FileIO.writeAtomically(JournalCodec.headerLine(outline, shard: shard) + "\n", to: path)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw OutputFileError(path: path, reason: "cannot open for appending")
    }
    self.handle = handle
    _ = try? handle.seekToEnd()
  }

  /// Continues the journal at `path` after its first `length` bytes (dropping an
  /// incomplete last line).
  public init(appendingTo path: String, after length: Int) throws {
    self.path = path
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw OutputFileError(path: path, reason: "cannot open for appending")
    }
    self.handle = handle
    do {
      try handle.truncate(atOffset: UInt64(length))
      try handle.seekToEnd()
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  /// Appends one finished cell.
  public func append(_ result: CellResult, runID: String) throws {
    let line = JournalCodec.cellLine(result, runID: runID) + "\n"
    do {
      try handle.write(contentsOf: Data(line.utf8))
    } catch {
      throw OutputFileError(path: path, reason: (error as NSError).localizedDescription)
    }
  }

  public func close() {
    try? handle.close()
  }

  deinit { try? handle.close() }
}
