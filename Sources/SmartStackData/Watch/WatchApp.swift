import SmartStackBase

/// A watch app's declaration for the watchOS Smart Stack: its widgets, their
/// `relevance()` clues, its permissions and its `RelevantIntentManager` updates
/// (docs/watchos.md, "The app file"; read by `WatchApp.read`).
public struct WatchApp: Sendable, Hashable {
  /// The app's name (messages and outputs only).
  public var name: String
  /// The watchOS version the declaration is evaluated on (`--watchos` overrides it).
  public var version: WatchVersion
  /// The permissions the person granted the app, in `WatchPermission` order.
  public var permissions: [WatchPermission]
  /// The widgets in file order; kinds are unique.
  public var widgets: [WatchWidget]
  /// `RelevantIntentManager.updateRelevantIntents(_:)` calls, by time (stable: at equal
  /// times the later one in the file is applied last and wins). Each replaces the whole
  /// set (replace-all): `intents(at:)`.
  public var intentUpdates: [RelevantIntentUpdate]

  public init(
    name: String, version: WatchVersion, permissions: [WatchPermission], widgets: [WatchWidget],
    intentUpdates: [RelevantIntentUpdate] = []
  ) {
    self.name = name
    self.version = version
    self.permissions = permissions
    self.widgets = widgets
    self.intentUpdates = intentUpdates
  }

  /// The relevant intents in force at `time`: those of the last update dated `<= time`
  /// (replace-all), or none before the first. O(u) in the updates.
  public func intents(at time: Instant) -> [RelevantIntent] {
    intentUpdates.last { $0.time <= time }?.intents ?? []
  }

  /// The index of the widget of `kind`, or nil. O(w).
  public func widgetIndex(kind: String) -> Int? { widgets.firstIndex { $0.kind == kind } }
}

/// One widget of a watch app.
public struct WatchWidget: Sendable, Hashable {
  /// The widget kind, unique in the app.
  public var kind: String
  /// A timeline widget or a `RelevanceConfiguration` widget.
  public var mode: Mode
  /// The relevance group the widget is a member of.
  public var group: Group
  /// True when the person pinned the widget to the stack; only a timeline widget can be
  /// pinned (`Mode.isPinnable`).
  public var pinned: Bool
  /// The clues its `relevance()` returns, in priority order (first = most important).
  public var clues: [WatchClue]

  public init(kind: String, mode: Mode, group: Group = .appDefault, pinned: Bool = false, clues: [WatchClue]) {
    self.kind = kind
    self.mode = mode
    self.group = group
    self.pinned = pinned
    self.clues = clues
  }

  /// The two watchOS widget modes (reference rule 33).
  public enum Mode: Sendable, Hashable {
    /// A timeline widget: one card in the stack, shown in the configuration of its
    /// first matching clue; people can add and pin it.
    case timeline
    /// A `RelevanceConfiguration` widget (watchOS 26): one card per matching clue,
    /// several at once, never pinnable; with `associatedKind`, its cards replace that
    /// timeline widget's card while they are suggested (rule 34).
    case relevanceConfiguration(associatedKind: String?)

    /// Whether a person can pin the widget: a timeline widget can; a relevance widget
    /// cannot ("people can't configure widgets that use a RelevanceConfiguration to
    /// appear in the Smart Stack, add them to the Smart Stack, or pin them").
    public var isPinnable: Bool {
      if case .timeline = self { return true }
      return false
    }

    /// The first watchOS version with the mode: 26 for `RelevanceConfiguration`.
    public var since: WatchVersion { isPinnable ? .watchOS10 : .watchOS26 }

    /// `timeline` or `relevanceConfiguration`, as the app file writes it.
    public var name: String { isPinnable ? "timeline" : "relevanceConfiguration" }
  }

  /// A widget's relevance group (`WidgetRelevanceGroup`, reference rule 32): "the system
  /// only suggests one member of the group simultaneously".
  public enum Group: Sendable, Hashable {
    /// The system's default grouping, one group per app (Apple: "for example, per-app
    /// grouping"); written `default`.
    case appDefault
    /// A named group: the app's widgets with the same name.
    case named(String)
    /// `.ungrouped`: a group of its own.
    case ungrouped

    /// `default`, the name, or `ungrouped`.
    public var name: String {
      switch self {
      case .appDefault: "default"
      case .named(let name): name
      case .ungrouped: "ungrouped"
      }
    }
  }
}

/// One `WidgetRelevanceAttribute(configuration:context:)`: the widget is relevant in
/// `configuration` when `context` matches.
public struct WatchClue: Sendable, Hashable {
  /// The configuration the widget would show (an intent's parameters, as text).
  public var configuration: String
  public var context: WatchClueContext

  public init(configuration: String, context: WatchClueContext) {
    self.configuration = configuration
    self.context = context
  }
}

/// One `RelevantIntent(intent, widgetKind:, relevance:)`: the timeline widget of kind
/// `widget` is relevant in the clue's configuration when its context matches.
public struct RelevantIntent: Sendable, Hashable {
  /// The kind of the (timeline) widget it names.
  public var widget: String
  public var clue: WatchClue

  public init(widget: String, clue: WatchClue) {
    self.widget = widget
    self.clue = clue
  }
}

/// One `RelevantIntentManager.updateRelevantIntents(_:)` call: at `time` the app's
/// relevant intents become exactly `intents` (an empty list clears them).
public struct RelevantIntentUpdate: Sendable, Hashable {
  public var time: Instant
  public var intents: [RelevantIntent]

  public init(time: Instant, intents: [RelevantIntent]) {
    self.time = time
    self.intents = intents
  }
}
