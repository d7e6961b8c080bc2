import SmartStackBase
import SmartStackWorld

/// One fitted persona: the estimates for a group of people (docs/fit.md, "Method"),
/// in the units of the scenario format (docs/scenario-format.md, "Persona").
public struct FittedPersona: Sendable, Hashable {
  public var name: String
  /// The log's people it stands for, in log order (its `count` is their number).
  public var members: [String]
  /// Visits per person per local day.
  public var visitsPerDay: Double
  /// The sleep window, minutes after local midnight; equal when no sleep was found.
  public var sleepFrom: Int
  public var sleepTo: Int
  /// Visits per awake hour at each local hour of week (Monday 00h first): the rhythm.
  public var rhythm: [Double]
  /// Chance that a visit at each local hour of week has a want.
  public var wantProbability: [Double]
  /// `routine[type][hour]`: per app (index into the fitted apps) its want weight on
  /// weekdays (type 0) and weekends (type 1) at each local hour.
  public var routine: [[[Double]]]
  /// The chance that a want repeats the previous want's app when it was less than
  /// `FitProfile.repeatMinutes` before (the scenario's `repeat`).
  public var repeatProbability: Double = 0

  /// Smoothing weights (docs/fit.md): pseudo awake hours for the visit rate, pseudo
  /// visits for the want probability, pseudo donations for the app weights.
  public static let rateSmoothingHours = 1.0
  public static let wantSmoothingVisits = 5.0
  public static let appSmoothingDonations = 0.5
  /// The shortest run of minutes without a visit that counts as sleep.
  public static let minimumSleepMinutes = 120

  /// Estimates a persona from `profile`, the counts of `members` over a window with
  /// `daysPerWeekday[w]` local days on weekday `w`.
  public init(name: String, members: [String], profile: FitProfile, daysPerWeekday: [Int]) {
    self.name = name
    self.members = members
    let people = Double(max(1, profile.people))
    let days = Double(daysPerWeekday.reduce(0, +))
    let totalVisits = profile.visits.reduce(0, +)
    visitsPerDay = totalVisits / (people * max(1, days))
    (sleepFrom, sleepTo) = Self.sleepWindow(profile.visitMinutes)
    let window = SleepWindow(fromMinute: sleepFrom, toMinute: sleepTo)
    let awake = (0..<24).map { Double(window.awakeMinutes(inHour: $0)) / 60 }
    // Visit rate per awake hour, shrunk towards the day type's rate at that hour.
    var exposure = [Double](repeating: 0, count: 168)
    for how in 0..<168 { exposure[how] = people * Double(daysPerWeekday[how / 24]) * awake[how % 24] }
    func pooledRate(hour: Int, weekend: Bool?) -> Double {
      var v = 0.0
      var e = 0.0
      for day in 0..<7 where weekend == nil || (day >= 5) == weekend! {
        v += profile.visits[day * 24 + hour]
        e += exposure[day * 24 + hour]
      }
      return e > 0 ? v / e : -1
    }
    rhythm = (0..<168).map { how in
      let hour = how % 24
      guard awake[hour] > 0 else { return 0 }
      var m = pooledRate(hour: hour, weekend: how >= 120)
      if m < 0 { m = max(0, pooledRate(hour: hour, weekend: nil)) }
      let k = Self.rateSmoothingHours
      return Self.rounded((profile.visits[how] + k * m) / (exposure[how] + k), 4)
    }
    if !rhythm.contains(where: { $0 > 0 }) { visitsPerDay = 0 }
    visitsPerDay = Self.rounded(visitsPerDay, 4)
    // Want probability: donations per visit, shrunk towards the overall ratio.
    let totalDonations = profile.donations.reduce(0, +)
    let overall = totalVisits > 0 ? min(1, totalDonations / totalVisits) : 0
    wantProbability = (0..<168).map { how in
      let k = Self.wantSmoothingVisits
      return Self.rounded(min(1, (profile.donations[how] + k * overall) / (profile.visits[how] + k)), 4)
    }
    // App weights: donations per app, plus a share of the overall app mix.
    let totals = profile.appTotals
    let sum = totals.reduce(0, +)
    let share = totals.map { sum > 0 ? $0 / sum : 0 }
    routine = profile.appDonations.map { hours in
      hours.map { counts in
        counts.indices.map { a in Self.rounded(counts[a] + Self.appSmoothingDonations * share[a], 4) }
      }
    }
    repeatProbability = Self.repeatProbability(profile, routine: routine)
  }

  /// `r = (P − q) / (1 − q)`, clamped to 0...1 and rounded to 4 decimals: `P` the share
  /// of close pairs of donations that name the same app, `q` the mean over those pairs
  /// of `Σₐ pₐ(first) pₐ(second)`, the chance of the same app when both are drawn from the
  /// routine at their hours independently (so that `P = r + (1 − r) q`). 0 without pairs.
  static func repeatProbability(_ profile: FitProfile, routine: [[[Double]]]) -> Double {
    guard !profile.repeatPairs.isEmpty else { return 0 }
    func mix(_ how: Int) -> [Double] {
      let weights = routine[how >= 120 ? 1 : 0][how % 24]
      let sum = weights.reduce(0, +)
      return sum > 0 ? weights.map { $0 / sum } : weights
    }
    var q = 0.0
    for pair in profile.repeatPairs {
      let a = mix(pair / 168)
      let b = mix(pair % 168)
      for i in a.indices { q += a[i] * b[i] }
    }
    q /= Double(profile.repeatPairs.count)
    let p = Double(profile.sameAppPairs) / Double(profile.repeatPairs.count)
    guard q < 1 else { return 0 }
    return rounded(min(1, max(0, (p - q) / (1 - q))), 4)
  }

  /// The longest circular run of local minutes without a visit, when it lasts at least
  /// `minimumSleepMinutes`: (its first minute, the minute after it); else (0, 0), no sleep.
  static func sleepWindow(_ minutes: [Double]) -> (Int, Int) {
    guard minutes.contains(where: { $0 > 0 }) else { return (0, 0) }
    var bestStart = 0
    var bestLength = 0
    // Start scanning after a minute with a visit so that runs wrap past midnight once.
    let anchor = minutes.firstIndex { $0 > 0 }!
    var runStart = -1
    for step in 1...1440 {
      let m = (anchor + step) % 1440
      if minutes[m] == 0 {
        if runStart < 0 { runStart = m }
        let length = (m - runStart + 1440) % 1440 + 1
        if length > bestLength {
          bestLength = length
          bestStart = runStart
        }
      } else {
        runStart = -1
      }
    }
    guard bestLength >= minimumSleepMinutes else { return (0, 0) }
    return (bestStart, (bestStart + bestLength) % 1440)
  }

  /// `x` rounded to `decimals` decimal places (ties away from zero).
  static func rounded(_ x: Double, _ decimals: Int) -> Double {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    return (x * scale).rounded() / scale
  }
}
