import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// An experiment ready to run: the config file read, every default and command-line
/// override applied, and every sweep expanded.
///
/// The cells of the experiment are `sources × strategies × replicates`. Their order, the
/// *expansion order*, is source-major: every strategy and replicate of source 0, then
/// source 1, and so on; within a source, strategy by strategy in config order; within a
/// strategy, replicate 0, 1, …. A cell's index in that order is its key: outputs are
/// sorted by it and shards select cells by it. See docs/batch.md.
public struct ExperimentDesign: Sendable {
  /// The experiment's name (config `name`, default: the config file's base name).
  public var name: String
  /// Free text from the config (`description`), or nil.
  public var description: String?
  /// The config file as the user named it.
  public var configFile: String
  /// The master seed: every cell's strategies derive their randomness from (seed,
  /// replicate, strategy, person), and the bootstrap from (seed, row key).
  public var seed: UInt64
  /// Replicates per source and strategy (>= 1).
  public var replicates: Int
  /// The expanded source points, in expansion order.
  public var sources: [SourceSpec]
  /// The expanded strategy points, in expansion order (no two with equal descriptors).
  public var strategies: [StrategyChoice]
  /// Index into `strategies` of the baseline of `paired.csv`.
  public var baseline: Int
  /// Whether `trace.csv` is written.
  public var trace: Bool
  /// Where the config's `outputs.trace` is true, when that (not `--trace`) asks for the
  /// trace: a refusal of the trace (`batch --people-block`) points there.
  public var traceLocation: ConfigLocation? = nil
  /// Whether `people.csv` is written (`outputs.people`, `--people`).
  public var people: Bool
  /// The output folder from the config (`outputs.dir`, resolved against the config's
  /// folder), or nil when the config does not name one.
  public var outputDirectory: String?
  /// The strategy points tuned on the validation window (config `tune`, docs/batch.md
  /// "Tuning"), in strategy order; empty for most experiments. `Tuner.tune` replaces
  /// each such point by the configuration it chooses.
  public var tuning: [StrategyTuning]

  public init(
    name: String, description: String? = nil, configFile: String, seed: UInt64,
    replicates: Int, sources: [SourceSpec], strategies: [StrategyChoice], baseline: Int,
    trace: Bool = false, people: Bool = false, outputDirectory: String? = nil, tuning: [StrategyTuning] = []
  ) {
    self.name = name
    self.description = description
    self.configFile = configFile
    self.seed = seed
    self.replicates = replicates
    self.sources = sources
    self.strategies = strategies
    self.baseline = baseline
    self.trace = trace
    self.people = people
    self.outputDirectory = outputDirectory
    self.tuning = tuning
  }

  /// Number of cells: sources × strategies × replicates.
  public var cellCount: Int { sources.count * strategies.count * replicates }

  /// The cell at `index` in expansion order.
  ///
  /// - Precondition: `0 <= index < cellCount`.
  public func cell(_ index: Int) -> Cell {
    Cell.decode(index, strategies: strategies.count, replicates: replicates)
  }
}

/// One unit of work: a source point, a strategy point and a replicate.
public struct Cell: Sendable, Hashable, Comparable {
  /// Position in expansion order (the cell's key).
  public var index: Int
  public var source: Int
  public var strategy: Int
  public var replicate: Int

  public init(index: Int, source: Int, strategy: Int, replicate: Int) {
    self.index = index
    self.source = source
    self.strategy = strategy
    self.replicate = replicate
  }

  /// The cell at `index` of a design with `strategies` strategy points and
  /// `replicates` replicates: `index = (source × strategies + strategy) × replicates +
  /// replicate`.
  public static func decode(_ index: Int, strategies: Int, replicates: Int) -> Cell {
    let replicate = index % replicates
    let rest = index / replicates
    return Cell(
      index: index, source: rest / strategies, strategy: rest % strategies, replicate: replicate)
  }

  public static func < (a: Cell, b: Cell) -> Bool { a.index < b.index }

  /// `source|strategy-descriptor|replicate`: the `run_id` of the CSVs.
  public static func runID(source: String, strategy: String, replicate: Int) -> String {
    "\(source)|\(strategy)|\(replicate)"
  }
}

/// One source point of the design: a log or scenario with one value for every option.
public struct SourceSpec: Sendable {
  /// What the source reads.
  public enum Input: Sendable {
    case log(LogInput)
    case scenario(ScenarioInput)
  }

  /// The unique label: the source's name, plus `[key=value;…]` for the swept keys
  /// (e.g. `sample[horizon=60;warmupDays=7]`).
  public var name: String
  public var input: Input
  public var engine: EngineOptions
  /// Where the source is written in the config, for messages about it.
  public var location: ConfigLocation

  public init(name: String, input: Input, engine: EngineOptions, location: ConfigLocation) {
    self.name = name
    self.input = input
    self.engine = engine
    self.location = location
  }

  /// `"log"` or `"scenario"`.
  public var kind: String {
    switch input {
    case .log: return "log"
    case .scenario: return "scenario"
    }
  }
}

/// A place in the config file: the key path and its line and column.
public struct ConfigLocation: Sendable, Hashable {
  public var file: String
  public var path: String
  public var position: TextPosition

  public init(file: String, path: String, position: TextPosition) {
    self.file = file
    self.path = path
    self.position = position
  }

  /// `FILE:LINE:COLUMN: PATH: message`.
  public func diagnostic(_ message: String) -> Diagnostic {
    Diagnostic(
      file: file, line: position.line, column: position.column,
      message: path.isEmpty ? message : "\(path): \(message)")
  }
}

/// A path from the config: as written (relative to the config's folder) and resolved.
public struct ConfigPath: Sendable, Hashable {
  /// As written in the config; this is what outputs and the config hash record.
  public var written: String
  /// Usable from the current folder (the config's folder joined with `written`, unless
  /// `written` is absolute).
  public var resolved: String

  public init(written: String, resolved: String) {
    self.written = written
    self.resolved = resolved
  }

  /// A path given on the command line: written and resolved are the same.
  public init(asGiven path: String) {
    self.init(written: path, resolved: path)
  }
}

/// A donation-log source point; the options mean what `smartstack replay`'s do.
public struct LogInput: Sendable {
  /// Where visits come from (`VisitChoice`, the file resolved against the config's folder).
  public typealias Visits = VisitChoice<ConfigPath>
  /// Which instances make up each person's stack (`StackChoice`, the file resolved).
  public typealias Stack = StackChoice<ConfigPath>

  public var log: ConfigPath
  /// nil: by extension, then by content.
  public var format: DonationLogFormat?
  public var visits: Visits = .donations
  public var horizonSeconds: Double = 300
  public var stack: Stack = .all
  public var warmupDays: Double = 0
  /// An IANA zone name, already checked.
  public var timezone: String = "UTC"
  public var timelines: ConfigPath?
  /// Scores from an outside model (`replay --scores`), read by the strategy `scores`.
  public var scores: ConfigPath?
  /// Context changes (`replay --context`, docs/context.md), read by context strategies.
  public var context: ConfigPath?
  /// The split point this source point scores (docs/batch.md, "Time splits"), or nil:
  /// every visit after the warm-up.
  public var split: SplitPoint?

  public init(log: ConfigPath) {
    self.log = log
  }
}

/// A scenario source point (simulated people).
public struct ScenarioInput: Sendable {
  public var scenario: ConfigPath
  /// Days to simulate; nil: the scenario's own length.
  public var days: Int?

  public init(scenario: ConfigPath, days: Int? = nil) {
    self.scenario = scenario
    self.days = days
  }
}

/// Command-line options that override the config file (precedence: built-in defaults <
/// file < command line). nil leaves the file's value.
public struct ExperimentOverrides: Sendable {
  public var seed: UInt64?
  public var replicates: Int?
  /// Strategy specs (`name` or `name:k=v:…`), replacing the config's list.
  public var strategies: [String]?
  public var baseline: String?
  public var trace: Bool?
  /// `--people` / `--no-people`: write `people.csv`.
  public var people: Bool?
  /// A time split (`--split TEXT`) for every log source without one; a log source whose
  /// own `split` differs is refused at its `split` key.
  public var split: TimeSplit?

  public init(
    seed: UInt64? = nil, replicates: Int? = nil, strategies: [String]? = nil,
    baseline: String? = nil, trace: Bool? = nil, people: Bool? = nil, split: TimeSplit? = nil
  ) {
    self.seed = seed
    self.replicates = replicates
    self.strategies = strategies
    self.baseline = baseline
    self.trace = trace
    self.people = people
    self.split = split
  }
}

/// A command-line override that cannot be applied (an unknown strategy, a baseline that
/// is not among the strategies): a usage error, exit 64.
public struct ExperimentUsageError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
