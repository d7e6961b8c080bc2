import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A kind of simulated person: how often they look at the Home Screen, when they sleep,
/// what they want at which hours, and how they react to what the stack shows.
///
/// A scenario lists personas, each with a `count`; person `k` (1-based) of persona
/// `commuter` is named `commuter-k`. Every person of a persona follows the same rules but
/// draws their own random numbers (see `Scenario.person(_:replicate:seed:days:)`).
///
/// The JSON form and every default are documented in `docs/scenario-format.md`.
public struct Persona: Sendable, Hashable {
  /// The persona's name, unique in the scenario; people are named `name-k`.
  public var name: String
  /// How many people follow this persona (1 or more).
  public var count: Int
  /// Expected Home Screen visits per local day while awake (reference rule 21:
  /// "more than 90 times a day"). Default 90.
  public var visitsPerDay: Double
  /// When the person sleeps: no visits, no purchases (default 23:00 to 07:00).
  public var sleep: SleepWindow
  /// Relative visit rate per local hour 0...23 (default `Persona.defaultRhythm`), or
  /// per local hour of week 0...167 (168 values, Monday 00h first).
  /// Only the shape matters: the rates are scaled so that a day has `visitsPerDay`
  /// visits on average (see `VisitProcess`).
  public var rhythm: [Double]
  /// Chance, per local hour 0...23 (24 values) or per local hour of week 0...167 (168
  /// values, Monday 00h first), that a visit comes with a want drawn from the routine
  /// (default 0.25 in every hour).
  public var wantProbability: [Double]
  /// What the person wants at which local hours, before any drift.
  public var routine: Routine
  /// Routine replacements from a local day on, sorted by `fromDay`, days unique.
  public var drift: [RoutineChange]
  /// Chance of tapping the shown widget when it is one they want (default 1).
  public var tap: Double
  /// Chance of opening the wanted app by hand when no wanted widget is shown and they do
  /// not swipe to one (default 1).
  public var open: Double
  /// Chance, when a wanted instance is in the stack but not on top, of swiping to it
  /// (default 0; reference Q4: a manual swipe pins the choice for a cooldown).
  public var swipe: Double
  /// What the person's device knows about where they are and what they do (places,
  /// workouts, sleep, charging, headphones, Focus), or nil for no context (the default).
  /// Routine blocks with a `place` apply only while the person is there.
  public var context: ContextRoutine?
  /// How long an app stays in the foreground after a visit with a want for it, in
  /// minutes (default 3). Widget reloads of that app in this time are free (reference
  /// rule 25).
  public var foregroundMinutes: Double
  /// How often a routine want repeats the previous want's app (default none,
  /// `WantRepeat`).
  public var repeating: WantRepeat = .none

  /// The default daily rhythm: relative visit rates for local hours 0...23, low at night,
  /// rising from 06:00, a morning and a lunch bump, the day's peak in the evening
  /// (19:00-21:00). Only its shape matters.
  public static let defaultRhythm: [Double] = [
    0.2, 0.1, 0.1, 0.1, 0.1, 0.2,  // 00-05
    0.5, 1.0, 1.2, 1.0, 0.9, 1.0,  // 06-11
    1.2, 1.0, 0.9, 0.9, 1.0, 1.1,  // 12-17
    1.2, 1.3, 1.3, 1.2, 0.9, 0.5,  // 18-23
  ]
  /// The default visits per day.
  public static let defaultVisitsPerDay = 90.0
  /// The default chance that a visit comes with a routine want.
  public static let defaultWantProbability = 0.25
  /// The default foreground time after a want, in minutes.
  public static let defaultForegroundMinutes = 3.0

  public init(
    name: String, count: Int = 1, visitsPerDay: Double = Persona.defaultVisitsPerDay,
    sleep: SleepWindow = .default, rhythm: [Double] = Persona.defaultRhythm,
    wantProbability: [Double] = Array(repeating: Persona.defaultWantProbability, count: 24),
    routine: Routine = Routine(), drift: [RoutineChange] = [], tap: Double = 1, open: Double = 1,
    swipe: Double = 0, foregroundMinutes: Double = Persona.defaultForegroundMinutes,
    context: ContextRoutine? = nil
  ) {
    self.name = name
    self.count = count
    self.visitsPerDay = visitsPerDay
    self.sleep = sleep
    self.rhythm = rhythm
    self.wantProbability = wantProbability
    self.routine = routine
    self.drift = drift.sorted { $0.fromDay < $1.fromDay }
    self.tap = tap
    self.open = open
    self.swipe = swipe
    self.foregroundMinutes = foregroundMinutes
    self.context = context
  }

  /// The places routine blocks name (theirs and the drift's), sorted by bytes, each once:
  /// the places wants depend on.
  public var wantPlaces: [String] {
    let blocks = ([routine] + drift.map(\.routine)).flatMap { $0.weekday + $0.weekend }
    return Array(Set(blocks.compactMap(\.place))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The routine in force on local day `day` of the simulation (0 = the start date): the
  /// drift with the largest `fromDay <= day` (the later one in `drift` on a tie), else
  /// `routine`.
  ///
  /// - Complexity: O(d) for d drift entries.
  public func routine(onDay day: Int) -> Routine {
    var current = routine
    var from = Int.min
    for change in drift where change.fromDay <= day && change.fromDay >= from {
      current = change.routine
      from = change.fromDay
    }
    return current
  }

  /// `rhythm[hour]`, or 0 when the array is shorter (a persona built in code).
  @inline(__always)
  func rhythm(atHour hour: Int) -> Double {
    hour < rhythm.count ? rhythm[hour] : 0
  }

  /// `wantProbability[hour]`, or 0 when the array is shorter (a persona built in code).
  @inline(__always)
  func wantProbability(atHour hour: Int) -> Double {
    hour < wantProbability.count ? wantProbability[hour] : 0
  }
}

/// The local hours a person sleeps: from `fromMinute` (inclusive) to `toMinute`
/// (exclusive), minutes after local midnight, wrapping past midnight when
/// `fromMinute > toMinute`. Equal bounds mean the person never sleeps.
public struct SleepWindow: Sendable, Hashable {
  /// Start of sleep, minutes after local midnight, 0...1439.
  public var fromMinute: Int
  /// End of sleep (first awake minute), 0...1439.
  public var toMinute: Int

  /// 23:00 to 07:00.
  public static let `default` = SleepWindow(fromMinute: 23 * 60, toMinute: 7 * 60)

  public init(fromMinute: Int, toMinute: Int) {
    self.fromMinute = fromMinute
    self.toMinute = toMinute
  }

  /// True when the person is asleep at local minute `minute` of the day (0...1439).
  @inlinable
  public func isAsleep(minuteOfDay minute: Int) -> Bool {
    if fromMinute == toMinute { return false }
    if fromMinute < toMinute { return minute >= fromMinute && minute < toMinute }
    return minute >= fromMinute || minute < toMinute
  }

  /// True when the person is asleep at the wall-clock time `localMilliseconds`.
  @inlinable
  public func isAsleep(localMilliseconds: Int64) -> Bool {
    isAsleep(minuteOfDay: WallClock.millisecondOfDay(localMilliseconds) / 60_000)
  }

  /// The minutes of local hour `hour` (0...23) the person is awake, 0...60.
  public func awakeMinutes(inHour hour: Int) -> Int {
    var awake = 0
    for minute in (hour * 60)..<(hour * 60 + 60) where !isAsleep(minuteOfDay: minute) {
      awake += 1
    }
    return awake
  }
}

/// A routine replacement: from local day `fromDay` of the simulation (0-based) on, the
/// person follows `routine` (reference: the system learns over "a few days", so drift
/// tests how fast strategies adapt).
public struct RoutineChange: Sendable, Hashable {
  public var fromDay: Int
  public var routine: Routine

  public init(fromDay: Int, routine: Routine) {
    self.fromDay = fromDay
    self.routine = routine
  }
}
