import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// What the outputs of an experiment need to know about it, independent of its input
/// files: the resolved config, the sources' labels and statistics, the strategy points
/// and the shape of the cell grid. Written at the top of every journal, so that `merge`
/// can rebuild every output from journals alone.
public struct ExperimentOutline: Sendable {
  /// A source point as outputs see it.
  public struct Source: Sendable, Hashable {
    public var name: String
    public var kind: String
    /// See `ExperimentSource.unitsArePeoplePerReplicate`.
    public var unitsArePeoplePerReplicate: Bool
    public var statistics: SourceStatistics
    /// The split point this source point scores (`validation`, `test`, `fold1`, …; the
    /// `split` column), or nil for a source without a time split.
    public var split: String?
    public init(
      name: String, kind: String, unitsArePeoplePerReplicate: Bool, statistics: SourceStatistics,
      split: String? = nil
    ) {
      self.name = name
      self.kind = kind
      self.unitsArePeoplePerReplicate = unitsArePeoplePerReplicate
      self.statistics = statistics
      self.split = split
    }
  }

  /// A strategy point as outputs see it.
  public struct Strategy: Sendable, Hashable {
    /// `name` or `name:k=v:…` (the command-line form).
    public var descriptor: String
    public var name: String
    /// `k=v;k=v`, sorted by name (the `parameters` column).
    public var parameters: String
    /// The strategy sees the visit's target (`TargetAwareStrategy`): `regret` is
    /// measured against its runs (`ExperimentOutline.oracle`). Kept here, not looked
    /// up by name, because `merge` and `--resume` rebuild outputs without a registry.
    public var targetAware: Bool
    /// The point's label (the `label` column of `summary.csv` and `paired.csv`, and the
    /// row names of the console tables): `StrategyDescriptor.label`, the name plus only
    /// the parameters that differ from their defaults (`hour-of-week:half-life-days=7`,
    /// or `mfu`), so distinct points of a sweep have distinct labels. Kept here because
    /// `merge` and `--resume` have no registry to ask for defaults; a journal written
    /// before the label was kept gives `descriptor`.
    public var label: String
    public init(
      descriptor: String, name: String, parameters: String, targetAware: Bool = false, label: String? = nil
    ) {
      self.descriptor = descriptor
      self.name = name
      self.parameters = parameters
      self.targetAware = targetAware
      self.label = label ?? descriptor
    }
    /// The point of a parsed strategy.
    public init(_ choice: StrategyChoice) {
      self.init(
        descriptor: choice.descriptor.description, name: choice.descriptor.name,
        parameters: choice.descriptor.parameters.canonical, targetAware: choice.isTargetAware,
        label: choice.descriptor.label)
    }
  }

  public var name: String
  public var seed: UInt64
  public var replicates: Int
  public var sources: [Source]
  public var strategies: [Strategy]
  /// Index of the baseline in `strategies`.
  public var baseline: Int
  public var trace: Bool
  /// The resolved config, as written into the manifest (see `resolvedConfig`).
  public var config: JSONValue
  /// FNV-1a 64 (hex) of the compact JSON of `config`: two runs with equal hashes have the
  /// same cells with the same inputs.
  public var configHash: String

  public init(
    name: String, seed: UInt64, replicates: Int, sources: [Source], strategies: [Strategy],
    baseline: Int, trace: Bool, config: JSONValue
  ) {
    self.name = name
    self.seed = seed
    self.replicates = replicates
    self.sources = sources
    self.strategies = strategies
    self.baseline = baseline
    self.trace = trace
    self.config = config
    self.configHash = FNV1a.hexHash(config.serialized().utf8)
  }

  /// The outline of `design` with its loaded `sources` (same order).
  public init(design: ExperimentDesign, sources: [any ExperimentSource]) {
    self.init(
      name: design.name, seed: design.seed, replicates: design.replicates,
      sources: zip(design.sources, sources).map { spec, source in
        var split: String?
        if case .log(let log) = spec.input { split = log.split?.name }
        return Source(
          name: source.name, kind: source.kind,
          unitsArePeoplePerReplicate: source.unitsArePeoplePerReplicate,
          statistics: source.statistics, split: split)
      },
      strategies: design.strategies.map { Strategy($0) },
      baseline: design.baseline, trace: design.trace,
      config: Self.resolvedConfig(design, sources: sources))
  }

  public var cellCount: Int { sources.count * strategies.count * replicates }

  /// Whether `people.csv` is written: the resolved config says `"people": true`
  /// (`ExperimentDesign.people`), so journals, and so `merge`, carry it.
  public var people: Bool { config["people"]?.value.boolValue == true }

  /// True when some source point has a time split: the tables then carry a `split`
  /// column (and only then, so experiments without one keep their bytes).
  public var hasSplits: Bool { sources.contains { $0.split != nil } }

  /// The rolling back-tests among the sources: for each, the source points of its folds
  /// (`fold1` … `foldK`, adjacent, since the split varies fastest) and the label of the
  /// rows of their mean (the last fold's label with `split=foldK` replaced by
  /// `split=mean`), in source order.
  public var foldGroups: [(sources: Range<Int>, label: String)] {
    var groups: [(Range<Int>, String)] = []
    var s = 0
    while s < sources.count {
      var e = s
      while e < sources.count, sources[e].split == "fold\(e - s + 1)" { e += 1 }
      if e - s >= 2, e == sources.count || sources[e].split != "fold\(e - s + 1)" {
        let last = sources[e - 1].name
        let suffix = "split=fold\(e - s)]"
        let label = last.hasSuffix(suffix) ? String(last.dropLast(suffix.count)) + "split=mean]" : last + "[split=mean]"
        groups.append((s..<e, label))
        s = e
      } else {
        s += 1
      }
    }
    return groups
  }

  /// Index of the first target-aware strategy point (the oracle `regret` is measured
  /// against), if any; what it is named does not matter.
  public var oracle: Int? { strategies.firstIndex { $0.targetAware } }

  public func cell(_ index: Int) -> Cell {
    Cell.decode(index, strategies: strategies.count, replicates: replicates)
  }

  /// `source|strategy-descriptor|replicate`.
  public func runID(_ cell: Cell) -> String {
    Cell.runID(
      source: sources[cell.source].name, strategy: strategies[cell.strategy].descriptor,
      replicate: cell.replicate)
  }

  /// A seed as JSON: a number when a `Double` holds it exactly (<= 2^53), else a string of
  /// its decimal digits.
  public static func seedJSON(_ seed: UInt64) -> JSONValue {
    seed <= 1 << 53 ? .number(Double(seed)) : .string(String(seed))
  }

  /// The resolved config: every default, override and sweep applied, with each source's
  /// input hashes. Keys in a fixed order; paths as written in the config.
  public static func resolvedConfig(_ design: ExperimentDesign, sources: [any ExperimentSource])
    -> JSONValue
  {
    var members: [JSONMember] = [JSONMember("name", .string(design.name))]
    if let description = design.description {
      members.append(JSONMember("description", .string(description)))
    }
    members += [
      JSONMember("seed", seedJSON(design.seed)),
      JSONMember("replicates", .number(Double(design.replicates))),
      JSONMember("baseline", .string(design.strategies[design.baseline].descriptor.description)),
      JSONMember(
        "sources",
        .array(
          zip(design.sources, sources).map { spec, source in
            JSONNode(sourceJSON(spec, statistics: source.statistics))
          })),
      JSONMember(
        "strategies",
        .array(design.strategies.map { JSONNode(.string($0.descriptor.description)) })),
      JSONMember("trace", .bool(design.trace)),
    ]
    // Only when asked for: outlines (and config hashes) of runs without people.csv keep
    // their bytes.
    if design.people { members.append(JSONMember("people", .bool(true))) }
    // Only when tuning: outlines of runs without `tune` keep their bytes.
    if !design.tuning.isEmpty {
      members.append(
        JSONMember(
          "tuning",
          .array(
            design.tuning.map { t in
              JSONNode([
                "strategy": .number(Double(t.strategy)), "search": .string(t.spec.search.rawValue),
                "trials": .number(Double(t.spec.trials)), "eta": .number(Double(t.spec.eta)),
                "metric": .string(t.spec.metric),
                "parameters": .array(
                  t.spec.parameters.map { p in
                    JSONNode([
                      "name": .string(p.name), "values": .array(p.values.map { JSONNode(.number($0)) }),
                      "min": .number(p.range.lowerBound), "max": .number(p.range.upperBound),
                      "scale": .string(p.logScale ? "log" : "linear"),
                    ])
                  }),
              ])
            })))
    }
    return .object(members)
  }

  static func sourceJSON(_ spec: SourceSpec, statistics: SourceStatistics) -> JSONValue {
    var members: [JSONMember] = [
      JSONMember("name", .string(spec.name)), JSONMember("kind", .string(spec.kind)),
    ]
    switch spec.input {
    case .log(let log):
      let visits = log.visits.spelled(file: \.written)
      let stack = log.stack.spelled(file: \.written)
      members += [
        JSONMember("log", .string(log.log.written)),
        JSONMember("format", log.format.map { .string($0.rawValue) } ?? .null),
        JSONMember("visits", .string(visits)),
        JSONMember("horizon", .number(log.horizonSeconds)),
        JSONMember("stack", .string(stack)),
        JSONMember("warmupDays", .number(log.warmupDays)),
        JSONMember("timezone", .string(log.timezone)),
        JSONMember("timelines", log.timelines.map { .string($0.written) } ?? .null),
      ]
      // Only when given: outlines of runs without scores keep their bytes.
      if let scores = log.scores { members.append(JSONMember("scores", .string(scores.written))) }
      // Only when given: outlines of runs without context keep their bytes.
      if let context = log.context { members.append(JSONMember("context", .string(context.written))) }
      // Only when given: outlines of runs without a split keep their bytes.
      if let split = log.split {
        members.append(
          JSONMember("split", ["point": .string(split.name), "spec": .string(split.split.spelling)]))
      }
    case .scenario(let scenario):
      members += [
        JSONMember("scenario", .string(scenario.scenario.written)),
        JSONMember("days", scenario.days.map { .number(Double($0)) } ?? .null),
      ]
    }
    let window: JSONValue
    switch spec.engine.normaliserWindow {
    case .all: window = .null
    case .days(let d): window = .number(Double(d))
    }
    members.append(
      JSONMember(
        "engine",
        [
          "relevanceThreshold": .number(spec.engine.relevanceThreshold),
          "normaliserScope": .string(spec.engine.normaliserScope == .kind ? "kind" : "instance"),
          "normaliserWindowDays": window,
        ]))
    members.append(
      JSONMember(
        "inputs",
        .array(
          statistics.inputs.map {
            JSONNode([
              "role": .string($0.role), "path": .string($0.path), "crc32": .string($0.hash),
            ])
          })))
    return .object(members)
  }
}
