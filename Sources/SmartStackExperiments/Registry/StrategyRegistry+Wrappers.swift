import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies

/// Strategies around another strategy: `epsilon` (`EpsilonGreedyStrategy`) and `softmax`
/// (`SoftmaxStrategy`), written `NAME:PARAM=VALUE:...:base=BASE:base.PARAM=VALUE...`.
///
/// `base=BASE` names any registered strategy; `base.PARAM=VALUE` sets one of the base's
/// parameters (`softmax:temperature=0.5:base=hour-of-week:base.half-life-days=7`); the
/// other parameters are the wrapper's own. Parts may come in any order. The base may not
/// be a wrapper, `oracle` (it sees the target) or `bandit` (it draws at random without a
/// stated probability, so the wrapper's probabilities would be wrong).
///
/// The descriptor's name carries the base (`epsilon:base=mfu`, its base parameters
/// sorted by name), so `runs.csv` and the other tables name the base, and
/// `descriptor.description` (`epsilon:base=mfu:rate=0.1`) parses back to the same
/// strategy.
///
/// A wrapper runs through the engine's unspecialised generic code (the wrapper type is
/// built at run time around the base's type): correct, several times slower per visit.
extension StrategyRegistry {
  /// The wrapper strategies' names and parameter specs, in the order `strategies` lists.
  public static let wrapperInfos: [StrategyInfo] = [
    EpsilonGreedyStrategy<RandomStrategy>.info, SoftmaxStrategy<RandomStrategy>.info,
  ]

  /// The choice `text` names when it is a wrapper (`epsilon:...`, `softmax:...`); nil
  /// for any other name.
  ///
  /// - Throws: `StrategyError` naming what is wrong (no base, unknown parameter, ...).
  public func parseWrapper(_ text: String) throws -> StrategyChoice? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
    let name = parts[0]
    guard let info = Self.wrapperInfos.first(where: { $0.name == name }) else { return nil }
    var baseName: String? = nil
    var baseParts: [String] = []
    var own: [(String, Double)] = []
    for part in parts.dropFirst() {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
      guard kv.count == 2, !kv[0].isEmpty else {
        throw StrategyError("strategy '\(name)': expected key=value, found '\(part)'")
      }
      if kv[0] == "base" {
        guard baseName == nil else { throw StrategyError("strategy '\(name)': base is given twice") }
        baseName = kv[1]
      } else if kv[0].hasPrefix("base.") {
        baseParts.append(String(kv[0].dropFirst(5)) + "=" + kv[1])
      } else {
        guard let value = Double(kv[1]) else {
          throw StrategyError("strategy '\(name)': expected key=number, found '\(part)'")
        }
        own.append((kv[0], value))
      }
    }
    guard let baseName, !baseName.isEmpty else {
      throw StrategyError("strategy '\(name)' needs a base strategy: e.g. '\(name):base=mfu'")
    }
    let refused = Self.wrapperInfos.map(\.name) + [OracleStrategy.name, BanditStrategy.name]
    if refused.contains(baseName) {
      throw StrategyError(
        "strategy '\(name)': base=\(baseName) is not allowed (a wrapper, the oracle or bandit; "
          + "bandit's own draws have no stated probability)")
    }
    baseParts.sort()
    let base = try parse(([baseName] + baseParts).joined(separator: ":"))
    // By kind as well as by name: a registered strategy that sees the target or learns
    // from outcomes would be run without them inside a wrapper.
    if base.type is any TargetAwareStrategy.Type || base.type is any OutcomeLearningStrategy.Type {
      throw StrategyError(
        "strategy '\(name)': base=\(baseName) is not allowed (it sees the target or learns from outcomes, "
          + "which a wrapper does not pass on)")
    }
    let parameters = try StrategyParameters(specs: info.parameters, given: own, strategy: name)
    let descriptor = StrategyDescriptor(
      name: ([name, "base=" + baseName] + baseParts.map { "base." + $0 }).joined(separator: ":"),
      parameters: parameters, specs: info.parameters)
    return base.open(WrapperBuilder(name: name, parameters: parameters, descriptor: descriptor))
  }
}

/// Builds a wrapper around a base of a concrete type (`StrategyChoice.open`).
struct WrapperBuilder: StrategyTypeVisitor {
  var name: String
  var parameters: StrategyParameters
  var descriptor: StrategyDescriptor

  func visit<S: RankingStrategy>(_ prototype: S) -> StrategyChoice {
    if name == "softmax" {
      let wrapped = SoftmaxStrategy(base: prototype, value: parameters["temperature"])
      return StrategyChoice(prototype: wrapped, descriptor: descriptor)
    }
    return StrategyChoice(prototype: EpsilonGreedyStrategy(base: prototype, value: parameters["rate"]), descriptor: descriptor)
  }
}

extension StrategyChoice {
  /// A strategy built in code around `prototype`, named by `descriptor`; it runs the
  /// engine's generic code as opened here (not specialised in a registering module).
  init<S: RankingStrategy>(prototype: S, descriptor: StrategyDescriptor) {
    type = S.self
    self.descriptor = descriptor
    self.prototype = prototype
    runner = StrategyRunner(S.self)
  }
}
