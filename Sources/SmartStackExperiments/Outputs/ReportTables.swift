import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// A small CSV file read whole into strings, with its columns by name (for reports).
public struct CSVTable: Sendable {
  public var file: String
  public var header: [String]
  public var rows: [[String]]

  /// Reads `bytes`; every syntax problem is reported as `FILE:LINE:COLUMN: message`.
  ///
  /// - Throws: `DiagnosticList`.
  public static func read(bytes: [UInt8], file: String) throws -> CSVTable {
    var problems = DiagnosticCollector(file: file)
    var header: [String]? = nil
    var rows: [[String]] = []
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      while !problems.isFull {
        switch csv.next() {
        case .end: return
        case .problem(let p): problems.report(line: p.line, column: p.column, p.message)
        case .record:
          let fields = (0..<csv.fieldCount).map { String(decoding: csv.field($0), as: UTF8.self) }
          if header == nil { header = fields } else { rows.append(fields) }
        }
      }
    }
    if header == nil { problems.report(line: 1, column: 1, "empty file: expected a header row") }
    try problems.throwIfAny()
    return CSVTable(file: file, header: header ?? [], rows: rows)
  }

  /// The index of column `name`.
  ///
  /// - Throws: `DiagnosticList` naming the missing column.
  public func column(_ name: String) throws -> Int {
    guard let i = header.firstIndex(of: name) else {
      throw DiagnosticList([
        Diagnostic(
          file: file, line: 1, column: 1,
          message: "missing column '\(name)' (found: \(header.joined(separator: ", ")))")
      ])
    }
    return i
  }
}

/// The Markdown tables `smartstack batch` prints and `smartstack report` prints again
/// from an output folder.
///
/// Strategies are named by their labels (only non-default parameters), which need the
/// registry the runs were made with (a strategy it does not know keeps its full spelling).
/// 1. From `runs.csv`: per source and strategy (in file order), the mean over replicates
///    of hit_rate, mrr, hit_at_3, coverage, rotations_per_day, relevance_honoured and
///    regret, and any_card_hit_rate where runs.csv has it (a watch), each over the
///    replicates where it is defined (`–` when none is), 3 decimals.
/// 2. From `summary.csv`, when given: per source and strategy, the per-unit means of
///    hit_rate, mrr and rotations_per_day with their 95% bootstrap CIs, and n.
/// 3. From `paired.csv`, when given: the difference in per-unit hit_rate and mrr from the
///    baseline with its CI and the Wilcoxon p-value.
public enum ReportTables {
  /// The `runs.csv` columns of table 1 and their titles.
  public static let runColumns: [(column: String, title: String)] = [
    ("hit_rate", "hit_rate"), ("mrr", "mrr"), ("hit_at_3", "hit_at_3"), ("coverage", "coverage"),
    ("rotations_per_day", "rotations_per_day"), ("relevance_honoured", "relevance_honoured"),
    ("regret", "regret"),
  ]
  /// Columns table 1 adds when `runs.csv` has them: the watch's share of wants on a card on
  /// screen (`any_card_hit_rate`, multi-card experiments only).
  public static let optionalRunColumns: [(column: String, title: String)] = [
    ("any_card_hit_rate", "any_card_hit_rate")
  ]

  /// The tables, each with its caption, separated by blank lines; `registry` labels the
  /// strategies. Unless `verbose`, a folder with `summary.csv` gets the compact summary
  /// (`ReportCaptions.compact`: one table of per-unit means per metric) instead.
  public static func markdown(
    runs: CSVTable, summary: CSVTable?, paired: CSVTable?, registry: StrategyRegistry,
    verbose: Bool = true
  ) throws -> String {
    if !verbose, let summary {
      return try ReportCaptions.compact(summary: summary, registry: registry)
        + ReportCaptions.fewUnitsWarning(summary)
    }
    var text = ReportCaptions.runs + "\n\n" + (try runsTable(runs, registry: registry))
    if let summary {
      text += "\n" + (try summaryTable(summary, registry: registry)) + (try ReportCaptions.fewUnitsWarning(summary))
    }
    if let paired, !paired.rows.isEmpty {
      text += "\n" + (try pairedTable(paired, registry: registry)) + (try ReportCaptions.fewUnitsWarning(paired))
    }
    return text
  }

  /// The strategy's label for people (`StrategyDescriptor.label`: only the parameters
  /// that differ from their defaults) from the `strategy` and `parameters` columns; the
  /// full `name:k=v:…` for a strategy `registry` does not know or whose parameters it
  /// rejects.
  static func label(_ name: String, _ parameters: String, registry: StrategyRegistry) -> String {
    let full =
      parameters.isEmpty
      ? name : name + ":" + parameters.split(separator: ";").joined(separator: ":")
    return (try? registry.parse(full).descriptor.label) ?? full
  }

  /// Each row's strategy point label: its `label` column (summary.csv and paired.csv), or,
  /// in a table without one (runs.csv, a report of an older version), `label(_:_:registry:)`
  /// of its `strategy` and `parameters`.
  static func labels(_ table: CSVTable, registry: StrategyRegistry) throws -> [String] {
    if let column = table.header.firstIndex(of: "label") { return table.rows.map { $0[column] } }
    let strategy = try table.column("strategy")
    let parameters = try table.column("parameters")
    return table.rows.map { label($0[strategy], $0[parameters], registry: registry) }
  }

  /// Groups rows by (source, strategy label) in first-appearance order.
  static func groups(_ table: CSVTable, registry: StrategyRegistry, extra: [Int] = []) throws -> [(
    key: [String], rows: [[String]]
  )] {
    let source = try table.column("source")
    let labels = try labels(table, registry: registry)
    var groups: [(key: [String], rows: [[String]])] = []
    var position: [[String]: Int] = [:]  // looked up only; order comes from `groups`
    for (row, label) in zip(table.rows, labels) {
      let key = [row[source], label] + extra.map { row[$0] }
      if let i = position[key] {
        groups[i].rows.append(row)
      } else {
        position[key] = groups.count
        groups.append((key, [row]))
      }
    }
    return groups
  }

  /// Table 1.
  public static func runsTable(_ runs: CSVTable, registry: StrategyRegistry) throws -> String {
    let shown = runColumns + optionalRunColumns.filter { runs.header.contains($0.column) }
    let columns = try shown.map { try runs.column($0.column) }
    var rows: [[String]] = []
    for group in try groups(runs, registry: registry) {
      var cells = group.key
      for c in columns {
        let values = group.rows.compactMap { Double($0[c]) }
        cells.append(NumberFormat.tableCell(values.isEmpty ? .nan : Bootstrap.mean(values)))
      }
      rows.append(cells)
    }
    return RunTables.markdownTable(
      header: ["source", "strategy"] + shown.map(\.title), rows: rows)
  }

  /// `0.412 [0.380, 0.445]`, or `–`.
  static func interval(_ mean: String, _ low: String, _ high: String) -> String {
    guard let m = Double(mean) else { return "–" }
    let cell = NumberFormat.tableCell
    guard let l = Double(low), let h = Double(high) else { return cell(m) }
    return "\(cell(m)) [\(cell(l)), \(cell(h))]"
  }

  /// Table 2.
  public static func summaryTable(_ summary: CSVTable, registry: StrategyRegistry) throws
    -> String
  {
    let metrics = ["hit_rate", "mrr", "rotations_per_day"]
    let metric = try summary.column("metric")
    let mean = try summary.column("mean")
    let low = try summary.column("ci_low")
    let high = try summary.column("ci_high")
    let n = try summary.column("n")
    var rows: [[String]] = []
    for group in try groups(summary, registry: registry) {
      var cells = group.key
      var count = ""
      for name in metrics {
        if let row = group.rows.first(where: { $0[metric] == name }) {
          cells.append(interval(row[mean], row[low], row[high]))
          if name == "hit_rate" { count = row[n] }
        } else {
          cells.append("–")
        }
      }
      rows.append(cells + [count])
    }
    return ReportCaptions.summary + "\n\n"
      + RunTables.markdownTable(
        header: ["source", "strategy"] + metrics.map { "\($0) (95% CI)" } + ["n"], rows: rows)
  }

  /// Table 3.
  public static func pairedTable(_ paired: CSVTable, registry: StrategyRegistry) throws -> String {
    let metrics = ["hit_rate", "mrr"]
    let metric = try paired.column("metric")
    let difference = try paired.column("mean_difference")
    let low = try paired.column("ci_low")
    let high = try paired.column("ci_high")
    let p = try paired.column("p_value")
    let baselineColumn = try paired.column("baseline")
    var rows: [[String]] = []
    var baseline = ""
    for group in try groups(paired, registry: registry) {
      var cells = group.key
      for name in metrics {
        if let row = group.rows.first(where: { $0[metric] == name }) {
          baseline = row[baselineColumn]
          cells.append(interval(row[difference], row[low], row[high]))
          cells.append(Double(row[p]).map(pText) ?? "–")
        } else {
          cells += ["–", "–"]
        }
      }
      rows.append(cells)
    }
    var header = ["source", "strategy"]
    for name in metrics { header += ["Δ \(name) (95% CI)", "p"] }
    return ReportCaptions.paired(baseline: baseline) + "\n\n"
      + RunTables.markdownTable(header: header, rows: rows)
  }

  /// A p-value with 3 decimals, or `<0.001`.
  static func pText(_ p: Double) -> String {
    p < 0.001 ? "<0.001" : NumberFormat.format(p, decimals: 3)
  }
}
