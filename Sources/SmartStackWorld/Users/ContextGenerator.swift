import SmartStackBase
import SmartStackData

/// Turns a `ContextRoutine` into one person's context changes over a run.
///
/// ## Definition
/// For each local day `d` from the day before the run's first to its last, in order, the
/// day's primitive events are placed at local times and turned into instants
/// (`ZoneRules.instant(fromLocal:)`; a time in a daylight-saving gap moves forward):
/// 1. the day type's place plan (weekday or weekend): change `k` at its minute plus a
///    jitter `⌊u × (2j + 1)⌋ − j` minutes (`u` one uniform per change, `j` =
///    `jitterMinutes`), kept after the previous change by at least a minute;
/// 2. each workout: uniforms `u1`, `u2` drawn every day; on a planned weekday with
///    `u1 < probability` it starts at its minute plus `⌊u2 × (2j + 1)⌋ − j` and lasts
///    `minutes`;
/// 3. with a sleep window `[from, to)` (not empty): `bedtime` at `from − windDown`,
///    `asleep` and charging at `from`, `wakeup`, not charging and rings reset at `to`
///    (the next day when `to < from`), `awake` at `to + wakeupMinutes`.
/// Events are swept in time order (ties: in the order above). The state (plan place, the
/// workout under way, sleep phase, charging, rings closed) gives each signal's value:
/// `place` is the workout's place during a workout, else the plan's (`none` before any);
/// `poi` the workout's (`none` otherwise); `headphones` connected at a place of
/// `headphonesAt`; `focus` the first `focusAt` entry for the place (`off` otherwise);
/// `rings` complete from a workout's end until the next wake-up.
/// At the run's start every generated signal's value is written; later, a signal is
/// written at a time only when its value differs from the last one written. Nothing at or
/// after the run's end is written. All draws come from the person's `.context` stream,
/// so context never shifts visits, wants or any other stream.
enum ContextGenerator {
  /// A primitive event of the sweep.
  enum Kind {
    case place(String), workoutStart(Int), workoutEnd(Int), phase(String), charging(Bool), ringsReset
  }

  /// The changes, ascending by time, then by signal.
  ///
  /// - Complexity: O(days × (plan changes + workouts) × log of that).
  static func generate<G: RandomNumberGenerator>(
    _ routine: ContextRoutine, sleep window: SleepWindow, zone: ZoneRules, startDay: Int64, days: Int,
    start: Int64, end: Int64, using random: inout G
  ) -> [ContextChange] {
    let signals = routine.signals
    guard !signals.isEmpty else { return [] }
    var events: [(time: Int64, order: Int, kind: Kind)] = []
    func add(_ day: Int64, minute: Int, _ kind: Kind) {
      let local = day &* Instant.millisecondsPerDay &+ Int64(minute) &* 60_000
      events.append((zone.instant(fromLocal: local).milliseconds, events.count, kind))
    }
    let j = routine.jitterMinutes
    func jitter(_ u: Double) -> Int { min(Int(u * Double(2 * j + 1)), 2 * j) - j }
    for d in -1..<days {
      let day = startDay &+ Int64(d)
      let weekday = WallClock.weekday(dayIndex: day)
      let plan = weekday < 5 ? routine.weekdayPlaces : routine.weekendPlaces
      var previous = Int.min
      for change in plan {
        let minute = max(change.minute + jitter(random.nextUnit()), previous == Int.min ? Int.min : previous + 1)
        previous = minute
        add(day, minute: minute, .place(change.place))
      }
      for (w, workout) in routine.workouts.enumerated() {
        let happens = random.nextUnit() < workout.probability
        let shift = jitter(random.nextUnit())
        guard happens, workout.days & (1 << UInt8(weekday)) != 0 else { continue }
        add(day, minute: workout.minute + shift, .workoutStart(w))
        add(day, minute: workout.minute + shift + workout.minutes, .workoutEnd(w))
      }
      if window.fromMinute != window.toMinute {
        let from = window.fromMinute
        let to = window.toMinute > from ? window.toMinute : window.toMinute + 1_440
        add(day, minute: from - routine.windDownMinutes, .phase("bedtime"))
        add(day, minute: from, .phase("asleep"))
        add(day, minute: from, .charging(true))
        add(day, minute: to, .phase("wakeup"))
        add(day, minute: to, .charging(false))
        add(day, minute: to, .ringsReset)
        add(day, minute: to + routine.wakeupMinutes, .phase("awake"))
      }
    }
    events.sort { ($0.time, $0.order) < ($1.time, $1.order) }

    var planPlace = "none"
    var workout: Int? = nil
    var phase = "awake"
    var charging = false
    var ringsComplete = false
    func value(_ signal: ContextSignal) -> String {
      let place = workout.flatMap { routine.workouts[$0].place } ?? planPlace
      switch signal {
      case .place: return place
      case .poi: return workout.flatMap { routine.workouts[$0].poi } ?? "none"
      case .charging: return charging ? "true" : "false"
      case .headphones: return routine.headphonesAt.contains(place) ? "connected" : "disconnected"
      case .workout: return workout == nil ? "inactive" : "active"
      case .rings: return ringsComplete ? "complete" : "incomplete"
      case .sleep: return phase
      case .focus: return routine.focusAt.first { $0.place == place }?.focus ?? "off"
      }
    }
    var changes: [ContextChange] = []
    var written: [String?] = Array(repeating: nil, count: ContextSignal.allCases.count)
    func write(at time: Int64) {
      for signal in signals {
        let v = value(signal)
        if written[signal.rawValue] != v {
          written[signal.rawValue] = v
          changes.append(ContextChange(time: time, signal: signal, value: v))
        }
      }
    }
    var k = 0
    var startWritten = false
    while k < events.count {
      let time = events[k].time
      if time > start && !startWritten {
        write(at: start)
        startWritten = true
      }
      if time >= end { break }
      while k < events.count && events[k].time == time {
        switch events[k].kind {
        case .place(let p): planPlace = p
        case .workoutStart(let w): workout = w
        case .workoutEnd(let w):
          if workout == w {
            workout = nil
            ringsComplete = true
          }
        case .phase(let p): phase = p
        case .charging(let c): charging = c
        case .ringsReset: ringsComplete = false
        }
        k += 1
      }
      if time >= start { write(at: time) }
      if time == start { startWritten = true }
    }
    if !startWritten { write(at: start) }
    return changes
  }
}
