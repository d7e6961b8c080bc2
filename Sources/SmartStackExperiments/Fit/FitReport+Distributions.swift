import SmartStackBase

extension FitReport {
  /// The probabilities at which `fit-distributions.csv` gives the quantiles of the KS
  /// statistics: 0.01, 0.02, …, 0.99.
  static let quantileLevels = (1...99).map { Double($0) / 100 }

  /// `fit-distributions.csv`, what the notebook draws: per statistic, rows `x, log, sim`.
  /// For `visits_per_day`, `inter_arrival_seconds` and `session_seconds` x is a
  /// probability and the values are the samples' quantiles there (the lower empirical
  /// quantile: the ⌈p·n⌉-th smallest value); for `donations_by_hour_of_week` x is the
  /// local hour of week and for `app_shares` the app (`kind|intent|parameters`), the
  /// values the shares of the donations; for `same_app_as_previous` x is `same` or
  /// `other`, the values the shares of close pairs. Numbers with 6 decimals.
  public static func distributionsCSV(log: FitSamples, simulated sim: FitSamples) -> String {
    var writer = CSVWriter(header: ["statistic", "x", "log", "sim"])
    func number(_ x: Double) -> String { x.isFinite ? NumberFormat.format(x, decimals: 6) : "" }
    func quantiles(_ name: String, _ a: [Double], _ b: [Double]) {
      let x = a.sorted()
      let y = b.sorted()
      func q(_ xs: [Double], _ p: Double) -> Double {
        xs.isEmpty ? .nan : xs[max(0, min(xs.count - 1, Int((p * Double(xs.count)).rounded(.up)) - 1))]
      }
      for p in quantileLevels { writer.appendRow([name, NumberFormat.format(p, decimals: 2), number(q(x, p)), number(q(y, p))]) }
    }
    func shares(_ name: String, _ labels: [String], _ a: [Double], _ b: [Double]) {
      let sa = a.reduce(0, +)
      let sb = b.reduce(0, +)
      for i in labels.indices {
        writer.appendRow([name, labels[i], number(sa > 0 ? a[i] / sa : .nan), number(sb > 0 ? b[i] / sb : .nan)])
      }
    }
    quantiles("visits_per_day", log.visitsPerDay, sim.visitsPerDay)
    shares(
      "donations_by_hour_of_week", (0..<168).map { "\($0)" }, log.donationsByHourOfWeek, sim.donationsByHourOfWeek)
    var keys = Set(log.appCounts.map(\.app))
    keys.formUnion(sim.appCounts.map(\.app))
    let apps = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    func vector(_ counts: [(app: String, count: Double)]) -> [Double] {
      apps.map { app in counts.first { $0.app == app }?.count ?? 0 }
    }
    shares("app_shares", apps, vector(log.appCounts), vector(sim.appCounts))
    quantiles("inter_arrival_seconds", log.interArrivalSeconds, sim.interArrivalSeconds)
    quantiles("session_seconds", log.sessionSeconds, sim.sessionSeconds)
    shares(
      "same_app_as_previous", ["same", "other"], [log.sameAppPairs, log.closePairs - log.sameAppPairs],
      [sim.sameAppPairs, sim.closePairs - sim.sameAppPairs])
    return writer.text
  }
}
