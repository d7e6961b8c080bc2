import SmartStackBase
import SmartStackData
import SmartStackEngine

/// What a person wants at which local hours: blocks of hours with app weights, one list
/// for weekdays (Monday to Friday) and one for weekends (Saturday and Sunday).
///
/// At a visit with a routine want, the wanted app is drawn with probability proportional
/// to its weight among the weights of every block covering the visit's local hour (blocks
/// that overlap add their weights). An hour no block covers has no routine want.
public struct Routine: Sendable, Hashable {
  /// Blocks for Monday to Friday.
  public var weekday: [RoutineBlock]
  /// Blocks for Saturday and Sunday.
  public var weekend: [RoutineBlock]

  public init(weekday: [RoutineBlock] = [], weekend: [RoutineBlock] = []) {
    self.weekday = weekday
    self.weekend = weekend
  }
}

/// Local hours `startHour ..< endHour` of a day and the apps wanted then, with weights.
///
/// `endHour` may be smaller than `startHour` for a block that wraps past midnight
/// (`22-2` covers 22, 23, 0 and 1 of the same day type). Hours are 0...24 and the two
/// bounds differ.
public struct RoutineBlock: Sendable, Hashable {
  public var startHour: Int
  public var endHour: Int
  /// The wanted apps (indices into the scenario's apps) and their weights (>= 0), in
  /// file order.
  public var wants: [AppWeight]
  /// The place the block needs the person to be at (their context's `place`), or nil
  /// for anywhere.
  public var place: String?

  public init(startHour: Int, endHour: Int, wants: [AppWeight], place: String? = nil) {
    self.startHour = startHour
    self.endHour = endHour
    self.wants = wants
    self.place = place
  }

  /// True when local hour `hour` (0...23) is in the block.
  public func covers(hour: Int) -> Bool {
    if startHour < endHour { return hour >= startHour && hour < endHour }
    return hour >= startHour || hour < endHour
  }
}

/// An app (index into the scenario's apps) and a non-negative weight.
public struct AppWeight: Sendable, Hashable {
  public var app: Int32
  public var weight: Double

  public init(app: Int32, weight: Double) {
    self.app = app
    self.weight = weight
  }
}

/// A routine as a dense table: the weight of every app in every local hour of the week
/// and place slot (`(slot * 168 + hourOfWeek) * appCount + app`, Monday 00h = hour 0),
/// for O(apps) draws with no dictionary in the loop.
///
/// Slot 0 holds the blocks without a place, for a person at a place no block names (or
/// without context); slot `s` > 0 adds the blocks for `places[s - 1]` to those. A routine
/// without place blocks has slot 0 only, the table it always had.
struct RoutineTable: Sendable, Hashable {
  let appCount: Int
  /// `weights[(slot * 168 + hourOfWeek) * appCount + app]`.
  let weights: [Double]
  /// The sum of each (slot, hour)'s weights.
  let totals: [Double]

  /// - Complexity: O(slots × 168 × (blocks + apps)).
  init(_ routine: Routine, appCount: Int, places: [String] = []) {
    self.appCount = appCount
    let slots = places.count + 1
    var weights = [Double](repeating: 0, count: slots * 168 * appCount)
    for slot in 0..<slots {
      let place: String? = slot == 0 ? nil : places[slot - 1]
      for weekday in 0..<7 {
        let blocks = weekday < 5 ? routine.weekday : routine.weekend
        for hour in 0..<24 {
          let base = (slot * 168 + weekday * 24 + hour) * appCount
          for block in blocks where block.covers(hour: hour) && (block.place == nil || block.place == place) {
            for want in block.wants where want.app >= 0 && Int(want.app) < appCount && want.weight > 0 {
              weights[base + Int(want.app)] += want.weight
            }
          }
        }
      }
    }
    var totals = [Double](repeating: 0, count: slots * 168)
    for row in 0..<(slots * 168) {
      var sum = 0.0
      for app in 0..<appCount { sum += weights[row * appCount + app] }
      totals[row] = sum
    }
    self.weights = weights
    self.totals = totals
  }

  /// The weight of `app` in local hour of week `hourOfWeek`, at a place no block names.
  @inline(__always)
  func weight(app: Int, hourOfWeek: Int) -> Double {
    weights[hourOfWeek * appCount + app]
  }

  /// The app drawn for a want in hour `hourOfWeek` at place slot `slot` from the uniform
  /// `u` in [0, 1): the
  /// first app (in scenario order) whose running weight sum exceeds `u × total`, or -1
  /// when the hour has no weights. Consumes no randomness itself, so callers can
  /// pre-draw `u` and keep their stream aligned.
  ///
  /// - Complexity: O(apps).
  func pick(hourOfWeek: Int, u: Double, slot: Int = 0) -> Int32 {
    let row = slot * 168 + hourOfWeek
    let total = totals[row]
    guard total > 0 else { return -1 }
    let target = u * total
    var running = 0.0
    var last: Int32 = -1
    let base = row * appCount
    for app in 0..<appCount {
      let w = weights[base + app]
      guard w > 0 else { continue }
      running += w
      last = Int32(app)
      if running > target { return last }
    }
    return last  // rounding left the target at the total
  }
}
