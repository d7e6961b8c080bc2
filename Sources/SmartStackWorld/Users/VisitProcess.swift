import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A person's Home Screen visits: a non-homogeneous Poisson process in real time whose
/// rate depends on the local hour, with no visits while asleep.
///
/// ## Definition
/// (A rhythm of 168 values, one per local hour of week, works the same way per hour of
/// week, scaled so that an average day of the week has `visitsPerDay` visits.)
/// For local hour `h` (0...23) let `r[h]` be the persona's rhythm weight and `a[h]` the
/// awake fraction of the hour (awake minutes / 60). The visit rate while awake in hour
/// `h` is
///
///     rate[h] = visitsPerDay × r[h] / Σₖ r[k] a[k]      (visits per hour)
///
/// so a local day of 24 hours has `visitsPerDay` visits on average. The rate is 0 while
/// asleep. Local hours come from the scenario's zone rules at each instant, so daylight
/// saving time is exact: the hour skipped in spring has no visits (that day is 23 hours
/// long and has its share fewer visits), the hour repeated in autumn has visits twice.
///
/// ## Sampling (thinning, Lewis & Shedler 1979)
/// With `λ* = maxₕ rate[h]` over hours with any awake minute: candidates are drawn as a
/// homogeneous Poisson process of rate `λ*` (gaps `nextExponential(rate: λ*)` hours, one
/// output each); a candidate at a sleeping minute is rejected without a draw, an awake one
/// is kept when `nextUnit() × λ* < rate[h]` (one output). Times are floored to the
/// millisecond and made strictly increasing (a candidate at or before the previous visit
/// moves 1 ms after it). Generation runs forward in time, so a shorter run's visits are
/// a prefix of a longer run's.
///
/// - Complexity: O(candidates) = O(λ* × duration), a small constant times the visits.
struct VisitProcess: Sendable {
  /// Visits per hour of real time while awake in local hour `h`.
  let ratePerHour: [Double]
  /// With a 168-value rhythm: visits per hour of real time while awake in local hour of
  /// week `w` (Monday 00h = 0); empty for a 24-value rhythm.
  let ratePerHourOfWeek: [Double]
  /// The thinning envelope `λ*` (visits per hour); 0 when there are no visits.
  let maxRate: Double
  let sleep: SleepWindow

  init(persona: Persona) {
    sleep = persona.sleep
    if persona.rhythm.count == 168 {
      // Per hour of week: an average day of the week has `visitsPerDay` visits,
      // rate[w] = visitsPerDay × r[w] / (Σₖ r[k] a[k mod 24] / 7).
      var normaliser = 0.0
      for w in 0..<168 {
        normaliser += persona.rhythm[w] * Double(persona.sleep.awakeMinutes(inHour: w % 24)) / 60
      }
      normaliser /= 7
      var rates = [Double](repeating: 0, count: 168)
      var maximum = 0.0
      if normaliser > 0 && persona.visitsPerDay > 0 {
        for w in 0..<168 {
          rates[w] = persona.visitsPerDay * persona.rhythm[w] / normaliser
          if persona.sleep.awakeMinutes(inHour: w % 24) > 0 { maximum = max(maximum, rates[w]) }
        }
      }
      ratePerHour = []
      ratePerHourOfWeek = rates
      maxRate = maximum
      return
    }
    var normaliser = 0.0
    for hour in 0..<24 {
      normaliser +=
        persona.rhythm(atHour: hour) * Double(persona.sleep.awakeMinutes(inHour: hour)) / 60
    }
    var rates = [Double](repeating: 0, count: 24)
    var maximum = 0.0
    if normaliser > 0 && persona.visitsPerDay > 0 {
      for hour in 0..<24 {
        rates[hour] = persona.visitsPerDay * persona.rhythm(atHour: hour) / normaliser
        if persona.sleep.awakeMinutes(inHour: hour) > 0 { maximum = max(maximum, rates[hour]) }
      }
    }
    ratePerHour = rates
    ratePerHourOfWeek = []
    maxRate = maximum
  }

  /// The expected number of visits in one 24-hour local day (averaged over the days of
  /// the week for a 168-value rhythm).
  var expectedPerDay: Double {
    var sum = 0.0
    if !ratePerHourOfWeek.isEmpty {
      for w in 0..<168 { sum += ratePerHourOfWeek[w] * Double(sleep.awakeMinutes(inHour: w % 24)) / 60 }
      return sum / 7
    }
    for hour in 0..<24 { sum += ratePerHour[hour] * Double(sleep.awakeMinutes(inHour: hour)) / 60 }
    return sum
  }

  /// Visit times (epoch ms, strictly increasing) in `[start, end)`.
  func generate<G: RandomNumberGenerator>(
    zone: ZoneRules, start: Int64, end: Int64, using random: inout G
  ) -> [Int64] {
    guard maxRate > 0, start < end else { return [] }
    var times: [Int64] = []
    let expected = expectedPerDay * Double(end - start) / Double(Instant.millisecondsPerDay)
    times.reserveCapacity(Int(min(expected * 1.1 + 16, 10_000_000)))
    var cursor = zone.cursor()
    var t = Double(start)
    var last = Int64.min
    let msPerHour = Double(Instant.millisecondsPerHour)
    let weekly = !ratePerHourOfWeek.isEmpty
    while true {
      t += random.nextExponential(rate: maxRate) * msPerHour
      guard t < Double(end) else { break }
      var ms = Int64(t)
      let local = cursor.localMilliseconds(at: Instant(milliseconds: ms))
      if sleep.isAsleep(localMilliseconds: local) { continue }
      let rate = weekly ? ratePerHourOfWeek[WallClock.hourOfWeek(local)] : ratePerHour[WallClock.hourOfDay(local)]
      guard random.nextUnit() * maxRate < rate else { continue }
      if ms <= last { ms = last &+ 1 }
      guard ms < end else { break }
      times.append(ms)
      last = ms
    }
    return times
  }
}
