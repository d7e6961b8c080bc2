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

/// One finished cell, or one block of a cell's people (`PeopleBlocks`): its position
/// and its metrics.
public struct CellResult: Sendable {
  public var cell: Cell
  /// Nil for a whole cell; else the block of people (indices in the source's person
  /// order) the metrics cover. A block's `metrics.daily` is not pooled by day: it lists
  /// the block's person-days in the order a run adds them (`StandardMetrics.dayLog`),
  /// which `RunMetrics(blocks:)` adds up as one run does.
  public var people: Range<Int>?
  public var metrics: RunMetrics
  public init(cell: Cell, metrics: RunMetrics, people: Range<Int>? = nil) {
    self.cell = cell
    self.people = people
    self.metrics = metrics
  }

  /// The unit this result is of.
  public var unit: WorkUnit { WorkUnit(cell: cell.index, people: people) }
}

/// The batch journal: `DIR/.journal/cells.jsonl` (or `shard-K-of-N.jsonl`), JSON Lines.
///
/// The first line is a header naming the experiment (its outline and config hash); every
/// finished cell then appends one line with its full per-person counts, per-person Gini,
/// times to surface and daily counts: enough to rebuild every output without running
/// anything again. A line is written with one `write` call, newline included, as soon as
/// its cell finishes, so a run that is killed leaves at most one incomplete last line,
/// which `read` ignores. Trace rows, when traced, are kept beside it in
/// `DIR/.journal/trace-HASH/` (`JournalTrace`).
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

  /// Every journal file in `directory/.journal`, sorted by name.
  public static func files(in directory: String) -> [String] {
    let folder = directory + "/" + folderName
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
  }

  static func notAJournal(_ path: String, _ reason: String) -> Diagnostic {
    Diagnostic(file: path, line: 1, column: 1, message: "not a batch journal: \(reason)")
  }

  /// A journal line whose cell is not used: it does not verify against its checksum, or
  /// does not belong to this journal's experiment, cell grid or shard.
  public struct Rejection: Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line number.
    public var line: Int
    public var reason: String
    public var description: String { "\(file):\(line): \(reason)" }
  }

  /// What a journal file holds.
  public struct Contents: Sendable {
    public var file: String
    public var outline: ExperimentOutline
    public var shard: Shard?
    /// The people blocks of a people-shard's journal, else nil.
    public var peopleBlocks: PeopleBlocks?
    /// Finished cells (and blocks of cells' people) that verify and belong, in file order.
    public var cells: [CellResult]
    /// Lines whose cells are not used, in file order (see `read`).
    public var rejected: [Rejection]
    /// Byte length of the complete lines (an incomplete last line starts here).
    public var completeLength: Int
    /// True when the file ended in an incomplete line (a run killed mid-write), which
    /// was ignored.
    public var incompleteTail: Bool
  }

  /// Reads a journal.
  ///
  /// The header (line 1) must decode and verify against its checksum, or nothing in the
  /// file can be trusted: that throws. A cell line is *rejected* (listed in
  /// `Contents.rejected` with its line number and the reason, its cell not used) when its
  /// checksum does not match its bytes, it does not decode, its `experiment` is not the
  /// header's config hash, its cell index is beyond the grid, its run id is not that
  /// cell's, it is not in the header's shard (with the header's `people_block`: it is not
  /// one of the shard's units, `PeopleBlocks`), or its cell (or block) was already read
  /// from an earlier line. What to do with rejected cells is the caller's: a resume runs them
  /// again, a merge stops.
  ///
  /// - Throws: `InputFileError` when it cannot be read; `DiagnosticList` when the header
  ///   line is missing, does not decode or does not verify.
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
    guard JournalCodec.verified(bytes[0..<(lineStarts[1] - 1)]) else {
      throw DiagnosticList([
        Diagnostic(
          file: path, line: 1, column: 1,
          message:
            "the header line does not match its checksum: the journal was damaged or edited, and none of its cells can be trusted; run without --resume to start over")
      ])
    }
    let shard = header?.shard
    let peopleBlocks = header?.peopleBlocks
    // A people-shard's units (membership only, never iterated).
    let units = peopleBlocks.map { blocks in
      Set(shard.map { blocks.units(outline, shard: $0) } ?? blocks.units(outline))
    }
    var cells: [CellResult] = []
    var rejected: [Rejection] = []
    var seen = Set<WorkUnit>()
    for l in 1..<(lineStarts.count - 1) {
      let range = lineStarts[l]..<(lineStarts[l + 1] - 1)
      if range.isEmpty { continue }
      func reject(_ reason: String) { rejected.append(Rejection(file: path, line: l + 1, reason: reason)) }
      guard JournalCodec.verified(bytes[range]) else {
        reject("the line does not match its checksum (damaged or edited); its cell is not used")
        continue
      }
      var one = JSONDecoding(file: path, bytes: bytes, limit: 1)
      guard let root = one.parse(range: range), let line = JournalCell(json: root, in: &one) else {
        let problem = one.problems.diagnostics.first?.message ?? "not a journal cell"
        reject("the line does not decode as a cell (\(problem)); its cell is not used")
        continue
      }
      let (index, runID) = (line.index, line.runID)
      let unit = WorkUnit(cell: index, people: line.people)
      if line.experiment != outline.configHash {
        reject(
          "the cell belongs to another experiment (identity \(line.experiment), this journal's \(outline.configHash)); it is not used")
      } else if index >= outline.cellCount {
        reject("cell \(index) is beyond the experiment's \(outline.cellCount) cells; it is not used")
      } else if runID != outline.runID(outline.cell(index)) {
        reject(
          "cell \(index) is \(JSONEscaping.quoted(outline.runID(outline.cell(index)))) in this experiment, not \(JSONEscaping.quoted(runID)); it is not used")
      } else if let units, let peopleBlocks, !units.contains(unit) {
        reject("\(unit) is not a unit of \(shard.map { "shard \($0)" } ?? "this run") with people blocks of \(peopleBlocks); it is not used")
      } else if units == nil, line.people != nil {
        reject("\(unit) is a block of people, but the journal's header has no people_block; it is not used")
      } else if units == nil, let shard, !shard.contains(index) {
        reject("cell \(index) does not belong to shard \(shard); it is not used")
      } else if !seen.insert(unit).inserted {
        reject("\(unit) (\(runID)) is journaled again; this copy is not used")
      } else {
        cells.append(CellResult(cell: outline.cell(index), metrics: line.metrics, people: line.people))
      }
    }
    return Contents(
      file: path, outline: outline, shard: shard, peopleBlocks: peopleBlocks, cells: cells, rejected: rejected,
      completeLength: completeLength, incompleteTail: incompleteTail)
  }
}

/// Appends lines to a journal, each with one `write` call (`O_APPEND`); errors carry the
/// system's reason in words ("No space left on device").
public final class JournalWriter {
  public let path: String
  private var descriptor: Int32 = -1

  /// Starts a new journal at `path` (replacing any file there, in one rename) with the
  /// header of `outline`, followed by the lines of `cells` (a resume that dropped
  /// rejected lines keeps the good ones this way).
  public init(
    creating path: String, outline: ExperimentOutline, shard: Shard?, peopleBlocks: PeopleBlocks? = nil,
    cells: [CellResult] = []
  ) throws {
    self.path = path
    try OutputPath.createFolder((path as NSString).deletingLastPathComponent)
    var text = JournalCodec.headerLine(outline, shard: shard, peopleBlocks: peopleBlocks) + "\n"
    for cell in cells {
      text += JournalCodec.cellLine(
        cell, runID: outline.runID(cell.cell), configHash: outline.configHash) + "\n"
    }
    try FileIO.writeAtomically(text, to: path)
    try open()
  }

  /// Continues the journal at `path` after its first `length` bytes (dropping an
  /// incomplete last line).
  public init(appendingTo path: String, after length: Int) throws {
    self.path = path
    try open()
    guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure() }
  }

  private func open() throws {
    try OutputPath.checkFile(path)
    descriptor = Foundation.open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure() }
  }

  private func failure() -> OutputFileError {
    OutputFileError(path: path, reason: String(cString: strerror(errno)))
  }

  /// Appends one finished cell of the experiment whose config hash is `configHash`.
  public func append(_ result: CellResult, runID: String, configHash: String) throws {
    let line = Array((JournalCodec.cellLine(result, runID: runID, configHash: configHash) + "\n").utf8)
    var written = 0
    while written < line.count {
      let n = line[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if n > 0 {
        written += n
      } else if n == 0 {
        throw OutputFileError(path: path, reason: "the system wrote nothing (is the disk full?)")
      } else if errno != EINTR {
        throw failure()
      }
    }
  }

  public func close() {
    guard descriptor >= 0 else { return }
    Foundation.close(descriptor)
    descriptor = -1
  }

  deinit { close() }
}
