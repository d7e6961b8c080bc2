import Foundation
import SmartStackBase

/// The trace rows of a traced batch's cells, kept in `DIR/.journal/trace-HASH/` so that
/// `--resume` and `merge` can write `trace.csv` without running a cell again.
///
/// While a run goes, each finished cell's rows are a file of their own,
/// `cell-INDEX.csv` (the `trace.csv` header, then the cell's rows). Once the run has
/// published its `trace.csv`, `fold` replaces those files by:
/// - `trace.csv`: a hard link to the published `DIR/trace.csv` (the same bytes on disk,
///   not a second copy);
/// - `index.csv`: columns `cell`, `start`, `end`, `fnv1a64`: each folded cell's rows are
///   the bytes `start..<end` of that file, whose FNV-1a 64 is `fnv1a64` (16 hex digits).
///
/// A cell is read from its `cell-INDEX.csv` when there is one, else from the folded file
/// through the index. When the file system refuses the hard link, `fold` leaves the cell
/// files as they are (the journal then holds its own copy of the rows, as before).
public struct JournalTrace: Sendable {
  /// `DIR/.journal/trace-HASH`.
  public let folder: String

  public init(directory: String, configHash: String) {
    folder = Journal.traceFolder(directory: directory, configHash: configHash)
  }

  public static let indexHeader = ["cell", "start", "end", "fnv1a64"]

  /// The file of one finished cell's rows, before it is folded.
  public func partPath(cell: Int) -> String { folder + "/cell-\(cell).csv" }
  public var foldedPath: String { folder + "/trace.csv" }
  public var indexPath: String { folder + "/index.csv" }

  /// Of `cells`, those whose rows are kept nowhere (neither a cell file nor the folded
  /// file's index), in the order given.
  public func missing(_ cells: [Int]) -> [Int] {
    let folded =
      FileManager.default.fileExists(atPath: foldedPath) ? ((try? readIndex()) ?? [:]) : [:]
    return cells.filter {
      folded[$0] == nil && !FileManager.default.fileExists(atPath: partPath(cell: $0))
    }
  }

  /// One cell's rows in a store.
  public struct Part: Sendable {
    public var store: JournalTrace
    public var cell: Int
    public init(store: JournalTrace, cell: Int) {
      self.store = store
      self.cell = cell
    }
  }

  /// The rows (without header) of each of `parts`, in the order given. A folded file is
  /// read once per store, and its cells' rows are slices of it.
  ///
  /// - Throws: `InputFileError` for a file that cannot be read, or whose bytes no longer
  ///   match the index (`trace.csv` changed after the run), or a cell kept nowhere.
  public static func rows(of parts: [Part]) throws -> [ArraySlice<UInt8>] {
    var folded: [String: (bytes: [UInt8], index: [Int: IndexEntry])] = [:]
    var rows: [ArraySlice<UInt8>] = []
    rows.reserveCapacity(parts.count)
    for part in parts {
      let store = part.store
      let path = store.partPath(cell: part.cell)
      if FileManager.default.fileExists(atPath: path) {
        let bytes = try FileIO.readBytes(path)
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
        rows.append(bytes[newline...])
        continue
      }
      if folded[store.folder] == nil {
        guard FileManager.default.fileExists(atPath: store.foldedPath) else {
          throw InputFileError(path: path, reason: "no such file")
        }
        folded[store.folder] = (try FileIO.readBytes(store.foldedPath), try store.readIndex())
      }
      let (bytes, index) = folded[store.folder]!
      guard let entry = index[part.cell] else {
        throw InputFileError(
          path: store.indexPath, reason: "cell \(part.cell) is not in the index (nor in \(path))")
      }
      guard entry.end <= bytes.count,
        FNV1a.hexHash(bytes[entry.start..<entry.end]) == entry.fnv1a64
      else {
        throw InputFileError(
          path: store.foldedPath,
          reason:
            "cell \(part.cell)'s rows do not match \(store.indexPath) (the published trace.csv, which this file shares its bytes with, was changed after the run): run without --resume to run every cell again"
        )
      }
      rows.append(bytes[entry.start..<entry.end])
    }
    return rows
  }

  struct IndexEntry {
    var start: Int
    var end: Int
    var fnv1a64: String
  }

  func readIndex() throws -> [Int: IndexEntry] {
    let text = String(decoding: try FileIO.readBytes(indexPath), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard lines.first == Substring(Self.indexHeader.joined(separator: ",")) else {
      throw InputFileError(path: indexPath, reason: "not a trace index (its header is not \(Self.indexHeader.joined(separator: ",")))")
    }
    lines.removeFirst()
    var index: [Int: IndexEntry] = [:]
    for (n, line) in lines.enumerated() {
      let f = line.split(separator: ",", omittingEmptySubsequences: false)
      guard f.count == 4, let cell = Int(f[0]), let start = Int(f[1]), let end = Int(f[2]),
        start >= 0, start <= end
      else {
        throw InputFileError(path: indexPath, reason: "line \(n + 2) is not cell,start,end,fnv1a64")
      }
      index[cell] = IndexEntry(start: start, end: end, fnv1a64: String(f[3]))
    }
    return index
  }

  /// Folds the cell files of `cells` into a hard link to `published`, the `trace.csv`
  /// just put in place, whose bytes are `file`: its header line, then those cells' rows
  /// (`lengths` bytes each) in the order given. Writes the index, then removes the cell
  /// files. Returns a note when the hard link cannot be made (the cell files then stay).
  ///
  /// A run killed half-way leaves the cell files (removed last), which `rows` prefers.
  ///
  /// - Throws: `OutputFileError` when the link cannot be renamed or the index written.
  public func fold(published: String, file: [UInt8], cells: [Int], lengths: [Int]) throws -> String? {
    precondition(cells.count == lengths.count)
    unlink(indexPath)
    let temporary = folder + "/.trace.csv.tmp-\(getpid())"
    unlink(temporary)
    guard link(published, temporary) == 0 else {
      let reason = String(cString: strerror(errno))
      return "\(folder): the journal keeps its own copy of the trace rows (cannot hard link \(published): \(reason))"
    }
    guard rename(temporary, foldedPath) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw OutputFileError(path: foldedPath, reason: reason)
    }
    var csv = CSVWriter(header: Self.indexHeader)
    var start = file.count - lengths.reduce(0, +)
    for (cell, length) in zip(cells, lengths) {
      csv.append(cell)
      csv.append(start)
      csv.append(start + length)
      csv.append(FNV1a.hexHash(file[start..<(start + length)]))
      csv.endRow()
      start += length
    }
    try AtomicFile.write(csv.bytes, to: indexPath)
    for cell in cells { unlink(partPath(cell: cell)) }
    return nil
  }

  /// Removes a previous run's folded file and index (a run that starts over writes its
  /// own cell files).
  public func removeFolded() {
    unlink(indexPath)
    unlink(foldedPath)
  }
}
