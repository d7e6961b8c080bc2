/// One kind of context a person's device knows, as a context file's `signal` column
/// names it (`ContextLog`), and the values it takes.
///
/// The vocabulary follows what the watchOS Smart Stack's clues ask about (RelevanceKit's
/// `RelevantContext`: an inferred or named location, a point-of-interest category, an
/// active workout, activity rings incomplete, bedtime or wake-up, headphones connected)
/// and what iOS's own suggestions react to (charging, a Focus mode). Each signal is a
/// state that holds from its row's time until the person's next row of the same signal;
/// before a person's first row of a signal its state is unknown.
public enum ContextSignal: Int, CaseIterable, Sendable, Hashable, Comparable {
  /// Where the person is: one of the inferred places `home`, `work`, `school`,
  /// `commute` (RelevanceKit's `location(inferred:)`), a named place of the person's
  /// own (any other text, e.g. `gym`: a region an app would name), or `none` (no place
  /// known, e.g. location off).
  case place
  /// The point-of-interest category the person is at (MapKit's
  /// `MKPointOfInterestCategory` names such as `cafe` or `fitnessCenter`; any text),
  /// or `none`.
  case poi
  /// Whether the device is charging: `true` or `false`.
  case charging
  /// Whether headphones are connected: `connected` or `disconnected`.
  case headphones
  /// Whether a workout is in progress: `active` or `inactive`.
  case workout
  /// Whether today's activity rings are still open: `incomplete` or `complete`.
  case rings
  /// Where the person is in their sleep schedule: `awake`, `bedtime` (winding down
  /// before the scheduled bedtime: RelevanceKit's `sleep(.bedtime)`), `asleep`, or
  /// `wakeup` (just after the scheduled wake-up: `sleep(.wakeup)`).
  case sleep
  /// The Focus mode on: its name (any text, e.g. `work`, `driving`), or `off`.
  case focus

  /// The name in a context file's `signal` column.
  public var name: String {
    switch self {
    case .place: "place"
    case .poi: "poi"
    case .charging: "charging"
    case .headphones: "headphones"
    case .workout: "workout"
    case .rings: "rings"
    case .sleep: "sleep"
    case .focus: "focus"
    }
  }

  /// The signal a `signal` cell names (exactly, case-sensitive), or nil.
  public init?(name: String) {
    guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = found
  }

  /// The only values the signal takes, in a fixed order (a value's id is its index), or
  /// nil for an open vocabulary (`place`, `poi`, `focus`: any non-empty text).
  public var fixedValues: [String]? {
    switch self {
    case .place, .poi, .focus: nil
    case .charging: ["false", "true"]
    case .headphones: ["disconnected", "connected"]
    case .workout: ["inactive", "active"]
    case .rings: ["complete", "incomplete"]
    case .sleep: ["awake", "bedtime", "asleep", "wakeup"]
    }
  }

  /// The values an open vocabulary reserves, listed first in its value ids: the
  /// inferred places and `none` for `place`, `none` for `poi`, `off` for `focus`.
  public var reservedValues: [String] {
    switch self {
    case .place: ["none", "home", "work", "school", "commute"]
    case .poi: ["none"]
    case .focus: ["off"]
    default: fixedValues ?? []
    }
  }

  /// Why `value` is not a value of this signal, or nil when it is one. Open
  /// vocabularies accept any non-empty text.
  public func problem(with value: String) -> String? {
    if value.isEmpty { return "empty value for signal '\(name)'" }
    guard let fixed = fixedValues, !fixed.contains(value) else { return nil }
    return "'\(value)' is not a value of signal '\(name)': expected "
      + fixed.map { "'\($0)'" }.joined(separator: ", ")
  }

  /// Every signal's name, for messages: `place, poi, charging, …`.
  public static var namesList: String { allCases.map(\.name).joined(separator: ", ") }

  public static func < (a: ContextSignal, b: ContextSignal) -> Bool { a.rawValue < b.rawValue }
}
