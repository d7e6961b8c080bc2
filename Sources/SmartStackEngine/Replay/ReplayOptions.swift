import SmartStackBase
import SmartStackData

/// How a donation log is replayed. Every option here changes results and is written to
/// the outputs.
public struct ReplayOptions: Sendable {
  /// Where Home Screen visits come from.
  public enum Visits: Sendable, Hashable, CustomStringConvertible {
    /// One visit at each distinct donation instant of a person (visits are decided
    /// before donations at the same instant, so "just before" the donation).
    case donations
    /// One visit at a person's first donation and at every donation that follows a gap
    /// of at least this many minutes since the person's previous donation.
    case sessions(gapMinutes: Double)
    /// Explicit visits from a visit log (`timestamp,user`).
    case log(VisitLog)

    public var description: String {
      switch self {
      case .donations: return "donations"
      case .sessions(let m): return "sessions:\(NumberText.plain(m))"
      case .log(let log): return "file:\(log.file)"
      }
    }

    /// How visits are made, without a log's rows (a plan keeps the rows per person).
    package enum Mode {
      case donations
      case sessions(gapMinutes: Double)
      case log
    }

    package var mode: Mode {
      switch self {
      case .donations: return .donations
      case .sessions(let gapMinutes): return .sessions(gapMinutes: gapMinutes)
      case .log: return .log
      }
    }
  }

  /// Which instances make up each person's stack.
  public enum Stack: Sendable, CustomStringConvertible {
    /// One instance per kind the person donates (configuration: none, id and kind the
    /// kind's name, in the order of the person's first donation of each); a kind becomes
    /// a candidate once the person has donated it before the visit. A person who donates
    /// more than `StackSpec.maximumInstances` (10) kinds is refused (`ReplayError`, before
    /// any visit): a stack holds 10 widgets, so use `top(10)` or a stack file.
    case all
    /// The person's N most donated kinds during the warm-up (ties: more recent last
    /// donation, then kind name). Requires a warm-up.
    case top(Int)
    /// The same instances, with configurations and intents, for every person.
    case fixed(StackSpec)

    public var description: String {
      switch self {
      case .all: return "all"
      case .top(let n): return "top:\(n)"
      case .fixed(let spec): return "file:\(spec.file)"
      }
    }
  }

  public var visits: Visits = .donations
  /// A visit's target is the instance matched by the person's first donation at or
  /// after the visit, no later than this many seconds after it (inclusive).
  public var horizonSeconds: Double = 300
  public var stack: Stack = .all
  /// Days from each person's first donation during which visits are not scored (the
  /// strategies still observe donations and relevance).
  public var warmupDays: Double = 0
  /// The scored window of a time split (docs/batch.md, "Time splits"), or nil: every
  /// visit after the warm-up is scored. Visits outside it are not replayed (as warm-up
  /// visits are not); donations and relevance before, inside and after it are observed.
  public var scoredWindow: ScoredWindow? = nil
  /// The people's local time zone: naive timestamps and local-time features.
  public var zone: ZoneRules = .utc
  /// Relevance timelines; instance ids refer to stack instance ids (for `all` and
  /// `top:N` the instance id is the kind).
  public var timelines: TimelineFile? = nil
  /// Scores from an outside model (`ScoreFile`): each row becomes a timed event of its
  /// person (`ReplayPlan.Person.scoreTimes`), which sets the instance's
  /// `StackFeatures.outsideScore`; read by the `scores` strategy.
  public var scores: ScoreFile? = nil
  /// Context changes (`ContextLog`, `--context`): each person's rows become timed events
  /// (`ReplayPlan.Person.context`) that set `StackContext.device`.
  public var context: ContextLog? = nil
  public var engine = EngineOptions()
  /// The stack's own rules (Smart Rotate, the rotation limit, the swipe pin), enforced by
  /// the engine as in simulation; nil: the stack file's (`StackSpec.rules`), else
  /// `StackRuleSettings.unconstrained` (`rules`).
  public var stackRules: StackRuleSettings? = nil
  /// Master seed for strategies' own randomness.
  public var seed: UInt64 = 0
  /// Replicate number, a component of every strategy seed (0 for a single replay).
  public var replicate: UInt64 = 0

  public init() {}

  /// The rules replay enforces: `stackRules` when set, else the rules a stack file
  /// states, else `StackRuleSettings.unconstrained` (Smart Rotate on and no rotation
  /// limit, so replay ranks freely at every visit: a log has no record of which widget
  /// was on top, and this keeps replay's results as they were before the engine owned
  /// the rules).
  public var rules: StackRuleSettings {
    if let stackRules { return stackRules }
    if case .fixed(let spec) = stack, let rules = spec.rules { return rules }
    return .unconstrained
  }
}

/// Which visits of a person a time split scores: a half-open interval of instants.
public enum ScoredWindow: Sendable, Hashable {
  /// `[start, end)` in epoch milliseconds, the same for every person (a global split or a
  /// rolling fold: local dates turned into instants by the source's zone).
  case instants(start: Int64, end: Int64)
  /// A fraction of each person's own span: with `first` and `last` the person's first and
  /// last donation (epoch ms) and `length = last − first + 1`, the window is
  /// `[first + ⌊from × length⌋, first + ⌊to × length⌋)`; `to == 1` ends just after `last`.
  case personFraction(from: Double, to: Double)

  /// The window `[start, end)` of a person whose donations span `first...last`.
  public func bounds(first: Int64, last: Int64) -> (start: Int64, end: Int64) {
    switch self {
    case .instants(let start, let end): return (start, end)
    case .personFraction(let from, let to):
      let length = Double(last &- first &+ 1)
      return (
        first &+ Int64((from * length).rounded(.down)), first &+ Int64((to * length).rounded(.down))
      )
    }
  }
}
