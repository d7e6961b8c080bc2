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
/// What the strategy states is decided once for its type (`begin`). The strategy's
/// stated probabilities are computed before it ranks, in the state its `rank` then uses
/// (`prepare`), and restricted by the rules once the engine has decided (`finish`). An
/// `EstimatedChoiceProbabilities` strategy draws its estimate from `stream`, seeded
/// `StreamSeed.derive(seed, StreamSeed.stableHash("propensity"))` from the strategy's
/// own seed, apart from the strategy's stream, so that asking never changes what the
/// strategy shows.
///
/// Every buffer is kept from visit to visit and written in place: a visit allocates
/// nothing while no observer keeps the last visit's `perInstance` (a copy it keeps is
/// copied on the next write, as any array).
@usableFromInline package struct ShownProbabilityState: Sendable {
  /// What a strategy type states about its choice.
  @usableFromInline package enum Statement: Sendable {
    /// A deterministic strategy (neither a `StochasticRankingStrategy` nor an
    /// `EstimatedChoiceProbabilities`): 1 on what it shows.
    case deterministic
    /// Its probabilities (`AllowedChoiceProbabilities`).
    case stated(any AllowedChoiceProbabilities.Type)
    /// An estimate of them (`EstimatedChoiceProbabilities`, when not the former).
    case estimated(any EstimatedChoiceProbabilities.Type)
    /// Nothing: a `StochasticRankingStrategy` that is neither (`ShownProbabilities.isKnown`
    /// false).
    case unknown
  }

  /// The strategy's statement (`begin`).
  @usableFromInline package var statement = Statement.deterministic
  /// The probabilities of the last visit (`finish`).
  @usableFromInline package var last = ShownProbabilities(perInstance: [], estimated: false, forcedByRule: false)
  /// When `last.perInstance` is 0 but at one entry, that entry (-1: 0 everywhere); nil
  /// when it holds other values. A visit of probability 1 then clears one entry and sets
  /// one.
  @usableFromInline package var lastOneHot: Int? = nil
  /// The strategy's probabilities with every candidate allowed, from `prepare` (empty
  /// until a strategy that states them is prepared).
  @usableFromInline package var stated: [Double] = []
  /// Its probabilities with suppressed candidates other than the one on top disallowed,
  /// valid when `restricted` (some such candidate is suppressed, one is on top, and some
  /// candidate is allowed).
  @usableFromInline package var statedAllowed: [Double] = []
  @usableFromInline package var restricted = false
  /// The candidates allowed when `restricted`.
  @usableFromInline package var allowed: [Bool] = []
  @usableFromInline package var stream: Xoshiro256StarStar

  @inlinable package init(strategySeed: UInt64) {
    stream = Xoshiro256StarStar(seed: StreamSeed.derive(strategySeed, StreamSeed.stableHash("propensity")))
  }

  /// Sets `statement` for strategies of type `S`: once per session, by conformance casts
  /// of the type (never per visit).
  @inlinable package mutating func begin<S: RankingStrategy>(_ type: S.Type) {
    if let stating = type as? any AllowedChoiceProbabilities.Type {
      statement = .stated(stating)
    } else if let sampled = type as? any EstimatedChoiceProbabilities.Type {
      statement = .estimated(sampled)
    } else if type is any StochasticRankingStrategy.Type {
      statement = .unknown
    } else {
      statement = .deterministic
    }
  }

  /// Computes the stated probabilities of `strategy`'s next `rank` in `context` (the
  /// state before the visit; `context.shown` is the instance on top before it), for the
  /// `statement` of its type.
  ///
  /// - Complexity: O(n) for n instances, plus what the strategy's statement costs (one
  ///   copy-and-rank of a wrapped base; K draws per candidate for an estimate), twice
  ///   when a candidate other than the one on top is suppressed; O(1) for a strategy
  ///   that states nothing.
  @inline(never)
  @inlinable package mutating func prepare<S: RankingStrategy>(_ strategy: S, _ context: StackContext) {
    switch statement {
    case .deterministic, .unknown:
      return
    case .stated(let type):
      func state<A: AllowedChoiceProbabilities>(_: A.Type) {
        let stating = Self.strategy(strategy, as: A.self)
        record(context) { allowed, p in stating.choiceProbabilities(context, allowed: allowed, into: &p) }
      }
      state(type)
    case .estimated(let type):
      func estimate<E: EstimatedChoiceProbabilities>(_: E.Type) {
        let sampled = Self.strategy(strategy, as: E.self)
        var s = stream
        record(context) { allowed, p in
          sampled.estimatedChoiceProbabilities(context, allowed: allowed, stream: &s, into: &p)
        }
        stream = s
      }
      estimate(type)
    }
  }

  /// `strategy` as `T`, the type it is (checked), opened from the metatype `begin` kept.
  @inlinable static func strategy<S, T>(_ strategy: S, as _: T.Type) -> T {
    precondition(T.self == S.self, "ShownProbabilityState of \(T.self) prepared for a \(S.self)")
    return withUnsafePointer(to: strategy) { UnsafeRawPointer($0).assumingMemoryBound(to: T.self).pointee }
  }

  /// `stated` for every candidate allowed and, when some candidate other than the one on
  /// top is suppressed (and one is on top, and some candidate is allowed), `statedAllowed`
  /// (`restricted`). `probabilities` writes into an array of one entry per instance: 0
  /// everywhere for `stated`, `stated`'s values for `statedAllowed`.
  @inlinable mutating func record(_ context: StackContext, _ probabilities: ([Bool], inout [Double]) -> Void) {
    let n = context.instanceCount
    if stated.count != n { stated = [Double](repeating: 0, count: n) }
    stated.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    let available = context.features.available
    probabilities(available, &stated)
    restricted = false
    let kinds = context.features.relevanceKind
    let top = Int(context.shown)
    guard top >= 0 && available.indices.contains(where: { available[$0] && kinds[$0] == .suppressed && $0 != top })
    else { return }
    if allowed.count != available.count { allowed = [Bool](repeating: false, count: available.count) }
    for i in available.indices { allowed[i] = available[i] && (kinds[i] != .suppressed || i == top) }
    guard EngineOrder.count(allowed) > 0 else { return }
    Self.copy(stated, into: &statedAllowed)
    probabilities(allowed, &statedAllowed)
    restricted = true
  }

  /// Sets `last` for a visit that showed `shown` (-1: nothing), decided by `decidedBy`
  /// (`ShownProbabilities`' definition), in place.
  @inline(never)
  @inlinable package mutating func finish(shown: Int32, instanceCount: Int, decidedBy: VisitRule) {
    let forced = decidedBy.isForcing
    last.estimated = false
    last.forcedByRule = forced
    switch statement {
    case .unknown:
      last.perInstance = []
      lastOneHot = nil
    case .deterministic:
      showOnly(shown, instanceCount: instanceCount)
    case .stated, .estimated:
      if forced {
        showOnly(shown, instanceCount: instanceCount)
      } else {
        Self.copy(restricted ? statedAllowed : stated, into: &last.perInstance)
        lastOneHot = nil
        if case .estimated = statement { last.estimated = true }
      }
    }
  }

  /// `last.perInstance` to 1 on `shown` (when it is an instance) and 0 elsewhere, with
  /// `instanceCount` entries: O(1) when it was so for another instance.
  @inlinable mutating func showOnly(_ shown: Int32, instanceCount: Int) {
    if last.perInstance.count != instanceCount {
      last.perInstance = [Double](repeating: 0, count: instanceCount)
    } else if let previous = lastOneHot {
      if previous >= 0 { last.perInstance[previous] = 0 }
    } else {
      last.perInstance.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
    let s = Int(shown)
    if s >= 0 && s < instanceCount {
      last.perInstance[s] = 1
      lastOneHot = s
    } else {
      lastOneHot = -1
    }
  }

  /// `target` to `source`'s values, in place when it has as many entries.
  @inlinable static func copy(_ source: [Double], into target: inout [Double]) {
    if target.count != source.count { target = [Double](repeating: 0, count: source.count) }
    target.withUnsafeMutableBufferPointer { t in
      source.withUnsafeBufferPointer { s in _ = t.update(fromContentsOf: s) }
    }
  }
}
