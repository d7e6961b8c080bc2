import SmartStackBase

/// One `RelevantContext` clue: when or where a widget is relevant (RelevanceKit's
/// `RelevantContext`, reference rule 29). Each case names what it reads from a person's
/// context (`signal`), the permission it needs (`permission`, rule 30) and the first
/// watchOS version that has it (`since`).
public enum WatchClueContext: Sendable, Hashable {
  /// `date(from:to:)` (no kind, watchOS 10) or `date(interval:kind:)` (a kind,
  /// watchOS 26): relevant at every time `t` with `from <= t < to`.
  case date(from: Instant, to: Instant, kind: DateKind?)
  /// `location(inferred:)`: the person's inferred home, work, school or commute; matches
  /// when the context's `place` is that value.
  case inferredLocation(InferredLocation)
  /// `location(_: CLRegion)`: a region the app names; matches when the context's `place`
  /// is that name (a context file's own place names, such as `gym`).
  case region(String)
  /// `location(category:)` (watchOS 26): a MapKit point-of-interest category; matches
  /// when the context's `poi` is that category.
  case pointOfInterest(String)
  /// `fitness(_:)`: `workoutActive` matches `workout` `active`; `activityRingsIncomplete`
  /// matches `rings` `incomplete`.
  case fitness(FitnessCondition)
  /// `sleep(_:)`: `bedtime` or `wakeup` matches the same `sleep` value.
  case sleep(SleepCondition)
  /// `hardware(headphones: .connected)`: matches `headphones` `connected`.
  case headphonesConnected

  /// `RelevantContext.DateKind`: a priority hint on a date clue (watchOS 26). Apple:
  /// `scheduled` "increased priority because it displays important content or requires
  /// action"; `informational` "slightly lower priority because it displays content and
  /// doesn't require an action"; `default` "treat a widget with default priority".
  public enum DateKind: String, CaseIterable, Sendable, Hashable, JSONDecodable {
    case `default`, scheduled, informational
  }

  /// `RelevantContext.InferredLocation`.
  public enum InferredLocation: String, CaseIterable, Sendable, Hashable, JSONDecodable {
    case home, work, school, commute
  }

  /// `RelevantContext.FitnessCondition`.
  public enum FitnessCondition: String, CaseIterable, Sendable, Hashable, JSONDecodable {
    case workoutActive, activityRingsIncomplete
  }

  /// `RelevantContext.SleepCondition`.
  public enum SleepCondition: String, CaseIterable, Sendable, Hashable, JSONDecodable {
    case bedtime, wakeup
  }

  /// The context signal the clue reads, or nil for a date clue (the time is always known).
  public var signal: ContextSignal? {
    switch self {
    case .date: nil
    case .inferredLocation, .region: .place
    case .pointOfInterest: .poi
    case .fitness(.workoutActive): .workout
    case .fitness(.activityRingsIncomplete): .rings
    case .sleep: .sleep
    case .headphonesConnected: .headphones
    }
  }

  /// The permission the app needs for the clue to count, or nil (date and headphones
  /// clues need none). Apple ("Increasing the visibility of widgets in Smart Stacks"):
  /// "request a person's permission to access location, workout, or sleep schedule
  /// information".
  public var permission: WatchPermission? {
    switch self {
    case .date, .headphonesConnected: nil
    case .inferredLocation, .region, .pointOfInterest: .location
    case .fitness: .fitness
    case .sleep: .sleep
    }
  }

  /// The first watchOS version with this clue: 26 for a date clue with a kind and for a
  /// point-of-interest category, else 10.
  public var since: WatchVersion {
    switch self {
    case .date(_, _, let kind): kind == nil ? .watchOS10 : .watchOS26
    case .pointOfInterest: .watchOS26
    default: .watchOS10
    }
  }

  /// The date kind the weighing sees: the clue's own, or `default` (every other clue).
  public var dateKind: DateKind {
    if case .date(_, _, let kind?) = self { return kind }
    return .default
  }

  /// True when `value` (the signal's current value; nil: unknown) satisfies the clue.
  /// Date clues use `time`.
  public func matches(value: String?, at time: Instant) -> Bool {
    switch self {
    case .date(let from, let to, _): from <= time && time < to
    case .inferredLocation(let place): value == place.rawValue
    case .region(let name), .pointOfInterest(let name): value == name
    case .fitness(.workoutActive): value == "active"
    case .fitness(.activityRingsIncomplete): value == "incomplete"
    case .sleep(let condition): value == condition.rawValue
    case .headphonesConnected: value == "connected"
    }
  }

  /// True when the signal's value says nothing is known: unknown (nil), or `place`
  /// `none` ("no place is known", docs/context.md). A `poi` of `none` is known: the
  /// person is at no point of interest.
  public static func isUnknown(_ value: String?, _ signal: ContextSignal) -> Bool {
    value == nil || (signal == .place && value == "none")
  }

  /// The clue as Apple's API writes it, for the explainer's `context` column:
  /// `location(inferred: commute)`, `date(interval: 2026-03-02T07:00:00Z..<…, kind: scheduled)`.
  public var description: String {
    switch self {
    case .date(let from, let to, let kind):
      let range = "\(ISO8601.format(from))..<\(ISO8601.format(to))"
      return kind.map { "date(interval: \(range), kind: \($0.rawValue))" } ?? "date(from:to: \(range))"
    case .inferredLocation(let place): return "location(inferred: \(place.rawValue))"
    case .region(let name): return "location(region: \(name))"
    case .pointOfInterest(let name): return "location(category: \(name))"
    case .fitness(let condition): return "fitness(\(condition.rawValue))"
    case .sleep(let condition): return "sleep(\(condition.rawValue))"
    case .headphonesConnected: return "hardware(headphones: connected)"
    }
  }
}

/// A permission an app asks the person for, which gates the clues that need it (reference
/// rule 30: "A clue with missing context or permission does nothing"). Named after the
/// clue kinds they gate: `location` (Core Location, When in Use or Always), `fitness`
/// (workouts and activity rings: Apple's article says "workout"), `sleep` (HealthKit's
/// sleep analysis: the `sleep(_:)` documentation).
public enum WatchPermission: String, CaseIterable, Sendable, Hashable, Comparable, JSONDecodable {
  case location, fitness, sleep

  public static func < (a: WatchPermission, b: WatchPermission) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
