import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Why a visit has a want.
public enum WantSource: UInt8, Sendable, Hashable {
  /// The visit has no want.
  case none = 0
  /// Drawn from the routine for the visit's local hour of week.
  case routine = 1
  /// Caused by a relevant event in progress (a game, a recent purchase, an alert).
  case event = 2
}

/// A span of time in which something happens that makes the person want an app's widget
/// (a game being played, the minutes after a purchase, a weather alert), with the chance
/// that a visit inside it comes with a want for that app. Events are the ground truth of
/// a scenario: they exist whatever the widget shows or whether its timeline reached the
/// stack.
public struct RelevantEvent: Sendable, Hashable {
  /// The app (index into the scenario's apps).
  public var app: Int32
  /// Start (inclusive) and end (exclusive), epoch ms.
  public var start: Int64
  public var end: Int64
  /// Chance that a visit inside the event wants the app (0...1).
  public var wantProbability: Double

  public init(app: Int32, start: Int64, end: Int64, wantProbability: Double) {
    self.app = app
    self.start = start
    self.end = end
    self.wantProbability = wantProbability
  }

  /// True when `time` is in `[start, end)`.
  @inline(__always)
  public func contains(_ time: Int64) -> Bool { time >= start && time < end }
}

/// Draws what a person wants at each visit.
///
/// ## Definition
/// Every visit consumes exactly three outputs of the wants stream, `u1`, `u2`, `u3`
/// (`nextUnit()`, in that order), whether or not it gets a want, so changing one visit's
/// rules never shifts another visit's numbers.
/// 1. **Events first.** Take the events in progress at the visit (`start <= t < end`),
///    in order of start, then app, then end. Event `i` owns the slice of `[0, 1)` from
///    the sum of the earlier events' probabilities to that sum plus its own (capped at
///    1). When `u1` falls in an event's slice, the visit wants that event's app. So with
///    one event the chance is its `wantProbability`; overlapping events share `[0, 1)`,
///    earlier-starting events first.
/// 2. **Else the routine.** When `u2 < wantProbability[local hour]` (the local hour of
///    week when the persona gives 168 values), the wanted app is
///    drawn from the routine in force that day (after drift) for the local hour of week,
///    with `u3` (`RoutineTable.pick`): proportional to the apps' weights, counting the
///    blocks without a place and those for the person's place at the visit (their
///    context's `place`). An hour without weights gives no want.
/// 3. Otherwise the visit has no want.
/// A persona's `repeat` (`WantRepeat`) may replace step 2's pick by the previous want's
/// app, using `u3` as `WantRepeat` says.
enum WantGenerator {
  /// Routines by day: `tables[i]` applies from local day `fromDays[i]` (0 = start date)
  /// until the next; `fromDays` is ascending and starts at 0.
  struct Routines: Sendable {
    var fromDays: [Int]
    var tables: [RoutineTable]
    /// The places routine blocks name (`Persona.wantPlaces`): place `places[s - 1]` is
    /// slot `s` of every table.
    var places: [String]

    init(persona: Persona, appCount: Int) {
      fromDays = [0]
      places = persona.wantPlaces
      let places = places
      tables = [RoutineTable(persona.routine, appCount: appCount, places: places)]
      for change in persona.drift.enumerated().sorted(by: {
        ($0.element.fromDay, $0.offset) < ($1.element.fromDay, $1.offset)
      }).map(\.element) {
        let table = RoutineTable(change.routine, appCount: appCount, places: places)
        if change.fromDay <= 0 {
          tables[0] = table
        } else if fromDays.last == change.fromDay {
          tables[tables.count - 1] = table
        } else {
          fromDays.append(change.fromDay)
          tables.append(table)
        }
      }
    }

    /// The table for simulation day `day`. - Complexity: O(drift entries).
    func table(onDay day: Int) -> RoutineTable {
      var index = 0
      while index + 1 < fromDays.count && fromDays[index + 1] <= day { index += 1 }
      return tables[index]
    }
  }

  /// Per visit: the wanted app (or -1) and why.
  ///
  /// - Parameters:
  ///   - visits: visit times, ascending.
  ///   - events: every relevant event of the person, sorted by (start, app, end).
  ///   - startDay: the local day index of the simulation's first day.
  ///   - context: the person's context changes, ascending by time (for the place at each
  ///     visit: the last `place` change at or before it); empty for none.
  /// - Complexity: O(visits × (apps + events in progress) + events + context changes).
  static func generate<G: RandomNumberGenerator>(
    visits: [Int64], routines: Routines, wantProbability: [Double], events: [RelevantEvent],
    zone: ZoneRules, startDay: Int64, context: [ContextChange] = [], repeating: WantRepeat = .none,
    using random: inout G
  ) -> (apps: [Int32], sources: [WantSource]) {
    // The previous want (`WantRepeat`): its app and time.
    var lastApp: Int32 = -1
    var lastTime = Int64.min
    let repeatWindow = Int64(repeating.minutes * 60_000)
    var apps = [Int32](repeating: -1, count: visits.count)
    var sources = [WantSource](repeating: .none, count: visits.count)
    var cursor = zone.cursor()
    var nextEvent = 0
    var active: [RelevantEvent] = []
    var tableDay = Int.min
    var table = routines.tables[0]
    var nextChange = 0
    var slot = 0
    for (v, time) in visits.enumerated() {
      if !routines.places.isEmpty {
        while nextChange < context.count && context[nextChange].time <= time {
          let change = context[nextChange]
          if change.signal == .place { slot = (routines.places.firstIndex(of: change.value) ?? -1) + 1 }
          nextChange += 1
        }
      }
      let u1 = random.nextUnit()
      let u2 = random.nextUnit()
      let u3 = random.nextUnit()
      while nextEvent < events.count && events[nextEvent].start <= time {
        active.append(events[nextEvent])
        nextEvent += 1
      }
      if !active.isEmpty { active.removeAll { $0.end <= time } }
      // 1. Events in progress.
      var low = 0.0
      for event in active where event.contains(time) {
        let high = min(1, low + event.wantProbability)
        if u1 >= low && u1 < high {
          apps[v] = event.app
          sources[v] = .event
          break
        }
        low = high
        if low >= 1 { break }
      }
      if sources[v] == .event {
        lastApp = apps[v]
        lastTime = time
        continue
      }
      // 2. The routine.
      let local = cursor.localMilliseconds(at: Instant(milliseconds: time))
      let hour = WallClock.hourOfDay(local)
      // 24 values are per local hour, 168 per local hour of week (docs/scenario-format.md).
      let probability =
        wantProbability.count == 168
        ? wantProbability[WallClock.hourOfWeek(local)] : hour < wantProbability.count ? wantProbability[hour] : 0
      guard u2 < probability else { continue }
      let day = Int(clamping: WallClock.dayIndex(local) &- startDay)
      if day != tableDay {
        table = routines.table(onDay: day)
        tableDay = day
      }
      var u = u3
      if repeating.probability > 0 && lastApp >= 0 && time &- lastTime < repeatWindow {
        if u3 < repeating.probability {
          apps[v] = lastApp
          sources[v] = .routine
          lastTime = time
          continue
        }
        u = (u3 - repeating.probability) / (1 - repeating.probability)
      }
      let app = table.pick(hourOfWeek: WallClock.hourOfWeek(local), u: u, slot: slot)
      if app >= 0 {
        apps[v] = app
        sources[v] = .routine
        lastApp = app
        lastTime = time
      }
    }
    return (apps, sources)
  }
}
