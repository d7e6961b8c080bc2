import SmartStackBase
import SmartStackEngine

/// `smartstack report DIR --metric M --top N`: the N best strategy points per source by
/// one metric, from `summary.csv` (per-unit means with 95% bootstrap CIs), in a compact
/// table.
///
/// Order: by mean, best first (highest, or lowest for the metrics in `lowerIsBetter`);
/// equal means keep the file's order. A row whose mean is empty (undefined) comes last.
public enum TopTable {
  /// Metrics where a smaller value is better: `regret` and the declarations of
  /// `MetricCatalog.standard` marked `lowerIsBetter`.
  public static let lowerIsBetter = [UnitMetric.regretName] + MetricCatalog.standard.lowerIsBetter

  /// The table, with its caption; `top` nil: every strategy point.
  ///
  /// - Throws: `DiagnosticList` for a missing column; `ReportUsageError` for a metric that
  ///   `summary.csv` does not have (naming those it has).
  public static func markdown(
    summary: CSVTable, metric: String, top: Int?, registry: StrategyRegistry
  ) throws -> String {
    let metricColumn = try summary.column("metric")
    let mean = try summary.column("mean")
    let low = try summary.column("ci_low")
    let high = try summary.column("ci_high")
    let n = try summary.column("n")
    let source = try summary.column("source")
    let labels = try ReportTables.labels(summary, registry: registry)
    var known: [String] = []
    for row in summary.rows where !known.contains(row[metricColumn]) { known.append(row[metricColumn]) }
    guard known.contains(metric) else {
      // `hit-rate`, `HitRate`: the metric with the same letters.
      let letters = { (name: String) in name.lowercased().filter { $0.isLetter || $0.isNumber } }
      let near = known.first { letters($0) == letters(metric) }.map { "did you mean '\($0)'? " } ?? ""
      throw ReportUsageError(
        "--metric \(metric): \(summary.file) has no such metric (\(near)it has \(known.joined(separator: ", ")))")
    }
    let lower = lowerIsBetter.contains(metric)
    var sources: [String] = []
    for row in summary.rows where !sources.contains(row[source]) { sources.append(row[source]) }
    var rows: [[String]] = []
    var smallest = Int.max
    for name in sources {
      let candidates = summary.rows.enumerated().filter { $0.element[source] == name && $0.element[metricColumn] == metric }
      let ordered = candidates.sorted { a, b in
        let x = Double(a.element[mean]) ?? .nan
        let y = Double(b.element[mean]) ?? .nan
        if x.isNaN || y.isNaN { return !x.isNaN && y.isNaN || (x.isNaN == y.isNaN && a.offset < b.offset) }
        if x != y { return lower ? x < y : x > y }
        return a.offset < b.offset
      }
      for (rank, entry) in ordered.prefix(top ?? ordered.count).enumerated() {
        let row = entry.element
        let label = labels[entry.offset]
        smallest = min(smallest, Int(row[n]) ?? 0)
        rows.append([name, label, String(rank + 1), ReportTables.interval(row[mean], row[low], row[high]), row[n]])
      }
    }
    var caption =
      "The \(top.map { "\($0) best" } ?? "") strategy points per source by \(metric) (\(lower ? "lower" : "higher") is better): per-unit means (a unit is a person of a log, or a (replicate, person) of a scenario) with 95% bootstrap CIs, from summary.csv. Overlapping CIs do not separate two strategies; paired.csv compares each with the baseline on the same units."
    caption = caption.replacingOccurrences(of: "The  strategy", with: "All strategy")
    if smallest < 10 {
      caption += "\nWarning: n < 10 units for some rows: their CIs are rough."
    }
    return caption + "\n\n"
      + RunTables.markdownTable(header: ["source", "strategy", "rank", "\(metric) (95% CI)", "n"], rows: rows)
  }
}

/// A report option that does not fit the folder (an unknown metric): exit 64.
public struct ReportUsageError: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
