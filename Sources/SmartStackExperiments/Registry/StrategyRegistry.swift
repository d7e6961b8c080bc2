import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The strategies a run can name, in registration order, each with its runner.
///
/// ```swift
/// var registry = StrategyRegistry.builtIn
/// registry.register(MyStrategy.self)          // one line per added strategy
/// let choice = try registry.parse("hour-of-week:half-life-days=14")
/// ```
///
/// Registering compiles the engine specialised for the strategy's type where
/// `register(_:)` is called (`StrategyRunner`): a strategy registered in its author's
/// module runs exactly as fast as a built-in.
public struct StrategyRegistry: Sendable {
  /// A registered strategy type and its runner.
  public struct Entry: Sendable {
    public let type: any RankingStrategy.Type
    public let runner: StrategyRunner
    /// The entry of `type`, its engine path found at run time (`StrategyRunner.init(_:)`);
    /// `StrategyRegistry.register(_:)` picks it statically.
    public init<S: RankingStrategy>(_ type: S.Type) {
      self.type = type
      runner = StrategyRunner(type)
    }
    @inlinable package init(type: any RankingStrategy.Type, runner: StrategyRunner) {
      self.type = type
      self.runner = runner
    }
  }

  /// Registered strategies, in registration order (the order `smartstack strategies`
  /// lists them).
  public private(set) var entries: [Entry] = []

  /// Registered strategy types, in registration order.
  public var types: [any RankingStrategy.Type] { entries.map(\.type) }

  public init() {}

  /// Every built-in strategy.
  public static let builtIn: StrategyRegistry = {
    var r = StrategyRegistry()
    r.register(StaticStrategy.self)
    r.register(RandomStrategy.self)
    r.register(RoundRobinStrategy.self)
    r.register(MostRecentlyUsedStrategy.self)
    r.register(MostFrequentlyUsedStrategy.self)
    r.register(HourOfDayStrategy.self)
    r.register(HourOfWeekStrategy.self)
    r.register(MarkovStrategy.self)
    r.register(RelevanceStrategy.self)
    r.register(BanditStrategy.self)
    r.register(SmartRotateStrategy.self)
    r.register(ScoresStrategy.self)
    r.register(CluesStrategy.self)
    r.register(ContextMostFrequentlyUsedStrategy.self)
    r.register(ContextBanditStrategy.self)
    r.register(OracleStrategy.self)
    return r
  }()

  /// Adds or replaces `entry` (see `register(_:)`).
  public mutating func add(_ entry: Entry) {
    if let i = entries.firstIndex(where: { $0.type.name == entry.type.name }) {
      entries[i] = entry
    } else {
      entries.append(entry)
    }
  }

  /// The registered names, in order.
  public var names: [String] { types.map { $0.name } }

  /// The type registered under `name`.
  public func type(named name: String) throws -> any RankingStrategy.Type {
    try entry(named: name).type
  }

  /// The entry registered under `name`.
  public func entry(named name: String) throws -> Entry {
    if let e = entries.first(where: { $0.type.name == name }) { return e }
    var message = "unknown strategy '\(name)'"
    // A name in another case (`MFU`) means that name, before any other near one (`mru`).
    if let near = names.first(where: { $0.lowercased() == name.lowercased() })
      ?? names.min(by: { editDistance($0, name) < editDistance($1, name) }),
      editDistance(near, name) <= 3 || near.lowercased() == name.lowercased()
    {
      message += " (did you mean '\(near)'?)"
    }
    throw StrategyError(message + "; known: " + names.joined(separator: ", "))
  }

  /// Parses one strategy in the command-line form `name` or `name:key=value:key=value`
  /// (or a wrapper, `epsilon:rate=0.1:base=mfu`: `parseWrapper`) and validates its
  /// parameters.
  public func parse(_ text: String) throws -> StrategyChoice {
    if let wrapper = try parseWrapper(text) { return wrapper }  // epsilon, softmax
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let name = parts[0].trimmingSpaces()
    guard !name.isEmpty else { throw StrategyError("empty strategy name in '\(text)'") }
    let entry = try self.entry(named: name)
    let type = entry.type
    var given: [(String, Double)] = []
    for part in parts.dropFirst() {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard kv.count == 2, let value = Double(kv[1].trimmingSpaces()), !kv[0].isEmpty else {
        throw StrategyError("strategy '\(name)': expected key=number, found '\(part)'")
      }
      given.append((String(kv[0]).trimmingSpaces(), value))
    }
    let parameters = try StrategyParameters(specs: type.parameterSpecs, given: given, strategy: name)
    return try StrategyChoice(entry, parameters: parameters)
  }

  /// Every registered strategy with its default parameters, in registration order,
  /// but those that need an input the run does not have (`StrategyInfo.needs` not within
  /// `having`).
  public func allWithDefaults(having: StrategyNeeds = []) throws -> [StrategyChoice] {
    try entries.filter { $0.type.info.needs.isSubset(of: having) }.map {
      try StrategyChoice(
        $0, parameters: StrategyParameters(specs: $0.type.parameterSpecs, given: [], strategy: $0.type.name))
    }
  }

  /// Parses a comma-separated list (`mfu,mru,hour-of-week:half-life-days=7`).
  /// Duplicates (same name and parameters) are errors.
  public func parseList(_ text: String) throws -> [StrategyChoice] {
    var result: [StrategyChoice] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let choice = try parse(String(item))
      if result.contains(where: { $0.descriptor == choice.descriptor }) {
        throw StrategyError("strategy '\(choice.descriptor)' is listed twice")
      }
      result.append(choice)
    }
    return result
  }
}

/// A strategy chosen for a run: its type, validated parameters and runner.
public struct StrategyChoice: Sendable {
  public let type: any RankingStrategy.Type
  public let descriptor: StrategyDescriptor
  /// A fresh instance, before `begin`. Built once at parse time so that parameter
  /// errors surface before any work starts.
  public let prototype: any RankingStrategy
  /// The engine's runs, specialised for `type` where it was registered.
  public let runner: StrategyRunner

  /// The strategy of a registry entry with `parameters`.
  public init(_ entry: StrategyRegistry.Entry, parameters: StrategyParameters) throws {
    type = entry.type
    descriptor = StrategyDescriptor(name: type.name, parameters: parameters, specs: type.parameterSpecs)
    prototype = try type.init(parameters: parameters)
    runner = entry.runner
  }

  /// A strategy of a type that no registry holds: it runs the engine's unspecialised
  /// generic code (correct, several times slower per visit than a registered type).
  public init(type: any RankingStrategy.Type, parameters: StrategyParameters) throws {
    self.type = type
    descriptor = StrategyDescriptor(name: type.name, parameters: parameters, specs: type.parameterSpecs)
    prototype = try type.init(parameters: parameters)
    runner = StrategyRunner.unspecialised
  }

  /// Replays `plan` with the standard metrics and, when given, `extra` fed beside them.
  public func replay(_ plan: ReplayPlan, extra: DynamicObserver? = nil) -> (StandardMetrics, DynamicObserver?) {
    runner.replay(plan, prototype, descriptor, extra)
  }

  /// Simulates `cell` of `scenario` with the standard metrics and, when given, `extra`
  /// fed beside them; `emitter`, when given, receives the logs.
  public func simulate(
    _ scenario: Scenario, _ cell: SimulationCell, extra: DynamicObserver? = nil, emitter: inout LogEmitter?
  ) -> (StandardMetrics, SimulationCounts, DynamicObserver?) {
    let (metrics, counts, extra, emitted) = runner.simulate(scenario, prototype, descriptor, cell, extra, emitter)
    emitter = emitted
    return (metrics, counts, extra)
  }

  /// True when the strategy sees the visit's target (`TargetAwareStrategy`, the oracle
  /// refinement): its runs are the upper bound `regret` is measured against.
  public var isTargetAware: Bool { type is any TargetAwareStrategy.Type }

  /// A replay lane of this strategy (see `ReplayLane`).
  public func lane(_ setup: ReplayLane.Setup) -> ReplayLane { runner.lane(prototype, setup) }
}

extension String {
  func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
extension Substring {
  func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}

/// Levenshtein distance, for "did you mean" hints. O(|a|·|b|).
func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a.utf8)
  let y = Array(b.utf8)
  if x.isEmpty { return y.count }
  if y.isEmpty { return x.count }
  var previous = Array(0...y.count)
  var current = previous
  for i in 1...x.count {
    current[0] = i
    for j in 1...y.count {
      current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[y.count]
}
