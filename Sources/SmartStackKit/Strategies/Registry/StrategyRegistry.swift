/// The strategies a run can name, in registration order.
///
/// ```swift
/// var registry = StrategyRegistry.builtIn
/// registry.register(MyStrategy.self)          // one line per added strategy
/// let choice = try registry.parse("hour-of-week:half-life-days=14")
/// ```
public struct StrategyRegistry: Sendable {
  /// Registered strategy types, in registration order (the order `smartstack
  /// strategies` lists them).
  public private(set) var types: [any RankingStrategy.Type] = []

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
    r.register(OracleStrategy.self)
    return r
  }()

  /// Adds a strategy type. A later registration under an existing name replaces the
  /// earlier one (so a user can override a built-in), keeping its position.
  public mutating func register<S: RankingStrategy>(_ type: S.Type) {
    if let i = types.firstIndex(where: { $0.name == S.name }) {
      types[i] = type
    } else {
      types.append(type)
    }
  }

  /// The registered names, in order.
  public var names: [String] { types.map { $0.name } }

  /// The type registered under `name`.
  public func type(named name: String) throws -> any RankingStrategy.Type {
    if let t = types.first(where: { $0.name == name }) { return t }
    var message = "unknown strategy '\(name)'"
    if let near = names.min(by: { editDistance($0, name) < editDistance($1, name) }),
      editDistance(near, name) <= 3
    {
      message += " (did you mean '\(near)'?)"
    }
    throw StrategyError(message + "; known: " + names.joined(separator: ", "))
  }

  /// Parses one strategy in the command-line form `name` or `name:key=value:key=value`
  /// and validates its parameters.
  public func parse(_ text: String) throws -> StrategyChoice {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let name = parts[0].trimmingSpaces()
    guard !name.isEmpty else { throw StrategyError("empty strategy name in '\(text)'") }
    let type = try self.type(named: name)
    var given: [(String, Double)] = []
    for part in parts.dropFirst() {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard kv.count == 2, let value = Double(kv[1].trimmingSpaces()), !kv[0].isEmpty else {
        throw StrategyError("strategy '\(name)': expected key=number, found '\(part)'")
      }
      given.append((String(kv[0]).trimmingSpaces(), value))
    }
    let parameters = try StrategyParameters(specs: type.parameterSpecs, given: given, strategy: name)
    return try StrategyChoice(type: type, parameters: parameters)
  }

  /// Every registered strategy with its default parameters, in registration order.
  public func allWithDefaults() throws -> [StrategyChoice] {
    try types.map {
      try StrategyChoice(type: $0, parameters: StrategyParameters(specs: $0.parameterSpecs, given: [], strategy: $0.name))
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

/// A strategy chosen for a run: its type and validated parameters.
public struct StrategyChoice: Sendable {
  public let type: any RankingStrategy.Type
  public let descriptor: StrategyDescriptor
  /// A fresh instance, before `begin`. Built once at parse time so that parameter
  /// errors surface before any work starts.
  public let prototype: any RankingStrategy

  public init(type: any RankingStrategy.Type, parameters: StrategyParameters) throws {
    self.type = type
    descriptor = StrategyDescriptor(name: type.name, parameters: parameters, specs: type.parameterSpecs)
    prototype = try type.init(parameters: parameters)
  }
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
