/// The watchOS version a watch app is evaluated on: 10, 11 or 26. What each version has
/// follows the availability Apple's documentation gives each symbol (docs/watchos.md,
/// "Versions"):
///
/// | feature | since |
/// |---|---|
/// | `RelevantIntentManager` relevant intents; `RelevantContext` date (`date(from:to:)`), inferred and region location, fitness, sleep and hardware clues | 10 |
/// | `TimelineProvider.relevance()` (`WidgetRelevance`, `WidgetRelevanceAttribute`), relevance groups (`WidgetRelevanceGroup`) | 11 |
/// | `DateKind` (`date(interval:kind:)`), point-of-interest categories (`location(category:)`), `RelevanceConfiguration` widgets, `associatedKind` | 26 |
///
/// Timeline entry relevance (`TimelineEntryRelevance`) counts on watchOS 10 only
/// (reference rule 8, Q12): `honoursEntryRelevance`.
public enum WatchVersion: Int, CaseIterable, Sendable, Hashable, Comparable {
  case watchOS10 = 10
  case watchOS11 = 11
  case watchOS26 = 26

  /// The version named by its major number (10, 11 or 26), or nil.
  public init?(major: Int) { self.init(rawValue: major) }

  /// The major version number.
  public var major: Int { rawValue }

  /// True on watchOS 10 only: WWDC23-10029 says a timeline entry's relevance tells the
  /// watchOS Smart Stack which entries matter most; Apple's current table ("Increasing
  /// the visibility of widgets in Smart Stacks") says watchOS ignores it. A switch for the
  /// stack simulation; the clue explainer does not read timeline entries.
  public var honoursEntryRelevance: Bool { self == .watchOS10 }

  /// The versions as a message lists them: `10, 11, 26`.
  public static var list: String { allCases.map { String($0.major) }.joined(separator: ", ") }

  public static func < (a: WatchVersion, b: WatchVersion) -> Bool { a.rawValue < b.rawValue }
}
