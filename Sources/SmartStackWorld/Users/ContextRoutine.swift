import SmartStackBase
import SmartStackData

/// What a persona's device knows about where they are and what they do, as a routine
/// (issue 33 item 2; docs/scenario-format.md, "Context"): a place plan per day type,
/// workouts, the sleep schedule, charging at night, headphones and a Focus by place.
///
/// A signal is generated only when the routine asks for it: `place` with a place plan,
/// `headphones` with `headphonesAt`, `focus` with `focusAt`, `workout` with workouts,
/// `poi` when a workout names one, `rings` with `rings`, `sleep` with `sleep`, and
/// `charging` with `chargingAtNight`. `ContextGenerator` turns it into change rows.
public struct ContextRoutine: Sendable, Hashable {
  /// A place from a local time of day on.
  public struct PlaceChange: Sendable, Hashable {
    /// Minutes after local midnight, 0...1439.
    public var minute: Int
    public var place: String
    public init(minute: Int, place: String) {
      self.minute = minute
      self.place = place
    }
  }

  /// The Focus mode on while the person is at a place.
  public struct PlaceFocus: Sendable, Hashable {
    public var place: String
    public var focus: String
    public init(place: String, focus: String) {
      self.place = place
      self.focus = focus
    }
  }

  /// A workout on some weekdays at a local time.
  public struct Workout: Sendable, Hashable {
    /// Bit set of weekdays, bit 0 = Monday.
    public var days: UInt8
    /// Start, minutes after local midnight (before jitter), and length in minutes (> 0).
    public var minute: Int
    public var minutes: Int
    /// Where it happens (nil: wherever the plan says) and the point of interest there.
    public var place: String?
    public var poi: String?
    /// Chance that a planned day has the workout (0...1).
    public var probability: Double
    public init(days: UInt8, minute: Int, minutes: Int, place: String? = nil, poi: String? = nil, probability: Double = 1) {
      self.days = days
      self.minute = minute
      self.minutes = minutes
      self.place = place
      self.poi = poi
      self.probability = probability
    }
  }

  /// The place plans for Monday to Friday and for Saturday and Sunday, ascending by
  /// minute, minutes unique; a day's place before its first change is the one the day
  /// before ended with. Both empty: no `place` signal.
  public var weekdayPlaces: [PlaceChange] = []
  public var weekendPlaces: [PlaceChange] = []
  /// Each planned change and workout start moves by a whole number of minutes drawn
  /// uniformly from `-jitterMinutes...jitterMinutes`, each day anew (default 0).
  public var jitterMinutes: Int = 0
  /// Places where headphones are connected (disconnected elsewhere).
  public var headphonesAt: [String] = []
  /// A Focus per place (`off` elsewhere), in file order; the first match counts.
  public var focusAt: [PlaceFocus] = []
  public var workouts: [Workout] = []
  /// `rings`: `incomplete` from each wake-up, `complete` at the end of a workout.
  public var rings = false
  /// `sleep` from the persona's sleep window: `bedtime` from `windDownMinutes` before it,
  /// `asleep` in it, `wakeup` for `wakeupMinutes` after it, `awake` otherwise.
  public var sleep = false
  public var windDownMinutes = 30
  public var wakeupMinutes = 30
  /// `charging` true while asleep (the persona's sleep window), false otherwise.
  public var chargingAtNight = false

  public init() {}

  /// The signals this routine generates, in `ContextSignal` order.
  public var signals: [ContextSignal] {
    ContextSignal.allCases.filter { signal in
      switch signal {
      case .place: !weekdayPlaces.isEmpty || !weekendPlaces.isEmpty
      case .poi: workouts.contains { $0.poi != nil }
      case .charging: chargingAtNight
      case .headphones: !headphonesAt.isEmpty
      case .workout: !workouts.isEmpty
      case .rings: rings
      case .sleep: sleep
      case .focus: !focusAt.isEmpty
      }
    }
  }
}

/// One generated context change: from `time` (epoch ms) on, `signal` is `value`.
public struct ContextChange: Sendable, Hashable {
  public var time: Int64
  public var signal: ContextSignal
  public var value: String
  public init(time: Int64, signal: ContextSignal, value: String) {
    self.time = time
    self.signal = signal
    self.value = value
  }
}
