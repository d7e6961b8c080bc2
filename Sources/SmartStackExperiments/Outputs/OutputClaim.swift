import Foundation
import SmartStackBase

/// The check every command that writes a report folder makes before it runs, so that a
/// folder never holds files of two runs and nothing the toolkit did not write is replaced.
///
/// In order, each failure an `OutputFileError` naming the path and the cause in words:
///
/// 1. **The path can be a folder**: every part of it that exists is a folder
///    (`--out afile/sub`: "afile is a regular file, not a folder"), and the nearest part
///    that exists lets this user create files in it.
/// 2. **No input inside it**: an input file inside the output folder is refused (a run
///    would mix its inputs with its outputs, and `--overwrite` could not tell them apart).
/// 3. **No stranger's files**: a file name a set of the run's kind can hold (`SetKind`:
///    `reportNames` for reports, `exposures-*.csv` and its companions for exposure logs,
///    `SetKind.logNames` for the logs of `simulate --emit-log`)
///    present in the folder and not listed by its `manifest.json` was not written by the
///    toolkit: it is never replaced, `--overwrite` or not.
/// 4. **No other run's set**: a folder whose `manifest.json` describes another run is
///    refused unless `overwrite` (the new set then replaces exactly the files that
///    manifest lists: `previousFiles`) or `resume` (batch, with a journal in the folder:
///    the journal must come from the same experiment, which the batch checks). The
///    same run again (same command, toolkit version, config hash and shard: inputs,
///    options and code all equal, hence byte-identical CSVs) replaces its own set.
public struct OutputClaim: Sendable, Equatable {
  /// What the run is: compared with the `run`, `version`, `config_hash` and `shard` of the
  /// folder's manifest.
  public struct Identity: Sendable, Equatable {
    public var run: String
    public var configHash: String
    public var shard: String?
    public var version: String
    public init(run: String, configHash: String, shard: String? = nil, version: String = SmartStackKit.version) {
      self.run = run
      self.configHash = configHash
      self.shard = shard
      self.version = version
    }
  }

  public enum Mode: Sendable, Equatable {
    case fresh, overwrite, resume
  }

  /// The files the folder's manifest lists (itself included), which the new set replaces
  /// or removes when it moves in; empty for a new folder.
  public var previousFiles: [String]

  /// Every name a report set of any command can hold.
  public static let reportNames = [
    "runs.csv", "daily.csv", "summary.csv", "paired.csv", "trace.csv", "explain.csv", "estimates.csv",
    "validation.csv", "checks.csv", "tuning.csv", "people.csv", "manifest.json",
  ]

  /// Checks `folder` for a run `identity` that reads `inputs` (steps 1–4 above).
  ///
  /// - Throws: `OutputFileError`.
  public static func check(
    _ folder: String, identity: Identity, mode: Mode, inputs: [String] = []
  ) throws -> OutputClaim {
    try checkPath(folder)
    try checkInputs(inputs, outside: folder)
    guard PathKind(folder) == .folder else { return OutputClaim(previousFiles: []) }
    // A set a killed run left half moved is finished first (unless a run holds the lock),
    // so that even a run refused below leaves the folder's own files a whole set.
    OutputSet.settle(folder, known: reportNames)
    let previous = try PreviousRun(folder)
    let kind = SetKind(run: identity.run)
    if let previous, previous.kind != kind {
      throw OutputFileError(
        path: folder,
        reason:
          "it holds the \(previous.kind.words) of another run (\(previous.summary)), not \(kind.words); give another folder")
    }
    for name in kind.candidates(in: folder) where !(previous?.files.contains(name) ?? false) {
      if PathKind(folder + "/" + name) != .missing {
        throw OutputFileError(
          path: folder + "/" + name,
          reason:
            "no manifest.json in \(folder) lists it, so it was not written by a run of this toolkit; refusing to replace it: move it away or give another output folder")
      }
    }
    guard let previous else { return OutputClaim(previousFiles: []) }
    if mode == .fresh && previous.identity != identity {
      throw OutputFileError(
        path: folder,
        reason:
          "it holds the \(kind.words) of another run (\(previous.summary)); give --overwrite to replace them (only the \(previous.files.count) files its manifest.json lists are removed)\(["batch", "shard"].contains(identity.run) ? ", --resume to continue an interrupted run of the same experiment" : ""), or another output folder")
    }
    return OutputClaim(previousFiles: previous.files)
  }

  /// Step 1: every existing part of `folder` is a folder, and the nearest one is writable.
  public static func checkPath(_ folder: String) throws {
    let absolute = folder.hasPrefix("/")
    var prefix = absolute ? "" : "."
    var nearest = absolute ? "/" : "."
    for component in folder.split(separator: "/") where component != "." {
      prefix += "/" + component
      var info = stat()
      guard stat(prefix, &info) == 0 else { break }
      let shown = absolute ? prefix : String(prefix.dropFirst(2))
      guard info.st_mode & S_IFMT == S_IFDIR else {
        let kind = PathKind(prefix)
        let words = kind == .symbolicLink ? "a link to something that is not a folder" : kind.words
        throw OutputFileError(
          path: folder,
          reason: shown == folder
            ? "it is \(words), not a folder"
            : "\(shown) is \(words), not a folder, so no folder can be made inside it")
      }
      nearest = prefix
    }
    guard access(nearest, W_OK | X_OK) == 0 else {
      let shown = nearest.hasPrefix("./") ? String(nearest.dropFirst(2)) : nearest
      throw OutputFileError(
        path: folder, reason: "no permission to create or replace files in \(shown) (\(String(cString: strerror(errno))))")
    }
  }

  /// Step 2: no input file lies inside `folder`.
  public static func checkInputs(_ inputs: [String], outside folder: String) throws {
    let root = canonical(folder) + "/"
    for input in inputs where canonical(input).hasPrefix(root) {
      throw OutputFileError(
        path: folder,
        reason:
          "the input \(input) is inside it; outputs never go beside their inputs (a run with --overwrite could not tell them apart): give another output folder or move the input")
    }
  }

  /// The absolute path with `.`, `..` and links resolved as far as the path exists.
  package static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }
}

/// What a folder's `manifest.json` says about the run that wrote it.
struct PreviousRun {
  var identity: OutputClaim.Identity
  /// The kind of set, from `run`.
  var kind: SetKind
  /// The names the manifest lists that a set of its kind can hold, then `manifest.json`.
  var files: [String]
  var summary: String

  /// Nil when the folder has no manifest; a manifest that cannot be read as one is an
  /// `OutputFileError` (the folder's owner is unknown).
  init?(_ folder: String) throws {
    let path = OutputSet.currentPath("manifest.json", in: folder)
    guard PathKind(path) != .missing else { return nil }
    guard let bytes = try? FileIO.readBytes(path), let root = try? JSONParser.parse(bytes),
      let run = root["run"]?.value.stringValue, let list = root["files"]?.value.arrayValue
    else {
      throw OutputFileError(
        path: folder + "/manifest.json",
        reason: "it is not a manifest of this toolkit, so the folder's files cannot be told apart; refusing to write here: give another output folder")
    }
    identity = OutputClaim.Identity(
      run: run, configHash: root["config_hash"]?.value.stringValue ?? "",
      shard: root["shard"]?.value.stringValue, version: root["version"]?.value.stringValue ?? "")
    let kind = SetKind(run: run)
    self.kind = kind
    let names = list.compactMap { $0["name"]?.value.stringValue ?? $0.value.stringValue }
    files = names.filter { $0 != "manifest.json" && kind.holds($0) } + ["manifest.json"]
    let configFile = root["config_file"]?.value.stringValue.map { " of \($0)" } ?? ""
    let finished = root["finished"]?.value.stringValue.map { ", finished \($0)" } ?? ""
    summary = "smartstack \(kind.writer ?? run)\(configFile)\(finished)"
  }
}

extension ExperimentDesign {
  /// Every input file the config names, as usable from the current folder, in config order.
  public var inputPaths: [String] {
    [configFile]
      + sources.flatMap { source -> [String] in
        switch source.input {
        case .scenario(let input): return [input.scenario.resolved]
        case .log(let input): return input.files.map(\.path.resolved)
        }
      }
  }
}
