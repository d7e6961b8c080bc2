import Foundation
import SmartStackBase
import SmartStackEngine

/// How a strategy point's parameters are tuned on the validation window (config
/// `"tune"`, docs/batch.md "Tuning").
public struct TuneSpec: Sendable, Hashable {
  /// One tuned parameter: a list of values (`grid`) or a range (`random`, `halving`).
  public struct Parameter: Sendable, Hashable {
    public var name: String
    /// The values of a grid, in the order written; empty for a range.
    public var values: [Double]
    /// The range sampled by `random` and `halving` (inclusive); for a grid, its extent.
    public var range: ClosedRange<Double>
    /// Sampled uniformly in log(value) (`"scale": "log"`; needs `range.lowerBound > 0`).
    public var logScale: Bool
    /// Whole numbers only (the strategy's spec says so): samples are rounded.
    public var integer: Bool

    public init(name: String, values: [Double], range: ClosedRange<Double>, logScale: Bool, integer: Bool) {
      self.name = name
      self.values = values
      self.range = range
      self.logScale = logScale
      self.integer = integer
    }

    /// `value` rounded to `digits` significant decimal digits (0 stays 0).
    static func significant(_ value: Double, digits: Int) -> Double {
      guard value != 0, value.isFinite else { return value }
      let scale = Foundation.pow(10, Double(digits) - Foundation.ceil(Foundation.log10(Swift.abs(value))))
      return (value * scale).rounded() / scale
    }

    /// A value drawn from `range`: uniform (or log-uniform), then rounded to a whole
    /// number when `integer`, else to 3 significant digits (readable labels), and kept
    /// within `range`.
    func sample(_ rng: inout some RandomNumberGenerator) -> Double {
      let u = rng.nextUnit()
      var value: Double
      if logScale {
        let a = Foundation.log(range.lowerBound)
        let b = Foundation.log(range.upperBound)
        value = Foundation.exp(a + (b - a) * u)
      } else {
        value = range.lowerBound + (range.upperBound - range.lowerBound) * u
      }
      value = integer ? value.rounded() : Self.significant(value, digits: 3)
      return min(max(value, range.lowerBound), range.upperBound)
    }
  }

  /// The search.
  public enum Search: String, Sendable, Hashable, CaseIterable {
    /// Every combination of the parameters' `values`, the last varying fastest.
    case grid
    /// `trials` configurations drawn at random (seeded), each scored on all people.
    case random
    /// Successive halving: `trials` random configurations scored on a first share of the
    /// people, the best 1/`eta` kept for the next rung with `eta` times the people, until
    /// one configuration is left or every person is used.
    case halving
  }

  public var parameters: [Parameter]
  public var search: Search
  /// Configurations to draw (`random`, `halving`; unused for `grid`).
  public var trials: Int
  /// The metric maximised (a `RunMetrics.names` name).
  public var metric: String
  /// The halving factor (`halving`): the share kept per rung is 1/eta.
  public var eta: Int

  public static let defaultTrials = 16
  public static let defaultMetric = "hit_rate"
  public static let defaultEta = 3
  public static let trialRange = 1...10_000

  public init(parameters: [Parameter], search: Search, trials: Int = defaultTrials, metric: String = defaultMetric, eta: Int = defaultEta) {
    self.parameters = parameters
    self.search = search
    self.trials = trials
    self.metric = metric
    self.eta = eta
  }

  /// The configurations to try, in generation order (which breaks ties): the grid's
  /// combinations, or `trials` random draws from a generator seeded by (`seed`, the
  /// search's name and the strategy point's descriptor `strategy`: FNV-1a 64 of
  /// `tune|SEARCH|STRATEGY`) (`StreamSeed`), parameters drawn in the
  /// order written. Draws equal to an earlier one (integer parameters) are dropped, so
  /// there may be fewer than `trials`.
  public func configurations(seed: UInt64, strategy: String) -> [[Double]] {
    switch search {
    case .grid:
      var result: [[Double]] = [[]]
      for p in parameters { result = result.flatMap { c in p.values.map { c + [$0] } } }
      return result
    case .random, .halving:
      var rng = StreamSeed.generator(seed, FNV1a.hash(Array("tune|\(search.rawValue)|\(strategy)".utf8)))
      var result: [[Double]] = []
      for _ in 0..<trials {
        let c = parameters.map { $0.sample(&rng) }
        if !result.contains(c) { result.append(c) }
      }
      return result
    }
  }

  /// How many configurations each rung scores, starting from `count`: a successive
  /// halving keeps ⌈n/eta⌉ of the n configurations of a rung for the next, down to one;
  /// the other searches have one rung of `count`.
  public func rungSizes(configurations count: Int) -> [Int] {
    guard search == .halving, count > 1 else { return [count] }
    var sizes = [count]
    while sizes.last! > 1 { sizes.append((sizes.last! + eta - 1) / eta) }
    return sizes
  }
}

/// A tuned strategy point of the design: which point (an index into
/// `ExperimentDesign.strategies`, whose parameters are the base the tuned ones replace)
/// and how.
public struct StrategyTuning: Sendable {
  public var strategy: Int
  public var spec: TuneSpec
  public var location: ConfigLocation

  public init(strategy: Int, spec: TuneSpec, location: ConfigLocation) {
    self.strategy = strategy
    self.spec = spec
    self.location = location
  }
}
