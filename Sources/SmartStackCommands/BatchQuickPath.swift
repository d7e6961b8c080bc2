import ArgumentParser
import Foundation
import SmartStackKit

/// `batch --log FILE …` and `batch --scenario FILE …`: an experiment without a config
/// file. The options become a one-source config read by the same reader as a file
/// (`ExperimentConfig.read(bytes:file:)`), so replicates, CIs, paired tests, the journal
/// and the manifest are those of any batch.
struct QuickSourceOptions: ParsableArguments {
  @Option(help: "Quick path, no config: run an experiment on this donation log (CSV or JSON Lines). Needs --strategy; the first strategy is the baseline unless --baseline.")
  var log: String?

  @Option(help: "With --log: 'donations', 'sessions:MINUTES' or a visit log CSV (as in replay; default donations).")
  var visits: String?

  @Option(help: "With --log: 'all', 'top:N' or a stack JSON file (as in replay; default all).")
  var stack: String?

  @Option(parsing: .unconditional, help: "With --log: seconds after a visit within which the next donation is its target (default 300).")
  var horizon: Double?

  @Option(help: "With --log: the people's IANA time zone (default UTC).")
  var timezone: String?

  @Option(name: .customLong("warmup-days"), parsing: .unconditional, help: "With --log: days observed but not scored (default 0).")
  var warmupDays: Double?

  @Option(help: "With --log, or with a config (applied to its log sources; a source with another split is refused): a time split: 'train=A..B,validation=C..D,test=E..F' (local dates, inclusive; validation optional), 'rolling:folds=K:test-days=T' or 'per-person:TRAIN,VALIDATION,TEST' (docs/batch.md, \"Time splits\").")
  var split: String?

  @Option(help: "With --log: relevance timelines JSON.")
  var timelines: String?

  @Option(help: "With --log: scores from an outside model (CSV), for the strategy 'scores'.")
  var scores: String?

  @Option(help: "With --log: context changes (CSV or JSON Lines; docs/context.md), for context strategies such as 'context-mfu'.")
  var context: String?

  @Option(help: "Quick path, no config: run an experiment on this scenario (simulated people). Needs --strategy.")
  var scenario: String?

  @Option(parsing: .unconditional, help: "With --scenario: days to simulate (default: the scenario's).")
  var days: Int?

  var isUsed: Bool { log != nil || scenario != nil }

  /// The options that belong to --log, set without it (or to --scenario without it).
  var misplaced: [String] {
    var names: [String] = []
    if log == nil {
      if visits != nil { names.append("--visits") }
      if stack != nil { names.append("--stack") }
      if horizon != nil { names.append("--horizon") }
      if timezone != nil { names.append("--timezone") }
      if warmupDays != nil { names.append("--warmup-days") }
      if timelines != nil { names.append("--timelines") }
      if scores != nil { names.append("--scores") }
      if context != nil { names.append("--context") }
    }
    if scenario == nil, days != nil { names.append("--days") }
    return names
  }

  /// The base name of the log or scenario: the experiment's and the source's name.
  var name: String {
    let path = log ?? scenario ?? "experiment"
    var base = Substring(path)
    if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
    if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
    return base.isEmpty ? "experiment" : String(base)
  }

  /// The config these options stand for, as JSON (paths as given: relative to the current
  /// folder, which is the folder of the config's name `QuickSourceOptions.file`).
  func config(strategies: [String]) -> String {
    var source: [JSONMember] = [JSONMember("name", .string(name))]
    if let log {
      source.append(JSONMember("log", .string(log)))
      if let visits { source.append(JSONMember("visits", .string(visits))) }
      if let stack { source.append(JSONMember("stack", .string(stack))) }
      if let horizon { source.append(JSONMember("horizon", .number(horizon))) }
      if let timezone { source.append(JSONMember("timezone", .string(timezone))) }
      if let warmupDays { source.append(JSONMember("warmupDays", .number(warmupDays))) }
      if let timelines { source.append(JSONMember("timelines", .string(timelines))) }
      if let scores { source.append(JSONMember("scores", .string(scores))) }
      if let context { source.append(JSONMember("context", .string(context))) }
      if let split { source.append(JSONMember("split", .string(split))) }
    } else if let scenario {
      source.append(JSONMember("scenario", .string(scenario)))
      if let days { source.append(JSONMember("days", .number(Double(days)))) }
    }
    let list = strategies.flatMap { $0.split(separator: ",").map(String.init) }
    let top: [JSONMember] = [
      JSONMember("name", .string(name)),
      JSONMember("baseline", .string(list.first ?? "mfu")),
      JSONMember("sources", .array([JSONNode(.object(source))])),
      JSONMember("strategies", .array(list.map { JSONNode(.string($0)) })),
    ]
    return JSONValue.object(top).serialized(pretty: true) + "\n"
  }

  /// `--split` read (`ReplaySplit.parse`), nil without it.
  func timeSplit() throws -> TimeSplit? { try ReplaySplit.parse(split) }

  /// How the command line's config is named in messages and the manifest.
  static let file = "(command line)"

  func validate() throws {
    if log != nil && scenario != nil { throw ValidationError("give --log or --scenario, not both") }
    if let days, !(1...366).contains(days) { throw ValidationError("--days must be within 1...366") }
    if let horizon, !(0...31_622_400).contains(horizon) {
      throw ValidationError("--horizon must be a number of seconds within 0...31622400 (366 days)")
    }
    if let warmupDays, !(0...36_500).contains(warmupDays) { throw ValidationError("--warmup-days must be within 0...36500") }
    _ = try timeSplit()
    if scenario != nil, split != nil {
      throw ValidationError("--split splits a log source in time; --scenario has no log (give --log FILE, or a config with log sources)")
    }
    if let first = misplaced.first {
      throw ValidationError("\(first) belongs to the quick path: give it with \(first == "--days" ? "--scenario" : "--log") FILE (or put it in the config)")
    }
  }
}

/// `batch --init [FILE]`: a commented starting config.
enum ExperimentTemplate {
  static let defaultFile = "experiment.json"

  /// The template, its paths relative to `file`'s folder pointing at the bundled data
  /// (`bundledDatasets()`), so it runs wherever it is written and run from.
  static func text(for file: String, datasets: String = bundledDatasets() ?? "Datasets") -> String {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
    let datasets = URL(fileURLWithPath: datasets).standardizedFileURL.path
    let prefix = relative(from: folder, to: datasets)
    return """
      {
        "_about": "A starting experiment for 'smartstack batch \(file)'. Keys starting with _ are comments (at the top level and in a source). Paths are relative to this file's folder. Every key: docs/batch.md.",
        "name": "my-study",
        "description": "Which strategy surfaces the right widget most often?",
        "seed": 1,
        "replicates": 5,
        "_baseline": "paired.csv compares every strategy with this one on the same people.",
        "baseline": "mfu",
        "sources": [
          {"_about": "A donation log replayed (replace with your own log; columns: timestamp, user, kind, intent, parameters).",
           "name": "my-log", "log": "\(prefix)/logs/tiny.csv", "visits": "sessions:5", "stack": "all",
           "horizon": 300, "timezone": "UTC"},
          {"_about": "Simulated people (docs/scenario-format.md); drop this source to compare on the log alone.",
           "name": "commuter", "scenario": "\(prefix)/scenarios/commuter.json", "days": 14}
        ],
        "_strategies": "NAME or NAME:PARAM=VALUE; a list in a parameter is a sweep: {\\"name\\": \\"hour-of-week\\", \\"parameters\\": {\\"half-life-days\\": [0, 7]}}. 'smartstack strategies' lists them.",
        "strategies": ["mfu", "hour-of-week", "smart-rotate", "oracle"],
        "_outputs": "The folder (relative to this file) and whether to write trace.csv, one row per visit.",
        "outputs": {"dir": "reports/my-study", "trace": false}
      }

      """
  }

  /// The bundled `Datasets/` folder (the one holding `experiments/default.json`): in the
  /// current folder or one above it, else beside or above the running binary (a build in
  /// the repository's `.build/`); nil when neither has it.
  static func bundledDatasets() -> String? {
    var candidates: [URL] = []
    var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
    for _ in 0..<8 {
      candidates.append(folder.appendingPathComponent("Datasets"))
      folder = folder.deletingLastPathComponent()
    }
    if var binary = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
      for _ in 0..<5 {
        candidates.append(binary.appendingPathComponent("Datasets"))
        binary = binary.deletingLastPathComponent()
      }
    }
    return candidates.first {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("experiments/default.json").path)
    }?.path
  }

  /// The relative path from folder `from` to `to` (both absolute).
  static func relative(from: String, to: String) -> String {
    let a = from.split(separator: "/")
    let b = to.split(separator: "/")
    var common = 0
    while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
    let ups = Array(repeating: "..", count: a.count - common)
    let path = (ups + b[common...].map(String.init)).joined(separator: "/")
    return path.isEmpty ? "." : path
  }

  /// Writes the template to `file`, refusing to replace anything.
  static func write(_ file: String) throws {
    try reportingErrors {
      guard PathKind(file) == .missing else {
        throw OutputFileError(path: file, reason: "it exists; refusing to replace it (give another file name)")
      }
      let parent = URL(fileURLWithPath: file).deletingLastPathComponent().path
      try OutputClaim.checkPath(parent)
      try FileIO.writeAtomically(Array(text(for: file).utf8), to: file)
      if bundledDatasets() == nil {
        StandardError.write(
          "warning: \(file): no bundled Datasets/ folder found here, above here or beside smartstack: edit its \"log\" and \"scenario\" paths (relative to the file) before running it")
      }
    }
  }
}
