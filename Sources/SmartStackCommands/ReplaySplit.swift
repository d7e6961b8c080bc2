import ArgumentParser
import SmartStackKit

/// `replay --split TEXT` (and `batch --split TEXT`'s spelling): the scored windows of a time split (`TimeSplit`, spelled and
/// resolved exactly as `batch --log FILE --split TEXT` resolves them, `SourceLoader`), each
/// replayed as its own source `LOG[split=WINDOW]`, and the `split` column the reports gain.
enum ReplaySplit {
  /// One scored window: its source label, its point (`validation`, `test`, `fold1`, …)
  /// and the visits it scores (nil: all).
  struct Window {
    var label: String
    var point: String
    var scored: ScoredWindow?
  }

  /// `--split TEXT` (of `replay` and `batch`) read by `TimeSplit.parse`, nil without it.
  ///
  /// - Throws: `ValidationError` (exit 64) when malformed: `--split: expected
  ///   rolling:folds=K:test-days=T, found 'rolling:folds=4'`.
  static func parse(_ text: String?) throws -> TimeSplit? {
    guard let text else { return nil }
    do throws(TimeSplitError) { return try TimeSplit.parse(text) } catch {
      throw ValidationError("--split: \(error.message)")
    }
  }

  /// The windows of `split` over `log` read in `zone`, in the split's point order, labelled
  /// `source[split=POINT]` as batch labels a split source's points. A log without
  /// donations has no dates: its windows score every visit (the replay then says the log
  /// is empty).
  ///
  /// - Throws: `ValidationError` (exit 64) when the windows do not fit the log's dates:
  ///   `--split: test (…) is not within the log's dates …`.
  static func windows(_ split: TimeSplit, log: DonationLog, zone: ZoneRules, source: String) throws -> [Window] {
    try windows(split, first: log.timestamps.min(), last: log.timestamps.max(), zone: zone, source: source)
  }

  /// `windows(_:log:zone:source:)` for a log whose earliest and latest instants are
  /// `first` and `last` (nil: no rows).
  static func windows(_ split: TimeSplit, first: Int64?, last: Int64?, zone: ZoneRules, source: String) throws -> [Window] {
    try split.points.indices.map { i in
      var scored: ScoredWindow? = nil
      if let first, let last {
        do throws(TimeSplitError) {
          scored = try split.window(
            point: i, zone: zone, firstDay: zone.dayIndex(at: Instant(milliseconds: first)),
            lastDay: zone.dayIndex(at: Instant(milliseconds: last)))
        } catch {
          throw ValidationError("--split: \(error.message)")
        }
      }
      return Window(label: "\(source)[split=\(split.points[i])]", point: split.points[i], scored: scored)
    }
  }

  /// `csv` (a table of `RunTables` whose first column is `source`) with a `split` column
  /// right after `source`, as batch's tables have it: each row's window, found by its
  /// source label among `windows`.
  ///
  /// - Throws: `DiagnosticList` when `csv` does not read back (it always does: it was
  ///   just written).
  static func withSplitColumn(_ csv: String, file: String, windows: [Window]) throws -> String {
    let table = try CSVTable.read(bytes: Array(csv.utf8), file: file)
    var out = CSVWriter(header: [table.header[0], "split"] + table.header.dropFirst())
    for row in table.rows {
      let point = windows.first { $0.label == row[0] }?.point ?? ""
      out.appendRow([row[0], point] + row.dropFirst())
    }
    return out.text
  }
}
