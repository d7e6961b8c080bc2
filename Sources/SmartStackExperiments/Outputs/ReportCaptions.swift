import SmartStackBase
import SmartStackEngine

/// What the printed tables say about themselves: captions (what a row is, how its numbers
/// are averaged, which way is better), the warning for few units, and the compact summary
/// `smartstack batch` and `smartstack report` print by default (one table per metric).
public enum ReportCaptions {
  /// Fewer units than this get a warning: a CI from so few is rough.
  public static let fewUnits = 10

  /// The metrics of the compact summary, with their direction.
  public static let compactMetrics = ["hit_rate", "mrr", "rotations_per_day"]

  /// "higher is better" or "lower is better" for `metric`.
  public static func direction(_ metric: String) -> String {
    TopTable.lowerIsBetter.contains(metric) ? "lower is better" : "higher is better"
  }

  /// Caption of the runs table of `batch`/`report` (means over replicates of `runs.csv`).
  public static let runs =
    "Per source and strategy: the mean over replicates of each run's rates (runs.csv), each rate pooled over the run's visits: every visit weighs the same, so people with more visits weigh more. rotations_per_day and regret (oracle's hit_rate minus this one's): lower is better; the others: higher is better."

  /// Caption of the runs table of `replay`/`simulate` (one row per run).
  public static let singleRuns =
    "Per run (source, strategy, replicate): rates pooled over the run's visits (every visit weighs the same, so people with more visits weigh more; 'smartstack batch' also gives per-person means with CIs). rotations_per_day and regret (oracle's hit_rate minus this one's): lower is better; the others: higher is better."

  /// Caption of the per-unit table.
  public static let summary =
    "Per-unit means with 95% bootstrap CIs (summary.csv): each unit (a person of a log; a (replicate, person) of a scenario) weighs the same, so these differ from the pooled rates above when people have different numbers of visits. rotations_per_day: lower is better; hit_rate, mrr: higher is better."

  /// Caption of the paired table.
  public static func paired(baseline: String) -> String {
    "Paired differences from the baseline \(baseline) (paired.csv): Δ = this strategy's per-unit mean minus \(baseline)'s on the same units, with its 95% paired-bootstrap CI and the Wilcoxon signed-rank p. Δ > 0 means more hits (higher hit_rate, mrr) than \(baseline); a CI that contains 0 does not separate them."
  }

  /// A warning naming the sources with fewer than `fewUnits` units (column `n` of
  /// `table`, first-appearance order), or "" when there are none.
  public static func fewUnitsWarning(_ table: CSVTable) throws -> String {
    let source = try table.column("source")
    let n = try table.column("n")
    // The smallest n > 0 per source (n = 0: a metric undefined for every unit, no CI).
    var few: [(source: String, n: Int)] = []
    for row in table.rows {
      guard let count = Int(row[n]), count > 0, count < fewUnits else { continue }
      if let i = few.firstIndex(where: { $0.source == row[source] }) {
        few[i].n = min(few[i].n, count)
      } else {
        few.append((row[source], count))
      }
    }
    guard !few.isEmpty else { return "" }
    let names = few.map { "\($0.source) (n = \($0.n))" }.joined(separator: ", ")
    return "Warning: fewer than \(fewUnits) units for \(names): confidence intervals and p-values from so few units are rough; add people or replicates.\n"
  }

  /// One table per metric of `compactMetrics`: a row per strategy point, a column per
  /// source, each cell the per-unit mean (summary.csv; CIs with --verbose).
  public static func compact(summary: CSVTable, registry: StrategyRegistry) throws -> String {
    let metricColumn = try summary.column("metric")
    let mean = try summary.column("mean")
    let sourceColumn = try summary.column("source")
    let labels = try ReportTables.labels(summary, registry: registry)
    var sources: [String] = []
    var strategies: [String] = []
    for (row, label) in zip(summary.rows, labels) {
      if !sources.contains(row[sourceColumn]) { sources.append(row[sourceColumn]) }
      if !strategies.contains(label) { strategies.append(label) }
    }
    var text = ""
    for metric in compactMetrics {
      var cells: [String: String] = [:]  // looked up only; order comes from the lists
      for (row, label) in zip(summary.rows, labels) where row[metricColumn] == metric {
        cells[label + "\u{0}" + row[sourceColumn]] = Double(row[mean]).map(NumberFormat.tableCell) ?? "–"
      }
      let rows = strategies.map { strategy in
        [strategy] + sources.map { cells[strategy + "\u{0}" + $0] ?? "–" }
      }
      text += "\(metric) (\(direction(metric))): per-unit means, a row per strategy, a column per source:\n\n"
      text += RunTables.markdownTable(header: ["strategy"] + sources, rows: rows, textColumns: 1) + "\n"
    }
    return text
      + "Per-unit means (each person, or each (replicate, person) of a scenario, weighs the same). Confidence intervals, paired differences and the pooled rates: --verbose, or 'smartstack report DIR --verbose'.\n"
  }
}
