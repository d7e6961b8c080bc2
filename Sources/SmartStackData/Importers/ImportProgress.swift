/// How far an importer has read its input, told to whoever shows progress (the CLI's
/// progress bar): `report(done, total)`, both in the importer's `Unit`.
///
/// The unit of each importer:
/// - `LSAppImporter`, `AppEventsImporter`: `bytes` of the unpacked text, the reader's
///   offset (the total is the text's size, known once it is unpacked);
/// - `BiomeImporter`: `bytes` of the SEGB files, those of the files read before plus the
///   offset of the record taken in the current one (the total is the files' sizes);
/// - `KnowledgeCImporter`, `PowerLogImporter`: database `rows` read, out of those the
///   queries select (counted with `SELECT COUNT(*)` before reading).
///
/// An importer calls `report` once with `done == 0` when it knows the total, then at most
/// once per `stride` rows (or records; `BiomeImporter` also after each file), and once at
/// the end of a successful read with `done == total` (perhaps twice: a report with
/// `done == total` is the last that counts); the calls come from the importer's
/// thread, in order, with `done` never decreasing. Without a progress (nil, the default)
/// an importer does no extra work at all.
public struct ImportProgress: Sendable {
  /// What `done` and `total` count.
  public enum Unit: String, Sendable {
    case bytes
    case rows
  }

  /// Rows (or records) between two reports.
  public static let stride = 4096

  /// Called with the units read so far and the total.
  public let report: @Sendable (_ done: Int, _ total: Int) -> Void

  public init(_ report: @escaping @Sendable (_ done: Int, _ total: Int) -> Void) {
    self.report = report
  }
}

/// Reports rows read to an `ImportProgress` in `rows`: `tick()` once per row reports every
/// `ImportProgress.stride` rows (never beyond `total`), `finish()` reports `total` of
/// `total`. Does nothing without a progress.
struct RowProgress {
  let progress: ImportProgress?
  let total: Int
  private(set) var done = 0

  /// Reports 0 of `total`.
  init(_ progress: ImportProgress?, total: Int) {
    self.progress = progress
    self.total = total
    progress?.report(0, total)
  }

  mutating func tick() {
    done += 1
    if let progress, done % ImportProgress.stride == 0 { progress.report(min(done, total), total) }
  }

  func finish() { progress?.report(total, total) }
}
