import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A strategy that draws around a base strategy with one parameter of its own (`epsilon`,
/// `softmax`): the base gets every setup, event and outcome unchanged, and the wrapper
/// draws from its own stream.
///
/// Defaults: `init(parameters:)` wraps the base with its default parameters; `begin`
/// begins the base with the same `StrategySetup` and seeds `stream` with
/// `StreamSeed.derive(setup.seed, StreamSeed.stableHash(info.name))`, so the wrapper
/// never shares draws with the base; events go to the base. A wrapper is a plain
/// strategy, so it receives no outcomes: a base that learns from them (`bandit`) is
/// refused when the wrapper is parsed.
public protocol WrappingStrategy: AllowedChoiceProbabilities {
  associatedtype Base: RankingStrategy
  /// The wrapped strategy.
  var base: Base { get set }
  /// The wrapper's own random stream.
  var stream: Xoshiro256StarStar { get set }
  /// The name of the wrapper's one parameter (`rate`, `temperature`).
  static var parameterName: String { get }
  /// The wrapper around `base` with its parameter at `value`.
  init(base: Base, value: Double)
}

extension WrappingStrategy {
  public init(parameters: StrategyParameters) throws {
    let defaults = try StrategyParameters(specs: Base.parameterSpecs, given: [], strategy: Base.name)
    self.init(base: try Base(parameters: defaults), value: parameters[Self.parameterName])
  }

  public mutating func begin(_ setup: StrategySetup) {
    base.begin(setup)
    stream = Xoshiro256StarStar(seed: StreamSeed.derive(setup.seed, StreamSeed.stableHash(Self.name)))
  }

  @inlinable public mutating func observe(_ event: ObservedEvent, context: StackContext) {
    base.observe(event, context: context)
  }
}
