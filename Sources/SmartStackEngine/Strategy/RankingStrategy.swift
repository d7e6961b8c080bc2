import SmartStackBase
import SmartStackData

/// A ranking strategy: decides which widget instance the stack shows at a visit.
///
/// A correct strategy needs three members:
///
/// ```swift
/// struct LeastRecentlyUsed: RankingStrategy {
///   static let info = StrategyInfo(name: "lru", summary: "the candidate donated longest ago")
///   init(parameters: StrategyParameters) {}
///   mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
///     ranking.setCandidateScores(context) { i in -Double(context.features.lastDonation[i]) }
///   }
/// }
/// ```
///
/// The engine owns one copy per person, calls `begin(_:)` once before that person's
/// first event, then, in time order, tells it what happened (`observe(_:context:)`) and
/// asks it to score the candidates at each Home Screen visit (`rank(_:into:)`).
/// `begin` and `observe` do nothing unless implemented.
///
/// ## How a ranking is decided
/// `rank` writes one score per candidate into `ranking.scores` (indexed by instance;
/// every candidate starts at 0, every non-candidate at minus infinity). The engine
/// orders candidates by, in turn:
/// 1. higher score (NaN counts as minus infinity);
/// 2. more recent last donation of the instance;
/// 3. more donations of the instance;
/// 4. kind name ascending (byte order), then instance position in the stack.
///
/// The first candidate in that order is the strategy's choice. The stack's own rules
/// (a swipe pin, Smart Rotate off, the rotation limit, suppression) are then applied by
/// the engine (`StackRules`); no score outbids them.
///
/// ## What a strategy can see
/// Only the past: the context carries features updated from events dated `<= now`,
/// and events arrive strictly in time order. The visit's target (what the person
/// wanted) is seen only by a `TargetAwareStrategy` (the oracle, an upper bound).
///
/// ## Going faster, checked by the compiler
/// A strategy that ranks afresh at every visit is always right. Three refinements let
/// the engine do less, each with requirements the compiler checks rather than a promise:
/// - `PureRankingStrategy`: scores computed by a non-mutating function of a `VisitView`
///   that lets it read only what it declares in `reads` (reading anything else traps);
///   the engine reuses the last decision while none of that changed.
/// - `InstanceScoringStrategy`: a score per instance from an `InstanceView` that shows
///   that instance alone; the engine rescores only the instances whose inputs changed.
/// - `OutcomeLearningStrategy`: receives the revealed outcome of earlier visits (taps);
///   a strategy without it costs the drivers no outcome events.
///
/// `StrategyConformance` (library `SmartStackTesting`) checks any strategy's fast paths
/// against ranking at every visit.
///
/// ## Adding a strategy
/// Write a struct conforming to this protocol in one file and register it in one line:
/// `var registry = StrategyRegistry.builtIn; registry.register(MyStrategy.self)`.
public protocol RankingStrategy: Sendable {
  /// The strategy's registry name, one-line summary and parameters.
  static var info: StrategyInfo { get }

  /// Creates the strategy from validated parameters (every spec of `info` has a value).
  init(parameters: StrategyParameters) throws

  /// Scores the candidates for a visit at `context.now`; see "How a ranking is decided".
  mutating func rank(_ context: StackContext, into ranking: inout Ranking)

  /// Called once per person before any event: the stack and a private random seed.
  /// Does nothing unless implemented.
  mutating func begin(_ setup: StrategySetup)

  /// Learns from something that happened at `context.now` (a donation or a relevance
  /// entry). The engine has already folded the event into the shared features when
  /// this is called. Does nothing unless implemented.
  mutating func observe(_ event: ObservedEvent, context: StackContext)
}

/// A strategy's registry name, summary and parameters.
public struct StrategyInfo: Sendable {
  /// The registry name, lowercase with dashes (e.g. `hour-of-week`).
  public var name: String
  /// A one-line definition, printed by `smartstack strategies`.
  public var summary: String
  /// The parameters the strategy accepts, with defaults and meaning.
  public var parameters: [StrategyParameterSpec]
  /// The inputs beyond the donation log or scenario it ranks by (`StrategyNeeds`);
  /// empty for most. A command's default strategy list leaves out a strategy whose
  /// inputs the run does not have; named explicitly, it runs (and says what is missing
  /// where a command checks).
  public var needs: StrategyNeeds

  public init(
    name: String, summary: String, parameters: [StrategyParameterSpec] = [], needs: StrategyNeeds = []
  ) {
    self.name = name
    self.summary = summary
    self.parameters = parameters
    self.needs = needs
  }
}

/// Inputs beyond the donation log or scenario that a strategy ranks by
/// (`StrategyInfo.needs`).
public struct StrategyNeeds: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// An outside model's scores (`--scores`).
  public static let scores = StrategyNeeds(rawValue: 1 << 0)
  /// Context changes (`--context`, or a scenario's context).
  public static let context = StrategyNeeds(rawValue: 1 << 1)
  /// A watchOS scenario (`"platform": "watchOS"`), whose cards carry the system's clue
  /// priority.
  public static let watch = StrategyNeeds(rawValue: 1 << 2)
}

/// How the engine may run a strategy, derived from the refinement it conforms to
/// (`StrategyPath(of:)`).
public enum StrategyPath: Sendable, Hashable {
  /// `rank` at every visit (a plain `RankingStrategy`).
  case everyVisit
  /// `PureRankingStrategy`: the last decision stands while its `reads` are unchanged.
  case pure
  /// `InstanceScoringStrategy`: instances rescored one by one as their inputs change.
  case instanceScoring
}

extension RankingStrategy {
  /// `info.name`.
  public static var name: String { info.name }
  /// `info.summary`.
  public static var summary: String { info.summary }
  /// `info.parameters`.
  public static var parameterSpecs: [StrategyParameterSpec] { info.parameters }

  public mutating func begin(_ setup: StrategySetup) {}
  @inlinable public mutating func observe(_ event: ObservedEvent, context: StackContext) {}
}

/// A strategy that learns from the outcome of earlier visits: what was shown and
/// whether the person tapped it (e.g. a bandit).
///
/// In replay a tap is revealed at the time of the donation that made it a hit, and a
/// miss once the horizon has passed; nothing earlier. Strategies that do not conform
/// receive no outcomes, and the drivers schedule none for them.
public protocol OutcomeLearningStrategy: RankingStrategy {
  /// Learns from the outcome of an earlier visit, which became known at `context.now`.
  mutating func observe(outcome: VisitFeedback, context: StackContext)
}

/// A strategy allowed to see the visit's target (`StackContext.target`): an upper
/// bound such as the oracle, not a strategy a phone could run.
///
/// Such a strategy ranks at every visit and is exempt from the stack's rules (a pin,
/// Smart Rotate off, the rotation limit, suppression): it always shows its choice.
public protocol TargetAwareStrategy: RankingStrategy {}
