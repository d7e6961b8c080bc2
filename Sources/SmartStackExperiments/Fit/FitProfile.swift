import SmartStackBase

/// Counts of one person, or of a group of people added together, that a fit estimates
/// from (docs/fit.md, "Method").
public struct FitProfile: Sendable, Hashable {
  /// People counted.
  public var people: Int = 0
  /// Visits per local hour of week (0...167, Monday 00h = 0).
  public var visits = [Double](repeating: 0, count: 168)
  /// Donations per local hour of week.
  public var donations = [Double](repeating: 0, count: 168)
  /// Donations per day type (0 weekday, 1 weekend), local hour of day and app:
  /// `appDonations[type][hour][app]`.
  public var appDonations: [[[Double]]]
  /// Visits per local minute of day (0...1439), for the sleep window.
  public var visitMinutes = [Double](repeating: 0, count: 1440)
  /// Pairs of a person's consecutive donations less than `repeatMinutes` apart: the
  /// hours of week of both, as `first * 168 + second`, and how many name the same app.
  public var repeatPairs: [Int] = []
  public var sameAppPairs = 0

  /// The window of `repeat` (docs/fit.md): consecutive donations closer than this.
  public static let repeatMinutes = 30.0

  public init(apps: Int) {
    appDonations = Array(repeating: Array(repeating: Array(repeating: 0, count: apps), count: 24), count: 2)
  }

  /// The counts of person `p` of `observations`.
  public init(person p: Int, of observations: FitObservations) {
    self.init(apps: observations.apps.count)
    people = 1
    for t in observations.visits[p] {
      visits[observations.hourOfWeek(t)] += 1
      visitMinutes[observations.minuteOfDay(t)] += 1
    }
    var previous: (time: Int64, how: Int, app: Int32)? = nil
    for (t, app) in zip(observations.donationTimes[p], observations.donationApps[p]) {
      let how = observations.hourOfWeek(t)
      if let previous, Double(t - previous.time) < Self.repeatMinutes * 60_000 {
        repeatPairs.append(previous.how * 168 + how)
        if previous.app == app { sameAppPairs += 1 }
      }
      previous = (t, how, app)
      donations[how] += 1
      appDonations[how >= 120 ? 1 : 0][how % 24][Int(app)] += 1
    }
  }

  /// Adds `other`'s counts.
  public mutating func add(_ other: FitProfile) {
    people += other.people
    for i in 0..<168 {
      visits[i] += other.visits[i]
      donations[i] += other.donations[i]
    }
    for i in 0..<1440 { visitMinutes[i] += other.visitMinutes[i] }
    repeatPairs += other.repeatPairs
    sameAppPairs += other.sameAppPairs
    for t in 0..<2 {
      for h in 0..<24 {
        for a in appDonations[t][h].indices { appDonations[t][h][a] += other.appDonations[t][h][a] }
      }
    }
  }

  /// Donations per app, all hours.
  public var appTotals: [Double] {
    var totals = [Double](repeating: 0, count: appDonations[0][0].count)
    for t in 0..<2 {
      for h in 0..<24 {
        for a in totals.indices { totals[a] += appDonations[t][h][a] }
      }
    }
    return totals
  }

  /// The clustering feature vector: visits by hour of week divided by their sum, then
  /// donations by app divided by their sum (a part with no events is all zeros).
  public var features: [Double] {
    func normalised(_ xs: [Double]) -> [Double] {
      let sum = xs.reduce(0, +)
      return sum > 0 ? xs.map { $0 / sum } : xs.map { _ in 0 }
    }
    return normalised(visits) + normalised(appTotals)
  }
}
