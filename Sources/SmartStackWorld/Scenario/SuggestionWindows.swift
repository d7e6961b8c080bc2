import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A span in which the system shows a suggested widget in the person's stack
/// (reference rules 15-17, Q8): inserted at `start`, removed at `end`.
public struct SuggestionWindow: Sendable, Hashable {
  /// The suggested instance (an index into `SimulatedPerson.instances`, at or after
  /// `stackCount`).
  public var instance: Int32
  /// Start (inclusive) and end (exclusive), epoch ms.
  public var start: Int64
  public var end: Int64

  public init(instance: Int32, start: Int64, end: Int64) {
    self.instance = instance
    self.start = start
    self.end = end
  }
}

/// Works out when a suggested widget is in the stack.
///
/// A suggestion's windows are the union of
/// - its explicit windows (`INDateRelevanceProvider`-like start and end dates);
/// - when `predicted`: every local hour of every simulated day in which the app's
///   weight in the person's routine (after drift) is at least `predictedShare` of the
///   hour's total routine weight, consecutive hours merged. The routine is the ground
///   truth a perfect behavioural model would learn, so the windows do not depend on any
///   strategy's donations. Windows are whole local hours, so at least the 1 hour Q8
///   suggests;
/// - when `afterEventMinutes` is set: `[event start, event start + minutes)` for every
///   relevant event of the app (the WWDC21-10049 purchase example).
/// Overlapping or touching windows merge; windows are cut to the run's range.
enum SuggestionPlanner {
  /// - Complexity: O(days × 24 + windows log windows).
  static func windows(
    _ spec: SuggestionSpec, app: Int, instance: Int32, routines: WantGenerator.Routines,
    events: [RelevantEvent], zone: ZoneRules, startDay: Int64, days: Int, start: Int64, end: Int64
  ) -> [SuggestionWindow] {
    var spans: [(start: Int64, end: Int64)] = spec.windows.map {
      ($0.start.milliseconds, $0.end.milliseconds)
    }
    if spec.predicted {
      let hourMs = Instant.millisecondsPerHour
      for day in 0..<days {
        let table = routines.table(onDay: day)
        guard app < table.appCount else { continue }
        let dayIndex = startDay &+ Int64(day)
        let weekday = WallClock.weekday(dayIndex: dayIndex)
        for hour in 0..<24 {
          let how = weekday * 24 + hour
          let weight = table.weight(app: app, hourOfWeek: how)
          guard weight > 0, weight >= spec.predictedShare * table.totals[how] else { continue }
          let local = dayIndex * Instant.millisecondsPerDay + Int64(hour) * hourMs
          let s = zone.instant(fromLocal: local).milliseconds
          let e = zone.instant(fromLocal: local + hourMs).milliseconds
          if e > s { spans.append((s, e)) }
        }
      }
    }
    if let minutes = spec.afterEventMinutes {
      let length = TimelineGenerator.milliseconds(minutes: minutes)
      for event in events where Int(event.app) == app && length > 0 {
        spans.append((event.start, event.start &+ length))
      }
    }
    spans.sort { ($0.start, $0.end) < ($1.start, $1.end) }
    var merged: [SuggestionWindow] = []
    for span in spans {
      let s = max(span.start, start)
      let e = min(span.end, end)
      guard e > s else { continue }
      if let last = merged.last, s <= last.end {
        merged[merged.count - 1].end = max(last.end, e)
      } else {
        merged.append(SuggestionWindow(instance: instance, start: s, end: e))
      }
    }
    return merged
  }
}
