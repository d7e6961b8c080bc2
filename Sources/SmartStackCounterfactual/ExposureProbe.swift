import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackExperiments

/// What a logging strategy knew just before ranking a visit, handed to the
/// `ExposureRecorder` of the same run: its probabilities (computed before `rank`, in the
/// state `rank` then uses), the rule its ranking named, and the revealed tap.
///
/// A reference shared by one run's strategy copies (`ExposureLogged`) and its recorder:
/// the engine gives neither access to the other. One run's people are simulated one
/// after another on one task, so the probe is never used concurrently; each run makes
/// its own probe.
public final class ExposureProbe: @unchecked Sendable {
  /// The visit the values below belong to (epoch ms), or `Int64.min`.
  public var rankedAt = Int64.min
  /// Probability of each instance being the strategy's choice (empty for a deterministic
  /// strategy: 1 on its choice).
  public var probabilities: [Double] = []
  /// Probability of each instance being the first *allowed* instance when suppression
  /// binds (`StackRules`: allowed = not suppressed, or on top); empty when no candidate
  /// was suppressed.
  public var allowedProbabilities: [Double] = []
  /// True when the probabilities are estimates (`EstimatedChoiceProbabilities`).
  public var estimated = false
  /// The rule the strategy's ranking named (the engine's outcome names a stack rule
  /// instead when one decided).
  public var rankRule: String = ""
  /// The last revealed outcome: its visit time and whether the shown widget was tapped.
  public var feedbackTime = Int64.min
  public var tapped = false

  public init() {}
}

/// A strategy that logs: `base`, unchanged in what it shows, which before each `rank`
/// writes its probabilities into `probe`, and which receives every visit's outcome (so
/// the recorder learns of taps), passing outcomes on to a learning base. It sees the
/// visit's target exactly when the base does (a conditional `TargetAwareStrategy`).
public struct ExposureLogged<Base: RankingStrategy>: OutcomeLearningStrategy {
  public static var info: StrategyInfo { Base.info }
  public var base: Base
  public let probe: ExposureProbe
  /// The stream of an `EstimatedChoiceProbabilities` base's extra draws: seeded with
  /// `StreamSeed.derive(setup.seed, StreamSeed.stableHash("propensity"))`, apart from the
  /// base's own stream, so that logging never changes what the base shows.
  var propensityStream = Xoshiro256StarStar(seed: 0)

  public init(base: Base, probe: ExposureProbe) {
    self.base = base
    self.probe = probe
  }

  /// Unused: an `ExposureLogged` is built around a base (`init(base:probe:)`).
  public init(parameters: StrategyParameters) throws {
    self.init(base: try Base(parameters: parameters), probe: ExposureProbe())
  }

  public mutating func begin(_ setup: StrategySetup) {
    base.begin(setup)
    propensityStream = Xoshiro256StarStar(seed: StreamSeed.derive(setup.seed, StreamSeed.stableHash("propensity")))
  }
  public mutating func observe(_ event: ObservedEvent, context: StackContext) { base.observe(event, context: context) }

  /// Every outcome comes here, for its tap (an `ExposureLogged` is always an
  /// `OutcomeLearningStrategy`); the base gets it only when it learns from outcomes
  /// itself (found by a cast: the logging run is not specialised anyway).
  public mutating func observe(outcome: VisitFeedback, context: StackContext) {
    probe.feedbackTime = outcome.visitTime
    probe.tapped = outcome.tapped
    if var learner = base as? any OutcomeLearningStrategy {
      learner.observe(outcome: outcome, context: context)
      base = learner as! Base
    }
  }

  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    probe.rankedAt = context.now
    probe.probabilities = []
    probe.allowedProbabilities = []
    probe.estimated = false
    if let stochastic = base as? any AllowedChoiceProbabilities {
      record(context) { allowed, p in stochastic.choiceProbabilities(context, allowed: allowed, into: &p) }
    } else if let sampled = base as? any EstimatedChoiceProbabilities {
      probe.estimated = true
      var stream = propensityStream
      record(context) { allowed, p in
        sampled.estimatedChoiceProbabilities(context, allowed: allowed, stream: &stream, into: &p)
      }
      propensityStream = stream
    } else if base is any StochasticRankingStrategy {
      preconditionFailure("\(Base.name): a stochastic strategy must state AllowedChoiceProbabilities to be logged")
    }
    base.rank(context, into: &ranking)
    probe.rankRule = "\(ranking.rule)"
  }

  /// Writes into the probe the probabilities `probabilities(allowed, &p)` gives for every
  /// candidate allowed, and, when some candidate other than the one on top is suppressed,
  /// for those allowed when suppression binds (`StackRules`).
  func record(_ context: StackContext, _ probabilities: ([Bool], inout [Double]) -> Void) {
    var p = [Double](repeating: 0, count: context.instanceCount)
    probabilities(context.features.available, &p)
    probe.probabilities = p
    let kinds = context.features.relevanceKind
    var allowed = context.features.available
    var suppressed = false
    for i in allowed.indices where allowed[i] && kinds[i] == .suppressed && i != Int(context.shown) {
      allowed[i] = false
      suppressed = true
    }
    if suppressed && context.shown >= 0 && EngineOrder.count(allowed) > 0 {
      probabilities(allowed, &p)
      probe.allowedProbabilities = p
    }
  }
}

/// A logged oracle still sees the target and is exempt from the stack's rules.
extension ExposureLogged: TargetAwareStrategy where Base: TargetAwareStrategy {}
