import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld

/// `fit --report`: a fitted scenario's simulation against the log it was fitted to
/// (docs/fit.md, "The report").
public struct FitReport: Sendable {
  /// One compared statistic.
  public struct Row: Sendable, Hashable {
    /// What is compared, e.g. `visits_per_day` or `hit_rate:mfu`.
    public var statistic: String
    /// `KS`, `TV`, `abs` (absolute difference), `order`, or empty (a simulated value
    /// alone).
    public var distance: String
    /// Sample sizes and summaries (a mean, a share or an order) of the log and the
    /// simulation.
    public var logCount: Int
    public var logSummary: String
    public var simCount: Int
    public var simSummary: String
    /// The distance, its tolerance and whether it is within (nil when not judged).
    public var value: Double?
    public var tolerance: Double?
    public var within: Bool?
  }

  public var rows: [Row] = []
  /// `fit-distributions.csv` (`distributionsCSV(log:simulated:)`).
  public var distributions = ""

  /// The distribution rows: log samples against simulated samples.
  public static func distributionRows(log: FitSamples, simulated sim: FitSamples) -> [Row] {
    func mean(_ xs: [Double]) -> String { xs.isEmpty ? "" : NumberFormat.format(xs.reduce(0, +) / Double(xs.count), decimals: 3) }
    func ks(_ name: String, _ a: [Double], _ b: [Double]) -> Row {
      let d = FitDistances.ks(a, b)
      let t = FitDistances.ksTolerance(a.count, b.count)
      return Row(
        statistic: name, distance: "KS", logCount: a.count, logSummary: mean(a), simCount: b.count,
        simSummary: mean(b), value: d, tolerance: t, within: d <= t)
    }
    func tv(_ name: String, _ a: [Double], _ b: [Double], summary: ([Double]) -> String) -> Row {
      let d = FitDistances.tv(a, b)
      let t = FitDistances.tvTolerance(a, b)
      return Row(
        statistic: name, distance: "TV", logCount: Int(a.reduce(0, +)), logSummary: summary(a),
        simCount: Int(b.reduce(0, +)), simSummary: summary(b), value: d, tolerance: t, within: d <= t)
    }
    // Apps: the union of both logs' signatures, sorted by text.
    var keys = Set(log.appCounts.map(\.app))
    keys.formUnion(sim.appCounts.map(\.app))
    let apps = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    func vector(_ counts: [(app: String, count: Double)]) -> [Double] {
      apps.map { app in counts.first { $0.app == app }?.count ?? 0 }
    }
    // Mean local hour of week of the donations; the largest app share.
    func meanHour(_ xs: [Double]) -> String {
      let n = xs.reduce(0, +)
      guard n > 0 else { return "" }
      var sum = 0.0
      for (i, x) in xs.enumerated() { sum += Double(i) * x }
      return NumberFormat.format(sum / n, decimals: 3)
    }
    func topShare(_ xs: [Double]) -> String {
      let n = xs.reduce(0, +)
      return n > 0 ? NumberFormat.format((xs.max() ?? 0) / n, decimals: 3) : ""
    }
    return [
      ks("visits_per_day", log.visitsPerDay, sim.visitsPerDay),
      tv("donations_by_hour_of_week", log.donationsByHourOfWeek, sim.donationsByHourOfWeek, summary: meanHour),
      tv("app_shares", vector(log.appCounts), vector(sim.appCounts), summary: topShare),
      ks("inter_arrival_seconds", log.interArrivalSeconds, sim.interArrivalSeconds),
      ks("session_seconds", log.sessionSeconds, sim.sessionSeconds),
      tv("same_app_as_previous", [log.sameAppPairs, log.closePairs - log.sameAppPairs],
         [sim.sameAppPairs, sim.closePairs - sim.sameAppPairs], summary: { xs in
           let n = xs.reduce(0, +)
           return n > 0 ? NumberFormat.format(xs[0] / n, decimals: 3) : ""
         }),
    ]
  }

  /// The hit-rate rows: per strategy, the hit rates replayed on the log and on the
  /// simulated logs and their
  /// absolute difference (not judged), then the two orders (best first; ties by name)
  /// and whether they are equal.
  public static func hitRateRows(names: [String], replayed: [Double], simulated: [Double], logVisits: Int, simVisits: Int)
    -> [Row]
  {
    var rows = names.indices.map { i in
      Row(
        statistic: "hit_rate:\(names[i])", distance: "abs", logCount: logVisits,
        logSummary: NumberFormat.format(replayed[i], decimals: 4), simCount: simVisits,
        simSummary: NumberFormat.format(simulated[i], decimals: 4), value: abs(replayed[i] - simulated[i]),
        tolerance: nil, within: nil)
    }
    func order(_ rates: [Double]) -> [String] {
      names.indices.sorted { a, b in
        rates[a] != rates[b] ? rates[a] > rates[b] : names[a].utf8.lexicographicallyPrecedes(names[b].utf8)
      }.map { names[$0] }
    }
    let a = order(replayed)
    let b = order(simulated)
    rows.append(
      Row(
        statistic: "strategy_order", distance: "order", logCount: names.count, logSummary: a.joined(separator: ">"),
        simCount: names.count, simSummary: b.joined(separator: ">"), value: nil, tolerance: nil, within: a == b))
    return rows
  }

  /// `fit-report.csv`: one row per statistic, numbers as `NumberFormat.format` with 4
  /// decimals, empty cells for values not judged.
  public var csv: String {
    var writer = CSVWriter(header: [
      "statistic", "distance", "log_count", "log_summary", "sim_count", "sim_summary", "value", "tolerance", "within",
    ])
    for row in rows {
      writer.appendRow([
        row.statistic, row.distance, "\(row.logCount)", row.logSummary, "\(row.simCount)", row.simSummary,
        row.value.map { NumberFormat.format($0, decimals: 4) } ?? "",
        row.tolerance.map { NumberFormat.format($0, decimals: 4) } ?? "",
        row.within.map { $0 ? "yes" : "no" } ?? "",
      ])
    }
    return writer.text
  }

  /// A Markdown table of the rows, for the terminal.
  public var markdown: String {
    var text = "| statistic | distance | log | simulated | value | tolerance | within |\n|---|---|---|---|---|---|---|\n"
    for row in rows {
      text +=
        "| \(row.statistic) | \(row.distance) | \(row.logSummary) | \(row.simSummary) | "
        + "\(row.value.map { NumberFormat.format($0, decimals: 4) } ?? "") | "
        + "\(row.tolerance.map { NumberFormat.format($0, decimals: 4) } ?? "") | "
        + "\(row.within.map { $0 ? "yes" : "no" } ?? "") |\n"
    }
    return text
  }

  /// True when every distribution row is within its tolerance.
  public var distributionsWithin: Bool { rows.allSatisfy { $0.distance == "order" || ($0.within ?? true) } }
  /// True when the strategies' order by replayed hit rate equals their order by
  /// simulated hit rate.
  public var ordersAgree: Bool { rows.allSatisfy { $0.distance != "order" || $0.within == true } }
}
