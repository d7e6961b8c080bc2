/// Where a clue comes from.
public enum ClueSource: String, Sendable, Hashable {
  /// The widget's `relevance()` list (`WidgetRelevanceAttribute`s, watchOS 11+).
  case relevance
  /// The app's current `RelevantIntentManager` set (watchOS 10+).
  case intent

  /// The first watchOS version with the source.
  public var since: WatchVersion { self == .relevance ? .watchOS11 : .watchOS10 }
}

/// What became of one clue at one time (`WatchApp.evaluate(at:context:rules:)`).
public enum ClueVerdict: Sendable, Hashable {
  /// The clue matches the person's context, and its widget is not beaten in its group.
  case matches
  /// The clue does nothing now, for `reason`.
  case dropped(ClueDropReason)

  /// `matches` or `dropped`.
  public var name: String { self == .matches ? "matches" : "dropped" }
}

/// Why a clue does nothing at a time. The reasons are checked in this order and the first
/// that applies is given: a clue the version lacks is not looked at further; a clue the
/// system does not use (the prefix) is not checked for permission; without permission
/// the context is not read; an unknown context cannot match; only a matching clue can
/// lose its group.
public enum ClueDropReason: Sendable, Hashable {
  /// The watchOS version evaluated lacks the clue's kind, its source (`relevance()`
  /// needs 11) or its widget's mode (`RelevanceConfiguration` needs 26): the associated
  /// value is the version it needs.
  case notOnVersion(WatchVersion)
  /// The clue's index in its widget's `relevance()` list is at or past the prefix the
  /// system uses (`ClueRules.prefixLength`; reference rule 28: "the system might decide
  /// to utilize only a subset"). Relevant intents are not truncated.
  case priorityTruncated(prefix: Int)
  /// The app lacks the permission the clue needs (rule 30).
  case noPermission(WatchPermission)
  /// The signal the clue reads is unknown for the person now: no change of it dated
  /// `<= time`, or `place` `none` (rule 30: "If contextual sleep information isn't
  /// available to the system, sleep clues … don't have an effect").
  case noContext(ContextSignal)
  /// A date clue whose `[from, to)` does not hold the time.
  case outsideDate
  /// The signal is known and has another value (`value`).
  case contextDoesNotMatch(ContextSignal, value: String)
  /// The clue matches, but another member of its relevance group, `winner`, is the one
  /// suggested (rule 32; `ClueWeighing` chooses).
  case group(name: String, winner: String)

  /// The reason as the explainer writes it: `notOnVersion(26)`, `priorityTruncated(2)`,
  /// `noPermission(sleep)`, `noContext(workout)`, `outsideDate`,
  /// `contextDoesNotMatch(place=home)`, `group(alerts: ServiceAlerts)`.
  public var text: String {
    switch self {
    case .notOnVersion(let version): "notOnVersion(\(version.major))"
    case .priorityTruncated(let prefix): "priorityTruncated(\(prefix))"
    case .noPermission(let permission): "noPermission(\(permission.rawValue))"
    case .noContext(let signal): "noContext(\(signal.name))"
    case .outsideDate: "outsideDate"
    case .contextDoesNotMatch(let signal, let value): "contextDoesNotMatch(\(signal.name)=\(value))"
    case .group(let name, let winner): "group(\(name): \(winner))"
    }
  }
}

/// One clue evaluated at one time: a row of the explainer.
public struct EvaluatedClue: Sendable, Hashable {
  /// The widget's index in the app.
  public var widget: Int
  public var source: ClueSource
  /// The clue's index in its source: its widget's `relevance()` list, or the current
  /// relevant-intent set (counting every widget's intents).
  public var index: Int
  public var configuration: String
  public var context: WatchClueContext
  public var verdict: ClueVerdict
  /// The card the clue makes eligible, or nil: a timeline widget's one card is its kind
  /// (every matching clue of it names the same card, shown in the configuration of the
  /// first); a relevance widget's clue `i` makes the card `KIND#i`.
  public var card: String?
  /// For a matching clue of a timeline widget: the relevance widget whose cards replace
  /// its card now (`associatedKind`, rule 34), or nil.
  public var replacedBy: String?
}
