import SmartStackBase

/// The samples `fit --report` compares, taken from a log (real or simulated) the same
/// way (docs/fit.md, "What the report compares").
public struct FitSamples: Sendable {
  /// Visits of each person on each local day of the window (zeros included).
  public var visitsPerDay: [Double] = []
  /// Donations per local hour of week (168 counts, Monday 00h first).
  public var donationsByHourOfWeek = [Double](repeating: 0, count: 168)
  /// Donations per app signature (`kind|intent|parameters`), sorted by that text.
  public var appCounts: [(app: String, count: Double)] = []
  /// Seconds between a person's consecutive visits.
  public var interArrivalSeconds: [Double] = []
  /// Seconds from the first to the last visit of each session: a person's visits,
  /// each at most `sessionGapSeconds` after the one before.
  public var sessionSeconds: [Double] = []

  /// A person's consecutive donations less than `FitProfile.repeatMinutes` apart, and
  /// how many of them name the same app.
  public var closePairs = 0.0
  public var sameAppPairs = 0.0

  /// The gap that ends a session.
  public static let sessionGapSeconds = 300.0

  public init() {}

  /// The samples of `observations`.
  public init(_ observations: FitObservations) {
    var counts: [String: Double] = [:]
    for p in observations.people.indices {
      var perDay = [Double](repeating: 0, count: observations.dayCount)
      var previous: Int64? = nil
      var sessionStart: Int64 = 0
      for t in observations.visits[p] {
        let day = WallClock.dayIndex(observations.zone.localMilliseconds(at: Instant(milliseconds: t))) - observations.firstDay
        if day >= 0 && day < Int64(perDay.count) { perDay[Int(day)] += 1 }
        if let previous {
          let gap = Double(t - previous) / 1000
          interArrivalSeconds.append(gap)
          if gap > Self.sessionGapSeconds {
            sessionSeconds.append(Double(previous - sessionStart) / 1000)
            sessionStart = t
          }
        } else {
          sessionStart = t
        }
        previous = t
      }
      if let previous { sessionSeconds.append(Double(previous - sessionStart) / 1000) }
      visitsPerDay += perDay
      var last: (time: Int64, app: Int32)? = nil
      for (t, app) in zip(observations.donationTimes[p], observations.donationApps[p]) {
        donationsByHourOfWeek[observations.hourOfWeek(t)] += 1
        if let last, Double(t - last.time) < FitProfile.repeatMinutes * 60_000 {
          closePairs += 1
          if observations.apps[Int(last.app)].sortKey == observations.apps[Int(app)].sortKey { sameAppPairs += 1 }
        }
        last = (t, app)
        counts[observations.apps[Int(app)].sortKey, default: 0] += 1
      }
    }
    appCounts = counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
  }

  /// Adds `other`'s samples (pooled replicates).
  public mutating func add(_ other: FitSamples) {
    visitsPerDay += other.visitsPerDay
    for i in 0..<168 { donationsByHourOfWeek[i] += other.donationsByHourOfWeek[i] }
    var counts: [String: Double] = [:]
    for (app, count) in appCounts + other.appCounts { counts[app, default: 0] += count }
    appCounts = counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    interArrivalSeconds += other.interArrivalSeconds
    closePairs += other.closePairs
    sameAppPairs += other.sameAppPairs
    sessionSeconds += other.sessionSeconds
  }
}
