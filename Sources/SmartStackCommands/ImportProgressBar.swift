import Foundation
import SmartStackKit

/// The bar of an `import` (`ProgressReporter`, label `import`): fed by the importer's
/// `ImportProgress` while it reads the input, in `MB` (1,000,000 bytes) for a unit of
/// bytes, in `rows` for rows.
///
/// The last line (`done in …`) is drawn by `written()`, once the outputs are written, so
/// the time it gives is the whole import's (unpacking, reading, sorting, writing). Until
/// then a report of the whole input is shown one unit short of it (`99%`): the import is
/// not done.
final class ImportProgressBar: @unchecked Sendable {
  let reporter: ProgressReporter
  private let lock = NSLock()
  /// The total of the last report (0 before any).
  private var total = 0

  init(unit: ImportProgress.Unit, quiet: Bool) {
    switch unit {
    case .bytes: reporter = ProgressReporter(label: "import", unit: "MB", perUnit: 1_000_000, quiet: quiet)
    case .rows: reporter = ProgressReporter(label: "import", unit: "rows", quiet: quiet)
    }
  }

  /// What the importer reports to; nil when nothing is shown (quiet, or not a terminal),
  /// so the importer does no work for it.
  var progress: ImportProgress? {
    guard reporter.isShown else { return nil }
    return ImportProgress { [self] done, total in
      lock.lock()
      self.total = total
      lock.unlock()
      if done < total { reporter.update(done: done, total: total) }
      else if total > 0 { reporter.update(done: total - 1, total: total) }
    }
  }

  /// Draws the last line: every output is written.
  func written() {
    lock.lock()
    let total = self.total
    lock.unlock()
    reporter.update(done: total, total: total)
  }

  /// Ends the bar's line, whether or not the import succeeded (an error then starts on a
  /// line of its own).
  func endLine() { reporter.finish() }
}
