/// A ranking strategy: decides which widget instance the stack shows at a visit.
///
/// A strategy is a small value type. The engine owns one copy per person, calls
/// `begin(_:)` once before that person's first event, then feeds it, in time order,
/// what happened (`observe(_:context:)`) and asks it to score the candidates at each
/// Home Screen visit (`rank(_:into:)`). The engine is generic over the strategy type,
/// so the hot loop has no existential dispatch.
///
/// ## How a ranking is decided
/// `rank` writes one score per candidate into `ranking.scores` (indexed by instance;
/// every candidate starts at 0, every non-candidate at minus infinity). The engine
/// then orders candidates by, in turn:
/// 1. higher score (NaN counts as minus infinity);
/// 2. more recent last donation of the instance;
/// 3. more donations of the instance;
/// 4. kind name ascending (byte order), then instance position in the stack.
///
/// The first candidate in that order is shown. This one rule is shared by every
/// strategy, so a strategy's definition only has to say how it scores.
///
/// ## What a strategy can see
/// Only the past: the context carries features updated from events dated `<= now`,
/// and the engine feeds events strictly in time order. The visit's target (what the
/// person wanted) is revealed only to strategies that declare `usesTarget` (the oracle,
/// an upper bound); for every other strategy `context.target` is empty.
///
/// ## Adding a strategy
/// Write a struct conforming to this protocol in one file and register it in one line:
/// `var registry = StrategyRegistry.builtIn; registry.register(MyStrategy.self)`.
public protocol RankingStrategy: Sendable {
  /// The registry name, lowercase with dashes (e.g. `hour-of-week`).
  static var name: String { get }
  /// A one-line definition, printed by `smartstack strategies`.
  static var summary: String { get }
  /// The parameters the strategy accepts, with defaults and meaning.
  static var parameterSpecs: [StrategyParameterSpec] { get }
  /// True only for strategies allowed to see the visit's target (the oracle).
  static var usesTarget: Bool { get }
  /// False when `observe(_:context:)` ignores `.outcome` events (default true). The
  /// drivers then do not schedule outcome reveals at all, which saves an event per
  /// visit; results are the same either way.
  static var observesOutcomes: Bool { get }

  /// What `rank` reads besides the donation features, so that the engine can reuse the
  /// previous visit's decision while none of it changed (see `RankingInputs`). The
  /// default, `.all`, ranks at every visit.
  var rankingInputs: RankingInputs { get }

  /// False when `rank`'s scores depend neither on the donation features nor on anything
  /// `observe` learns from donations (default true). Only read for strategies that
  /// declare `rankingInputs`: after a donation the engine then keeps the last decision's
  /// scores and only moves the order (a donation can change the tie-break: last
  /// donation, donation count) instead of calling `rank`. Results are the same either
  /// way.
  static var scoresDependOnDonations: Bool { get }

  /// True when the score of each candidate depends only on that instance's own
  /// features (its donation counts and times, its relevance state and percentile), on
  /// whether it is `context.shown`, on the clock inputs declared in `rankingInputs`, and
  /// on what `observe` learnt from events about that instance alone (a donation
  /// matching it, its relevance entry), never on `totalDonations` or
  /// `lastDonatedInstance` (default false). Only read for strategies that declare
  /// `rankingInputs`: after a donation, a relevance change or a change of the shown
  /// instance, the engine then calls `rescore(_:_:into:)` for just the instances
  /// concerned instead of `rank`, and updates its order incrementally. Results are the
  /// same either way.
  static var scoresArePerInstance: Bool { get }

  /// Creates the strategy from validated parameters (every spec has a value).
  init(parameters: StrategyParameters) throws

  /// Called once per person before any event: the stack and a private random seed.
  mutating func begin(_ setup: StrategySetup)

  /// Learns from something that happened at `context.now` (a donation, a relevance
  /// entry, or the revealed outcome of an earlier visit). The engine has already folded
  /// the event into the shared features when this is called.
  mutating func observe(_ event: ObservedEvent, context: StackContext)

  /// Scores the candidates for a visit at `context.now`; see "How a ranking is decided".
  mutating func rank(_ context: StackContext, into ranking: inout Ranking)

  /// For strategies with `scoresArePerInstance`: `ranking` holds the last decision's
  /// scores and rule; leave it as `rank(context, into:)` would, given that only the
  /// instances in `changed` can have other scores. The candidates are those of the last
  /// decision; a changed instance that is not a candidate keeps its minus infinity. The
  /// rule may depend on all candidates. The default sets every candidate's score to 0
  /// and calls `rank`.
  mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking)
}

extension RankingStrategy {
  public static var parameterSpecs: [StrategyParameterSpec] { [] }
  public static var usesTarget: Bool { false }
  public static var observesOutcomes: Bool { true }
  public var rankingInputs: RankingInputs { .all }
  public static var scoresDependOnDonations: Bool { true }
  public static var scoresArePerInstance: Bool { false }
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { _ in 0 }
    rank(context, into: &ranking)
  }
  public mutating func begin(_ setup: StrategySetup) {}
  public mutating func observe(_ event: ObservedEvent, context: StackContext) {}
}

/// What a strategy's scores may depend on, besides what every strategy may read: the
/// donation features (`StackFeatures` counts, last donations, `totalDonations`,
/// `lastDonatedInstance`), the candidates, and the strategy's own state as changed by
/// `observe` of donations and outcomes.
///
/// A strategy that declares inputs promises that `rank` is a function of those and of
/// the declared ones only, and that it consumes no randomness and changes no state of
/// its own. The engine then reuses the last decision (scores, rule, top and order) at a
/// visit where nothing it depends on has changed since that decision, which is
/// identical to ranking afresh. It ranks afresh after every donation (unless the
/// strategy declares `scoresDependOnDonations == false`, or `scoresArePerInstance`: then
/// it keeps the scores, rescores the donated instance for the latter, and moves the
/// order; on stacks of more than `ChangedInstances.capacity` instances it ranks
/// afresh), every outcome delivered to `observe`, every change of the candidates and
/// every visit under a stack rule (a pin or no rotation), and for strategies with
/// `usesTarget`.
///
/// The `Engine decision reuse` tests compare every built-in strategy's declaration with
/// ranking at every visit, over random event streams.
public struct RankingInputs: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Relevance states and percentiles (`StackFeatures.relevance`, `.percentile`), and
  /// the strategy's own state as changed by `observe(.relevance)`.
  public static let relevance = RankingInputs(rawValue: 1 << 0)
  /// `StackContext.shown` and `shownSince`.
  public static let shown = RankingInputs(rawValue: 1 << 1)
  /// `StackContext.hourOfDay`.
  public static let hourOfDay = RankingInputs(rawValue: 1 << 2)
  /// `StackContext.hourOfWeek`.
  public static let hourOfWeek = RankingInputs(rawValue: 1 << 3)
  /// `StackContext.dayIndex`.
  public static let dayIndex = RankingInputs(rawValue: 1 << 4)
  /// Anything that may change at every visit: `StackContext.now`, randomness, state
  /// that `rank` itself changes. Never reused.
  public static let everyVisit = RankingInputs(rawValue: 1 << 5)
  /// Everything: rank at every visit (the default).
  public static let all: RankingInputs = [.relevance, .shown, .hourOfDay, .hourOfWeek, .dayIndex, .everyVisit]
}

/// What the engine tells a strategy about one person before the first event.
public struct StrategySetup: Sendable {
  /// The instances, in the stack's manual order; instance index = position.
  public var instances: [WidgetInstance]
  /// A seed for the strategy's own randomness, derived from (master seed, replicate,
  /// strategy name, person): the same for every run with the same inputs.
  public var seed: UInt64
  public var instanceCount: Int { instances.count }
  public init(instances: [WidgetInstance], seed: UInt64) {
    self.instances = instances
    self.seed = seed
  }
}

/// Something a strategy may learn from, delivered in time order.
public enum ObservedEvent: Sendable {
  /// The person donated an intent; `instances` are the stack instances it matches
  /// (empty when it matches none). `kind` is the donation log's dense kind id.
  case donation(kind: Int32, instances: ArraySlice<Int32>)
  /// A relevance entry for `instance` took effect (its date is `context.now`).
  case relevance(instance: Int32)
  /// The outcome of an earlier visit became known: what was shown then and whether the
  /// person tapped it. In replay a tap is revealed at the time of the donation that
  /// made it a hit, and a miss once the horizon has passed; nothing earlier.
  case outcome(VisitFeedback)
}

/// The part of a visit's outcome a real system could observe: a tap or no tap.
public struct VisitFeedback: Sendable, Hashable {
  /// When the visit happened (epoch ms).
  public var visitTime: Int64
  /// Local hour of day (0...23) of the visit.
  public var hourOfDay: Int
  /// Local hour of week (0...167, Monday 00h = 0) of the visit.
  public var hourOfWeek: Int
  /// The instance shown at that visit.
  public var shown: Int32
  /// True when the person used the shown widget.
  public var tapped: Bool

  public init(visitTime: Int64, hourOfDay: Int, hourOfWeek: Int, shown: Int32, tapped: Bool) {
    self.visitTime = visitTime
    self.hourOfDay = hourOfDay
    self.hourOfWeek = hourOfWeek
    self.shown = shown
    self.tapped = tapped
  }
}

/// Scores written by a strategy at one visit, indexed by instance.
public struct Ranking: Sendable {
  /// One score per instance. Before `rank` is called every candidate holds 0 and every
  /// non-candidate holds minus infinity; only candidates can be shown.
  public var scores: [Double]
  /// A short name for the rule that decided, for `--explain` traces (optional).
  public var rule: StaticString = "score"

  public init(instanceCount: Int) {
    scores = Array(repeating: -Double.infinity, count: instanceCount)
  }

  /// Sets `scores[i] = score(i)` for every candidate `i` in `changed`, in index order
  /// (for `RankingStrategy.rescore`); other instances keep their score.
  @inline(__always)
  public mutating func setScores(of changed: ChangedInstances, _ context: StackContext, _ score: (Int) -> Double) {
    context.features.available.withUnsafeBufferPointer { available in
      scores.withUnsafeMutableBufferPointer { s in
        for i in changed where i < s.count && i < available.count && available[i] { s[i] = score(i) }
      }
    }
  }

  /// Sets `scores[i] = score(i)` for every candidate `i` of `context`, in index order;
  /// other instances keep their score.
  ///
  /// The same as `for i in 0..<n where context.isCandidate(i) { scores[i] = score(i) }`,
  /// but with one copy-on-write uniqueness check for the whole array instead of one per
  /// write (a runtime call the optimiser cannot always hoist out of the loop).
  @inline(__always)
  public mutating func setCandidateScores(_ context: StackContext, _ score: (Int) -> Double) {
    context.features.available.withUnsafeBufferPointer { available in
      scores.withUnsafeMutableBufferPointer { s in
        for i in 0..<min(s.count, available.count) where available[i] { s[i] = score(i) }
      }
    }
  }
}
