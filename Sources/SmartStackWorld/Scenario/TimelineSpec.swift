import SmartStackBase
import SmartStackData
import SmartStackEngine

/// How an app's widget timeline is generated: one of the examples Apple gives, or an
/// explicit list of entries. `TimelineGenerator` turns a spec into the entries the app
/// *intends* (and the relevant events that make people want the app); reloads decide
/// which of them reach the stack, and when (`ReloadSimulation`).
///
/// Minutes are real minutes; local times are read in the scenario's time zone. The JSON
/// form (`"timeline": {"type": "sports", …}`) is documented in docs/scenario-format.md.
public enum TimelineSpec: Sendable, Hashable {
  /// Calendar events: score `score` from `leadMinutes` before each event to its end.
  case calendar(CalendarTimeline)
  /// Weather alerts at random times: score = severity (1, 2, 3), fixed duration.
  case weather(WeatherTimeline)
  /// Games at scheduled times: score 1 for the game's length, nil-relevance updates
  /// during the game (WWDC20-10194, reference rule 6).
  case sports(SportsTimeline)
  /// Random purchases: score = amount, duration 0 (until the next purchase; WWDC20-10194).
  case purchases(PurchasesTimeline)
  /// A widget that is sometimes empty: score `score` while it has content, `emptyScore`
  /// (<= 0) while it has nothing to show (reference rule 3).
  case emptyState(EmptyStateTimeline)
  /// An explicit list of entries, as in the timeline files of `smartstack relevance`.
  case entries(EntriesTimeline)

  /// The `type` name in scenario files.
  public var typeName: String {
    switch self {
    case .calendar: "calendar"
    case .weather: "weather"
    case .sports: "sports"
    case .purchases: "purchases"
    case .emptyState: "empty-state"
    case .entries: "entries"
    }
  }

  /// The chance that a visit during one of the timeline's events wants the app.
  public var wantProbability: Double {
    switch self {
    case .calendar(let t): t.wantProbability
    case .weather(let t): t.wantProbability
    case .sports(let t): t.wantProbability
    case .purchases(let t): t.wantProbability
    case .emptyState(let t): t.wantProbability
    case .entries(let t): t.wantProbability
    }
  }
}

/// A recurring or one-off time span: a calendar event or a game.
public struct ScheduleItem: Sendable, Hashable {
  /// When it starts.
  public enum Start: Sendable, Hashable {
    /// Once, at this instant.
    case once(Instant)
    /// Every local day whose ISO weekday is in `weekdays` (bit 0 = Monday ... bit 6 =
    /// Sunday), at local minute `minuteOfDay` (0...1439). A start inside the spring-
    /// forward gap is moved as `ZoneRules.instant(fromLocal:)` says.
    case weekly(weekdays: UInt8, minuteOfDay: Int)
  }

  public var start: Start
  /// Length in minutes (> 0, at most 1440).
  public var minutes: Double

  public init(start: Start, minutes: Double) {
    self.start = start
    self.minutes = minutes
  }
}

public struct CalendarTimeline: Sendable, Hashable {
  public var schedule: [ScheduleItem]
  /// Relevance starts this many minutes before each event (default 15).
  public var leadMinutes: Double = 15
  /// The score of each event's window (default 1).
  public var score: Double = 1
  /// Default 0.5.
  public var wantProbability: Double = 0.5

  public init(schedule: [ScheduleItem]) { self.schedule = schedule }
}

public struct WeatherTimeline: Sendable, Hashable {
  /// Mean alerts per day, a Poisson process at any hour (default 0.2).
  public var alertsPerDay: Double = 0.2
  /// How long each alert's relevance lasts, minutes (default 120).
  public var alertMinutes: Double = 120
  /// Relative weights of severities 1 (minor), 2 (moderate), 3 (severe); the score is
  /// the severity (default 0.6, 0.3, 0.1).
  public var severityWeights: [Double] = [0.6, 0.3, 0.1]
  /// Default 0.5.
  public var wantProbability: Double = 0.5

  public init() {}
}

public struct SportsTimeline: Sendable, Hashable {
  /// The games.
  public var schedule: [ScheduleItem]
  /// Relevance starts this many minutes before kick-off (default 0).
  public var leadMinutes: Double = 0
  /// The score of each game's window (default 1).
  public var score: Double = 1
  /// Minutes between nil-relevance score updates during a game; 0 for none (default 15).
  public var updateMinutes: Double = 15
  /// Default 0.5.
  public var wantProbability: Double = 0.5

  public init(schedule: [ScheduleItem]) { self.schedule = schedule }
}

public struct PurchasesTimeline: Sendable, Hashable {
  /// Mean purchases per day, a Poisson process while the person is awake (default 2).
  public var purchasesPerDay: Double = 2
  /// Amounts are log-normal: `medianAmount × exp(amountSigma × Z)`, Z standard normal,
  /// rounded to cents and at least 0.01 (defaults 20 and 1).
  public var medianAmount: Double = 20
  public var amountSigma: Double = 1
  /// How long after a purchase the person may want the widget, minutes (default 30,
  /// the window of the WWDC21-10049 relevant-shortcut example).
  public var wantMinutes: Double = 30
  /// Default 0.5.
  public var wantProbability: Double = 0.5

  public init() {}
}

public struct EmptyStateTimeline: Sendable, Hashable {
  /// Mean minutes with content (exponential, default 60).
  public var contentMinutes: Double = 60
  /// Mean minutes without content (exponential, default 240).
  public var emptyMinutes: Double = 240
  /// The score while there is content (> 0, default 1).
  public var score: Double = 1
  /// The score while empty (<= 0, default 0).
  public var emptyScore: Double = 0
  /// Default 0.5.
  public var wantProbability: Double = 0.5

  public init() {}
}

public struct EntriesTimeline: Sendable, Hashable {
  /// The entries in file order.
  public var entries: [RelevanceEntry]
  /// Chance that a visit inside a window with score > 0 wants the app (default 0:
  /// explicit entries make no events unless asked to).
  public var wantProbability: Double = 0

  public init(entries: [RelevanceEntry]) { self.entries = entries }
}
