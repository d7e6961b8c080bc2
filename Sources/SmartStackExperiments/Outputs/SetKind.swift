import Foundation
import SmartStackBase

/// What a folder of this toolkit's outputs holds, told by its `manifest.json`'s `run`: an
/// exposure set when `run` is `exposures` (written by `batch --emit-exposures`), a report
/// set for every other run (`batch`, `shard`, `merge`, `replay`, `simulate`, `evaluate`, …)
/// and for a folder with a batch journal and no manifest yet.
///
/// Both kinds follow one rule (`OutputClaim`, `OutputSet`): the set is claimed before the
/// run, published whole with its manifest, and only the names of its kind (`holds`) count
/// as its files: they are what `--overwrite` removes, what a stranger's file is, and what
/// no single-file output may replace (`ReportSetPath`).
public enum SetKind: Sendable, Equatable {
  case reports, exposures

  /// The manifest `run` of an exposure set.
  public static let exposuresRun = "exposures"

  /// The kind of a set whose manifest says `run`.
  public init(run: String) {
    self = run == Self.exposuresRun ? .exposures : .reports
  }

  /// The set's files in words: "reports" or "exposure logs".
  public var words: String { self == .reports ? "reports" : "exposure logs" }

  /// Whether a set of this kind can hold a file called `name`. Reports:
  /// `OutputClaim.reportNames`. Exposures: `manifest.json`, and `exposures-STEM.csv`,
  /// `exposures-STEM.sidecar.json` or `exposures-STEM.timelines.json` where STEM is one
  /// or more bytes of `A-Z a-z 0-9 . _ -` (the names `batch --emit-exposures` makes).
  public func holds(_ name: String) -> Bool {
    switch self {
    case .reports: return OutputClaim.reportNames.contains(name)
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
  /// for reports `OutputClaim.reportNames` in its order (present or not), for exposures
  /// the folder's entries that `holds`, sorted by their bytes.
  func candidates(in folder: String) -> [String] {
    switch self {
    case .reports: return OutputClaim.reportNames
    case .exposures:
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return entries.filter(holds).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
  }
}
