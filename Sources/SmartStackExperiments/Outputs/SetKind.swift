import Foundation
import SmartStackBase

/// What a folder of this toolkit's outputs holds, told by its `manifest.json`'s `run`: an
/// exposure set when `run` is `exposures` (written by `batch --emit-exposures`), a log set
/// when `run` is `logs` (the simulated world of `simulate --emit-log`), a report set for
/// every other run (`batch`, `shard`, `merge`, `replay`, `simulate`, `evaluate`, …)
/// and for a folder with a batch journal and no manifest yet.
///
/// Both kinds follow one rule (`OutputClaim`, `OutputSet`): the set is claimed before the
/// run, published whole with its manifest, and only the names of its kind (`holds`) count
/// as its files: they are what `--overwrite` removes, what a stranger's file is, and what
/// no single-file output may replace (`ReportSetPath`).
public enum SetKind: Sendable, Equatable {
  case reports, exposures, logs

  /// The manifest `run` of an exposure set.
  public static let exposuresRun = "exposures"
  /// The manifest `run` of a log set.
  public static let logsRun = "logs"
  /// Every name a log set can hold (`simulate --emit-log`: the donation log in either
  /// format, the visit log, the delivered timelines, the stack, the context changes when
  /// the scenario has context, and its manifest).
  public static let logNames = [
    "donations.csv", "donations.jsonl", "visits.csv", "timelines.json", "stack.json", "context.csv", "manifest.json",
  ]

  /// The kind of a set whose manifest says `run`.
  public init(run: String) {
    switch run {
    case Self.exposuresRun: self = .exposures
    case Self.logsRun: self = .logs
    default: self = .reports
    }
  }

  /// The set's files in words: "reports", "exposure logs" or "simulated logs".
  public var words: String {
    switch self {
    case .reports: return "reports"
    case .exposures: return "exposure logs"
    case .logs: return "simulated logs"
    }
  }

  /// The command that writes a set of this kind, for messages: nil for reports (the
  /// manifest's `run` names it).
  public var writer: String? {
    switch self {
    case .reports: return nil
    case .exposures: return "batch --emit-exposures"
    case .logs: return "simulate --emit-log"
    }
  }

  /// Whether a set of this kind can hold a file called `name`. Reports:
  /// `OutputClaim.reportNames`. Logs: `logNames`. Exposures: `manifest.json`, and `exposures-STEM.csv`,
  /// `exposures-STEM.sidecar.json` or `exposures-STEM.timelines.json` where STEM is one
  /// or more bytes of `A-Z a-z 0-9 . _ -` (the names `batch --emit-exposures` makes).
  public func holds(_ name: String) -> Bool {
    switch self {
    case .reports: return OutputClaim.reportNames.contains(name)
    case .logs: return Self.logNames.contains(name)
    case .exposures:
      if name == "manifest.json" { return true }
      guard name.hasPrefix("exposures-") else { return false }
      for suffix in [".sidecar.json", ".timelines.json", ".csv"] where name.hasSuffix(suffix) {
        let stem = name.dropFirst("exposures-".count).dropLast(suffix.count)
        return !stem.isEmpty && stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) }
      }
      return false
    }
  }

  /// The names in `folder` a set of this kind could hold, to look for strangers' files:
  /// for reports `OutputClaim.reportNames` and for logs `logNames` in their order (present
  /// or not), for exposures
  /// the folder's entries that `holds`, sorted by their bytes.
  func candidates(in folder: String) -> [String] {
    switch self {
    case .reports: return OutputClaim.reportNames
    case .logs: return Self.logNames
    case .exposures:
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return entries.filter(holds).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
  }
}
