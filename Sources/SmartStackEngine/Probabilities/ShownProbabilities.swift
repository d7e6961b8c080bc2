import SmartStackBase
import SmartStackData

/// The probability with which the engine showed each instance at one visit, given the
/// state just before the visit: what off-policy evaluation weighs a logged visit by
/// (an exposure log's `propensity` and `candidate_probabilities`).
///
/// Definition, for the instance `s` shown and the rule that decided the visit:
/// - a pin, Smart Rotate off or the rotation limit decided (`forcedByRule`): 1 on `s`,
///   0 elsewhere (what was shown did not depend on a draw);
/// - a deterministic strategy (not a `StochasticRankingStrategy`): 1 on `s`;
/// - a stochastic strategy, when no candidate but the one on top is suppressed: its
///   stated probability of choosing each candidate (`AllowedChoiceProbabilities`, or
///   `EstimatedChoiceProbabilities` marked `estimated`);
/// - when some other candidate is suppressed (whether or not suppression decided this
///   visit) and some candidate is allowed: its probability of each candidate being the
///   first *allowed* one of its order (`StackRules`: the stack shows the first allowed
///   candidate of the strategy's order).
///
/// A stochastic strategy that states no probabilities has none (`isKnown` false).
public struct ShownProbabilities: Sendable, Equatable {
  /// One entry per instance (0 for non-candidates); empty when `isKnown` is false.
  public var perInstance: [Double]
  /// True when the probabilities are estimates from extra draws
  /// (`EstimatedChoiceProbabilities`).
  public var estimated: Bool
  /// True when a pin, Smart Rotate off or the rotation limit decided the visit.
  public var forcedByRule: Bool

  @inlinable public init(perInstance: [Double], estimated: Bool, forcedByRule: Bool) {
    self.perInstance = perInstance
    self.estimated = estimated
    self.forcedByRule = forcedByRule
  }

  /// False for a stochastic strategy that states no probabilities.
  @inlinable public var isKnown: Bool { !perInstance.isEmpty }

  /// The entry of instance `i`, or NaN when unknown or out of range.
  @inlinable public func probability(of i: Int32) -> Double {
    i >= 0 && Int(i) < perInstance.count ? perInstance[Int(i)] : .nan
  }
}

/// What a `StackSession` keeps to compute `ShownProbabilities` at each visit, when its
/// observer reads them (a `ShownProbabilityObserver`, `ShownProbabilityReader`);
/// otherwise it is never touched.
///
/// The strategy's stated probabilities are computed before it ranks, in the state its
/// `rank` then uses (`prepare`), and restricted by the rules once the engine has decided
/// (`finish`). An `EstimatedChoiceProbabilities` strategy draws its estimate from
/// `stream`, seeded `StreamSeed.derive(seed, StreamSeed.stableHash("propensity"))` from
/// the strategy's own seed, apart from the strategy's stream, so that asking never
/// changes what the strategy shows.
@usableFromInline package struct ShownProbabilityState: Sendable {
  /// The probabilities of the last visit (`finish`).
  @usableFromInline package var last = ShownProbabilities(perInstance: [], estimated: false, forcedByRule: false)
  /// The strategy's probabilities with every candidate allowed, and with suppressed
  /// candidates other than the one on top disallowed (empty when none is), from `prepare`.
  @usableFromInline package var stated: [Double] = []
  @usableFromInline package var statedAllowed: [Double] = []
  /// True when `prepare` found the strategy stochastic.
  @usableFromInline package var stochastic = false
  @usableFromInline package var estimated = false
  @usableFromInline package var stream: Xoshiro256StarStar

  @inlinable package init(strategySeed: UInt64) {
    stream = Xoshiro256StarStar(seed: StreamSeed.derive(strategySeed, StreamSeed.stableHash("propensity")))
  }

  /// Computes the stated probabilities of `strategy`'s next `rank` in `context` (the
  /// state before the visit; `context.shown` is the instance on top before it).
  ///
  /// - Complexity: O(n) for n instances, plus what the strategy's statement costs (one
  ///   copy-and-rank of a wrapped base; K draws per candidate for an estimate), twice
  ///   when a candidate other than the one on top is suppressed.
  @inline(never)
  @inlinable package mutating func prepare<S: RankingStrategy>(_ strategy: S, _ context: StackContext) {
    stated = []
    statedAllowed = []
    estimated = false
    stochastic = strategy is any StochasticRankingStrategy || strategy is any EstimatedChoiceProbabilities
    if let stating = strategy as? any AllowedChoiceProbabilities {
      record(context) { allowed, p in stating.choiceProbabilities(context, allowed: allowed, into: &p) }
    } else if let sampled = strategy as? any EstimatedChoiceProbabilities {
      estimated = true
      var s = stream
      record(context) { allowed, p in
        sampled.estimatedChoiceProbabilities(context, allowed: allowed, stream: &s, into: &p)
      }
      stream = s
    }
  }

  /// `stated` for every candidate allowed and, when some candidate other than the one on
  /// top is suppressed (and one is on top, and some candidate is allowed), `statedAllowed`.
  @inlinable mutating func record(_ context: StackContext, _ probabilities: ([Bool], inout [Double]) -> Void) {
    var p = [Double](repeating: 0, count: context.instanceCount)
    probabilities(context.features.available, &p)
    stated = p
    let kinds = context.features.relevanceKind
    var allowed = context.features.available
    var suppressed = false
    for i in allowed.indices where allowed[i] && kinds[i] == .suppressed && i != Int(context.shown) {
      allowed[i] = false
      suppressed = true
    }
    if suppressed && context.shown >= 0 && EngineOrder.count(allowed) > 0 {
      probabilities(allowed, &p)
      statedAllowed = p
    }
  }

  /// Sets `last` for a visit that showed `shown` (-1: nothing), decided by `decidedBy`
  /// (`ShownProbabilities`' definition).
  @inline(never)
  @inlinable package mutating func finish(shown: Int32, instanceCount: Int, decidedBy: VisitRule) {
    let forced = decidedBy.isForcing
    last.estimated = false
    last.forcedByRule = forced
    if stochastic && stated.isEmpty {
      last.perInstance = []
    } else if stated.isEmpty || forced {
      var p = [Double](repeating: 0, count: instanceCount)
      if shown >= 0 && Int(shown) < instanceCount { p[Int(shown)] = 1 }
      last.perInstance = p
    } else {
      last.perInstance = statedAllowed.isEmpty ? stated : statedAllowed
      last.estimated = estimated
    }
  }
}
