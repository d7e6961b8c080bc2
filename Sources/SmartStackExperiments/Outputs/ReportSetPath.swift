import Foundation
import SmartStackBase

/// The check of a single-file output (`import … --out`, `--visits-out`, `--widgets-out`,
/// `relevance --out`, `simulate --emit-exposures`): it must not replace a file of a report
/// set, which only the command that wrote the set may replace (`OutputClaim`).
///
/// A folder is a set's when its `manifest.json` is a manifest of this toolkit
/// (`PreviousRun`: a report set, an exposure set of `batch --emit-exposures` or a log set
/// of `simulate --emit-log`, `SetKind`)
/// or it holds a batch journal (`.journal/`, a report set still being computed).
/// Refused, after resolving links: a file of such a folder named like a report
/// (`OutputClaim.reportNames`, `manifest.json` among them) or, in an exposure set, named
/// like one of its logs (`SetKind.holds`: `exposures-*.csv` and its companions; in a log
/// set `donations.csv`, `visits.csv`, `stack.json`, …), and
/// anything inside a set's own hidden folders (`.journal/`, `.reports-committed/`,
/// `.reports-staging/`), wherever they are.
public enum ReportSetPath {
  /// The hidden folders a report set keeps beside its files.
  public static let setFolders = [".journal", ".reports-committed", ".reports-staging"]

  /// - Throws: `OutputFileError` naming `path` and the set it belongs to.
  public static func check(_ path: String) throws {
    if let reason = problem(path) { throw OutputFileError(path: path, reason: reason) }
  }

  /// Why `path` belongs to a report set, or nil.
  public static func problem(_ path: String) -> String? {
    let resolved = ResolvedPath.of(path)
    let components = resolved.split(separator: "/").map(String.init)
    for (i, component) in components.enumerated().dropLast() where setFolders.contains(component) {
      let set = "/" + components[..<i].joined(separator: "/")
      return "it is inside \(component)/ of the report set in \(set), which only the run that wrote it may change; give another output path"
    }
    guard let name = components.last else { return nil }
    let folder = "/" + components.dropLast().joined(separator: "/")
    guard let kind = setKind(folder), OutputClaim.reportNames.contains(name) || kind.holds(name) else { return nil }
    let set =
      kind == .reports
      ? "a report set (manifest.json or .journal/)"
      : "\(kind == .logs ? "a log set" : "an exposure set") (its manifest.json is from \(kind.writer ?? ""))"
    return "\(folder) holds \(set) and \(name) is one of its files, which only the run that wrote it may replace; give another output path"
  }

  /// Refuses a folder for files that are not a report set (`--emit-exposures`,
  /// `--emit-log`) when it is a report set's folder or inside a set's hidden folders
  /// (`OUT/.journal`). An exposure or log set's folder passes: its claim (`OutputClaim`)
  /// decides.
  ///
  /// - Throws: `OutputFileError` naming `folder`.
  public static func checkFolder(_ folder: String) throws {
    let resolved = ResolvedPath.of(folder)
    if let reason = problem(resolved + "/x") {  // inside .journal/ and the like
      throw OutputFileError(path: folder, reason: reason)
    }
    if setKind(resolved) == .reports {
      throw OutputFileError(
        path: folder,
        reason: "it holds a report set (manifest.json or .journal/), whose files only the run that wrote it may change; give another folder")
    }
  }

  /// The kind of set `folder` holds (a journal: reports; else its manifest's), or nil when
  /// it holds none.
  static func setKind(_ folder: String) -> SetKind? {
    if PathKind(folder + "/.journal") == .folder { return .reports }
    return ((try? PreviousRun(folder)) ?? nil)?.kind
  }
}
