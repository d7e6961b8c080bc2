import SmartStackBase
import SmartStackData
import SmartStackEngine

/// An app of a scenario: what its donations name, how its widget's timeline is made and
/// reloaded, and an optional widget it can suggest (reference rules 10, 15-17, 22-26).
///
/// The stack instances that show the app's widget are those its donations match
/// (`IntentCatalog.matches` with the app's kind, intent and parameters; DESIGN.md §4).
public struct ScenarioApp: Sendable, Hashable {
  /// Unique in the scenario; routines name apps by it.
  public var id: String
  /// The kind donations name (default: `id`).
  public var kind: String
  /// The intent donations name, or nil (matching on kind alone).
  public var intent: String?
  /// The donated parameters, sorted by key.
  public private(set) var parameters: [Parameter]
  /// How the widget's timeline is generated; nil for a widget without relevance.
  public var timeline: TimelineSpec?
  /// When the timeline is reloaded.
  public var reload: ReloadSpec
  /// A widget the system may insert into the stack, or nil.
  public var suggestion: SuggestionSpec?

  public init(
    id: String, kind: String? = nil, intent: String? = nil, parameters: [Parameter] = [],
    timeline: TimelineSpec? = nil, reload: ReloadSpec = ReloadSpec(),
    suggestion: SuggestionSpec? = nil
  ) {
    self.id = id
    self.kind = kind ?? id
    self.intent = intent
    self.parameters = parameters.sorted()
    self.timeline = timeline
    self.reload = reload
    self.suggestion = suggestion
  }

  /// The donation the app makes when `user` uses it at `time` (a tap on its widget or
  /// opening it by hand).
  public func donation(at time: Instant, user: String) -> Donation {
    Donation(timestamp: time, user: user, kind: kind, intent: intent, parameters: parameters)
  }

  /// True when the app's donations match `instance` under `catalog`.
  public func matches(_ instance: WidgetInstance, catalog: IntentCatalog) -> Bool {
    catalog.matches(kind: kind, intent: intent, parameters: parameters, instance: instance)
  }
}

/// When WidgetKit asks an app's widget for a new timeline (reference rule 22: policies
/// give only the *earliest* time), and when the app asks for one itself.
public struct ReloadSpec: Sendable, Hashable {
  /// WidgetKit's `TimelineReloadPolicy`.
  public enum Policy: Sendable, Hashable {
    /// Reload after the last entry of the returned timeline; when the timeline has no
    /// entry after the reload, the system picks a time (`ReloadBudget.systemPickMinutes`,
    /// WWDC21-10048: "the system will choose an appropriate time").
    case atEnd
    /// Reload this many minutes after each reload.
    case after(minutes: Double)
    /// Never by schedule: only app-driven reloads.
    case never
  }

  /// Default `atEnd`, WidgetKit's default.
  public var policy: Policy = .atEnd
  /// How far ahead a returned timeline reaches: at a reload the app returns the entries
  /// it knows up to this many hours ahead (default 24).
  public var horizonHours: Double = 24
  /// The app asks for a reload when something happens that changes its timeline (a
  /// purchase, an alert, a score update, content appearing; default true).
  public var onEvent: Bool = true
  /// The app asks for a reload whenever the person wants it (opens it; default false).
  /// Such reloads fall in foreground time and are free.
  public var onOpen: Bool = false

  public init(
    policy: Policy = .atEnd, horizonHours: Double = 24, onEvent: Bool = true, onOpen: Bool = false
  ) {
    self.policy = policy
    self.horizonHours = horizonHours
    self.onEvent = onEvent
    self.onOpen = onOpen
  }
}

/// A widget the app's donations make the system suggest: inserted into a stack with
/// Widget Suggestions on during windows, removed afterwards (reference rules 15-17, Q8).
public struct SuggestionSpec: Sendable, Hashable {
  /// The suggested widget: a kind and configuration that is not in the stack. Its id
  /// names it in outputs.
  public var instance: WidgetInstance
  /// Explicit windows (`INDateRelevanceProvider`-like), absolute instants.
  public var windows: [TimeWindow]
  /// Windows predicted from the person's routine: every local hour in which the app
  /// has at least `predictedShare` of the routine's weight (an `INRelevantShortcut` with
  /// an empty provider list: "the system will choose a time … based on when the user
  /// typically uses your app").
  public var predicted: Bool
  /// See `predicted` (default 0.5).
  public var predictedShare: Double
  /// When not nil, a window of this many minutes opens at the start of each of the
  /// app's relevant events (the WWDC21-10049 example: 30 minutes after a purchase).
  public var afterEventMinutes: Double?

  public init(
    instance: WidgetInstance, windows: [TimeWindow] = [], predicted: Bool = false,
    predictedShare: Double = 0.5, afterEventMinutes: Double? = nil
  ) {
    self.instance = instance
    self.windows = windows
    self.predicted = predicted
    self.predictedShare = predictedShare
    self.afterEventMinutes = afterEventMinutes
  }
}

/// A span `[start, end)` of absolute time.
public struct TimeWindow: Sendable, Hashable {
  public var start: Instant
  public var end: Instant

  public init(start: Instant, end: Instant) {
    self.start = start
    self.end = end
  }
}
