import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Reads an experiment config (JSON) into an `ExperimentDesign`.
///
/// The format is documented in docs/batch.md and Datasets/README.md ("Experiment
/// config"). In short:
///
/// ```json
/// {
///   "name": "demo", "seed": 1, "replicates": 3, "baseline": "mfu",
///   "sources": [
///     {"name": "sample", "log": "../logs/sample.csv", "horizon": [60, 300]},
///     {"name": "commuter", "scenario": "../scenarios/commuter.json", "days": 28}
///   ],
///   "strategies": ["mfu", "mru", {"name": "hour-of-week", "parameters": {"half-life-days": [0, 7]}}],
///   "engine": {"relevanceThreshold": 0.8, "normaliserScope": "instance"},
///   "outputs": {"dir": "../../reports", "trace": false, "people": false}
/// }
/// ```
///
/// Paths are relative to the config file's folder. A list where a single value is
/// expected is a *sweep*: the source or strategy is expanded into the cartesian product of
/// the listed values, the last key varying fastest (source keys in the order `visits`,
/// `horizon`, `stack`, `warmupDays`, `timezone`, `timelines`, `days`, then the engine keys
/// `relevanceThreshold`, `normaliserScope`, `normaliserWindowDays`; strategy parameters in
/// the order written).
///
/// Validation is eager and complete: every problem is reported, as
/// `FILE:LINE:COLUMN: key.path: message`, before any work starts, including input files
/// that do not exist.
public enum ExperimentConfig {
  public static let defaultSeed: UInt64 = 1
  public static let defaultReplicates = 3
  public static let defaultBaseline = "mfu"
  public static let maximumReplicates = 100_000
  /// More cells than this is refused (a typo in a sweep, most likely).
  public static let maximumCells = 1_000_000

  /// Reads and validates the config at `path` and applies `overrides`; strategy names
  /// (in the file, in `overrides` and the baseline) are those of `registry` (by default
  /// the built-in strategies; the commands pass the tool's registry).
  ///
  /// - Throws: `InputFileError` when the config cannot be read; `DiagnosticList` with
  ///   every problem of the file (exit 65); `ExperimentUsageError` when an override
  ///   cannot be applied (exit 64).
  public static func read(
    path: String, overrides: ExperimentOverrides = ExperimentOverrides(),
    registry: StrategyRegistry = .builtIn
  ) throws -> ExperimentDesign {
    try read(bytes: FileIO.readBytes(path), file: path, overrides: overrides, registry: registry)
  }

  /// Reads a config from bytes; `file` names it in messages, and its folder is the folder
  /// relative paths start from.
  public static func read(
    bytes: [UInt8], file: String, overrides: ExperimentOverrides = ExperimentOverrides(),
    registry: StrategyRegistry = .builtIn
  ) throws -> ExperimentDesign {
    let reader = ConfigReader(file: file, bytes: bytes, registry: registry, overrides: overrides)
    var json = JSONDecoding(file: file, bytes: bytes)
    let design = try reader.read(&json)
    return try json.finish(design)
  }

  /// The folder relative paths in `file` start from (`.` for a bare file name).
  static func folder(of file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "." }
    let folder = String(file[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  /// `written` resolved against `folder`: unchanged when absolute.
  static func resolve(_ written: String, in folder: String) -> String {
    if written.hasPrefix("/") || folder == "." { return written }
    return folder.hasSuffix("/") ? folder + written : folder + "/" + written
  }

  /// The base name of a path without its extension: `logs/sample.csv` -> `sample`.
  static func baseName(_ path: String) -> String {
    var name = Substring(path)
    if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
    if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
    return String(name)
  }
}

/// What reading a config needs besides the JSON: where the file is (relative paths start
/// from its folder), the strategies it may name and the command line's overrides.
struct ConfigReader {
  let file: String
  let folder: String
  let registry: StrategyRegistry
  let overrides: ExperimentOverrides
  private let lines: LineIndex

  init(file: String, bytes: [UInt8], registry: StrategyRegistry, overrides: ExperimentOverrides) {
    self.file = file
    folder = ExperimentConfig.folder(of: file)
    self.registry = registry
    self.overrides = overrides
    lines = LineIndex(bytes)
  }

  func location(_ object: JSONObjectItem) -> ConfigLocation {
    ConfigLocation(file: file, path: object.path, position: lines.position(ofByte: object.offset))
  }

  func location(_ item: JSONItem) -> ConfigLocation {
    ConfigLocation(file: file, path: item.path, position: lines.position(ofByte: item.offset))
  }

  /// Reads the whole config from `json`'s file; nil when something was reported.
  ///
  /// - Throws: `ExperimentUsageError` when an override cannot be applied.
  func read(_ json: inout JSONDecoding) throws -> ExperimentDesign? {
    guard let root = json.parseDocument(),
      let design = try json.decodeObject(root, { o in try readTop(&o) }), json.problems.isEmpty
    else { return nil }
    let cells = design.sources.count.multipliedReportingOverflow(by: design.strategies.count)
    let total = cells.partialValue.multipliedReportingOverflow(by: design.replicates)
    if cells.overflow || total.overflow || total.partialValue > ExperimentConfig.maximumCells {
      json.report(
        "the experiment has \(design.sources.count) source points × \(design.strategies.count) strategy points × \(design.replicates) replicates, more than \(ExperimentConfig.maximumCells) cells",
        at: root.offset)
      return nil
    }
    return design
  }

  /// Reads the top-level object; its keys are looked up in the documented order (`name`,
  /// `description`, `seed`, `replicates`, `baseline`, `sources`, `strategies`, `engine`,
  /// `outputs`) and read in the order they depend on each other: the engine before the
  /// sources it is swept with, the strategies before the baseline chosen among them.
  private func readTop(_ o: inout JSONObjectReader) throws -> ExperimentDesign? {
    o.acceptComments()
    var name = ExperimentConfig.baseName(file)
    if let item = o.optional("name"), let text = o.json.requireString(item) {
      if text.isEmpty { o.json.report("expected a non-empty name", at: item) } else { name = text }
    }
    let description = o.optional("description", as: String.self)
    var seed = o.optional("seed", in: UInt64.min...UInt64.max, default: ExperimentConfig.defaultSeed)
    var replicates = o.optional(
      "replicates", in: 1...ExperimentConfig.maximumReplicates,
      default: ExperimentConfig.defaultReplicates)
    let baselineItem = o.optional("baseline")
    _ = (o.member("sources"), o.member("strategies"))  // looked up here, read below

    let engineAxes = readEngine(&o)
    var sources: [SourceSpec] = []
    if let items = o.requireElements("sources") {
      if items.isEmpty, let item = o.object["sources"] {
        o.json.report("expected at least one source", at: item)
      }
      var names: [(String, JSONItem)] = []
      for item in items {
        guard
          let (baseName, nameItem, points) = o.json.decodeObject(
            item, { s in readSource(&s, engineAxes: engineAxes) })
        else { continue }
        if let earlier = names.first(where: { $0.0 == baseName }) {
          o.json.report(
            "source name \(JSONEscaping.quoted(baseName)) is used twice (also \(earlier.1.path)); give each source a distinct \"name\"",
            at: nameItem)
        }
        names.append((baseName, nameItem))
        sources += points
      }
    }

    if overrides.split != nil, !sources.isEmpty, !sources.contains(where: { if case .log = $0.input { true } else { false } }) {
      throw ExperimentUsageError("--split splits log sources in time, and the config has none (only scenarios)")
    }
    let points = readStrategies(&o)
    var strategies = points?.map(\.choice)
    // Tuned points (`tune`): only those the file lists; --strategy replaces them.
    var tuning: [StrategyTuning] = []
    if let specs = overrides.strategies {
      strategies = try Self.parseStrategies(specs, registry: registry)
    } else if let points {
      let tuned = points.indices.compactMap { i in points[i].tune.map { (i, $0) } }
      tuning = tuned.map { i, tune in StrategyTuning(strategy: i, spec: tune.spec, location: location(tune.item)) }
      checkTuningSources(tuned.map(\.1.item), sources: sources, &o.json)
    }
    let outputs = o.optional("outputs") { item, json in readOutputs(item, &json) }
    var trace = outputs?.trace ?? false
    var traceLocation = outputs?.traceLocation
    var people = outputs?.people ?? false
    let outputDirectory = outputs?.directory

    // The baseline: the file's, unless overridden; it must be among the strategies.
    var baselineText = ExperimentConfig.defaultBaseline
    var baselineFromFile: StrategyDescriptor? = nil
    if let baselineItem, let text = o.json.requireString(baselineItem) {
      baselineText = text
      do {
        baselineFromFile = try registry.parse(text).descriptor
      } catch let error as StrategyError {
        o.json.report(error.description, at: baselineItem)
      }
    }
    if baselineItem == nil {
      baselineFromFile = try? registry.parse(baselineText).descriptor
      if baselineFromFile == nil && overrides.baseline == nil {
        o.json.report(
          "the default baseline \"\(baselineText)\" is not a known strategy; set \"baseline\"",
          at: o.object.offset, path: "baseline")
      }
    }
    var baseline = -1
    if let text = overrides.baseline {
      let descriptor: StrategyDescriptor
      do {
        descriptor = try registry.parse(text).descriptor
      } catch let error as StrategyError {
        throw ExperimentUsageError("--baseline: \(error.description)")
      }
      guard let index = strategies?.firstIndex(where: { $0.descriptor == descriptor }) else {
        if strategies == nil { return nil }
        throw ExperimentUsageError(
          "--baseline \(descriptor) is not among the strategies ("
            + strategies!.map(\.descriptor.description).joined(separator: ", ") + ")")
      }
      baseline = index
    } else if let descriptor = baselineFromFile, let list = strategies {
      if let index = list.firstIndex(where: { $0.descriptor == descriptor }) {
        baseline = index
      } else if overrides.strategies != nil {
        throw ExperimentUsageError(
          "the baseline \(descriptor) is not among the strategies given with --strategy: add it, or choose one with --baseline"
        )
      } else if let baselineItem {
        o.json.report(
          "the baseline \(JSONEscaping.quoted(baselineText)) is not among the strategies; add it to \"strategies\" or choose another baseline",
          at: baselineItem)
      } else {
        o.json.report(
          "the baseline \"\(ExperimentConfig.defaultBaseline)\" (the default) is not among the strategies; add it to \"strategies\" or set \"baseline\"",
          at: o.object.offset, path: "baseline")
      }
    }

    if let value = overrides.seed { seed = value }
    if let value = overrides.replicates {
      guard (1...ExperimentConfig.maximumReplicates).contains(value) else {
        throw ExperimentUsageError(
          "--replicates must be within 1...\(ExperimentConfig.maximumReplicates)")
      }
      replicates = value
    }
    if let value = overrides.trace {
      trace = value
      traceLocation = nil
    }
    if let value = overrides.people { people = value }

    // `scores` ranks by a score file: every source must give one.
    if let strategies, strategies.contains(where: { $0.type.name == ScoresStrategy.name }),
      let source = sources.first(where: { if case .log(let l) = $0.input { l.scores == nil } else { true } })
    {
      throw ExperimentUsageError(
        "strategy '\(ScoresStrategy.name)' ranks by an outside model's scores, but source '\(source.name)' has none: give the source \"scores\": FILE (or --scores FILE with --log)")
    }
    guard let strategies, o.json.problems.isEmpty, baseline >= 0 else { return nil }
    var design = ExperimentDesign(
      name: name, description: description, configFile: file, seed: seed, replicates: replicates,
      sources: sources, strategies: strategies, baseline: baseline, trace: trace, people: people,
      outputDirectory: outputDirectory, tuning: tuning)
    design.traceLocation = trace ? traceLocation : nil
    return design
  }

  /// `outputs`: `{"dir": FOLDER, "trace": BOOL, "people": BOOL}`, the folder resolved
  /// against the config's, and where `trace` is when it is true; nil when it is not an
  /// object.
  private func readOutputs(_ item: JSONItem, _ json: inout JSONDecoding)
    -> (directory: String?, trace: Bool, traceLocation: ConfigLocation?, people: Bool)?
  {
    json.decodeObject(item) { o in
      var directory: String? = nil
      if let item = o.optional("dir"), let dir = o.json.requireString(item) {
        if dir.isEmpty {
          o.json.report("expected a folder name, found an empty string", at: item)
        } else {
          directory = ExperimentConfig.resolve(dir, in: folder)
        }
      }
      var trace = false
      var traceLocation: ConfigLocation? = nil
      if let item = o.optional("trace"), let value = Bool(json: item, in: &o.json) {
        trace = value
        traceLocation = value ? location(item) : nil
      }
      return (directory, trace, traceLocation, o.optional("people", default: false))
    }
  }

  /// Parses command-line strategy specs (each may be a comma-separated list).
  static func parseStrategies(_ specs: [String], registry: StrategyRegistry) throws
    -> [StrategyChoice]
  {
    var result: [StrategyChoice] = []
    for spec in specs {
      let choices: [StrategyChoice]
      do {
        choices = try registry.parseList(spec)
      } catch let error as StrategyError {
        throw ExperimentUsageError("--strategy: \(error.description)")
      }
      for choice in choices {
        if result.contains(where: { $0.descriptor == choice.descriptor }) {
          throw ExperimentUsageError("--strategy: \(choice.descriptor) is listed twice")
        }
        result.append(choice)
      }
    }
    if result.isEmpty { throw ExperimentUsageError("--strategy: give at least one strategy") }
    return result
  }
}
